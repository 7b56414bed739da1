"""The one correlation of two lists (``bleu_core.maths.correlation``): scipy's values, numpy's r, the shared rules."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from bleu_core.errors import StatsInputError
from bleu_core.maths import correlation as correlate
from bleu_core.maths.correlation import correlation, pearson_r

_pairs = st.lists(
    st.tuples(
        st.one_of(st.integers(-200, 200).map(lambda v: v / 4), st.just(math.nan)),
        st.integers(-200, 200).map(lambda v: v / 4),
    ),
    max_size=25,
)


@settings(max_examples=80, deadline=None)
@given(_pairs)
def test_numpy_r_equals_the_scipy_path(pairs: list[tuple[float, float]]) -> None:
    x = [p[0] for p in pairs]
    y = [p[1] for p in pairs]
    with_test = correlation(x, y, "pearson")
    alone = pearson_r(x, y)
    if math.isnan(with_test.statistic):
        assert math.isnan(alone) and with_test.note in (
            "constant scores",
            f"only {with_test.n} pair(s)",
        )
    else:
        assert alone == pytest.approx(with_test.statistic, rel=1e-9, abs=1e-12)
        kept = [(a, b) for a, b in pairs if not math.isnan(a)]
        assert with_test.n == len(kept)
        assert with_test.statistic == pytest.approx(
            sps.pearsonr(*zip(*kept, strict=True)).statistic
        )


def test_fisher_interval_on_request_equals_scipys() -> None:
    # scipy 1.17: ``pearsonr(x, y).confidence_interval(0.9)`` (Fisher z, the default method)
    rng = np.random.default_rng(8)
    x = rng.normal(size=15)
    y = x + rng.normal(size=15)
    res = correlation(x, y, "pearson", confidence_level=0.9)
    ref = sps.pearsonr(x, y).confidence_interval(confidence_level=0.9)
    assert res.confidence_interval == pytest.approx((ref.low, ref.high))
    assert (res.confidence_level, res.interval_method) == (0.9, "Fisher z")
    assert correlation(x[:3], y[:3], confidence_level=0.9).confidence_interval is None  # n ≤ 3
    assert correlation(x, y, "kendall", confidence_level=0.9).confidence_interval is None


def test_stats_hands_out_the_same_objects() -> None:
    stats_correlation_module = importlib.import_module("bleu_core.evaluation.correlation")
    for name in ("correlation", "CorrelationResult", "pearson_r", "paired_values", "check_method"):
        assert getattr(stats_correlation_module, name) is getattr(correlate, name)


def test_bad_input_is_named() -> None:
    with pytest.raises(
        StatsInputError, match="cannot correlate 4 metric scores with 3 human scores"
    ):
        pearson_r([1, 2, 3, 4], [1, 2, 3])
    with pytest.raises(
        StatsInputError, match="unknown correlation 'pearsonr'; choose one of: pearson"
    ):
        correlation([1, 2, 3], [1, 2, 3], "pearsonr")
