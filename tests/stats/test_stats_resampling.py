"""``linear_quantiles`` gives numpy's ``np.quantile`` floats exactly (it replaces it on the command line)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from bleu_core.maths.resampling import linear_quantiles, percentile_interval, percentile_intervals

finite = st.floats(-1e6, 1e6, allow_nan=False)
values = st.one_of(finite, st.just(float("nan")), st.sampled_from([0.0, 1.0, 1.0, 2.5]))


@settings(max_examples=200, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 40)), elements=values),
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=4),
)
def test_equals_numpy_quantile(samples: np.ndarray, quantiles: list[float]) -> None:
    expected = np.moveaxis(np.quantile(samples, quantiles, axis=-1), 0, -1)
    got = linear_quantiles(samples, tuple(quantiles))
    np.testing.assert_array_equal(got, expected)  # NaN == NaN here; floats bit for bit


@settings(max_examples=100, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 50)), elements=finite),
    st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]),
)
def test_percentile_intervals_equal_numpy(samples: np.ndarray, confidence: float) -> None:
    tail = (1.0 - confidence) / 2.0
    expected = np.quantile(samples, [tail, 1.0 - tail], axis=-1).T
    np.testing.assert_array_equal(percentile_intervals(samples, confidence), expected)
    low, high = np.quantile(samples[0], [tail, 1.0 - tail])
    assert percentile_interval(samples[0], confidence) == (float(low), float(high))


def test_empty_sample_raises_numpy_error() -> None:
    import pytest

    with pytest.raises(IndexError, match="out of bounds"):
        linear_quantiles(np.zeros((2, 0)), (0.5,))
