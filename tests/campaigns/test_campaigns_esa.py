"""ESA and DA campaigns: protocols, error spans, quality control, the analyses and the field's formats.

The ``store`` fixture is a SQLite store (``conftest.py``); ``test_campaigns_postgres.py`` runs the tests named
there on PostgreSQL too.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core.campaigns import CampaignError, plan_from_study
from bleu_core.campaigns.exports import campaign_jsonl, esa_csv, read_campaign_jsonl
from bleu_core.campaigns.integration import apply_to_study, study_criterion_name
from bleu_core.campaigns.planning import plan_campaign, with_protocol
from bleu_core.campaigns.protocols import (
    CLASS_PROTOCOLS,
    SLIDER_ANCHORS,
    MarkedSpan,
    protocol_criteria,
    score_span_check,
)
from bleu_core.campaigns.qc_items import add_quality_control, damage
from bleu_core.study.formats.esa import attach_esa, read_esa
from bleu_core.study.model import Segment, Study

MAJOR, MINOR = "major", "minor"
TEXTS = {
    "A": ["the cat sat on the mat", "a dog ran far away today", "birds sing in the morning light"],
    "B": ["cat the sat on mat the", "dog a ran away far today", "birds in sing the light morning"],
}
REFS = ["the cat sat on the mat", "a dog ran far away today", "the birds sing in the morning"]


def toy_study() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(str(i + 1), source=f"src {i}") for i in range(3)),
        references={"ref-A": list(REFS)},
        systems={k: list(v) for k, v in TEXTS.items()},
        source_lang="en",
        target_lang="de",
        metadata={"pair": "en-de"},
    )


def esa_plan(protocol: str = "esa", **qc):
    plan = plan_from_study(
        toy_study(), systems=["A", "B"], n_segments=3, seed=5, display="source", protocol=protocol
    )
    return add_quality_control(plan, **qc) if qc else plan


# ----------------------------------------------------------------------------------------------- protocols
def test_each_protocol_has_its_criteria_and_class_mode_offers_two():
    assert [c.name for c in protocol_criteria("adequacy-fluency")] == ["adequacy", "fluency"]
    (esa,) = protocol_criteria("esa")
    (da,) = protocol_criteria("da")
    assert (esa.low, esa.high, da.low, da.high) == (0, 100, 0, 100)
    # the anchors of the ESA guidelines (Kocmi et al. 2024, Figure 1)
    assert {s: esa.label(s) for s in SLIDER_ANCHORS} == SLIDER_ANCHORS
    assert esa.label(50) == "50"
    assert CLASS_PROTOCOLS == ("esa", "adequacy-fluency", "cesa")
    with pytest.raises(
        CampaignError, match=r"protocol 'mqm' is unknown; use one of adequacy-fluency, esa, da"
    ):
        protocol_criteria("mqm")


def test_an_esa_campaign_keeps_scores_and_spans(store):
    created = store.create_campaign(esa_plan())
    code = created.campaign.code
    assert store.get_campaign(code).protocol == "esa"
    ana = store.join(code, "Ana", "bilingual")
    item = store.item(code, ana.token, 0)
    end = len(item.translation)
    spans = [MarkedSpan(0, 3, MAJOR), MarkedSpan(None, None, MINOR, missing=True)]
    assert store.rate(code, ana.token, 0, {"esa": 40}, spans) == 1
    assert store.my_spans(code, ana.token) == {0: (MarkedSpan(0, 3, MAJOR), spans[1])}
    store.rate(code, ana.token, 0, {"esa": 45})  # no spans given: the stored ones stay
    assert len(store.my_spans(code, ana.token)[0]) == 2
    store.rate(code, ana.token, 0, {"esa": 90}, [MarkedSpan(end - 1, end, MINOR)])
    stored = store.spans(code, created.organiser_key)
    assert [(s.judge, s.position, s.span) for s in stored] == [
        ("Ana", 0, MarkedSpan(end - 1, end, MINOR))
    ]
    store.rate(code, ana.token, 0, {"esa": 100}, [])
    assert store.my_spans(code, ana.token) == {}
    assert [r.score for r in store.ratings(code, created.organiser_key)] == [100]


@pytest.mark.parametrize(
    ("spans", "message"),
    [
        (
            [MarkedSpan(0, 999, MAJOR)],
            r"span 0-999 lies outside the translation, which has \d+ characters",
        ),
        ([MarkedSpan(3, 3, MAJOR)], r"span 3-3 lies outside the translation"),
        (
            [MarkedSpan(0, 5, MAJOR), MarkedSpan(4, 8, MINOR)],
            r"spans 0-5 and 4-8 overlap; remove one",
        ),
        (
            [MarkedSpan(0, 3, "critical")],
            r"span severity 'critical' is unknown; use one of minor, major",
        ),
        ([MarkedSpan("0", 3, MAJOR)], r"span '0'-3: offsets must be whole numbers"),
        ([(0, 3)], r"a span must be a MarkedSpan, got tuple"),
    ],
)
def test_bad_spans_are_refused_with_the_fix(store, spans, message):
    created = store.create_campaign(esa_plan())
    ana = store.join(created.campaign.code, "Ana", "bilingual")
    with pytest.raises(CampaignError, match=message):
        store.rate(created.campaign.code, ana.token, 0, {"esa": 50}, spans)
    assert store.my_ratings(created.campaign.code, ana.token) == {}


def test_a_da_campaign_takes_0_to_100_and_no_spans(store):
    created = store.create_campaign(esa_plan("da"))
    code = created.campaign.code
    ana = store.join(code, "Ana", "bilingual")
    store.rate(code, ana.token, 0, {"da": 0})
    store.rate(code, ana.token, 1, {"da": 100}, [])
    with pytest.raises(CampaignError, match=r"score 101 is outside the scale 0-100"):
        store.rate(code, ana.token, 2, {"da": 101})
    with pytest.raises(CampaignError, match=r"uses protocol 'da', which has no error spans"):
        store.rate(code, ana.token, 2, {"da": 50}, [MarkedSpan(0, 3, MAJOR)])


def test_an_unknown_protocol_is_refused_when_planned():
    plan = plan_campaign(
        name="x", study_name="toy", segment_ids=["1"], translations={"A": ["a b"]},
        sources=None, references=None, systems=["A"], n_segments=1, seed=0,
    )  # fmt: skip
    with pytest.raises(CampaignError, match=r"protocol 'ESA' is unknown"):
        with_protocol(plan, "ESA")


@pytest.mark.parametrize(
    ("score", "spans", "asks"),
    [(95, [MarkedSpan(0, 3, MAJOR)], True), (60, [MarkedSpan(0, 3, MAJOR)], False),
     (10, [], True), (10, [MarkedSpan(0, 3, MINOR)], False), (90, [], False)],
)  # fmt: skip
def test_the_gentle_check_asks_only_when_score_and_spans_disagree(score, spans, asks):
    assert (score_span_check(score, spans) is not None) is asks


# ------------------------------------------------------------------------------------------ quality control
@given(
    st.lists(st.sampled_from(["a", "bb", "ccc", "déjà", "x-y"]), min_size=1, max_size=30),
    st.lists(st.sampled_from(["P", "QQ", "rrr"]), min_size=1, max_size=12),
    st.integers(0, 10_000),
)
def test_damage_swaps_in_a_phrase_of_the_donor_and_says_where(words, donor_words, seed):
    text, donor = " ".join(words), " ".join(donor_words)
    hit = damage(text, donor, random.Random(seed))
    if hit is None:  # only when the swap would change nothing
        return
    assert hit.text[hit.start : hit.end] == hit.phrase and hit.phrase in donor
    assert hit.text[: hit.start] == text[: hit.start]
    assert 1 <= len(hit.phrase.split()) <= 4


def test_quality_control_items_are_laid_out_as_planned():
    plain = esa_plan()
    plan = add_quality_control(plain, tutorials=2, attention=2)
    assert plan == add_quality_control(plain, tutorials=2, attention=2)  # seeded
    kinds = [it.kind for it in plan.items]
    assert kinds[:2] == ["tutorial", "tutorial"] and Counter(kinds) == {
        "test": 6,
        "tutorial": 2,
        "attention": 2,
    }
    assert [it.position for it in plan.items] == list(range(10))
    for item in plan.items:
        if item.kind == "attention":
            original = plan.items[item.qc["original"]]
            assert (original.kind, original.segment_id, original.system) == (
                "test",
                item.segment_id,
                item.system,
            )
            assert item.position - original.position >= 2
            assert item.translation[item.qc["start"] : item.qc["end"]] == item.qc["phrase"]
            assert item.translation != original.translation
    assert plan.quality_control == {
        "tutorials": 2,
        "attention": 2,
        "pass_rate": pytest.approx(2 / 3),
    }
    with pytest.raises(CampaignError, match=r"has quality-control items already; add them once"):
        add_quality_control(plan)
    with pytest.raises(
        CampaignError, match=r"attention checks: give a whole number from 0 to 20, not -1"
    ):
        add_quality_control(plain, attention=-1)


def answer(store, code, token, plan, *, careful: bool):
    """Rate every item: a careful judge marks what was swapped in and scores damaged copies low."""
    for item in plan.items:
        qc = item.qc or {}
        if item.kind == "attention" and careful:
            store.rate(
                code, token, item.position, {"esa": 20}, [MarkedSpan(qc["start"], qc["end"], MAJOR)]
            )
        elif item.kind == "tutorial" and careful:
            spans = [MarkedSpan.from_dict(d) for d in qc["expected_spans"]]
            low, high = qc["scores"].get("esa", [0, 100])
            store.rate(code, token, item.position, {"esa": (low + high) // 2}, spans)
        else:
            store.rate(code, token, item.position, {"esa": 90}, [])


def test_judges_are_checked_and_failing_ones_left_out_unless_kept(store):
    plan = esa_plan(tutorials=2, attention=2)
    created = store.create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    careful, careless = store.join(code, "Ana", "bilingual"), store.join(code, "Bo", "bilingual")
    # judges see a tutorial as a tutorial, an attention check as any other item, no expected answer
    first = store.item(code, careful.token, 0)
    assert (first.kind, first.qc) == ("tutorial", None)
    check = next(it for it in plan.items if it.kind == "attention")
    assert store.item(code, careful.token, check.position).kind == "test"
    answer(store, code, careful.token, plan, careful=True)
    answer(store, code, careless.token, plan, careful=False)
    assert store.check_feedback(code, careful.token, 0).passed is True
    missed = store.check_feedback(code, careless.token, 1)
    assert missed.passed is False and missed.missed and missed.explanation
    assert store.check_feedback(code, careless.token, check.position) is None  # stays hidden
    report = {q.judge: q for q in store.quality(code, key)}
    assert (report["Ana"].n_answered, report["Ana"].n_passed, report["Ana"].failed) == (4, 4, False)
    assert report["Bo"].failed and report["Bo"].excluded and report["Bo"].pass_rate < 2 / 3
    # the analyses leave Bo out and say so; kept, Bo is back in and the analyses say that instead
    study = toy_study()
    left_out = [q.judge for q in report.values() if q.excluded]
    new = apply_to_study(study, created.campaign, store.ratings(code, key), left_out=left_out)
    name = study_criterion_name(created.campaign, "esa", study)  # plain "esa"
    assert {r.rater for r in new.ratings if r.criterion == name} == {"Ana"}
    assert "Left out for failing the quality control: Bo." in new.criteria[name].description
    assert len([r for r in new.ratings if r.criterion == name]) == 6  # test items only
    store.keep_judge(code, key, "Bo")
    assert not {q.judge: q for q in store.quality(code, key)}["Bo"].excluded
    with pytest.raises(CampaignError, match=r"has no judge called 'Cy'"):
        store.keep_judge(code, key, "Cy")


def test_an_attention_check_is_pending_until_both_copies_are_rated(store):
    plan = esa_plan(tutorials=0, attention=1)
    created = store.create_campaign(plan)
    code = created.campaign.code
    ana = store.join(code, "Ana", "bilingual")
    check = next(it for it in plan.items if it.kind == "attention")
    store.rate(code, ana.token, check.position, {"esa": 50}, [])
    (quality,) = store.quality(code, created.organiser_key)
    assert (quality.n_answered, quality.n_pending, quality.pass_rate) == (0, 1, None)
    store.rate(code, ana.token, check.qc["original"], {"esa": 80}, [])
    (quality,) = store.quality(code, created.organiser_key)
    assert (quality.n_answered, quality.n_passed) == (1, 1)  # 50 is clearly below 80


# ------------------------------------------------------------------------------- the study and the formats
def rated_esa_campaign(store):
    plan = esa_plan(tutorials=1, attention=1)
    created = store.create_campaign(plan)
    code = created.campaign.code
    for n, name in enumerate(["Ana", "Bo, Jr.", "Zoë"]):
        judge = store.join(code, name, "bilingual")
        for item in plan.items:
            words = [i for i, ch in enumerate(item.translation) if ch == " "]
            spans = (
                [MarkedSpan(0, words[0], MAJOR if n else MINOR)] if (item.position + n) % 2 else []
            )
            if (item.position + n) % 3 == 0:
                spans.append(MarkedSpan(None, None, MINOR, missing=True))
            store.rate(
                code,
                judge.token,
                item.position,
                {"esa": (17 * item.position + 31 * n) % 101},
                spans,
            )
    return created, plan


def test_an_esa_campaign_joins_the_study_with_its_spans(store):
    created, _plan = rated_esa_campaign(store)
    code, key = created.campaign.code, created.organiser_key
    study = toy_study()
    new = apply_to_study(
        study, created.campaign, store.ratings(code, key), spans=store.spans(code, key)
    )
    assert study_criterion_name(created.campaign, "esa", study) in new.criteria
    test_spans = [s for s in store.spans(code, key) if s.kind == "test"]
    assert len(new.error_spans) == len(test_spans) > 0
    assert {s.rater for s in new.error_spans} <= {
        f"{j} ({code})" for j in ("Ana", "Bo, Jr.", "Zoë")
    }
    omissions = [s for s in new.error_spans if s.category == "Omission"]
    assert omissions and all(
        s.start == s.end == len(new.systems[s.system][int(s.segment_id) - 1]) for s in omissions
    )
    again = apply_to_study(
        new, created.campaign, store.ratings(code, key), spans=store.spans(code, key)
    )
    assert len(again.error_spans) == len(new.error_spans)  # replaced, not added twice


def test_the_appraise_csv_round_trips_through_the_wmt24_reader(store):
    created, _plan = rated_esa_campaign(store)
    code, key = created.campaign.code, created.organiser_key
    study = toy_study()
    items, ratings, spans = store.items(code, key), store.ratings(code, key), store.spans(code, key)
    text = esa_csv(items, ratings, spans, segment_ids=study.segment_ids, pair="en-de")
    loaded = attach_esa(study, text, "campaign.csv")
    got = read_esa(
        text,
        "campaign.csv",
        pair="en-de",
        segment_ids=study.segment_ids,
        texts=study.systems,
        line_offset=0,
    )
    assert got.left_out == {"tutorial": 3, "BAD": 3}  # 3 judges x (1 tutorial, 1 attention check)
    expected_scores = sorted(
        (r.judge, r.system, r.segment_id, float(r.score)) for r in ratings if r.kind == "test"
    )
    got_scores = sorted(
        (r.rater, r.system, r.segment_id, r.score)
        for r in loaded.study.ratings
        if r.criterion == "esa"
    )
    assert got_scores == expected_scores
    texts = study.systems
    expected_spans = sorted(
        (s.judge, s.system, s.segment_id, s.span.severity.capitalize(),
         texts[s.system][int(s.segment_id) - 1][s.span.start : s.span.end] if not s.span.missing else "[missing]")
        for s in spans if s.kind == "test"
    )  # fmt: skip
    got_spans = sorted(
        (s.rater, s.system, s.segment_id, s.severity,
         "[missing]" if s.category == "Omission" else texts[s.system][int(s.segment_id) - 1][s.start : s.end])
        for s in loaded.study.error_spans
    )  # fmt: skip
    assert got_spans == expected_spans and len(got_spans) > 5


def test_the_jsonl_export_reads_back(store):
    created, plan = rated_esa_campaign(store)
    code, key = created.campaign.code, created.organiser_key
    text = campaign_jsonl(store.items(code, key), store.ratings(code, key), store.spans(code, key))
    records = read_campaign_jsonl(text)
    assert len(records) == 3 * len(plan.items)
    mine = {(r["user_id"], r["item_i"]): r for r in records}
    for stored in store.spans(code, key):
        assert stored.span in mine[(stored.judge, stored.position)]["error_spans"]
    assert {r["kind"] for r in records} == {"test", "tutorial", "attention"}
    with pytest.raises(CampaignError, match=r"x.jsonl, line 2: not valid JSON"):
        read_campaign_jsonl(text.splitlines()[0] + "\n{oops\n", "x.jsonl")


def test_the_csv_export_refuses_another_study(store):
    created, _plan = rated_esa_campaign(store)
    code, key = created.campaign.code, created.organiser_key
    with pytest.raises(CampaignError, match=r"segment '\d' of item \d+ is not in the study"):
        esa_csv(
            store.items(code, key), store.ratings(code, key), [], segment_ids=["x"], pair="en-de"
        )
    with pytest.raises(CampaignError, match=r"language pair 'ende' is not of the form xx-yy"):
        esa_csv([], [], [], segment_ids=[], pair="ende")


def test_deleting_a_campaign_deletes_its_spans(store):
    created, _plan = rated_esa_campaign(store)
    code, key = created.campaign.code, created.organiser_key
    assert store.spans(code, key)
    store.delete_campaign(code, key)
    other = store.create_campaign(esa_plan())
    assert store.spans(other.campaign.code, other.organiser_key) == []
