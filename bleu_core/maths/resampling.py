"""Seeds, resample matrices and percentile intervals shared by every resampling procedure.

Every resampling procedure in :mod:`bleu_core.evaluation` draws its randomness from one
:class:`numpy.random.Generator` built from an explicit integer seed, and reports that seed with its
result, so that any number it prints can be reproduced.

A *bootstrap resample* of a test set of ``S`` segments draws ``S`` segment indices with replacement.
Instead of materialising the resampled segments we count how often each segment was drawn: an
``M × S`` matrix of counts whose rows sum to ``S``. Because corpus BLEU only needs the column sums of
the per-segment sufficient statistics, ``counts @ stats`` gives the statistics of all ``M`` resampled
test sets in one matrix product (Zhang & Vogel 2004, "Implementation issues").

>>> rng, seed = make_rng(7)
>>> seed
7
>>> counts = bootstrap_counts(5, 3, rng)
>>> counts.shape, counts.sum(axis=1).tolist()
((3, 5), [5.0, 5.0, 5.0])
>>> percentile_interval(np.arange(101.0), 0.5)
(25.0, 75.0)
"""

from __future__ import annotations

import numpy as np

from ..errors import StatsInputError

#: sacrebleu's default seed (``SACREBLEU_SEED``); ours too, so that results are reproducible by default.
DEFAULT_SEED = 12345


def make_rng(seed: int | None = DEFAULT_SEED) -> tuple[np.random.Generator, int]:
    """A generator and the integer seed it was built from.

    ``seed=None`` draws a fresh seed from the operating system's entropy, and returns it so that the
    result can still be reported and reproduced.

    >>> make_rng(3)[1]
    3
    >>> isinstance(make_rng(None)[1], int)
    True
    """
    if seed is None:
        seed = int(np.random.default_rng().integers(0, 2**31 - 1))
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise StatsInputError(f"seed must be a non-negative whole number or None, got {seed!r}")
    return np.random.default_rng(int(seed)), int(seed)


def check_count(value: int, name: str, minimum: int = 1, maximum: int | None = None) -> int:
    """Validate a positive whole number such as a resample count (at most ``maximum`` when given).

    Resample, permutation and trial counts pass ``maximum=MAX_RESAMPLES`` (100,000,
    :data:`bleu_core.limits.MAX_RESAMPLES`), so one request cannot tie up a shared server.

    >>> check_count(0, "resamples")
    Traceback (most recent call last):
    ...
    bleu_core.errors.StatsInputError: resamples must be a whole number >= 1, got 0
    >>> check_count(10**9, "resamples", maximum=100_000)
    Traceback (most recent call last):
    ...
    bleu_core.errors.StatsInputError: resamples must be at most 100,000, got 1000000000
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise StatsInputError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    if maximum is not None and value > maximum:
        raise StatsInputError(f"{name} must be at most {maximum:,}, got {value!r}")
    return int(value)


def check_level(confidence: float) -> float:
    """Validate a confidence level strictly between 0 and 1.

    >>> check_level(95)
    Traceback (most recent call last):
    ...
    bleu_core.errors.StatsInputError: confidence level must be between 0 and 1 (e.g. 0.95), got 95
    """
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, int | float)
        or not 0 < confidence < 1
    ):
        raise StatsInputError(
            f"confidence level must be between 0 and 1 (e.g. 0.95), got {confidence!r}"
        )
    return float(confidence)


def bootstrap_indices(n_segments: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """``M × S`` segment indices drawn with replacement.

    Drawn exactly as sacrebleu 2.x draws them (``rng.choice(S, size=(M, S), replace=True)``, one
    call), so that with the same seed both programs resample the same test sets.
    """
    return rng.choice(n_segments, size=(n_resamples, n_segments), replace=True)


def counts_from_indices(
    indices: np.ndarray, n_segments: int, dtype: type = np.float64
) -> np.ndarray:
    """Turn ``M × S`` resampled indices into an ``M × S`` matrix of draw counts (float64 by default).

    >>> counts_from_indices(np.array([[0, 0, 2], [1, 2, 0]]), 3).tolist()
    [[2.0, 0.0, 1.0], [1.0, 1.0, 1.0]]
    """
    m = indices.shape[0]
    out: np.ndarray = np.empty((m, n_segments), dtype=dtype)
    rows = max(
        1, 200_000 // max(1, n_segments)
    )  # row blocks that stay in cache: ~10x faster than one call
    offsets = np.arange(rows)[:, None] * n_segments
    for start in range(0, m, rows):
        part = indices[start : start + rows]
        k = part.shape[0]
        flat = (part + offsets[:k]).ravel()
        out[start : start + k] = np.bincount(flat, minlength=k * n_segments).reshape(k, n_segments)
    return out


def bootstrap_counts(n_segments: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The ``M × S`` count matrix of ``M`` bootstrap resamples of ``S`` segments."""
    return counts_from_indices(bootstrap_indices(n_segments, n_resamples, rng), n_segments)


def percentile_interval(samples: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The central ``confidence`` percentile interval of 1-D ``samples`` (linear interpolation).

    For 95 % this is the 2.5th and 97.5th percentile, as Zhang & Vogel (2004) define the bootstrap
    confidence interval.
    """
    tail = (1.0 - confidence) / 2.0
    low, high = linear_quantiles(samples, (tail, 1.0 - tail))
    return float(low), float(high)


def percentile_intervals(samples: np.ndarray, confidence: float = 0.95) -> np.ndarray:
    """Row-wise :func:`percentile_interval` of a ``K × M`` array: a ``K × 2`` array of (low, high)."""
    tail = (1.0 - confidence) / 2.0
    return linear_quantiles(samples, (tail, 1.0 - tail))


def linear_quantiles(samples: np.ndarray, quantiles: tuple[float, ...]) -> np.ndarray:
    """``np.quantile(samples, quantiles, axis=-1)`` (method ``linear``) with the quantiles on the *last* axis.

    The same floats as numpy's (the same virtual indices ``(n - 1) q``, the same two-sided interpolation,
    NaN for a row holding a NaN; tests/stats/test_stats_resampling.py compares them on Hypothesis data), by a sort:
    numpy 2's ``quantile`` imports ``numpy.ma`` on first use, which costs a command line more than the sort.

    >>> linear_quantiles(np.array([[1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, np.nan]]), (0.5, 0.9)).tolist()
    [[2.5, 3.7], [nan, nan]]
    """
    ordered = np.sort(np.asarray(samples, dtype=np.float64), axis=-1)
    n = ordered.shape[-1]
    if n == 0:  # numpy's own error for an empty sample
        return np.moveaxis(np.quantile(ordered, list(quantiles), axis=-1), 0, -1)
    virtual = (n - 1) * np.asarray(quantiles, dtype=np.float64)
    previous = np.floor(virtual)
    following = previous + 1
    above, below = virtual >= n - 1, virtual < 0
    previous[above] = following[above] = -1
    previous[below] = following[below] = 0
    previous, following = previous.astype(np.intp), following.astype(np.intp)
    gamma = virtual - previous
    low, high = ordered[..., previous], ordered[..., following]
    diff = high - low
    out = np.where(gamma >= 0.5, high - diff * (1 - gamma), low + diff * gamma)
    out[np.isnan(ordered[..., -1])] = np.nan
    return out
