"""Correlations, segment-level variants, Williams and permutation tests — checked against scipy.stats."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from bleu_core.evaluation import (
    StatsInputError,
    compare_correlations,
    correlation,
    kendall_wmt,
    segment_correlation,
    williams_test,
)
from bleu_core.evaluation.compare import permutation_correlation_test
from bleu_core.evaluation.correlation import (
    kendall_rows,
    pearson_rows,
    spearman_rows,
    wmt_pair_counts,
)
from bleu_core.evaluation.meta import SegmentMeanSource, segment_correlations, system_correlations


@pytest.fixture(scope="module")
def xy():
    rng = np.random.default_rng(3)
    x = rng.normal(size=40)
    y = 0.6 * x + rng.normal(size=40)
    y[5] = np.round(y[5], 0)
    return x, y


@pytest.mark.parametrize(
    ("method", "reference"),
    [
        ("pearson", sps.pearsonr),
        ("spearman", sps.spearmanr),
        ("kendall", lambda a, b: sps.kendalltau(a, b, variant="b")),
    ],
)
def test_correlation_matches_scipy(xy, method, reference):
    x, y = xy
    ours = correlation(x, y, method)
    theirs = reference(x, y)
    assert ours.statistic == pytest.approx(theirs.statistic)
    assert ours.pvalue == pytest.approx(theirs.pvalue)
    assert ours.n == 40


def test_missing_values_are_skipped_pairwise():
    x = [1.0, 2.0, np.nan, 4.0, 5.0]
    y = [2.0, 1.0, 3.0, np.nan, 7.0]
    res = correlation(x, y)
    assert res.n == 3
    assert res.statistic == pytest.approx(sps.pearsonr([1, 2, 5], [2, 1, 7]).statistic)


def test_undefined_correlations_say_why():
    assert correlation([1, 2], [3, 4]).note == "only 2 pair(s)"
    res = correlation([1, 1, 1], [1, 2, 3])
    assert np.isnan(res.statistic) and res.note == "constant scores"
    with pytest.raises(
        StatsInputError, match="cannot correlate 3 metric scores with 2 human scores"
    ):
        correlation([1, 2, 3], [1, 2])
    with pytest.raises(StatsInputError, match="unknown correlation 'tau'"):
        correlation([1, 2, 3], [1, 2, 3], "tau")


def test_row_functions_match_scipy():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 5, size=(6, 9)).astype(float)  # with ties
    y = rng.integers(0, 5, size=(6, 9)).astype(float)
    for i in range(6):
        assert pearson_rows(x, y)[i] == pytest.approx(sps.pearsonr(x[i], y[i]).statistic)
        assert spearman_rows(x, y)[i] == pytest.approx(sps.spearmanr(x[i], y[i]).statistic)
        assert kendall_rows(x, y)[i] == pytest.approx(sps.kendalltau(x[i], y[i]).statistic)


def test_wmt_tau_like_by_hand():
    # 3 systems × 2 segments on a 1-5 scale, threshold 1 (a pair counts when |Δhuman| >= 1).
    # Segment 1: humans 1<2<3, metric agrees on all 3 pairs (C=3).
    # Segment 2: humans 5>4 (metric tie: Discordant), 5>3 and 4>3 (metric agrees: C=2).
    human = np.array([[1.0, 5.0], [2.0, 4.0], [3.0, 3.0]])
    metric = np.array([[0.1, 0.9], [0.2, 0.9], [0.3, 0.1]])
    c, d = wmt_pair_counts(metric, human, threshold=1)
    assert c.tolist() == [3.0, 2.0] and d.tolist() == [0.0, 1.0]
    assert kendall_wmt(metric, human, threshold=1).statistic == pytest.approx(4 / 6)
    # "at least" the threshold (WMT, MTME KendallLike): the pairs exactly 2 apart, (1,3) and (5,3), count
    assert kendall_wmt(metric, human, threshold=2).n == 2
    assert kendall_wmt(metric, human, threshold=2.5).n == 0
    # WMT's DA threshold (25 points) is the default: no pair of this 1-5 data is that far apart
    res = kendall_wmt(metric, human)
    assert res.n == 0 and np.isnan(res.statistic) and "≥ 25" in res.note
    # leaving metric ties out instead of penalising them: C=5, D=0
    assert kendall_wmt(metric, human, 1, penalise_ties=False).statistic == pytest.approx(1.0)
    # missing scores drop the pairs they are in
    human[0, 0] = np.nan
    assert wmt_pair_counts(metric, human, 1)[0].tolist() == [1.0, 2.0]


def test_wmt_tau_like_equals_mtme_kendall_like():
    # MTME stats_test CorrelationFunctionsTest.testKendallLike (commit 38882cc): gold [10, 11, 100, 150],
    # metric [2, 1, 4, 3], one item of 4 systems: thresh 25 -> 3/5 (5 pairs), thresh 1 -> 2/6 (6 pairs)
    gold, metric = np.array([[10.0], [11], [100], [150]]), np.array([[2.0], [1], [4], [3]])
    r25, r1 = kendall_wmt(metric, gold), kendall_wmt(metric, gold, 1)
    assert (r25.statistic, r25.n) == (pytest.approx(3 / 5), 5)
    assert (r1.statistic, r1.n) == (pytest.approx(2 / 6), 6)


def test_by_item_groups_of_two_follow_mtme():
    # MTME CorrelationTest.testPearson / testKendall (commit 38882cc): Correlation(2, [1..6],
    # [2, 1, 4, 3, 3, 7]) averaged by item = 1.0: every item is a group of two systems (±1 each)
    human, metric = np.array([[1.0, 2, 3], [4, 5, 6]]), np.array([[2.0, 1, 4], [3, 3, 7]])
    for method in ("pearson", "kendall"):
        res = segment_correlation(metric, human, method, grouping="item")
        assert (res.statistic, res.n) == (1.0, 3)
    # a group of two with a tie on one side has no value, as scipy's (and so MTME's) NaN
    tied = np.array([[2.0, 1, 4], [2, 3, 7]])
    assert segment_correlation(tied, human, "pearson", grouping="item").n == 2


def test_segment_level_variants():
    rng = np.random.default_rng(4)
    human = rng.normal(size=(5, 30))
    metric = human + rng.normal(scale=1.0, size=(5, 30))
    metric[1, 3] = np.nan
    flat = segment_correlation(metric, human, "pearson")
    keep = ~np.isnan(metric.ravel())
    assert flat.statistic == pytest.approx(
        sps.pearsonr(metric.ravel()[keep], human.ravel()[keep]).statistic
    )
    assert flat.level == "segment" and flat.grouping == "none" and flat.n == 149
    item = segment_correlation(metric, human, "kendall", grouping="item")
    expected = np.mean(
        [
            sps.kendalltau(
                metric[~np.isnan(metric[:, s]), s], human[~np.isnan(metric[:, s]), s]
            ).statistic
            for s in range(30)
        ]
    )
    assert item.statistic == pytest.approx(expected) and item.pvalue is None and item.n == 30
    with pytest.raises(StatsInputError, match="unknown grouping 'doc'"):
        segment_correlation(metric, human, grouping="doc")
    with pytest.raises(
        StatsInputError, match="must be two \\(systems × segments\\) arrays of the same shape"
    ):
        segment_correlation(metric[:, :3], human)


def test_segment_bootstrap_intervals_cover_the_estimate():
    rng = np.random.default_rng(5)
    human = 50 + 30 * rng.normal(size=(6, 80))  # DA-like: many pairs 25 points apart (kendall-wmt)
    metric = human + 30 * rng.normal(size=(6, 80))
    results = segment_correlations(
        metric,
        human,
        methods=(
            ("pearson", "none"),
            ("pearson", "item"),
            ("kendall-wmt", "item"),
            ("kendall", "none"),
        ),
        n_resamples=300,
        seed=11,
    )
    for res in results[:3]:
        low, high = res.confidence_interval
        assert low < res.statistic < high and res.seed == 11 and res.n_resamples == 300
    assert results[3].confidence_interval is None and "ungrouped Kendall" in results[3].note


def test_system_bootstrap_interval_resamples_both_sides():
    # Metric = mean segment score + noise per segment; human = mean segment rating. Both recomputed per resample.
    rng = np.random.default_rng(6)
    quality = np.linspace(0, 1, 8)[:, None]
    human = quality + rng.normal(scale=0.8, size=(8, 200))
    metric = quality + rng.normal(scale=0.8, size=(8, 200))
    human[2, :50] = np.nan
    names = tuple(f"s{i}" for i in range(8))
    res = system_correlations(
        SegmentMeanSource(names, metric), SegmentMeanSource(names, human), n_resamples=400, seed=8
    )
    for method in ("pearson", "spearman", "kendall"):
        r = res[method]
        direct = correlation(metric.mean(1), np.nanmean(human, 1), method)
        assert r.statistic == pytest.approx(direct.statistic)
        low, high = r.confidence_interval
        assert low <= r.statistic <= high and r.seed == 8
    fixed = system_correlations(
        SegmentMeanSource(names, metric), None, human_scores=np.nanmean(human, 1)
    )
    # nothing to resample: Pearson's r gets scipy's Fisher z interval, said in the note
    expected = sps.pearsonr(metric.mean(1), np.nanmean(human, 1)).confidence_interval(0.95)
    assert fixed["pearson"].confidence_interval == pytest.approx((expected.low, expected.high))
    assert fixed["pearson"].note == "human scores are system-level only: Fisher z interval"
    assert fixed["kendall"].confidence_interval is None


def test_williams_matches_psych_r_test():
    # psych::r.test(n = 103, r12 = .4, r13 = .5, r23 = .1) (R package psych documentation example) prints
    # "t value -0.89 with probability < 0.37" (two-sided, df = 100).
    res = williams_test(0.4, 0.5, 0.1, 103, alternative="two-sided")
    assert res.statistic == pytest.approx(-0.89, abs=0.005)
    assert res.pvalue == pytest.approx(0.37, abs=0.005)
    assert res.df == 100
    one = williams_test(0.5, 0.4, 0.1, 103)
    assert one.statistic == pytest.approx(-res.statistic) and one.pvalue == pytest.approx(
        res.pvalue / 2
    )


def test_compare_correlations_williams_and_permutation_agree():
    rng = np.random.default_rng(7)
    human = rng.normal(size=60)
    good = human + rng.normal(scale=0.5, size=60)
    bad = human + rng.normal(scale=2.0, size=60)
    w = compare_correlations(good, bad, human)
    assert w.test == "williams" and w.r1 > w.r2 and w.pvalue < 0.01
    p = compare_correlations(good, bad, human, test="permutation", n_resamples=500, seed=3)
    assert p.statistic == pytest.approx(w.r1 - w.r2) and p.pvalue < 0.01 and p.seed == 3
    same = compare_correlations(
        good, good + 1e-9 * rng.normal(size=60), human, test="permutation", n_resamples=200
    )
    assert same.pvalue > 0.2
    with pytest.raises(StatsInputError, match="the Williams test compares Pearson correlations"):
        compare_correlations(good, bad, human, method="kendall")
    with pytest.raises(StatsInputError, match="at least 4 items"):
        compare_correlations(good[:3], bad[:3], human[:3])
    with pytest.raises(StatsInputError, match="r23 must be a correlation between -1 and 1"):
        williams_test(0.1, 0.2, 1.5, 10)
    with pytest.raises(
        StatsInputError, match="number of items for the Williams test must be a whole number >= 4"
    ):
        williams_test(0.1, 0.2, 0.3, 3)


def test_permutation_test_of_a_correlation_matches_scipy(xy):
    x, y = xy
    res = permutation_correlation_test(x, y, n_resamples=999, seed=1)
    assert res.statistic == pytest.approx(sps.pearsonr(x, y).statistic)
    assert abs(res.pvalue - sps.pearsonr(x, y).pvalue) < 0.02
    assert res.seed == 1 and res.n_resamples == 999 and res.n == 40
    with pytest.raises(StatsInputError, match="needs at least 3 pairs, got 2"):
        permutation_correlation_test([1, 2], [2, 1])


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(range(12))), st.integers(0, 10_000))
def test_permuting_segments_leaves_segment_statistics_unchanged(order, seed):
    # Hypothesis: shuffling the order of segments changes no block-free statistic.
    rng = np.random.default_rng(seed)
    human = 50 + 30 * rng.normal(size=(4, 12))  # DA-like: pairs 25 points apart (kendall-wmt)
    metric = human + 30 * rng.normal(size=(4, 12))
    perm = np.array(order)
    for method, grouping in (
        ("pearson", "none"),
        ("kendall", "none"),
        ("pearson", "item"),
        ("kendall-wmt", "item"),
    ):
        a = segment_correlation(metric, human, method, grouping=grouping).statistic
        b = segment_correlation(
            metric[:, perm], human[:, perm], method, grouping=grouping
        ).statistic
        assert a == pytest.approx(b)
    names = ("a", "b", "c", "d")
    s1 = SegmentMeanSource(names, metric).observed()
    s2 = SegmentMeanSource(names, metric[:, perm]).observed()
    assert s1 == pytest.approx(s2)


def test_item_correlations_vectorised_path_matches_scipy_per_segment():
    from bleu_core.evaluation.correlation import item_correlations

    rng = np.random.default_rng(9)
    human = rng.integers(0, 4, size=(6, 25)).astype(float)  # ties, and some constant columns
    metric = human + rng.normal(size=(6, 25))
    human[:, 3] = 2.0  # constant human scores: undefined
    metric[0, 5] = np.nan  # one missing score: pairwise deletion on that segment
    for method, ref in (("pearson", sps.pearsonr), ("kendall", sps.kendalltau)):
        got = item_correlations(metric, human, method)
        assert np.isnan(got[3])
        for s in (0, 5, 7, 24):
            keep = ~np.isnan(metric[:, s])
            expected = ref(metric[keep, s], human[keep, s]).statistic
            assert got[s] == pytest.approx(expected)


def test_fisher_interval_equals_scipy():
    # scipy's PearsonRResult.confidence_interval() is the Fisher z-transform interval.
    import numpy as np
    from scipy import stats as sps

    from bleu_core.evaluation.correlation import correlation

    rng = np.random.default_rng(7)
    x = rng.normal(size=12)
    y = x + rng.normal(size=12)
    ours = correlation(x, y, "pearson").with_fisher_interval(0.95)
    ci = sps.pearsonr(x, y).confidence_interval(0.95)
    assert ours.interval_method == "Fisher z"
    assert ours.confidence_interval == pytest.approx((ci.low, ci.high), abs=1e-12)
    assert correlation(x[:3], y[:3], "pearson").with_fisher_interval().confidence_interval is None
