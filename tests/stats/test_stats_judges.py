"""Same-judge pairwise comparisons of human scores (paper §4, Figures 3-4) — hand-computed and scipy checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from bleu_core.evaluation import StatsInputError, judge_comparisons
from bleu_core.study import Criterion, Rating, Segment, Study


def make_study(ratings, criteria=None):
    segs = tuple(Segment(str(i)) for i in range(1, 5))
    texts = ["a", "b", "c", "d"]
    return Study(
        name="judges",
        segments=segs,
        references={"ref": texts},
        systems={"S1": texts, "S2": texts, "S3": texts},
        criteria=criteria or {"fluency": Criterion("fluency", scale=(1.0, 5.0))},
        ratings=tuple(ratings),
    )


def grid(scores, group="mono", criterion="fluency"):
    """scores[system][judge] = list of 4 segment scores."""
    return [
        Rating(system, str(seg + 1), judge, group, criterion, float(v))
        for system, by_judge in scores.items()
        for judge, values in by_judge.items()
        for seg, v in enumerate(values)
        if v is not None
    ]


SCORES = {
    "S1": {"j1": [1, 2, 2, 1], "j2": [2, 3, 3, 2]},
    "S2": {"j1": [2, 2, 3, 2], "j2": [3, 4, 3, None]},
    "S3": {"j1": [4, 3, 4, 4], "j2": [5, 4, 4, 4]},
}


def test_adjacent_differences_by_hand():
    res = judge_comparisons(make_study(grid(SCORES)), "fluency")
    (group,) = res.groups
    assert group.group == "mono" and group.systems == ("S1", "S2", "S3") and group.n_raters == 2
    s1_s2, s2_s3 = group.pairs
    # S2 − S1 per (judge, segment) rated by that judge for both: j1: 1,0,1,1; j2: 1,1,0 (segment 4 unrated)
    diffs = np.array([1, 0, 1, 1, 1, 1, 0], dtype=float)
    assert (s1_s2.lower, s1_s2.higher, s1_s2.n) == ("S1", "S2", 7)
    assert s1_s2.statistic == pytest.approx(diffs.mean())
    ref = sps.ttest_1samp(diffs, 0.0)
    ci = ref.confidence_interval(0.95)
    assert s1_s2.confidence_interval == pytest.approx((ci.low, ci.high))
    assert s1_s2.pvalue == pytest.approx(ref.pvalue)
    assert s2_s3.n == 7 and s2_s3.significant
    assert group.means[0] == pytest.approx(np.mean([1, 2, 2, 1, 2, 3, 3, 2]))


def test_groups_are_analysed_separately_and_can_be_chosen():
    ratings = grid(SCORES, "mono") + grid(
        {"S1": SCORES["S3"], "S2": SCORES["S2"], "S3": SCORES["S1"]}, "bi"
    )
    res = judge_comparisons(make_study(ratings), "fluency")
    assert [g.group for g in res.groups] == ["bi", "mono"]
    assert res.groups[0].systems == ("S3", "S2", "S1")
    only = judge_comparisons(make_study(ratings), "fluency", groups=["mono"])
    assert [g.group for g in only.groups] == ["mono"]
    with pytest.raises(
        StatsInputError, match="no ratings from rater group 'pro'; groups with ratings: bi, mono"
    ):
        judge_comparisons(make_study(ratings), "fluency", groups=["pro"])


def test_lower_is_better_criteria_order_from_worst_to_best():
    # An error count: fewer is better, so S3 (most errors here) is the worst and differences are signed
    # so that positive means "the better-ranked system was judged better".
    crit = {"errors": Criterion("errors", higher_is_better=False)}
    res = judge_comparisons(make_study(grid(SCORES, criterion="errors"), crit), "errors")
    g = res.groups[0]
    assert g.systems == ("S3", "S2", "S1") and not res.higher_is_better
    assert all(p.statistic > 0 for p in g.pairs)


def test_ratings_without_group_or_rater():
    ratings = [
        Rating(s, str(i), None, None, "fluency", float(v))
        for s, v0 in (("S1", 1), ("S2", 2), ("S3", 4))
        for i, v in ((1, v0), (2, v0 + 1))
    ]
    res = judge_comparisons(make_study(ratings), "fluency")
    assert res.groups[0].group == "all raters" and res.groups[0].pairs[0].n == 2
    d = res.to_dict()
    assert d["groups"][0]["pairs"][0]["lower"] == "S1"


def test_errors_are_explained():
    study = make_study(grid(SCORES))
    with pytest.raises(
        StatsInputError, match="unknown criterion 'adequacy'; this study has: fluency"
    ):
        judge_comparisons(study, "adequacy")
    system_level = make_study([Rating("S1", None, None, None, "fluency", 3.0)])
    with pytest.raises(StatsInputError, match="no segment-level ratings for criterion 'fluency'"):
        judge_comparisons(system_level, "fluency")
    with pytest.raises(StatsInputError, match="confidence level must be between 0 and 1"):
        judge_comparisons(study, "fluency", confidence=1.0)


def test_permuting_segment_ids_leaves_results_unchanged():
    a = judge_comparisons(make_study(grid(SCORES)), "fluency")
    perm = {"1": "3", "2": "1", "3": "4", "4": "2"}
    shuffled = [
        Rating(r.system, perm[r.segment_id], r.rater, r.group, r.criterion, r.score)
        for r in grid(SCORES)
    ]
    b = judge_comparisons(make_study(shuffled), "fluency")
    assert a.to_dict() == b.to_dict()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=20))
def test_item_mean_is_numpys_mean_to_the_bit(values):
    from bleu_core.evaluation.judges import _mean

    assert _mean(values) == float(np.mean(values))
