"""Any metric in the resampling tests (bleu_core.evaluation.metric_statistics, ``score=``), and the vectorised
block t-tests and re-read randomisation verdicts, each checked against a direct computation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from bleu_core.evaluation import StatsInputError, approximate_randomization, block_bleu, bootstrap
from bleu_core.evaluation.metric_statistics import additive_metric, mean_of_segments, segment_mean
from bleu_core.evaluation.randomization import at_alpha

N_SEGMENTS = 80


@pytest.fixture(scope="module")
def segment_scores() -> dict[str, np.ndarray]:
    """Three systems' segment scores (COMET-like, 0-1), with a few segments unscored (NaN)."""
    rng = np.random.default_rng(11)
    out = {}
    for k, shift in enumerate((0.0, 0.02, 0.1)):
        row = np.clip(0.6 + shift + rng.normal(0, 0.15, N_SEGMENTS), 0, 1)
        row[rng.choice(N_SEGMENTS, size=k + 1, replace=False)] = np.nan
        out[f"sys{k}"] = row
    return out


def direct_bootstrap_means(rows: dict[str, np.ndarray], m: int, seed: int) -> np.ndarray:
    """K × M: each system's mean segment score on sacrebleu's resampled test sets, from the segments."""
    indices = np.random.default_rng(seed).choice(N_SEGMENTS, size=(m, N_SEGMENTS), replace=True)
    return np.array([np.nanmean(row[indices], axis=1) for row in rows.values()])


def test_mean_of_segments_bootstrap_is_the_resampled_mean(segment_scores):
    stats = mean_of_segments("COMET", segment_scores)
    result = bootstrap(stats.systems, n_resamples=300, seed=4, score=stats.score)
    want = direct_bootstrap_means(segment_scores, 300, 4)
    np.testing.assert_allclose(result.samples, want, rtol=0, atol=1e-12)
    observed = [np.nanmean(r) for r in segment_scores.values()]
    np.testing.assert_allclose(result.observed, observed, rtol=0, atol=1e-12)
    # sacrebleu's --paired-bs p-value, written out from the resampled means
    paired = result.paired(alpha=0.05)
    for c in paired.comparisons:
        i, j = result.systems.index(c.system), result.systems.index(c.baseline)
        diff = want[i] - want[j]
        centred = np.abs(diff) - np.abs(diff).mean()
        p = (np.sum(centred > abs(observed[i] - observed[j])) + 1) / 301
        assert c.sacrebleu_pvalue == pytest.approx(p, abs=1e-12)
        low, high = np.quantile(diff, [0.025, 0.975])
        assert c.confidence_interval == pytest.approx((low, high))
        # the verdict is the interval's, and the interval's own p says the same (issue 39)
        assert c.verdict == (">" if low > 0 else "<" if high < 0 else "~")
        assert (c.pvalue < 0.05) == (c.verdict != "~")


def test_mean_of_segments_randomisation_swaps_segment_scores(segment_scores):
    stats = mean_of_segments("COMET", segment_scores)
    result = approximate_randomization(stats.systems, n_trials=400, seed=9, score=stats.score)
    swaps = np.random.default_rng(9).integers(2, size=(400, N_SEGMENTS), dtype=bool)
    for c in result.comparisons:
        a, b = segment_scores[c.system], segment_scores[c.baseline]
        observed = np.nanmean(a) - np.nanmean(b)
        null = np.nanmean(np.where(swaps, a, b), axis=1) - np.nanmean(np.where(swaps, b, a), axis=1)
        p = (np.sum(np.abs(null) > abs(observed) + 0.0) + 1) / 401
        assert c.statistic == pytest.approx(observed, abs=1e-12)
        assert c.pvalue == pytest.approx(p, abs=1e-12)


def test_blocks_of_a_mean_metric_are_block_means(segment_scores):
    stats = mean_of_segments("COMET", segment_scores)
    res = block_bleu(stats.systems, n_blocks=4, block_size=None, score=stats.score)
    for k, name in enumerate(res.systems):
        want = [np.nanmean(segment_scores[name][b * 20 : (b + 1) * 20]) for b in range(4)]
        np.testing.assert_allclose(res.scores[k], want, rtol=0, atol=1e-12)


def test_additive_metric_scores_summed_statistics():
    # A TER-like metric: edits / reference words, summed over the segments before dividing.
    stats = np.array([[[1.0, 4.0], [3.0, 6.0]], [[0.0, 4.0], [1.0, 6.0]]])
    metric = additive_metric("TER", ["A", "B"], stats, segment_mean, higher_is_better=False)
    result = bootstrap(metric.systems, n_resamples=20, seed=1, score=metric.score)
    assert result.observed.tolist() == [0.4, 0.1]
    assert not metric.higher_is_better and list(metric.subset(["B"])) == ["B"]
    with pytest.raises(StatsInputError, match=r"expected statistics of shape \(3, segments"):
        additive_metric("TER", ["A", "B", "C"], stats, segment_mean)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            {"A": [1.0, 2.0], "B": [1.0]},
            "system 'B' has 1 segment scores but the first system has 2",
        ),
        ({"A": [1.0, np.inf]}, "system 'A' has an infinite score at segment 2"),
        ({"A": [1.0], "B": [np.nan]}, "system 'B' has no segment score: it cannot be resampled"),
        ({}, "metric 'M': no systems"),
    ],
)
def test_bad_segment_scores_are_explained(rows, message):
    with pytest.raises(StatsInputError, match=message):
        mean_of_segments("M", rows)


@settings(max_examples=25, deadline=None)
@given(
    n_systems=st.integers(2, 8),
    n_blocks=st.integers(2, 12),
    seed=st.integers(0, 2**31 - 1),
    alternative=st.sampled_from(["greater", "two-sided", "less"]),
)
def test_vectorised_block_t_tests_equal_one_scipy_call_per_neighbour(
    n_systems, n_blocks, seed, alternative
):
    # Property: the one vectorised ttest_rel over all neighbour pairs gives, bit for bit, what one
    # scipy call per pair gave before (statistic, p-value, mean difference, 95 % interval).
    rng = np.random.default_rng(seed)
    rows = {f"s{k}": rng.normal(k * 0.1, 1.0, size=n_blocks * 3) for k in range(n_systems)}
    stats = mean_of_segments("M", rows)
    res = block_bleu(stats.systems, n_blocks=n_blocks, block_size=None, alternative=alternative,
                     score=stats.score)  # fmt: skip
    for pos, t in enumerate(res.tests, start=1):
        right, left = res.scores[pos], res.scores[pos - 1]
        one = sps.ttest_rel(right, left, alternative=alternative)
        ci = sps.ttest_rel(right, left).confidence_interval(0.95)
        assert (t.statistic, t.pvalue) == (float(one.statistic), float(one.pvalue))
        assert t.mean_difference == float(np.mean(right - left))
        assert t.confidence_interval == (float(ci.low), float(ci.high))


def test_randomisation_verdicts_reread_at_another_level(segment_scores):
    stats = mean_of_segments("COMET", segment_scores)
    run = {"n_trials": 300, "seed": 2, "score": stats.score}
    base = approximate_randomization(stats.systems, alpha=0.05, **run)
    for alpha in (0.01, 0.2):
        direct = approximate_randomization(stats.systems, alpha=alpha, **run)
        reread = at_alpha(base, alpha)
        assert reread.comparisons == direct.comparisons and reread.alpha == alpha
    with pytest.raises(StatsInputError, match="confidence level must be between 0 and 1"):
        at_alpha(base, 1.5)
