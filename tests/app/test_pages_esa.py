"""AppTest of the Rate translations page under ESA and DA: marking spans word by word, the slider, the
gentle check, a tutorial's feedback; and the marked text of ``ui/campaigns/esa_marking.py``.

The campaign database is a file under ``tmp_path`` (``BLEU_STUDY_DB``), never the user's data directory.
"""

from __future__ import annotations

from functools import partial

from app_runs import markdown_text as html_of
from app_runs import start_app

from bleu_core.campaigns import (
    CampaignStore,
    JudgeSession,
    MarkedSpan,
    add_quality_control,
    plan_from_study,
)
from bleu_core.campaigns.class_spans import esa_lesson
from bleu_core.campaigns.lesson import lesson_plan
from bleu_core.campaigns.span_editing import words_of
from bleu_core.study.model import Segment, Study
from ui.app import state as K
from ui.campaigns.esa_marking import marked_html

start = partial(start_app, key="test:toy", label=None, open_demo=False, first_run=False, timeout=60)


def toy() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(f"s{i}", doc_id="doc", source=f"source <{i}>") for i in range(4)),
        references={"ref": [f"the reference number {i} is here" for i in range(4)]},
        systems={
            "A": [f"A says <b>{i}</b> to everyone today" for i in range(4)],
            "B": [f"B tells {i} to nobody at all" for i in range(4)],
        },
    )


def create(db, protocol: str, **qc):
    store = CampaignStore.shared(db)
    plan = plan_from_study(
        toy(), systems=["A", "B"], n_segments=3, seed=4, display="source", protocol=protocol
    )
    if qc:
        plan = add_quality_control(plan, **qc)
    return store, store.create_campaign(plan), plan


def join(code: str):
    at = start("rate")
    at.text_input(key=K.RATE_JOIN_CODE).input(code).run()
    at.text_input(key=K.RATE_JOIN_NAME).input("Ana")
    at.radio(key=K.RATE_JOIN_GROUP).set_value("bilingual")
    [b for b in at.button if b.label == "Start rating"][0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def click(at, label: str):
    [b for b in at.button if b.label == label][0].click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_marking_spans_scoring_and_the_tutorials_feedback(db):
    store, created, plan = create(db, "esa", tutorials=1, attention=0)
    code, key = created.campaign.code, created.organiser_key
    at = join(code)
    assert at.subheader[0].value.startswith("Item 1 of")
    assert any("Tutorial item" in i.value for i in at.info)
    (words,) = at.button_group
    text = plan.items[0].translation
    assert words.options[-1] == "[missing]" and len(words.options) == len(text.split()) + 1
    words.set_value([0, 1]).run()
    click(at, "Major error")
    first_two = text[: words_of(text)[1][1]]
    assert f'<mark class="bs-major" aria-label="major error: {first_two}">' in html_of(at)
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(95).run()
    assert any("You marked a major error but scored 95" in i.value for i in at.info)
    click(at, "Make minor")
    assert '<mark class="bs-minor"' in html_of(at)
    at.button_group[0].set_value(["missing"]).run()
    click(at, "Major error")
    assert "[missing]" in html_of(at)
    click(at, "Remove")  # the first mark (the words) goes, [missing] stays
    assert '<mark class="bs-minor"' not in html_of(at)
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(30).run()
    click(at, "Save and next")
    assert at.subheader[0].value.startswith("Item 2 of")
    feedback = [w.value for w in at.warning] + [s.value for s in at.success]
    assert any(v.startswith("Tutorial item") for v in feedback)
    (stored,) = store.spans(code, key)
    assert (stored.position, stored.span) == (0, MarkedSpan(None, None, "major", True))
    assert [r.score for r in store.ratings(code, key)] == [30]


def test_texts_are_escaped_and_a_da_item_has_only_the_slider(db):
    _store, created, plan = create(db, "da")
    at = join(created.campaign.code)
    page = html_of(at)
    first = plan.items[0].translation
    assert first.replace("<", "&lt;").replace(">", "&gt;") in page  # the texts, escaped
    assert not any(f"<b>{i}</b>" in page for i in range(4))
    # the document around the segment: the next segment's source and this system's translation of it
    assert "The document around this segment" in [e.label for e in at.expander]
    assert "source &lt;1&gt;" in page and "A says &lt;b&gt;1&lt;/b&gt;" in page
    assert not at.button_group  # DA: no words to mark
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(64).run()
    assert "no meaning preserved" in " ".join(c.value for c in at.caption)
    click(at, "Save and next")
    assert at.subheader[0].value.startswith("Item 2 of")


# ------------------------------------------------------------------------------------------ rendering
# The marking rules themselves are tested in tests/campaigns/test_span_editing.py.
def test_marks_are_highlighted_and_the_text_is_escaped():
    html = marked_html("<a> <script>", [MarkedSpan(4, 12, "major")])
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'aria-label="major error: &lt;script&gt;"' in html


def careful_and_careless(store, code, plan):
    """Ana finds every damaged phrase (and a minor error in each test item); Bo scores everything 90
    and marks nothing."""
    for name, careful in (("Ana", True), ("Bo", False)):
        token = store.join(code, name, "bilingual").token
        for item in plan.items:
            qc = item.qc or {}
            spans = []
            if careful and item.kind == "attention":
                spans = [MarkedSpan(qc["start"], qc["end"], "major")]
            elif careful and item.kind == "tutorial":
                spans = [MarkedSpan.from_dict(d) for d in qc["expected_spans"]]
            elif careful:
                spans = [MarkedSpan(0, 1, "minor")]
            score = 90 if not careful else (30 if item.kind == "attention" else 80)
            if careful and item.kind == "tutorial":
                low, high = qc["scores"].get("esa", [0, 100])
                score = (low + high) // 2
            store.rate(code, token, item.position, {"esa": score}, spans)


def test_campaigns_page_esa_with_quality_control(db):
    at = start("campaigns", toy(), **{K.SEED: 7, K.N_RESAMPLES: 200})
    at.radio(key=K.CAMP_PROTOCOL).set_value("esa")
    [n for n in at.number_input if n.label.startswith("Number of source segments")][0].set_value(3)
    [n for n in at.number_input if n.label.startswith("Tutorial items")][0].set_value(1)
    [n for n in at.number_input if n.label.startswith("Attention checks")][0].set_value(2)
    click(at, "Create campaign")
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    store = CampaignStore.shared(db)
    campaign = store.check_organiser(code, key)
    assert (campaign.protocol, [c.name for c in campaign.criteria]) == ("esa", ["esa"])
    assert "ESA: error spans + 0-100 score &#40;WMT24+&#41;" in html_of(at)  # the summary (escaped)
    assert campaign.quality_control["tutorials"] == 1 and campaign.quality_control["attention"] == 2
    items = store.items(code, key)
    careful_and_careless(store, code, type("Plan", (), {"items": items}))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    quality = [df.value for df in at.dataframe if "pass rate" in df.value.columns][0]
    assert dict(zip(quality["judge"], quality["status"], strict=True)) == {
        "Ana": "passed",
        "Bo": "left out of the analyses",
    }
    labels = [b.label for b in at.get("download_button")]
    assert "Appraise ESA CSV" in labels and "Ratings as JSONL" in labels
    click(at, "Use these ratings in the analyses")
    new = at.session_state[K.STUDY]
    assert {r.rater for r in new.ratings if r.criterion == "esa"} == {"Ana"}
    assert new.error_spans and all(s.rater == f"Ana ({code})" for s in new.error_spans)
    notice = at.success[0].value.replace("\\", "")  # Markdown-escaped
    assert (
        notice.startswith("6 ratings added")
        and "Left out for failing the quality control: Bo." in notice
    )
    # the organiser keeps Bo: the analyses take Bo back and say so
    at.toggle(key="camp_keep_Bo").set_value(True).run()
    click(at, "Use these ratings in the analyses")
    new = at.session_state[K.STUDY]
    assert {r.rater for r in new.ratings if r.criterion == "esa"} == {"Ana", "Bo"}
    assert "Kept by the organiser although failing: Bo." in at.success[0].value.replace("\\", "")


def test_class_mode_offers_esa(db, ted_four_systems):
    at = start("campaigns", ted_four_systems, key="test:ted-four", **{K.SEED: 7})
    choice = at.radio(key=K.CAMP_CLASS_PROTOCOL)
    assert choice.options == [
        "ESA: error spans + 0-100 score (WMT24+)",
        "Adequacy + fluency (1-5, the BLEU paper)",
        "Contrastive ESA: 2-3 translations side by side, spans + 0-100 (WMT26)",
    ]
    assert choice.value == "adequacy-fluency"  # the paper's lesson stays the default
    choice.set_value("esa").run()
    click(at, "Start a class")
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    campaign = CampaignStore.shared(db).check_organiser(code, key)
    assert (campaign.protocol, campaign.criterion_names) == ("esa", ("esa",))


def test_the_projector_follows_an_esa_lesson(db, ted_four_systems):
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_four_systems.systems)}
    plan = esa_lesson(lesson_plan(ted_four_systems, bleu, seed=2, n_segments=3), ted_four_systems)
    assert plan.metadata["expert_spans"]  # the TED demo's MQM spans of the lesson's items
    created = store.create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    for n, name in enumerate(("ana", "bo")):
        session = JudgeSession.join(store, code, name, "class")
        for pos in range(session.n_items):
            session.submit(pos, {"esa": (37 * pos + 11 * n) % 101}, [MarkedSpan(0, 1, "minor")])
    at = start("projector", query={"lesson": code, "key": key})
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Students joined"] == "2" and metrics["Done"] == "100%"
    assert "BLEU vs esa" in html_of(at)
    # the segment on screen: every student marked its first word
    assert at.selectbox(key=K.PROJ_ESA_ITEM).value == 0
    first = store.items(code, key)[0].translation.split()[0]
    assert f"{first}: " in html_of(at) and "marked by 2 of 2 students" in html_of(at)
    tables = [
        df.value for df in at.dataframe if "marked by the class (this segment)" in df.value.columns
    ]
    assert len(tables) == 1 and tables[0]["marked by the class (this segment)"].sum() >= 1
    assert "Span overlap between students (mean Jaccard per pair): 1.00" in " ".join(
        c.value for c in at.caption
    )
    assert "The class vs the experts' error spans" in html_of(at)
