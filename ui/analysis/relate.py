"""How well BLEU tracks human scores, as the BLEU-vs-human page shows it (the paper, §5, Figures 5-6).

The science is in the core: the least-squares line is :func:`bleu_core.maths.regression.linear_fit` and the
correlations are :func:`bleu_core.maths.correlation.correlation` (both importable from
:mod:`bleu_core.evaluation.correlation`). This module picks what the page needs from them (the rated pairs of the
chosen systems, Pearson and Kendall side by side) and words it for captions.

>>> fit = linear_fit([1.0, 2.0, 3.0, float("nan")], [2.0, 4.1, 5.9, 1.0])
>>> fit.n, round(fit.r, 4), round(fit.slope, 2)
(3, 0.999, 1.95)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.evaluation.correlation import CorrelationResult, LinearFit, correlation, linear_fit

__all__ = [
    "LinearFit",
    "SegmentCorrelation",
    "describe_fit",
    "linear_fit",
    "segment_correlation",
    "segment_pairs",
]


@dataclass(frozen=True)
class SegmentCorrelation:
    """Pearson r and Kendall tau-b of the same rated translations, for the page's row of three numbers."""

    pearson_result: CorrelationResult
    kendall_result: CorrelationResult

    @property
    def pearson(self) -> float:
        return self.pearson_result.statistic

    @property
    def pearson_p(self) -> float:
        return math.nan if self.pearson_result.pvalue is None else self.pearson_result.pvalue

    @property
    def kendall(self) -> float:
        return self.kendall_result.statistic

    @property
    def kendall_p(self) -> float:
        return math.nan if self.kendall_result.pvalue is None else self.kendall_result.pvalue

    @property
    def n(self) -> int:
        return self.pearson_result.n


def segment_correlation(x: Sequence[float], y: Sequence[float]) -> SegmentCorrelation:
    """Pearson and Kendall tau-b between ``x`` and ``y`` (pairs with a NaN dropped) by the core's
    :func:`~bleu_core.maths.correlation.correlation`.

    >>> c = segment_correlation([1, 2, 3, 4], [1, 3, 2, 4])
    >>> c.n, round(c.kendall, 3)
    (4, 0.667)
    """
    return SegmentCorrelation(correlation(x, y, "pearson"), correlation(x, y, "kendall"))


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
