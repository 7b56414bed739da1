"""AppTest of class mode's lesson choices: it asks what the class reads and shows that (with the question worded
for it), sizes the lesson from the number of students so that r settles, previews the systems with their BLEU
and warns when they cannot show the paper's point, and offers the English demo to a German-output study."""

from __future__ import annotations

from functools import partial

from app_runs import start_app

from bleu_core.campaigns import CampaignStore
from ui.app import state as K

start = partial(start_app, label=None, open_demo=False, first_run=False)


def start_class(at):
    [button] = [b for b in at.button if b.label == "Start a class"]
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at.session_state[K.CAMP_CODE]


def test_a_german_output_study_is_offered_the_english_demo(db, ted_en_de):
    at = start("campaigns", ted_en_de, key="demo:ted-en-de")
    assert any("Does your class read English?" in i.value for i in at.info)
    assert any("no human translation" in w.value for w in at.warning)
    [offer] = [b for b in at.button if b.label == "Use the English demo (zh-en)"]
    offer.click().run()
    assert at.session_state[K.STUDY_KEY] == "demo:ted-zh-en"
    assert not any("Does your class read English?" in i.value for i in at.info)


def test_the_zh_en_demo_shows_the_papers_point(db, ted_zh_en):
    at = start("campaigns", ted_zh_en, key="demo:ted-zh-en")
    preview = " ".join(c.value for c in at.caption)
    assert "(human, " in preview and "spread" in preview
    assert not any("may not show the paper's point" in w.value for w in at.warning)
    code = start_class(at)
    campaign = CampaignStore.shared(db).get_campaign(code)
    assert campaign.display == "reference"  # English readers see the English reference
    assert "reference translation" in campaign.criteria[0].question


def test_a_class_that_reads_both_languages_sees_the_source(db, ted_zh_en):
    at = start("campaigns", ted_zh_en, key="demo:ted-zh-en")
    at.radio(key=K.CLASS_READS).set_value("both").run()
    code = start_class(at)
    campaign = CampaignStore.shared(db).get_campaign(code)
    assert campaign.display == "both"
    assert "source sentence" in campaign.criteria[0].question


def test_the_number_of_students_sizes_the_lesson(db, ted_zh_en):
    at = start("campaigns", ted_zh_en, key="demo:ted-zh-en")
    at.number_input(key=K.CLASS_STUDENTS).set_value(3).run()
    assert at.number_input(key=K.CLASS_SEGMENTS).value == 14
    assert any("Each system gets 42 ratings" in c.value for c in at.caption)
    at.number_input(key=K.CLASS_SEGMENTS).set_value(5).run()
    assert any("Too few: add segments" in c.value for c in at.caption)
