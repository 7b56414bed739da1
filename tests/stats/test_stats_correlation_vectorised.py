"""Correlations vectorised for WMT-sized studies, each equal to what it replaces on random data
(Hypothesis): segment-level correlations by item against the per-segment loop (one
:func:`bleu_core.evaluation.correlation` per segment, i.e. scipy's ``pearsonr`` / ``kendalltau``) on sparse
ratings; the blocked pair counts (WMT tau-like, Kendall rows) against the one-shot array versions; the
reference-subset analysis from batched statistics against the per-system counting; bootstrap counts
drawn once and passed in against drawn inside."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from bleu_core.evaluation.correlation import (
    correlation,
    item_correlations,
    kendall_rows,
    masked_kendall_columns,
    masked_pearson_columns,
    wmt_pair_counts,
)
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.meta import (
    SegmentMeanSource,
    bootstrap_counts,
    segment_correlations,
    system_correlations,
)

# the module (the package exports a function of the same name)
correlation_module = importlib.import_module("bleu_core.evaluation.correlation")


def loop(metric: np.ndarray, human: np.ndarray, method: str) -> np.ndarray:
    """The previous implementation: one scipy correlation per segment, with pairwise deletion."""
    return np.array(
        [correlation(metric[:, s], human[:, s], method).statistic for s in range(metric.shape[1])]
    )


def mtme_oracle(metric: np.ndarray, human: np.ndarray, method: str) -> np.ndarray:
    """MTME's ``AverageCorrelation`` per item: scipy on each segment's kept pairs when there are 2 or more
    (two systems give ±1), NaN for a constant side (google-research/mt-metrics-eval stats.py, 38882cc)."""
    fn = {"pearson": sps.pearsonr, "kendall": sps.kendalltau}[method]
    out = np.full(metric.shape[1], np.nan)
    for s in range(metric.shape[1]):
        keep = ~(np.isnan(metric[:, s]) | np.isnan(human[:, s]))
        x, y = metric[keep, s], human[keep, s]
        if keep.sum() >= 2 and np.ptp(x) > 0 and np.ptp(y) > 0:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out[s] = fn(x, y)[0]
    return out


@st.composite
def sparse_scores(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """systems × segments metric and human scores with ties, constant segments and missing values."""
    k = draw(st.integers(1, 8))
    s = draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    human = rng.integers(0, draw(st.integers(1, 6)), size=(k, s)).astype(float)  # DA-like ties
    if draw(st.booleans()):
        metric = np.round(rng.normal(size=(k, s)) * 30 + 40, draw(st.integers(0, 3)))
    else:
        metric = rng.integers(0, 4, size=(k, s)).astype(float)
    for array in (metric, human):
        array[rng.random((k, s)) < draw(st.sampled_from([0.0, 0.2, 0.6]))] = np.nan
    return metric, human


@settings(max_examples=50, deadline=None)
@given(sparse_scores())
def test_masked_pearson_equals_the_scipy_loop(data):
    metric, human = data
    got = masked_pearson_columns(metric, human)
    expected = loop(metric, human, "pearson")
    assert np.array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(sparse_scores())
def test_masked_kendall_equals_the_scipy_loop_exactly(data):
    metric, human = data
    got = masked_kendall_columns(metric, human)
    expected = loop(metric, human, "kendall")
    # the same integer counts and the same division as scipy's kendalltau: bit for bit
    np.testing.assert_array_equal(got, expected)


@settings(max_examples=30, deadline=None)
@given(sparse_scores(), st.sampled_from(["pearson", "kendall"]))
def test_item_correlations_equal_the_oracle(data, method):
    metric, human = data
    np.testing.assert_allclose(
        item_correlations(metric, human, method),
        mtme_oracle(metric, human, method),
        rtol=1e-12,
        atol=1e-12,
    )


def test_kendall_blocks_give_the_same_result(monkeypatch):
    rng = np.random.default_rng(4)
    human = rng.integers(0, 5, size=(7, 50)).astype(float)
    metric = rng.normal(size=(7, 50))
    human[rng.random(human.shape) < 0.4] = np.nan
    whole = masked_kendall_columns(metric, human)
    monkeypatch.setattr(
        correlation_module, "_PAIR_CELLS", 21 * 3
    )  # 21 pairs: three segments per block
    np.testing.assert_array_equal(masked_kendall_columns(metric, human), whole)


def test_a_sparse_campaign_gives_the_oracles_segment_level_results():
    """WMT-like DA: 12 systems, each segment rated for 2-6 of them; bootstrap rows unchanged too."""
    rng = np.random.default_rng(11)
    k, s = 12, 300
    quality = rng.normal(size=(k, s))
    metric = quality + rng.normal(scale=0.8, size=(k, s))
    human = np.round(50 + 20 * quality)
    rated = np.zeros((k, s), dtype=bool)
    for col in range(s):
        rated[rng.choice(k, size=rng.integers(2, 7), replace=False), col] = True
    human[~rated] = np.nan
    for method in ("pearson", "kendall"):
        got = item_correlations(metric, human, method)
        expected = mtme_oracle(metric, human, method)
        assert np.isnan(got).sum() == np.isnan(expected).sum()  # a constant side: undefined
        two = got[rated.sum(axis=0) == 2]  # 2 raters: ±1 (MTME), NaN only for a tie
        unit = np.isclose(np.abs(two), 1.0)
        assert unit.any() and (unit | np.isnan(two)).all()
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    results = segment_correlations(
        metric, human, methods=(("pearson", "item"), ("kendall", "item")), n_resamples=50, seed=3
    )
    for res, method in zip(results, ("pearson", "kendall"), strict=True):
        per_item = mtme_oracle(metric, human, method)
        assert res.statistic == pytest.approx(np.nanmean(per_item), rel=1e-12)
        assert res.n == int((~np.isnan(per_item)).sum())
        assert res.confidence_interval is not None


# ------------------------------------------------------------------ the previous one-shot implementations
def previous_wmt_pair_counts(
    metric: np.ndarray, human: np.ndarray, threshold: float = 0.0, penalise_ties: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    k = metric.shape[0]
    iu, ju = np.triu_indices(k, k=1)
    dh = human[iu] - human[ju]
    dm = metric[iu] - metric[ju]
    # WMT's rule as MTME's KendallLike writes it: |Δhuman| >= threshold
    valid = ~(np.isnan(dh) | np.isnan(dm)) & (np.abs(np.nan_to_num(dh)) >= threshold)
    if not penalise_ties:
        valid &= np.nan_to_num(dm) != 0
    agree = np.sign(np.nan_to_num(dh)) * np.sign(np.nan_to_num(dm)) > 0
    return (valid & agree).sum(axis=0).astype(float), (valid & ~agree).sum(axis=0).astype(float)


def previous_kendall_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    n = x.shape[-1]
    iu, ju = np.triu_indices(n, k=1)
    sx = np.sign(x[..., iu] - x[..., ju])
    sy = np.sign(y[..., iu] - y[..., ju])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (sx * sy).sum(-1) / np.sqrt((sx * sx).sum(-1) * (sy * sy).sum(-1))


@settings(max_examples=50, deadline=None)
@given(
    sparse_scores(),
    st.sampled_from([0.0, 0.5, 2.0, -1.0]),
    st.booleans(),
    st.integers(1, 40),
)
def test_blocked_wmt_pair_counts_equal_the_one_shot_counts(data, threshold, penalise_ties, cells):
    metric, human = data
    expected = previous_wmt_pair_counts(metric, human, threshold, penalise_ties)
    original = correlation_module._PAIR_CELLS
    correlation_module._PAIR_CELLS = cells  # blocks of a few segments
    try:
        got = wmt_pair_counts(metric, human, threshold, penalise_ties)
    finally:
        correlation_module._PAIR_CELLS = original
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 30), st.integers(1, 9), st.integers(1, 60), st.integers(0, 2**32 - 1))
def test_blocked_kendall_rows_equal_the_one_shot_rows(rows, n, cells, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, size=(rows, n)).astype(float)
    y = np.round(rng.normal(size=(rows, n)), 1)
    expected = previous_kendall_rows(x, y)
    original = correlation_module._PAIR_CELLS
    correlation_module._PAIR_CELLS = cells
    try:
        got = kendall_rows(x, y)
    finally:
        correlation_module._PAIR_CELLS = original
    np.testing.assert_array_equal(got, expected)  # same operations per row: bit for bit
    assert kendall_rows(x[None], y[None]).shape == (1, rows)


def test_counts_drawn_once_give_the_same_results():
    rng = np.random.default_rng(2)
    k, s = 6, 80
    human = rng.normal(size=(k, s))
    metric = human + rng.normal(size=(k, s))
    names = tuple(f"s{i}" for i in range(k))
    counts, seed = bootstrap_counts(s, 40, seed=9)
    assert seed == 9 and counts.shape == (40, s)
    drawn = system_correlations(
        SegmentMeanSource(names, metric), SegmentMeanSource(names, human), n_resamples=40, seed=9
    )
    given_counts = system_correlations(
        SegmentMeanSource(names, metric),
        SegmentMeanSource(names, human),
        n_resamples=40,
        seed=9,
        counts=counts,
    )
    assert drawn["pearson"].confidence_interval is not None
    assert drawn == given_counts
    methods = (("pearson", "none"), ("kendall", "item"), ("kendall-wmt", "item"))
    kw = {"methods": methods, "n_resamples": 40, "seed": 9, "threshold": 0.5}
    assert segment_correlations(metric, human, **kw) == (
        segment_correlations(metric, human, counts=counts, **kw)
    )
    with pytest.raises(
        StatsInputError, match=r"bootstrap counts of shape \(40, 80\) for 30 resamples"
    ):
        segment_correlations(metric, human, n_resamples=30, seed=9, counts=counts)
