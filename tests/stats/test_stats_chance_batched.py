"""Segment-level chance lines computed in blocks of permutations equal the one-at-a-time loop.

:mod:`bleu_core.evaluation.permuted_correlations` draws the permutations the loop
(:func:`bleu_core.evaluation.correlation_chance.looped_values`, the definition) draws, from the same generator in
the same order, and computes each value as the loop does: the values are the loop's, bit for bit for
the Kendall variants and WMT's tau-like (integer counts divided the same way) and for Pearson by item (the
same formula, each sum in the same order), within rounding (1e-12) for pooled Pearson (one matrix product
where scipy's ``pearsonr`` normalises first). Checked on random data with NaN, ties and
segments of every size, for every method and grouping, and on WMT21 zh-en's sentence BLEU and chrF against
DA, DA z (pairs chosen by raw DA) and MQM.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.evaluation.chance import permute_within_items
from bleu_core.evaluation.correlation_chance import (
    WMT_RULE,
    correlation_chance,
    looped_values,
    tau_like_value,
)
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.permuted_correlations import (
    column_ranks,
    permute_rows,
    permuted_values,
    tau_like_values,
    within_item_arrangement,
    within_item_draws,
)
from bleu_core.evaluation.tau_like import TauLikeRule
from bleu_core.maths.correlation import CorrelationResult

WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"
SEGMENT_ROWS = (
    ("pearson", "none"),
    ("kendall", "none"),
    ("pearson", "item"),
    ("kendall", "item"),
    ("kendall-wmt", "item"),
)
POOLED_PEARSON = (
    "pearson",
    "none",
)  # one matrix product where scipy normalises first: within rounding


def scores(rng: np.random.Generator, shape: tuple[int, int], levels: int, missing: float):
    """Scores on ``levels`` distinct values (few levels: many ties), a share ``missing`` of them NaN."""
    x = rng.integers(0, levels, size=shape).astype(float) / 3.0
    x[rng.random(shape) < missing] = np.nan
    return x


def assert_same(fast: np.ndarray, loop: np.ndarray, exact: bool) -> None:
    assert fast.shape == loop.shape
    assert np.array_equal(np.isnan(fast), np.isnan(loop))
    if exact:
        assert np.array_equal(fast, loop, equal_nan=True)
    else:
        np.testing.assert_allclose(fast, loop, rtol=0, atol=1e-12)


def both_ways(method, grouping, m, h, seed, n, rule=WMT_RULE, select=None):
    """The batched values and the loop's, from generators seeded alike."""
    kw = {"threshold": rule.threshold, "select": select}
    fast = permuted_values(method, grouping, m, h, np.random.default_rng(seed), n, **kw)
    loop = looped_values(method, grouping, m, h, np.random.default_rng(seed), n, rule, select)
    return fast, loop


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 7),
    st.integers(1, 12),
    st.integers(1, 6),
    st.sampled_from([0.0, 0.2, 0.6]),
    st.integers(0, 2**32 - 1),
)
def test_within_item_draws_are_the_loops_permutations(k, s, levels, missing, seed):
    x = scores(np.random.default_rng(seed), (k, s), levels, missing)
    rng_fast, rng_loop = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    _, place = within_item_arrangement(~np.isnan(x))
    drawn = np.concatenate(list(within_item_draws(~np.isnan(x), rng_fast, 5)))
    for b in range(5):
        once = permute_within_items(x, rng_loop)
        assert np.array_equal(permute_rows(x, drawn[b : b + 1], place)[0].T, once, equal_nan=True)
    assert rng_fast.random() == rng_loop.random()  # both generators consumed alike


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(SEGMENT_ROWS),
    st.integers(1, 7),
    st.integers(1, 12),
    st.integers(1, 8),
    st.sampled_from([0.0, 0.15, 0.5, 0.9]),
    st.integers(0, 2**32 - 1),
)
def test_batched_values_equal_the_loop_on_random_data(row, k, s, levels, missing, seed):
    method, grouping = row
    rng = np.random.default_rng(seed)
    m = scores(rng, (k, s), levels, missing)
    h = scores(rng, (k, s), levels + 1, missing)
    rule = TauLikeRule("h", float(rng.choice([0.0, 1 / 3, 1.0])), "points", "test")
    fast, loop = both_ways(method, grouping, m, h, seed, 7, rule)
    assert_same(fast, loop, (method, grouping) != POOLED_PEARSON)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 7),
    st.integers(1, 10),
    st.sampled_from([0.0, 0.3]),
    st.sampled_from([0.0, 25.0, 40.0]),
    st.integers(0, 2**32 - 1),
)
def test_tau_like_with_selecting_scores_equals_the_loop(k, s, missing, threshold, seed):
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 101, size=(k, s)).astype(float)  # raw DA chooses the pairs
    z = (raw + rng.normal(0, 15, size=(k, s))) / 30  # DA z orders them, not always as raw DA
    raw[rng.random((k, s)) < missing] = np.nan
    z[np.isnan(raw)] = np.nan
    m = scores(rng, (k, s), 4, missing / 2)
    rule = TauLikeRule("da_z", threshold, "DA points", "WMT DARR", "da")
    fast, loop = both_ways("kendall-wmt", "item", m, z, seed, 6, rule, raw)
    assert_same(fast, loop, exact=True)
    _, total = tau_like_values(m, z, np.random.default_rng(0), 1, threshold, raw)
    constant = tau_like_value(np.where(np.isnan(m), np.nan, 0.0), z, rule, raw)
    assert (constant == -1.0) if total else math.isnan(constant)


def test_large_systems_use_wider_ranks_and_the_same_values():
    rng = np.random.default_rng(5)
    m, h = rng.normal(size=(130, 3)), rng.integers(0, 9, size=(130, 3)).astype(float)
    m[:40, 1] = np.nan
    assert column_ranks(m).dtype == np.int16
    for method, grouping in SEGMENT_ROWS:
        fast, loop = both_ways(method, grouping, m, h, 3, 3)
        assert_same(fast, loop, (method, grouping) != POOLED_PEARSON)


@pytest.mark.parametrize("one_complete", [False, True])
@pytest.mark.parametrize("method", ["pearson", "kendall"])
def test_segments_with_a_constant_metric_get_the_loops_value(method, one_complete):
    """A segment every system has, where the metric is constant: Kendall is NaN; the loop's Pearson
    (``pearson_rows``) is whatever the rounding of ``x - mean`` gives, and so is ours: its sums are
    taken in the same order (numpy's pairwise sum over a contiguous segment)."""
    rng = np.random.default_rng(6)
    m, h = rng.normal(size=(11, 6)), rng.normal(size=(11, 6))
    m[:, 0], m[:, 1] = 0.3, 0.7  # 11 × 0.3 / 11 is not 0.3 in floating point
    h[2, 2:] = np.nan
    if one_complete:
        m[1:, 1] = np.nan
    fast, loop = both_ways(method, "item", m, h, 5, 6)
    assert_same(fast, loop, exact=True)


@pytest.mark.parametrize(("method", "grouping"), SEGMENT_ROWS)
def test_correlation_chance_gives_the_loops_line(method, grouping):
    rng = np.random.default_rng(8)
    human = 15 * scores(rng, (6, 30), 20, 0.2)  # 0 to 95: pairs 25 points apart for the tau-like
    metric = np.where(np.isnan(human), np.nan, human + rng.normal(0, 10, human.shape))
    result = CorrelationResult(method, 0.5, None, 100, level="segment", grouping=grouping)
    line = correlation_chance(result, metric, human, seed=4, n_permutations=30)
    loop = looped_values(method, grouping, metric, human, np.random.default_rng(4), 30, WMT_RULE)
    finite = loop[~np.isnan(loop)]
    assert line.random == pytest.approx(finite.mean(), abs=1e-12)
    assert line.random_range == pytest.approx(tuple(np.percentile(finite, [2.5, 97.5])), abs=1e-12)


@pytest.mark.filterwarnings("ignore:invalid value encountered in subtract")
def test_scores_with_an_infinity_go_through_the_loop():
    rng = np.random.default_rng(1)
    m, h = rng.normal(size=(4, 6)), rng.normal(size=(4, 6)) * 40
    m[0, 0], m[1, 0] = np.inf, np.inf  # inf - inf is NaN: the loop leaves the pair out
    result = CorrelationResult("kendall-wmt", 0.5, None, 10, level="segment", grouping="item")
    line = correlation_chance(result, m, h, seed=2, n_permutations=9)
    loop = looped_values("kendall-wmt", "item", m, h, np.random.default_rng(2), 9, WMT_RULE)
    assert line.random == pytest.approx(np.nanmean(loop), abs=1e-15)


def test_arrays_of_different_shapes_get_the_loops_message():
    result = CorrelationResult("kendall", 0.5, None, 10, level="segment", grouping="item")
    with pytest.raises(
        StatsInputError, match="two \\(systems × segments\\) arrays of the same shape"
    ):
        correlation_chance(result, np.ones((3, 4)), np.ones((3, 5)), seed=1, n_permutations=2)
    tau = CorrelationResult("kendall-wmt", 0.5, None, 10, level="segment", grouping="item")
    with pytest.raises(StatsInputError, match="selecting scores must be systems × segments arrays"):
        correlation_chance(tau, np.ones((3, 4)), np.ones((3, 4)), select=np.ones((2, 4)), seed=1)


# -- WMT21 zh-en: the pages' inputs ----------------------------------------------------------------


@pytest.fixture(scope="module")
def wmt21_zh_en():
    """Sentence BLEU and chrF of WMT21 zh-en's systems, and each criterion's segment scores and
    tau-like rule, as the Metrics page passes them (oriented: higher = agrees with humans)."""
    if not WMT21.is_dir():
        pytest.skip("WMT21 data not available (shared/data/wmt21-newstest2021-mqm-da)")
    from bleu_core.evaluation.tau_like import study_tau_like
    from bleu_core.metrics.registry import score_study
    from bleu_core.study import load_study

    study = load_study(WMT21, pair="zh-en").study
    names = tuple(study.machine_systems)
    keep = [list(study.systems).index(s) for s in names]
    metrics = score_study(study, ["BLEU", "chrF"], systems=names)
    human = {}
    for name, crit in study.criteria.items():
        human[name] = (crit, study.segment_scores(name)[keep], study_tau_like(study, name, keep))
    return metrics, human


@pytest.mark.parametrize("metric", ["BLEU", "chrF"])
@pytest.mark.parametrize("criterion", ["da", "da_z", "mqm"])
def test_wmt21_zh_en_chance_values_equal_the_loop(wmt21_zh_en, metric, criterion):
    metrics, human = wmt21_zh_en
    crit, h, tau = human[criterion]
    orient = (1 if metrics[metric].higher_is_better else -1) * (1 if crit.higher_is_better else -1)
    m = orient * np.asarray(metrics[metric].segment, dtype=np.float64)
    assert m.shape == h.shape == (23, 1948)
    for method, grouping in SEGMENT_ROWS:
        rule, select = (tau["rule"], tau["select"]) if method == "kendall-wmt" else (WMT_RULE, None)
        fast, loop = both_ways(method, grouping, m, h, 7, 4, rule, select)
        assert_same(fast, loop, (method, grouping) != POOLED_PEARSON)


def test_without_scipys_discordance_counter_pooled_kendall_is_the_loops(monkeypatch):
    import bleu_core.evaluation.permuted_correlations as batched

    monkeypatch.setattr(batched, "_kendall_dis_counter", lambda: None)
    rng = np.random.default_rng(3)
    m, h = scores(rng, (5, 8), 4, 0.2), scores(rng, (5, 8), 6, 0.2)
    assert permuted_values("kendall", "none", m, h, np.random.default_rng(1), 3) is None
    result = CorrelationResult("kendall", 0.5, None, 30, level="segment", grouping="none")
    line = correlation_chance(result, m, h, seed=1, n_permutations=3)
    loop = looped_values("kendall", "none", m, h, np.random.default_rng(1), 3, WMT_RULE)
    assert line.random == pytest.approx(np.nanmean(loop), abs=1e-15)
