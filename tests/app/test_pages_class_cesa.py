"""AppTest of contrastive ESA in class (WMT26's cESA): class mode makes the lesson (2-3 systems, sentence BLEU
carried along), the Rate page stacks a sentence's translations under its source and refuses a Save without
scores or below 85 without a span, and the projector shows the class's pairwise preferences against BLEU."""

from __future__ import annotations

from functools import partial

import pytest
import sacrebleu
from app_runs import markdown_text as html_of
from app_runs import start_app

from bleu_core.campaigns import CampaignStore, JudgeSession, MarkedSpan
from bleu_core.campaigns.contrastive import contrastive_plan, sentence_bleu_of, submit_screen
from bleu_core.campaigns.lesson import lesson_plan
from bleu_core.campaigns.pairwise_preference import preferred
from ui.app import state as K

start = partial(start_app, label=None, open_demo=False, first_run=False, timeout=90)
MAJOR = MarkedSpan(0, 1, "major")


def click(at, label: str):
    [b for b in at.button if b.label == label][0].click().run()
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture
def cesa_lesson(db, ted_four_systems):
    """A contrastive lesson of 3 systems × 3 segments; made-up sentence BLEU 10, 20, 30 by system."""
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_four_systems.systems)}
    plan = lesson_plan(ted_four_systems, bleu, seed=2, n_systems=3, n_segments=3, reads="both")
    rank = {s: k for k, s in enumerate(plan.systems)}
    sentence = {(it.segment_id, it.system): 10.0 * (1 + rank[it.system]) for it in plan.items}
    created = store.create_campaign(contrastive_plan(plan, sentence))
    return store, created.campaign.code, created.organiser_key


def test_class_mode_makes_a_contrastive_lesson_with_sentence_bleu(db, ted_four_systems):
    at = start("campaigns", ted_four_systems, key="test:ted-four", **{K.SEED: 7})
    at.number_input(key=K.CLASS_SYSTEMS).set_value(4)
    at.radio(key=K.CAMP_CLASS_PROTOCOL).set_value("cesa").run()
    click(at, "Start a class")
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    store = CampaignStore.shared(db)
    campaign = store.check_organiser(code, key)
    assert campaign.protocol == "cesa" and len(campaign.systems) == 3  # 4 asked: a phone shows 3
    items = store.items(code, key)
    bleu = sentence_bleu_of(campaign.metadata)
    assert set(bleu) == {(it.segment_id, it.system) for it in items}
    # the same number as sacrebleu's sentence_bleu (the app's segment BLEU: effective order, exp smoothing)
    signature = campaign.metadata["sentence_bleu_signature"]
    assert "eff:yes" in signature and "smooth:exp" in signature
    tok = next(f[4:] for f in signature.split("|") if f.startswith("tok:"))
    item = items[0]
    segment = ted_four_systems.segment_ids.index(item.segment_id)
    reference = next(iter(ted_four_systems.references.values()))[segment]
    expected = sacrebleu.sentence_bleu(item.translation, [reference], tokenize=tok).score
    assert bleu[item.segment_id, item.system] == pytest.approx(expected)


def warning(at) -> str:
    return at.warning[0].value.replace("\\", "")  # the message is markdown-escaped


def join(code: str):
    at = start("rate", key="test:none")
    at.text_input(key=K.RATE_JOIN_CODE).input(code).run()
    at.text_input(key=K.RATE_JOIN_NAME).input("Ana")
    [b for b in at.button if b.label == "Start rating"][0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_phone_stacks_the_translations_and_refuses_an_incomplete_save(cesa_lesson):
    store, code, key = cesa_lesson
    at = join(code)
    items = store.items(code, key)
    assert at.subheader[0].value == "Sentence 1 of 3"
    text = html_of(at)
    assert text.index("Source") < text.index("Reference translation") < text.index("Translation A")
    assert text.index("Translation A") < text.index("Translation B") < text.index("Translation C")
    sliders = [at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}{p}") for p in range(3)]
    assert [s.value for s in sliders] == ["?", "?", "?"]  # no score until the student gives one
    click(at, "Save and next")
    assert "Translation A has no score yet" in warning(at)
    for p, score in enumerate((90, 70, 100)):
        at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}{p}").set_value(score)
    at.run()
    click(at, "Save and next")
    assert "Translation B: you scored 70 but marked no error" in warning(at)
    assert store.ratings(code, key) == []  # a refused screen stores nothing
    # mark the first word of B as a major error, then save: the whole screen is stored
    at.get("button_group")[1].set_value([0]).run()
    [major] = [b for b in at.button if b.key == "rate_mark_major_1"]
    major.click().run()
    click(at, "Save and next")
    rows = {(r.position, r.score) for r in store.ratings(code, key)}
    assert rows == {(0, 90), (1, 70), (2, 100)}
    assert {(s.position, s.span.severity) for s in store.spans(code, key)} == {(1, "major")}
    assert at.subheader[0].value == "Sentence 2 of 3"
    assert {it.segment_id for it in items[:3]} == {items[0].segment_id}
    [back] = [b for b in at.button if b.key == "rate_cesa_back_3"]
    back.click().run()  # Back: the saved screen again, its scores on the sliders
    assert at.subheader[0].value == "Sentence 1 of 3"
    assert [at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}{p}").value for p in range(3)] == [
        90,
        70,
        100,
    ]


def test_the_projector_shows_the_class_against_bleus_order(cesa_lesson):
    store, code, key = cesa_lesson
    campaign = store.get_campaign(code)
    bleu = sentence_bleu_of(campaign.metadata)
    items = store.items(code, key)
    # ana scores as sentence BLEU orders (agrees on every pair BLEU does not tie); bo the reverse
    for name, sign in (("ana", 1), ("bo", -1)):
        session = JudgeSession.join(store, code, name, "class")
        for first in range(0, len(items), 3):
            answers = {}
            for it in items[first : first + 3]:
                b = bleu[it.segment_id, it.system]
                answers[it.position] = (int(50 + sign * b), [MAJOR])
            submit_screen(session, answers)
    at = start("projector", key="test:none", query={"lesson": code, "key": key})
    assert not at.exception
    text = html_of(at)
    assert "Which translation did the class prefer?" in "\n".join(s.value for s in at.subheader)
    # hand count: each sentence has BLEU 10, 20, 30 on its three systems, so every pair differs;
    # ana agrees on all 3 pairs × 3 sentences, bo disagrees on all: 9 of 18 = 50 %
    assert 'class="bs-proj-r">50%</div>' in text and "of 18 paired judgments" in text
    [pairs] = [d.value for d in at.dataframe if "agree with sentence BLEU" in d.value.columns]
    assert list(pairs["paired judgments"]) == [6, 6, 6]
    segment = at.selectbox(key=K.PROJ_CESA_SEGMENT).value
    [one] = [d.value for d in at.dataframe if "BLEU prefers" in d.value.columns]
    for row in one.to_dict("records"):
        assert row["students: first / tie / second"] in ("1 / 0 / 1",)
        a, b = row["pair"].split(" vs ")
        assert row["BLEU prefers"] == preferred(a, b, bleu[segment, a], bleu[segment, b])
