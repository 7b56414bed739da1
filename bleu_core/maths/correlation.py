"""How closely two lists of scores move together: the one correlation every part of bleu-study uses.

The paper's §5 asks whether BLEU ranks translations as people do. Given one metric score and one human score
per item (a system, or a rated translation), three coefficients answer it, each in [-1, 1]:

* **Pearson's r** — how well a *straight line* describes the pairs: the covariance divided by both standard
  deviations, ``r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² · Σ(y−ȳ)²)``. Sensitive to outliers and to the scale.
* **Spearman's rho** — Pearson's r of the *ranks* (ties get their average rank): any increasing relation gives 1.
* **Kendall's tau-b** — over all pairs of items, (concordant − discordant) pairs, corrected for ties:
  ``Σ sx·sy / √(Σ sx² · Σ sy²)`` with ``sx = sign(x_i − x_j)``.

Each comes with scipy's two-sided p-value of "no correlation" (:func:`correlation`); Pearson's r also with the
Fisher z interval (``confidence_level=``). The rules every caller shares:

* a pair with a missing value (NaN) on either side is left out (pairwise deletion), and ``n`` counts the pairs kept;
* with fewer than 3 pairs, or one side constant, the coefficient is undefined: ``nan`` with a ``note`` saying why;
* lists of different lengths, or an unknown method, raise :class:`~bleu_core.errors.StatsInputError`.

>>> human = [2.0, 3.0, 5.0, float("nan"), 4.0]
>>> bleu = [0.21, 0.25, 0.33, 0.30, 0.24]
>>> res = correlation(bleu, human, "pearson")
>>> round(res.statistic, 3), round(res.pvalue, 3), res.n       # the 4th system has no human score
(0.882, 0.118, 4)
>>> round(correlation(bleu, human, "kendall").statistic, 4)      # one discordant pair of six
0.6667
>>> correlation([1, 2, 3], [5, 5, 5]).note
'constant scores'

:func:`pearson_r` gives r alone with numpy only (no scipy import, no test): for loops over many small samples
and for code that runs while a study loads. Vectorised versions over many rows or columns at once live in
:mod:`bleu_core.evaluation.correlation`, which also re-exports everything here; the least-squares line through the
same pairs is :func:`bleu_core.maths.regression.linear_fit`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import StatsInputError

METHODS = ("pearson", "spearman", "kendall")
"""The coefficients :func:`correlation` computes."""


@dataclass(frozen=True)
class CorrelationResult:
    """A correlation coefficient with its test and (optionally) a confidence interval, as scipy reports one.

    Attributes:
        method: ``pearson``, ``spearman``, ``kendall`` (tau-b) or ``kendall-wmt`` (WMT's tau-like).
        statistic: the coefficient (``nan`` when undefined: fewer than 3 pairs or a constant input).
        pvalue: two-sided p-value of "no correlation" (scipy), ``None`` where no test applies
            (averages over items, WMT tau-like).
        n: number of pairs used (segment level grouped by item: number of items averaged).
        confidence_interval: ``(low, high)`` or ``None``; ``interval_method`` says how it was made
            (``"bootstrap percentile"`` or ``"Fisher z"``).
        confidence_level, n_resamples, seed: how the interval was computed (``seed`` and ``n_resamples``
            for a bootstrap interval only).
        level: ``system`` or ``segment``; ``grouping`` at segment level (``none`` or ``item``).
        note: why a value is missing, when it is.
    """

    method: str
    statistic: float
    pvalue: float | None
    n: int
    confidence_interval: tuple[float, float] | None = None
    confidence_level: float | None = None
    n_resamples: int | None = None
    seed: int | None = None
    level: str = "system"
    grouping: str | None = None
    note: str = ""
    interval_method: str | None = None

    def with_interval(
        self, interval: tuple[float, float], level: float, n_resamples: int, seed: int | None
    ) -> CorrelationResult:
        """This result with a bootstrap percentile interval drawn elsewhere (``n_resamples`` draws, ``seed``)."""
        return replace(
            self,
            confidence_interval=(float(interval[0]), float(interval[1])),
            confidence_level=level,
            n_resamples=n_resamples,
            seed=seed,
            interval_method="bootstrap percentile",
        )

    def with_fisher_interval(self, level: float = 0.95) -> CorrelationResult:
        """For Pearson r with n > 3: the Fisher z-transform interval (scipy's ``pearsonr`` interval).

        ``z = artanh(r)`` is close to normal with standard error ``1/√(n−3)``; the interval
        ``tanh(z ± q/√(n−3))`` (``q`` the normal quantile of ``level``) is therefore not symmetric
        around r. Used where there is nothing to resample (a table of published system scores).
        Other methods, and r undefined or n ≤ 3, come back unchanged.

        >>> res = correlation([1.0, 2.0, 3.0, 4.0, 5.0], [1.2, 1.9, 3.4, 3.9, 5.2]).with_fisher_interval()
        >>> [round(v, 3) for v in res.confidence_interval], res.interval_method
        ([0.861, 0.999], 'Fisher z')
        """
        if self.method != "pearson" or self.n <= 3 or not np.isfinite(self.statistic):
            return self
        from scipy import stats as sps

        z = np.arctanh(np.clip(self.statistic, -1 + 1e-15, 1 - 1e-15))
        half = sps.norm.ppf(0.5 + level / 2) / np.sqrt(self.n - 3)
        low, high = np.tanh(z - half), np.tanh(z + half)
        return replace(
            self,
            confidence_interval=(float(low), float(high)),
            confidence_level=level,
            interval_method="Fisher z",
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain values for JSON (the interval as a list)."""
        d = dict(self.__dict__)
        if self.confidence_interval is not None:
            d["confidence_interval"] = list(self.confidence_interval)
        return d


def check_method(method: str, allowed: tuple[str, ...] = METHODS) -> str:
    """``method`` if it is one of ``allowed``, else :class:`~bleu_core.errors.StatsInputError` naming them."""
    if method not in allowed:
        raise StatsInputError(
            f"unknown correlation {method!r}; choose one of: {', '.join(allowed)}"
        )
    return method


def paired_values(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two equally long 1-D float arrays with every pair containing a NaN dropped (pairwise deletion).

    >>> paired_values([1, 2, float("nan")], [4, float("nan"), 6])
    (array([1.]), array([4.]))
    """
    xa = np.asarray(x, dtype=np.float64).ravel()
    ya = np.asarray(y, dtype=np.float64).ravel()
    if xa.shape != ya.shape:
        raise StatsInputError(
            f"cannot correlate {xa.size} metric scores with {ya.size} human scores: they must pair up"
        )
    keep = ~(np.isnan(xa) | np.isnan(ya))
    return xa[keep], ya[keep]


def undefined_note(xa: np.ndarray, ya: np.ndarray) -> str:
    """Why no correlation of the paired ``xa`` and ``ya`` is defined (``""`` when it is).

    >>> undefined_note(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    'only 2 pair(s)'
    """
    if xa.size < 3:
        return f"only {xa.size} pair(s)"
    if np.all(xa == xa[0]) or np.all(ya == ya[0]):
        return "constant scores"
    return ""


def pearson_r(x: Any, y: Any) -> float:
    """Pearson's r of ``x`` and ``y`` with numpy alone (pairs with a NaN left out); ``nan`` where undefined.

    The same value as :func:`correlation`'s Pearson statistic up to rounding (the two-pass formula on
    centred values), without a p-value and without importing scipy.

    >>> round(pearson_r([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 5.0]), 4)
    0.8315
    >>> pearson_r([1.0, 2.0, 3.0], [2.0, 2.0, 2.0])
    nan
    """
    xa, ya = paired_values(x, y)
    if undefined_note(xa, ya):
        return float("nan")
    xc, yc = xa - xa.mean(), ya - ya.mean()
    r = float(np.dot(xc, yc) / np.sqrt(np.dot(xc, xc) * np.dot(yc, yc)))
    return min(1.0, max(-1.0, r))


def correlation(
    x: Any, y: Any, method: str = "pearson", *, confidence_level: float | None = None
) -> CorrelationResult:
    """Pearson, Spearman or Kendall tau-b of ``x`` and ``y`` with scipy's two-sided p-value.

    Pairs with a NaN on either side are skipped. With fewer than 3 pairs, or a constant side, the
    coefficient is undefined and returned as ``nan`` (p-value ``nan``) with a ``note``. With
    ``confidence_level`` (e.g. 0.95), Pearson's r also gets its Fisher z interval
    (:meth:`CorrelationResult.with_fisher_interval`; n must exceed 3).

    >>> res = correlation([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 1.0, 4.0, 3.0, 5.0], "spearman")
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.n
    (0.8, 0.1041, 5)
    """
    from scipy import stats as sps

    check_method(method)
    xa, ya = paired_values(x, y)
    n = int(xa.size)
    note = undefined_note(xa, ya)
    if note:
        return CorrelationResult(method, float("nan"), float("nan"), n, note=note)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res: Any
        if method == "pearson":
            res = sps.pearsonr(xa, ya)
        elif method == "spearman":
            res = sps.spearmanr(xa, ya)
        else:
            res = sps.kendalltau(xa, ya, variant="b")
    result = CorrelationResult(method, float(res.statistic), float(res.pvalue), n)
    return result if confidence_level is None else result.with_fisher_interval(confidence_level)
