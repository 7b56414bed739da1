"""How well BLEU tracks human scores: least-squares fit and correlations for the BLEU-vs-human page.

Thin wrappers over :mod:`scipy.stats` that drop missing values and report n, so the page can show
r, R², p and n next to every chart (the paper, §5, Figures 5-6).

>>> fit = linear_fit([1.0, 2.0, 3.0, float("nan")], [2.0, 4.1, 5.9, 1.0])
>>> fit.n, round(fit.r, 4), round(fit.slope, 2)
(3, 0.999, 1.95)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class LinearFit:
    """Least-squares line y = slope·x + intercept with Pearson's r, R², two-sided p and n."""

    slope: float
    intercept: float
    r: float
    r2: float
    pvalue: float
    n: int


@dataclass(frozen=True)
class SegmentCorrelation:
    """Segment-level Pearson r and Kendall tau-b with p-values over n rated items."""

    pearson: float
    pearson_p: float
    kendall: float
    kendall_p: float
    n: int


def _paired(x: Sequence[float], y: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(xa) & np.isfinite(ya)
    return xa[keep], ya[keep]


def linear_fit(x: Sequence[float], y: Sequence[float]) -> LinearFit:
    """Least-squares fit of ``y`` on ``x`` (nan pairs dropped); nan statistics when n < 3 or x is constant."""
    from scipy import stats

    xa, ya = _paired(x, y)
    n = int(xa.size)
    if n < 3 or np.ptp(xa) == 0 or np.ptp(ya) == 0:
        return LinearFit(math.nan, math.nan, math.nan, math.nan, math.nan, n)
    res = stats.linregress(xa, ya)
    return LinearFit(
        float(res.slope),
        float(res.intercept),
        float(res.rvalue),
        float(res.rvalue**2),
        float(res.pvalue),
        n,
    )


def segment_correlation(x: Sequence[float], y: Sequence[float]) -> SegmentCorrelation:
    """Pearson and Kendall tau-b between ``x`` and ``y`` (nan pairs dropped).

    >>> c = segment_correlation([1, 2, 3, 4], [1, 3, 2, 4])
    >>> c.n, round(c.kendall, 3)
    (4, 0.667)
    """
    from scipy import stats

    xa, ya = _paired(x, y)
    n = int(xa.size)
    if n < 3 or np.ptp(xa) == 0 or np.ptp(ya) == 0:
        return SegmentCorrelation(math.nan, math.nan, math.nan, math.nan, n)
    pr = stats.pearsonr(xa, ya)
    kt = stats.kendalltau(xa, ya)
    return SegmentCorrelation(
        float(pr.statistic), float(pr.pvalue), float(kt.statistic), float(kt.pvalue), n
    )


def segment_pairs(
    sentence_scores: np.ndarray, human: np.ndarray, rows: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Sentence BLEU and human score of every rated (system, segment) pair of the systems in ``rows``.

    ``sentence_scores`` and ``human`` are (systems × segments) arrays; unrated pairs (nan) are left out.

    >>> bleu, human = segment_pairs(np.array([[10.0, 20.0], [30.0, 40.0]]),
    ...                             np.array([[1.0, np.nan], [3.0, 4.0]]), [0, 1])
    >>> bleu.tolist(), human.tolist()
    ([10.0, 30.0, 40.0], [1.0, 3.0, 4.0])
    """
    x = np.asarray(sentence_scores, dtype=float)[list(rows)].ravel()
    y = np.asarray(human, dtype=float)[list(rows)].ravel()
    keep = ~np.isnan(y)
    return x[keep], y[keep]


def describe_fit(fit: LinearFit) -> str:
    """One line for a caption: ``r = 0.99 · R² = 0.98 · p = 0.001 · n = 5``.

    >>> describe_fit(LinearFit(1.0, 0.0, 0.99, 0.9801, 0.0012, 5))
    'r = 0.990 · R² = 0.980 · p = 0.0012 · n = 5'
    """
    if math.isnan(fit.r):
        return f"n = {fit.n}: too few systems (or no spread) for a fit"
    from ui.app.numbers import format_p

    return f"r = {fit.r:.3f} · R² = {fit.r2:.3f} · p = {format_p(fit.pvalue)} · n = {fit.n}"
