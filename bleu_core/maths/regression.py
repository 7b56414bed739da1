"""The least-squares line through (BLEU, human score) pairs: the paper's §5 regression.

Papineni et al. (2002), §5 and Figures 5-6, put each system's BLEU score against its mean human score
(monolingual and bilingual judges) and report how well a straight line fits: a correlation of 0.99 and
0.96. :func:`linear_fit` draws that line, ``y ≈ slope · x + intercept``, by ordinary least squares:

* ``slope = Σ(x−x̄)(y−ȳ) / Σ(x−x̄)²`` — how much the human score rises per point of BLEU;
* ``intercept = ȳ − slope · x̄`` — the line passes through the point of means;
* ``r`` is Pearson's r of the same pairs (:func:`bleu_core.maths.correlation.correlation`) and ``r2 = r²`` the share of
  the human scores' variance the line explains;
* ``pvalue`` tests "slope = 0" (equivalently r = 0) with Student's t on ``n − 2`` degrees of freedom,
  ``t = r · √((n−2) / (1−r²))``;
* ``stderr`` and ``intercept_stderr`` are the standard errors of slope and intercept, and
  :meth:`LinearFit.confidence_interval` turns them into t intervals.

Everything is checked against :func:`scipy.stats.linregress` (``tests/stats/test_stats_regression.py``); unlike
``linregress``, pairs with a NaN are left out first, and undefined values come back as ``nan`` with a note
instead of raising: fewer than 2 pairs or a constant x → no line; fewer than 3 pairs or a constant y → a line
but no r, p-value or standard error (r of 2 points is always ±1 and says nothing).

>>> fit = linear_fit([0.20, 0.25, 0.30, float("nan")], [2.1, 2.9, 4.0, 3.0])
>>> fit.n, round(fit.slope, 2), round(fit.intercept, 2), round(fit.r, 4)
(3, 19.0, -1.75, 0.9959)
>>> low, high = fit.confidence_interval(0.95)
>>> round(low, 1), round(high, 1)      # one degree of freedom left: a wide interval
(-3.0, 41.0)
>>> round(fit.predict(0.4), 2)
5.85
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..errors import StatsInputError
from .correlation import paired_values

_TINY = 1.0e-20
"""Keeps ``t`` finite when r is exactly ±1 (scipy's ``linregress`` adds the same)."""


class ConfidenceInterval(NamedTuple):
    """``(low, high)`` bounds of a parameter, as scipy's result objects return them."""

    low: float
    high: float


@dataclass(frozen=True)
class LinearFit:
    """A least-squares line ``y = slope·x + intercept`` with its correlation and test (scipy's ``linregress``).

    Attributes:
        slope, intercept: the line (``nan`` with fewer than 2 pairs or a constant x).
        r: Pearson's r; ``r2`` = r², the share of variance explained (``nan`` below 3 pairs or for a constant y).
        pvalue: two-sided p-value of "slope = 0" (t test on ``n − 2`` degrees of freedom).
        n: number of pairs used (pairs with a NaN left out).
        stderr, intercept_stderr: standard errors of slope and intercept.
        note: why values are ``nan``, when they are.
    """

    slope: float
    intercept: float
    r: float
    r2: float
    pvalue: float
    n: int
    stderr: float = math.nan
    intercept_stderr: float = math.nan
    note: str = ""

    @property
    def rvalue(self) -> float:
        """``r`` under scipy's name."""
        return self.r

    def predict(self, x: Any) -> Any:
        """The line's value at ``x`` (a number or an array).

        >>> LinearFit(2.0, 1.0, 1.0, 1.0, 0.0, 5).predict(np.array([0.0, 1.5])).tolist()
        [1.0, 4.0]
        """
        value = self.slope * np.asarray(x, dtype=np.float64) + self.intercept
        return float(value) if np.ndim(value) == 0 else value

    def confidence_interval(
        self, confidence_level: float = 0.95, parameter: str = "slope"
    ) -> ConfidenceInterval:
        """Student-t interval of the ``slope`` or the ``intercept``: estimate ± t quantile · standard error.

        ``(nan, nan)`` when the standard error is undefined (fewer than 3 pairs, constant x or y).
        """
        if not 0 < confidence_level < 1:
            raise StatsInputError(
                f"confidence level must lie between 0 and 1 (e.g. 0.95), got {confidence_level}"
            )
        if parameter not in ("slope", "intercept"):
            raise StatsInputError(
                f"no confidence interval for {parameter!r}; choose 'slope' or 'intercept'"
            )
        estimate, se = (
            (self.slope, self.stderr)
            if parameter == "slope"
            else (self.intercept, self.intercept_stderr)
        )
        if not math.isfinite(se):
            return ConfidenceInterval(math.nan, math.nan)
        from scipy import stats as sps

        half = float(sps.t.ppf(0.5 + confidence_level / 2, self.n - 2)) * se
        return ConfidenceInterval(estimate - half, estimate + half)


def linear_fit(x: Any, y: Any) -> LinearFit:
    """Least-squares fit of ``y`` on ``x`` (pairs with a NaN dropped; see the module docstring).

    ``x`` and ``y`` must be equally long (:class:`~bleu_core.errors.StatsInputError` otherwise).

    >>> fit = linear_fit([1.0, 2.0], [3.0, 5.0])          # two points: a line, nothing to test
    >>> fit.slope, fit.intercept, fit.r, fit.note
    (2.0, 1.0, nan, 'only 2 pair(s): no r, p-value or standard error')
    """
    xa, ya = paired_values(x, y)
    n = int(xa.size)
    nan = math.nan
    if n < 2 or np.all(xa == xa[0]):
        why = f"only {n} pair(s)" if n < 2 else "constant x"
        return LinearFit(nan, nan, nan, nan, nan, n, note=f"{why}: no line")
    xmean, ymean = float(xa.mean()), float(ya.mean())
    xc, yc = xa - xmean, ya - ymean
    ssx, ssxy, ssy = float(np.dot(xc, xc)), float(np.dot(xc, yc)), float(np.dot(yc, yc))
    slope = ssxy / ssx
    intercept = ymean - slope * xmean
    if n < 3 or ssy == 0.0:
        why = f"only {n} pair(s)" if n < 3 else "constant y"
        note = f"{why}: no r, p-value or standard error"
        return LinearFit(slope, intercept, nan, nan, nan, n, note=note)
    r = min(1.0, max(-1.0, ssxy / math.sqrt(ssx * ssy)))
    df = n - 2
    stderr = math.sqrt((1 - r * r) * ssy / ssx / df)
    intercept_stderr = stderr * math.sqrt(ssx / n + xmean * xmean)
    return LinearFit(slope, intercept, r, r * r, _slope_pvalue(r, df), n, stderr, intercept_stderr)


def _slope_pvalue(r: float, df: int) -> float:
    """Two-sided p-value of t = r·√(df / (1 − r²)) on ``df`` degrees of freedom."""
    from scipy import stats as sps

    t = r * math.sqrt(df / ((1.0 - r + _TINY) * (1.0 + r + _TINY)))
    return float(2 * sps.t.sf(abs(t), df))
