"""From a study to a campaign and back: campaign ratings become study criteria; CSV export."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from bleu_core.campaigns import (
    CampaignError,
    apply_to_study,
    plan_from_study,
    ratings_digest,
    ratings_to_csv,
    spreadsheet_safe,
    study_criterion_name,
)
from bleu_core.campaigns.integration import CSV_COLUMNS, FORMULA_TRIGGERS
from bleu_core.study.model import Criterion, Rating, Segment, Study


def study_with_a_human_system() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(f"s{i}", source=f"src {i}") for i in range(6)),
        references={
            "ref": [f"ref {i}" for i in range(6)],
            "ref2": [f"other {i}" for i in range(6)],
        },
        systems={
            "A": [f"a {i}" for i in range(6)],
            "B": [f"b {i}" for i in range(6)],
            "H": [f"h {i}" for i in range(6)],
        },
        human_systems=frozenset({"H"}),
        criteria={"mqm": Criterion("mqm", scale=None)},
        ratings=(Rating("A", "s0", "expert", None, "mqm", -1.0),),
    )


def test_plan_from_study_uses_the_chosen_reference_stream():
    study = study_with_a_human_system()
    plan = plan_from_study(
        study, systems=["A", "H"], n_segments=3, seed=2, display="both", reference_stream="ref2"
    )
    assert plan.study_name == "toy" and plan.reference_stream == "ref2"
    assert len(plan.items) == 6 and {it.system for it in plan.items} == {"A", "H"}
    for it in plan.items:
        i = study.segment_index(it.segment_id)
        assert it.reference == f"other {i}" and it.source == f"src {i}"
        assert it.translation == study.systems[it.system][i]
    with pytest.raises(
        CampaignError,
        match=r"reference stream 'nope' is not in the study; choose one of 'ref', 'ref2'",
    ):
        plan_from_study(study, systems=["A"], n_segments=1, seed=0, reference_stream="nope")


def rate_everything(store, created, judges):
    code = created.campaign.code
    for name, group, offset in judges:
        tok = store.join(code, name, group).token
        for pos in range(created.campaign.n_items):
            store.rate(
                code,
                tok,
                pos,
                {"adequacy": 1 + (pos + offset) % 5, "fluency": 1 + (pos * 2 + offset) % 5},
            )
    return store.ratings(code, created.organiser_key)


def test_campaign_ratings_become_study_criteria(store):
    study = study_with_a_human_system()
    created = store.create_campaign(
        plan_from_study(study, systems=["A", "B"], n_segments=4, seed=1)
    )
    ratings = rate_everything(store, created, [("ana", "monolingual", 0), ("bo", "bilingual", 1)])
    new = apply_to_study(study, created.campaign, ratings)
    name = study_criterion_name(created.campaign, "adequacy")
    assert name == f"adequacy ({created.campaign.code})"
    assert set(new.criteria) == {"mqm", name, f"fluency ({created.campaign.code})"}
    assert new.criteria[name].scale == (1.0, 5.0) and new.criteria[name].higher_is_better
    assert (
        "very bad" in new.criteria[name].description
        and "very good" in new.criteria[name].description
    )
    # the study's own ratings are kept; the new rows carry judge and group
    assert Rating("A", "s0", "expert", None, "mqm", -1.0) in new.ratings
    mine = [r for r in new.ratings if r.criterion == name]
    assert len(mine) == 2 * created.campaign.n_items
    assert {(r.rater, r.group) for r in mine} == {("ana", "monolingual"), ("bo", "bilingual")}
    # segment scores are the mean over the two judges, computed by hand from the stored ratings
    scores = new.segment_scores(name)
    for r in ratings:
        if r.criterion != "adequacy":
            continue
        both = [x.score for x in ratings if x.criterion == "adequacy" and x.position == r.position]
        i, j = list(new.systems).index(r.system), new.segment_index(r.segment_id)
        assert scores[i, j] == pytest.approx(np.mean(both))
    assert np.isnan(scores[list(new.systems).index("H")]).all()  # H was not in the campaign
    # applying again (after more ratings) replaces, never duplicates
    again = apply_to_study(new, created.campaign, ratings)
    assert len([r for r in again.ratings if r.criterion == name]) == len(mine)
    assert len(again.ratings) == len(new.ratings)


def test_applying_to_the_wrong_study_names_the_fix(store):
    study = study_with_a_human_system()
    created = store.create_campaign(
        plan_from_study(study, systems=["A", "B"], n_segments=2, seed=1)
    )
    other = Study(
        name="other", segments=(Segment("x"),), references={"ref": ["r"]}, systems={"A": ["a"]}
    )
    with pytest.raises(
        CampaignError,
        match=r"was made from study 'toy'; the open study 'other' lacks system\(s\) 'B' and segment\(s\)",
    ):
        apply_to_study(other, created.campaign, [])


def test_csv_export_round_trips_verbatim_without_the_formula_guard(store):
    study = study_with_a_human_system()
    created = store.create_campaign(plan_from_study(study, systems=["A"], n_segments=2, seed=1))
    hostile = '=HYPERLINK("http://x"), "quoted", <b>bold</b>'
    ratings = rate_everything(
        store, created, [(hostile, "bilingual", 0), ("ana", "monolingual", 2)]
    )
    text = ratings_to_csv(ratings, guard_formulas=False)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == len(ratings) == 2 * 2 * 2
    for row, r in zip(rows, ratings, strict=True):
        assert row["judge"] == r.judge and row["criterion"] == r.criterion
        assert int(row["score"]) == r.score and int(row["position"]) == r.position
        assert row["segment_id"] == r.segment_id and row["system"] == r.system
        assert row["created_at"].endswith("+00:00")
    assert {row["judge"] for row in rows} == {hostile, "ana"}


def test_csv_export_defuses_spreadsheet_formulas(store):
    """A judge (or a study's system / segment names) must not be able to plant a formula in the organiser's
    spreadsheet: the default export prefixes such cells with an apostrophe (OWASP "CSV Injection")."""
    study = Study(
        name="toy",
        segments=(Segment("-1"), Segment("s2")),
        references={"ref": ["r1", "r2"]},
        systems={"+cmd|' /C calc'!A0": ["a1", "a2"]},
    )
    created = store.create_campaign(
        plan_from_study(study, systems=list(study.systems), n_segments=2, seed=1)
    )
    judges = ['=HYPERLINK("http://x","click")', "@SUM(1+1)", "-2+3", "\tTab", "ana"]
    ratings = rate_everything(store, created, [(j, "bilingual", 0) for j in judges])
    rows = list(csv.DictReader(io.StringIO(ratings_to_csv(ratings))))
    assert len(rows) == len(ratings) == 5 * 2 * 2
    assert {row["judge"] for row in rows} == {
        '\'=HYPERLINK("http://x","click")',
        "'@SUM(1+1)",
        "'-2+3",
        "ana",
        "Tab",  # names are stored stripped: the tab never reaches the file
    }
    assert {row["system"] for row in rows} == {"'+cmd|' /C calc'!A0"}
    assert {row["segment_id"] for row in rows} == {"'-1", "s2"}
    assert {row["group"] for row in rows} == {"bilingual"} and {
        row["score"] for row in rows
    } <= set("12345")
    for row in rows:  # no cell starts a formula any more
        assert not any(str(v).startswith(FORMULA_TRIGGERS) for v in row.values())


@pytest.mark.parametrize("trigger", ["=", "+", "-", "@", "\t", "\r"])
def test_spreadsheet_safe_prefixes_every_trigger_and_nothing_else(trigger):
    assert spreadsheet_safe(f"{trigger}1+1") == f"'{trigger}1+1"
    assert spreadsheet_safe(f"a{trigger}b") == f"a{trigger}b"  # only the first character matters
    assert spreadsheet_safe("") == "" and spreadsheet_safe("'=x") == "'=x"


def test_ratings_digest_follows_the_ratings(store):
    created = store.create_campaign(
        plan_from_study(study_with_a_human_system(), systems=["A"], n_segments=2, seed=1)
    )
    code, key = created.campaign.code, created.organiser_key
    assert ratings_digest([]) == ratings_digest(store.ratings(code, key))
    tok = store.join(code, "ana", "bilingual").token
    store.rate(code, tok, 0, {"adequacy": 3, "fluency": 3})
    first = ratings_digest(store.ratings(code, key))
    assert len(first) == 12 and first == ratings_digest(store.ratings(code, key))
    store.rate(code, tok, 0, {"adequacy": 4, "fluency": 3})  # a changed score changes the digest
    assert ratings_digest(store.ratings(code, key)) not in (first, ratings_digest([]))


def test_campaign_ratings_feed_the_papers_judge_comparisons(store):
    """Campaign → study → bleu_core.evaluation.judges (paper §4): per group, systems ordered by the judges' scores."""
    from bleu_core.evaluation.judges import judge_comparisons

    study = study_with_a_human_system()
    created = store.create_campaign(
        plan_from_study(study, systems=["A", "B", "H"], n_segments=6, seed=3, criteria=None)
    )
    code = created.campaign.code
    items = store.items(code, created.organiser_key)
    quality = {"A": 1, "B": 3, "H": 5}  # every judge scores A < B < H, two points apart
    for name, group, bonus in [
        ("m1", "monolingual", 0),
        ("m2", "monolingual", 0),
        ("b1", "bilingual", 0),
        ("b2", "bilingual", 0),
    ]:
        tok = store.join(code, name, group).token
        for it in items:
            score = min(5, quality[it.system] + bonus)
            store.rate(code, tok, it.position, {"adequacy": score, "fluency": score})
    new = apply_to_study(study, created.campaign, store.ratings(code, created.organiser_key))
    result = judge_comparisons(new, study_criterion_name(created.campaign, "fluency"))
    by_group = {g.group: g for g in result.groups}
    assert set(by_group) == {"monolingual", "bilingual"}
    for g in by_group.values():
        assert g.systems == ("A", "B", "H") and g.n_raters == 2
        assert [p.statistic for p in g.pairs] == [2.0, 2.0]
        assert all(p.n == 2 * 6 for p in g.pairs)  # 2 judges × 6 sentences
