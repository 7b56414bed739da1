"""The paper's §5 line (``bleu_core.maths.regression.linear_fit``) checked against ``scipy.stats.linregress``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from bleu_core.errors import StatsInputError
from bleu_core.evaluation.correlation import linear_fit as reexported_fit
from bleu_core.maths.regression import ConfidenceInterval, LinearFit, linear_fit


def _same_as_linregress(fit: LinearFit, x: np.ndarray, y: np.ndarray) -> None:
    ref = sps.linregress(x, y)
    ours = (fit.slope, fit.intercept, fit.r)
    assert ours == pytest.approx((ref.slope, ref.intercept, ref.rvalue), rel=1e-9, abs=1e-12)
    # On points exactly on a line, p and the standard errors are rounding noise near 0 in both: the
    # residual variance is ~eps·y², so a standard error is ~sqrt(eps)·|y| (and the intercept's ~·|x|
    # more); e.g. (219, 291), (219, 291), (247, 0): scipy 5.0e-6, ours 3.5e-6 for the intercept's.
    scale = (1.0 + float(np.max(np.abs(x)))) * (1.0 + float(np.max(np.abs(y))))
    tight = 1e-12 if abs(ref.rvalue) < 1 - 1e-9 else 1e-6 * scale
    ours = (fit.pvalue, fit.stderr, fit.intercept_stderr)
    assert ours == pytest.approx(
        (ref.pvalue, ref.stderr, ref.intercept_stderr), rel=1e-9, abs=tight
    )
    assert fit.r2 == pytest.approx(ref.rvalue**2, rel=1e-9, abs=1e-12)
    assert fit.n == len(x)


def test_fit_equals_linregress_on_noisy_scores() -> None:
    rng = np.random.default_rng(11)
    bleu = rng.uniform(10, 40, size=25)
    human = 0.08 * bleu + rng.normal(scale=0.4, size=25)
    fit = linear_fit(bleu, human)
    _same_as_linregress(fit, bleu, human)
    assert fit.rvalue == fit.r
    assert reexported_fit is linear_fit  # the stats package hands out the same function


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-500, 500), st.integers(-500, 500)), min_size=3, max_size=30
    ).filter(lambda pairs: len({p[0] for p in pairs}) > 1 and len({p[1] for p in pairs}) > 1)
)
def test_fit_equals_linregress_on_any_data(pairs: list[tuple[int, int]]) -> None:
    x = np.array([p[0] for p in pairs], dtype=float) / 10
    y = np.array([p[1] for p in pairs], dtype=float) / 10
    _same_as_linregress(linear_fit(x, y), x, y)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-100, 100), min_size=3, max_size=20, unique=True),
    st.integers(-3, 3).filter(lambda s: s != 0),
    st.integers(-50, 50),
)
def test_points_on_a_line_give_that_line(xs: list[int], slope: int, intercept: int) -> None:
    x = np.array(xs, dtype=float)
    fit = linear_fit(x, slope * x + intercept)
    assert (fit.slope, fit.intercept, abs(fit.r)) == pytest.approx((slope, intercept, 1.0))
    assert fit.predict(x) == pytest.approx(slope * x + intercept)


def test_pairs_with_a_missing_value_are_left_out() -> None:
    x = [1.0, 2.0, np.nan, 4.0, 5.0, 6.0]
    y = [2.0, 1.0, 3.0, np.nan, 7.0, 6.5]
    fit = linear_fit(x, y)
    _same_as_linregress(fit, np.array([1.0, 2.0, 5.0, 6.0]), np.array([2.0, 1.0, 7.0, 6.5]))


def test_undefined_parts_are_nan_and_say_why() -> None:
    two = linear_fit([1.0, 2.0], [3.0, 5.0])
    assert (two.slope, two.intercept, two.n) == (2.0, 1.0, 2)
    assert math.isnan(two.r) and math.isnan(two.pvalue) and math.isnan(two.stderr)
    assert two.note == "only 2 pair(s): no r, p-value or standard error"
    flat = linear_fit([1.0, 2.0, 3.0], [4.0, 4.0, 4.0])
    assert (flat.slope, flat.intercept) == (0.0, 4.0) and math.isnan(flat.r)
    assert flat.note == "constant y: no r, p-value or standard error"
    upright = linear_fit([2.0, 2.0, 2.0], [1.0, 2.0, 3.0])
    assert math.isnan(upright.slope) and upright.note == "constant x: no line"
    assert linear_fit([], []).note == "only 0 pair(s): no line"
    assert linear_fit([1.0], [2.0]).n == 1


def test_intervals_follow_scipys_recipe() -> None:
    # scipy 1.17, ``linregress`` docstring: "slope (95%): res.slope ± t.ppf(0.975, n-2) * res.stderr"
    rng = np.random.default_rng(5)
    x = rng.normal(size=12)
    y = 2 * x + rng.normal(size=12)
    ref = sps.linregress(x, y)
    q = sps.t.ppf(0.975, 10)
    fit = linear_fit(x, y)
    slope_ci = fit.confidence_interval(0.95)
    assert isinstance(slope_ci, ConfidenceInterval)
    assert slope_ci == pytest.approx((ref.slope - q * ref.stderr, ref.slope + q * ref.stderr))
    low, high = fit.confidence_interval(0.95, "intercept")
    half = q * ref.intercept_stderr
    assert (low, high) == pytest.approx((ref.intercept - half, ref.intercept + half))
    narrower = fit.confidence_interval(0.5)
    assert slope_ci.low < narrower.low < fit.slope < narrower.high < slope_ci.high
    assert all(math.isnan(v) for v in linear_fit([1.0, 2.0], [1.0, 3.0]).confidence_interval())


def test_bad_requests_are_named() -> None:
    with pytest.raises(
        StatsInputError, match="cannot correlate 3 metric scores with 2 human scores"
    ):
        linear_fit([1, 2, 3], [1, 2])
    fit = linear_fit([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 4.0])
    with pytest.raises(StatsInputError, match="confidence level must lie between 0 and 1"):
        fit.confidence_interval(95)
    with pytest.raises(StatsInputError, match="no confidence interval for 'r'; choose 'slope'"):
        fit.confidence_interval(0.95, "r")
