"""MTME's statistics tests, reproduced on bleu_core.evaluation, plus properties.

Inputs and expected values are copied from google-research/mt-metrics-eval,
``mt_metrics_eval/stats_test.py`` (commit 38882cc), ``pce_test.py`` and ``data.AssignRanks``; each
test names the MTME test it comes from. MTME packs a ``num_sys × items`` matrix into one vector,
system by system; here it is the ``systems × items`` array itself.

Covered: CorrelationTest.testPearson, testKendall, testKendallC, testKendallLike,
testKendallVariants, testKendallWithTiesOpt; AverageCorrelationTest.testAverageByNone,
testMissingEntries, testAverageBySystem, testAverageByItem, testAverageByItemWithMissingEntries,
testNaNHandling, testNaNHandlingWithZeros, testKendallWithTiesOpt;
CorrelationFunctionsTest.testKendallLike, testAgreement, testKendallVariants_b_and_c,
testKendallVariants_23, testKendallVariantsWithPositiveEpsilon, testKendallWithTiesOpt,
testReshape; PermutationSigDiffTest.testPearsonNoAvgNoEarlyStop (delta, p > 0, k);
PairwisePermutationSigDiffTest.testKendallVariantsAcc23 (delta, p > 0, k);
PairwiseDiffsTest.testPairWiseDiffs (tie counts under ε); pce_test (determinism);
data.AssignRanks.

Not applicable: AverageCorrelationTest.testAverageByNoneNoFiltering / testCorrFcnArgs (MTME's
calling conventions), testMicroAveraging (weighted averages of arbitrary functions are not offered;
the pooled tau-like is); CorrelationFunctionsTest.testReshapeAndFilter and the factored
``KendallPreproc``/``PairwiseDiffs.Combine`` checks (MTME internals with no counterpart: pairs are
enumerated vectorised); PermutationSigDiffTest early-stopping and ``sys``/``item`` score-swapping
cases (no early stopping here: resampling is vectorised; segment-level metrics are compared by the
pairs test, as WMT23 did); WilliamsSigDiffTest (Williams' test lives in bleu_core.evaluation.compare with
its own tests); SampleTest (MTME's sub-sampling utility).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau, pearsonr

from bleu_core.evaluation.clusters import assign_ranks, rank_metrics
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.pairwise import (
    pairwise_accuracy,
    pairwise_pvalues,
    significant_pairs,
    soft_pairwise_accuracy,
)
from bleu_core.evaluation.permutation_both import pairs_permutation, perm_both
from bleu_core.evaluation.ties import (
    OUTCOME_VALUES,
    average_correlation,
    groups,
    kendall_like,
    kendall_variant,
    pair_outcomes,
    tie_calibrated,
)

NAN = np.nan
# MTME CorrelationTest: Correlation(2, [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 3, 7])
H = np.array([[1.0, 2, 3], [4, 5, 6]])
M = np.array([[2.0, 1, 4], [3, 3, 7]])


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    return pearsonr(y, x)[0]


@pytest.mark.parametrize("by, expected", [("none", 0.776), ("sys", 0.760), ("item", 1.0)])
def test_pearson_averaged(by: str, expected: float) -> None:
    # MTME CorrelationTest.testPearson
    assert average_correlation(M, H, _pearson, by).statistic == pytest.approx(expected, abs=1e-3)


@pytest.mark.parametrize("by, expected", [("none", 0.552), ("sys", 0.575), ("item", 1.0)])
def test_kendall_b_averaged(by: str, expected: float) -> None:
    # MTME CorrelationTest.testKendall
    assert kendall_variant(M, H, "b", average_by=by).statistic == pytest.approx(expected, abs=1e-3)


@pytest.mark.parametrize("by, expected", [("none", 0.556), ("sys", 0.611), ("item", 1.0)])
def test_kendall_c_averaged(by: str, expected: float) -> None:
    # MTME CorrelationTest.testKendallC
    assert kendall_variant(M, H, "c", average_by=by).statistic == pytest.approx(expected, abs=1e-3)


def test_kendall_like_cases() -> None:
    # MTME CorrelationTest.testKendallLike: Correlation(1, [10, None, 100, 150], [2, 1, 4, 3])
    assert (
        kendall_like([[2.0, 1, 4, 3]], [[10, NAN, 100, 150]], 1, average_by="none").statistic
        == 1 / 3
    )
    # Correlation(2, [10, 11, 100, 150], [2, 1, 4, 3]), by item, thresh 1 -> 1; and with a None
    assert kendall_like([[2.0, 1], [4, 3]], [[10, 11], [100, 150]], 1).statistic == 1
    assert kendall_like([[2.0, 1], [4, 3]], [[10, NAN], [100, 150]], 1).statistic == 1
    # CorrelationFunctionsTest.testKendallLike: (3/5, 5 pairs) and thresh 1: (2/6, 6 pairs)
    gold, metric = np.array([[10.0], [11], [100], [150]]), np.array([[2.0], [1], [4], [3]])
    r25, r1 = kendall_like(metric, gold), kendall_like(metric, gold, 1)
    assert (r25.statistic, r25.n_groups) == (3 / 5, 5)
    assert (r1.statistic, r1.n_groups) == (2 / 6, 6)
    # kendall-wmt (bleu_core.evaluation.correlation) follows the same rule: |Δhuman| >= threshold
    assert kendall_like(metric, gold, 1, convention="bleu-study").statistic == pytest.approx(2 / 6)
    assert kendall_like(metric, gold, convention="bleu-study").statistic == pytest.approx(3 / 5)


# MTME CorrelationTest.testKendallVariants: Correlation(1, [1, 2, 2, 3, 4], [2, 1, 1.5, 5, 3])
G5 = np.array([[1.0, 2, 2, 3, 4]])
M5 = np.array([[2.0, 1, 1.5, 5, 3]])


@pytest.mark.parametrize(
    "variant, eps, expected",
    [("b", 0, 0.316227766), ("c", 0, 0.32), ("23", 0, 0.2), ("acc23", 0, 0.6), ("acc23", 2, 0.4)],
)
def test_kendall_variants(variant: str, eps: float, expected: float) -> None:
    # MTME CorrelationTest.testKendallVariants
    got = kendall_variant(M5, G5, variant, average_by="none", epsilon=eps).statistic
    assert got == pytest.approx(expected)


def test_kendall_with_ties_opt() -> None:
    # MTME CorrelationTest.testKendallWithTiesOpt: 0.7 (sample_rate 1.0)
    assert tie_calibrated(M5, G5, "acc23", average_by="none").statistic == pytest.approx(0.7)


def test_average_by_none_and_missing_entries() -> None:
    # MTME AverageCorrelationTest.testAverageByNone / testMissingEntries
    g, m = np.array([[1.0, 2, 3, 4, 5, 6]]), np.array([[2.0, 1, 4, 3, 5, 6]])
    assert average_correlation(m, g, _pearson).statistic == pytest.approx(pearsonr(g[0], m[0])[0])
    g[0, 1] = NAN
    expected = pearsonr([1, 3, 4, 5, 6], [2, 4, 3, 5, 6])[0]
    assert average_correlation(m, g, _pearson).statistic == pytest.approx(expected)


def test_average_by_system_and_item() -> None:
    # MTME AverageCorrelationTest.testAverageBySystem / testAverageByItem(/WithMissingEntries)
    g, m = np.array([[1.0, 2, 3], [4, 5, 6]]), np.array([[2.0, 1, 8], [3, 5, 6]])
    p1, p2 = pearsonr([1, 2, 3], [2, 1, 8])[0], pearsonr([4, 5, 6], [3, 5, 6])[0]
    assert average_correlation(m, g, _pearson, "sys").statistic == pytest.approx((p1 + p2) / 2)
    i1, i2, i3 = (
        pearsonr(a, b)[0] for a, b in (([1, 4], [2, 3]), ([2, 5], [1, 5]), ([3, 6], [8, 6]))
    )
    assert average_correlation(m, g, _pearson, "item").statistic == pytest.approx(
        (i1 + i2 + i3) / 3
    )
    g[0, 1] = NAN
    res = average_correlation(m, g, _pearson, "item")
    assert res.statistic == pytest.approx((i1 + i3) / 2) and res.n_groups == 2


def test_nan_handling() -> None:
    # MTME AverageCorrelationTest.testNaNHandling (1.0) / testNaNHandlingWithZeros (0.5)
    g, m = np.array([[1.0, 2, 3], [4, 5, 6]]), np.array([[2.0, 2, 2], [4, 5, 6]])
    assert average_correlation(m, g, _pearson, "sys").statistic == pytest.approx(1.0)
    zeros = average_correlation(m, g, _pearson, "sys", replace_nans_with_zeros=True)
    assert zeros.statistic == pytest.approx(0.5)


def test_kendall_variants_b_and_c_match_scipy() -> None:
    # MTME CorrelationFunctionsTest.testKendallVariants_b_and_c
    gold, metric = [7.0, 1, 2, 7, 4, 3, 2], [4.0, 1, 3, 6, 1, 5, 6]
    for variant in ("b", "c"):
        ref = kendalltau(gold, metric, variant=variant)[0]
        got = kendall_variant([metric], [gold], variant, average_by="none").statistic
        assert got == pytest.approx(ref)


def test_kendall_variants_23_counts() -> None:
    # MTME CorrelationFunctionsTest.testKendallVariants_23: 21 pairs, D=2, ties only in x (gold)
    # 3, only in y 2, in both 1, C = 21 - 2 - 3 - 2 - 1 = 13 (x is MTME's gold, y the metric)
    x, y = np.array([[1.0, 1, 1, 2, 2, 3, 4]]), np.array([[1.0, 1, 2, 2, 4, 3, 3]])
    counts = pair_outcomes(y, x, "none").counts()[0]
    assert counts.tolist() == [13, 2, 3, 2, 1]
    assert kendall_variant(y, x, "23").statistic == (13 + 1 - 2 - 3 - 2) / 21
    assert kendall_variant(y, x, "acc23").statistic == (13 + 1) / 21
    # CorrelationFunctionsTest.testKendallVariantsWithPositiveEpsilon: eps 0.1 changes nothing,
    # eps 1: C=7, T_xy=3, 10 metric-only ties and D + human-only ties = 1 (MTME's comment swaps
    # the roles of x and y; tau_23 does not depend on which of the two it is)
    assert kendall_variant(y, x, "23", epsilon=0.1).statistic == (14 - 7) / 21
    c = pair_outcomes(y, x, "none").counts(1.0)[0]
    assert (c[0], c[1] + c[2], c[3], c[4]) == (7, 1, 10, 3)
    assert kendall_variant(y, x, "23", epsilon=1.0).statistic == (7 + 3 - 1 - 0 - 10) / 21


@pytest.mark.parametrize("by", ["none", "sys", "item"])
def test_ties_opt_equals_variant_at_its_threshold(by: str) -> None:
    # MTME CorrelationFunctionsTest.testKendallWithTiesOpt: gold, metric = [1,2,2,3,3,4], [2,1,1.5,5,3,2]
    # (num_sys 1 for none, 2 otherwise); the optimum equals KendallVariants at the chosen epsilon
    gold = np.array([1.0, 2, 2, 3, 3, 4]).reshape(1 if by == "none" else 2, -1)
    metric = np.array([2.0, 1, 1.5, 5, 3, 2]).reshape(gold.shape)
    res = tie_calibrated(metric, gold, "acc23", average_by=by)
    again = kendall_variant(metric, gold, "acc23", average_by=by, epsilon=res.threshold)
    assert res.statistic == pytest.approx(again.statistic)
    assert res.statistic == pytest.approx(np.max(res.values))


def test_groups_shapes() -> None:
    # MTME CorrelationFunctionsTest.testReshape
    v = np.arange(1.0, 7).reshape(2, 3)
    assert [groups(v, by).shape for by in ("none", "sys", "item")] == [(1, 6), (2, 3), (3, 2)]
    with pytest.raises(StatsInputError, match="unknown averaging 'rows'"):
        groups(v, "rows")


def test_agreement() -> None:
    # MTME CorrelationFunctionsTest.testAgreement: 5 agreeing of 10 pairs
    r = pairwise_accuracy([1.0, 1, 2, 1, 2], [1.0, 2, 3, 3, 4])
    assert (r.n_agree, r.n_pairs, r.statistic) == (5, 10, 0.5)


def test_pairwise_diffs_ties() -> None:
    # MTME PairwiseDiffsTest: [1, 2, 2.1, 3] with eps 0.2 has 1 tie, [4, 2, 3, 5] with eps 1 has 3
    human = np.arange(4.0)[:, None]
    c1 = pair_outcomes(np.array([[1.0], [2], [2.1], [3]]), human, "item").counts(0.2)[0]
    c2 = pair_outcomes(np.array([[4.0], [2], [3], [5]]), human, "item").counts(1.0)[0]
    assert c1[3] + c1[4] == 1 and c2[3] + c2[4] == 3


# MTME PermutationSigDiffTest data: 4 systems × 2 items
PG = np.array([1.0, 2, 3, 4, 5, 5, 7, 8])
PM1 = np.array([1.0, 2, 3, 3, 7, 3, 5, 5])
PM2 = np.array([2.0, 1, 2, 6, 8, 8, 7, 6])


def test_perm_both_pearson() -> None:
    # MTME PermutationSigDiffTest.testPearsonNoAvgNoEarlyStop: delta, p > 0, k = 1000
    r = perm_both(PM1, PM2, PG, "pearson", n_resamples=1000, seed=3)
    assert r.statistic == pytest.approx(pearsonr(PM2, PG)[0] - pearsonr(PM1, PG)[0])
    assert 0 < r.pvalue <= 1 and r.n_resamples == 1000


def test_pairs_permutation_acc23() -> None:
    # MTME PairwisePermutationSigDiffTest.testKendallVariantsAcc23 (data of that test, by item)
    gold = np.array([1.0, 3, 3, 3, 1, 2, 1, 2]).reshape(4, 2)
    m1 = np.array([2.0, 4, 6, 6, 2, 6, 3, 7]).reshape(4, 2)
    m2 = np.array([1.0, 5, 4, 4, 4, 3, 2, 1]).reshape(4, 2)
    t1, t2 = (tie_calibrated(m, gold, "acc23", average_by="item") for m in (m1, m2))
    o = pair_outcomes(m1, gold, "item")
    w = 1.0 / (o.group_sizes[o.group] * 2)
    v1 = OUTCOME_VALUES["acc23"][o.outcomes_at(t1.threshold)]
    v2 = OUTCOME_VALUES["acc23"][pair_outcomes(m2, gold, "item").outcomes_at(t2.threshold)]
    r = pairs_permutation(v1, v2, w, n_resamples=10, seed=1)
    assert r.statistic == pytest.approx(t2.statistic - t1.statistic)
    assert r.pvalue > 0 and r.n_resamples == 10


def test_pce_pvalues_deterministic() -> None:
    # MTME pce_test.test_pairwise_p_values_are_deterministic
    scores = np.random.default_rng(0).random((10, 100))
    np.testing.assert_array_equal(pairwise_pvalues(scores), pairwise_pvalues(scores))


def test_assign_ranks() -> None:
    # MTME data.AssignRanks: a new rank starts when a metric of the current cluster beats it
    p = np.array([[0, 0.5, 0.01, 0.01], [0, 0, 0.3, 0.01], [0, 0, 0, 0.2], [0, 0, 0, 0]])
    assert assign_ranks(p, 0.05) == [1, 1, 2, 2]
    assert assign_ranks(np.ones((3, 3)), 0.05) == [1, 1, 1]


# ------------------------------------------------------------------------------ own checks


def test_soft_pairwise_accuracy_identical_is_one() -> None:
    seg = np.random.default_rng(1).random((4, 50))
    assert soft_pairwise_accuracy(seg, seg).statistic == 1.0
    with pytest.raises(StatsInputError, match="one shape"):
        soft_pairwise_accuracy(seg, seg[:, :10])


def test_significance_aware_accuracy_counts_only_significant_pairs() -> None:
    rng = np.random.default_rng(2)
    human = np.vstack([rng.normal(0, 1, 200), rng.normal(0.02, 1, 200), rng.normal(2, 1, 200)])
    pairs = significant_pairs(human)
    assert not pairs[0, 1] and pairs[0, 2] and pairs[1, 2]
    r = pairwise_accuracy([0.0, 1.0, 2.0], human.mean(1), pairs=pairs)
    assert r.n_pairs == 2 and r.significant_only


def test_rank_metrics_clusters() -> None:
    from bleu_core.metrics.study_scores import MetricTable

    rng = np.random.default_rng(3)
    human = rng.normal(size=12)
    names = tuple(f"s{i}" for i in range(12))
    tables = {
        n: MetricTable(n, names, human + rng.normal(0, s, 12), None, True, "attached")
        for n, s in (("good", 0.01), ("bad", 5.0), ("twin", 0.01))
    }
    r = rank_metrics(tables, human, None, "pairwise-accuracy", n_resamples=300, seed=1)
    ranks = {row.metric: row.rank for row in r.rows}
    assert ranks["good"] == ranks["twin"] == 1 and ranks["bad"] == 2
    with pytest.raises(StatsInputError, match="unknown statistic 'bleu'"):
        rank_metrics(tables, human, None, "bleu")


scores = st.lists(st.integers(-100, 100).map(float), min_size=3, max_size=12)


@settings(max_examples=60, deadline=None)
@given(scores, st.randoms(use_true_random=False))
def test_pairwise_accuracy_properties(human: list[float], rnd) -> None:
    h = np.array(human)
    m = h[::-1].copy()
    acc = pairwise_accuracy(m, h).statistic
    assert 0.0 <= acc <= 1.0
    order = list(range(h.size))
    rnd.shuffle(order)
    assert pairwise_accuracy(m[order], h[order]).statistic == acc  # system order does not matter
    assert pairwise_accuracy(h, h).statistic == 1.0  # a metric equal to the humans
    assert pairwise_accuracy(2 * h + 3, h).statistic == 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(1, 5), st.integers(0, 10_000))
def test_tie_calibration_properties(k: int, s: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    human = rng.integers(0, 3, (k, s)).astype(float)
    metric = rng.normal(size=(k, s)).round(1)
    res = tie_calibrated(metric, human, "acc23", average_by="item")
    at_zero = kendall_variant(metric, human, "acc23", average_by="item").statistic
    assert 0.0 <= res.statistic <= 1.0
    assert res.statistic >= at_zero - 1e-12  # the search includes epsilon = 0
    same = tie_calibrated(human, human, "acc23", average_by="item")
    assert same.statistic == pytest.approx(1.0)
