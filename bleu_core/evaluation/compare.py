"""Is one metric's correlation with the humans really higher than another's?

Two metrics scored on the same items are correlated with each other, so their correlations with the
same human scores are *dependent*; comparing them as if independent overstates significance.

**Williams test** (Williams 1959; used for MT metrics by Graham & Baldwin 2014 and WMT since 2015):
with ``r12 = r(metric1, human)``, ``r13 = r(metric2, human)``, ``r23 = r(metric1, metric2)`` on
``n`` items,

    t = (r12 − r13) · sqrt((n − 1)(1 + r23)) / sqrt(2 (n − 1)/(n − 3) · |R| + ((r12 + r13)/2)² (1 − r23)³)

with ``|R| = 1 − r12² − r13² − r23² + 2 r12 r13 r23`` and ``n − 3`` degrees of freedom.

**Permutation test** (Deutsch et al. 2021, "PERM-BOTH"-style, the alternative WMT21+ uses): both
metrics are z-normalised; in each trial, each item's two metric scores are swapped with probability
1/2 and the difference of the two correlations recomputed; the p-value is the share of trials with an
absolute difference at least the observed one (add-one rule).

>>> res = williams_test(0.4, 0.5, 0.1, 103)     # psych::r.test(103, .4, .5, .1) prints t = -0.89
>>> round(res.statistic, 2), res.df
(-0.89, 100)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..limits import MAX_RESAMPLES
from ..maths.resampling import DEFAULT_SEED, check_count, make_rng
from .correlation import (
    ROW_FUNCTIONS,
    CorrelationResult,
    check_method,
    correlation,
    paired_values,
)
from .errors import StatsInputError

_ALTERNATIVES = ("greater", "two-sided", "less")


@dataclass(frozen=True)
class CorrelationComparison:
    """Test of whether metric 1 correlates with the human scores differently from metric 2.

    Attributes:
        test: ``williams`` or ``permutation``; ``method`` the correlation used.
        statistic: Williams' t, or for the permutation test the observed difference ``r1 − r2``.
        pvalue: p-value for ``alternative``.
        r1, r2: each metric's correlation with the human scores; ``r12`` between the two metrics.
        n: number of items; ``df`` degrees of freedom (Williams), ``n_resamples``/``seed`` (permutation).
    """

    test: str
    method: str
    statistic: float
    pvalue: float
    r1: float
    r2: float
    r12: float
    n: int
    alternative: str
    df: int | None = None
    n_resamples: int | None = None
    seed: int | None = None


def williams_test(
    r12: float, r13: float, r23: float, n: int, alternative: str = "greater"
) -> CorrelationComparison:
    """Williams' t-test for the difference of two dependent correlations sharing one variable.

    Args:
        r12: correlation of metric 1 with the human scores.
        r13: correlation of metric 2 with the human scores.
        r23: correlation between the two metrics.
        n: number of items (systems or segments); must be at least 4.
        alternative: ``greater`` (metric 1 correlates more strongly, the one-sided test of Graham &
            Baldwin), ``two-sided`` or ``less``.
    """
    from scipy import stats as sps

    if alternative not in _ALTERNATIVES:
        raise StatsInputError(
            f"unknown alternative {alternative!r}; choose one of: {', '.join(_ALTERNATIVES)}"
        )
    n = check_count(n, "number of items for the Williams test", minimum=4)
    for name, r in (("r12", r12), ("r13", r13), ("r23", r23)):
        if not (isinstance(r, int | float) and -1.0 <= r <= 1.0):
            raise StatsInputError(f"{name} must be a correlation between -1 and 1, got {r!r}")
    det = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    denom = 2 * (n - 1) / (n - 3) * det + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3
    df = n - 3
    if denom <= 0:
        t = math.copysign(math.inf, r12 - r13) if r12 != r13 else 0.0
    else:
        t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(denom)
    if alternative == "greater":
        p = float(sps.t.sf(t, df))
    elif alternative == "less":
        p = float(sps.t.cdf(t, df))
    else:
        p = float(2 * sps.t.sf(abs(t), df))
    return CorrelationComparison(
        "williams", "pearson", float(t), p, r12, r13, r23, n, alternative, df=df
    )


def _complete(metric1: Any, metric2: Any, human: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = np.asarray(metric1, dtype=np.float64).ravel()
    b = np.asarray(metric2, dtype=np.float64).ravel()
    h = np.asarray(human, dtype=np.float64).ravel()
    if not a.shape == b.shape == h.shape:
        raise StatsInputError(
            f"the two metrics and the human scores must pair up, got {a.size}, {b.size} and {h.size} values"
        )
    keep = ~(np.isnan(a) | np.isnan(b) | np.isnan(h))
    return a[keep], b[keep], h[keep]


def compare_correlations(
    metric1: Any,
    metric2: Any,
    human: Any,
    *,
    method: str = "pearson",
    test: str = "williams",
    alternative: str = "greater",
    n_resamples: int = 1000,
    seed: int | None = DEFAULT_SEED,
) -> CorrelationComparison:
    """Does ``metric1`` correlate with ``human`` more strongly than ``metric2``?

    Items with a NaN in any of the three are dropped. The Williams test uses Pearson's r (Williams'
    formula assumes it); the permutation test works with ``pearson``, ``spearman`` or ``kendall``.
    """
    check_method(method)
    if test not in ("williams", "permutation"):
        raise StatsInputError(f"unknown test {test!r}; choose williams or permutation")
    if alternative not in _ALTERNATIVES:
        raise StatsInputError(
            f"unknown alternative {alternative!r}; choose one of: {', '.join(_ALTERNATIVES)}"
        )
    a, b, h = _complete(metric1, metric2, human)
    if a.size < 4:
        raise StatsInputError(
            f"comparing correlations needs at least 4 items scored by both metrics and the humans, got {a.size}"
        )
    if test == "williams":
        if method != "pearson":
            raise StatsInputError(
                "the Williams test compares Pearson correlations; use test='permutation'"
            )
        r1 = correlation(a, h).statistic
        r2 = correlation(b, h).statistic
        r12 = correlation(a, b).statistic
        if any(math.isnan(r) for r in (r1, r2, r12)):
            raise StatsInputError(
                "a correlation is undefined (constant scores); the test cannot run"
            )
        return williams_test(r1, r2, r12, int(a.size), alternative)
    m = check_count(n_resamples, "number of permutations", maximum=MAX_RESAMPLES)
    rng, seed = make_rng(seed)
    za = (a - a.mean()) / (a.std() or 1.0)
    zb = (b - b.mean()) / (b.std() or 1.0)
    rows = ROW_FUNCTIONS[method]
    r1 = float(rows(za[None], h[None])[0])
    r2 = float(rows(zb[None], h[None])[0])
    r12 = float(rows(za[None], zb[None])[0])
    observed = r1 - r2
    diffs = np.empty(m)
    chunk = max(1, 2_000_000 // max(1, a.size))
    swap = rng.integers(2, size=(m, a.size), dtype=bool)
    for start in range(0, m, chunk):
        sw = swap[start : start + chunk]
        pa = np.where(sw, zb, za)
        pb = np.where(sw, za, zb)
        hh = np.broadcast_to(h, pa.shape)
        diffs[start : start + chunk] = rows(pa, hh) - rows(pb, hh)
    if alternative == "greater":
        count = np.sum(diffs >= observed)
    elif alternative == "less":
        count = np.sum(diffs <= observed)
    else:
        count = np.sum(np.abs(diffs) >= abs(observed))
    p = float((count + 1) / (m + 1))
    return CorrelationComparison(
        "permutation",
        method,
        observed,
        p,
        r1,
        r2,
        r12,
        int(a.size),
        alternative,
        n_resamples=m,
        seed=seed,
    )


def permutation_correlation_test(
    x: Any,
    y: Any,
    *,
    method: str = "pearson",
    n_resamples: int = 9999,
    seed: int | None = DEFAULT_SEED,
) -> CorrelationResult:
    """Permutation test of "no correlation" (scipy.stats.permutation_test, pairings shuffled).

    An alternative to the parametric p-values when there are few systems: the p-value is the share of
    random re-pairings whose correlation is at least as extreme (two-sided). Pairs with a NaN are dropped.
    """
    from scipy import stats as sps

    check_method(method)
    xa, ya = paired_values(x, y)
    if xa.size < 3:
        raise StatsInputError(
            f"a permutation test of a correlation needs at least 3 pairs, got {xa.size}"
        )
    m = check_count(n_resamples, "number of permutations", maximum=MAX_RESAMPLES)
    rng, seed = make_rng(seed)
    rows = ROW_FUNCTIONS[method]
    res = sps.permutation_test(
        (xa, ya),
        lambda u, v, axis: rows(np.moveaxis(u, axis, -1), np.moveaxis(v, axis, -1)),
        permutation_type="pairings",
        n_resamples=m,
        vectorized=True,
        alternative="two-sided",
        random_state=rng,
    )
    return CorrelationResult(
        method,
        float(res.statistic),
        float(res.pvalue),
        int(xa.size),
        n_resamples=m,
        seed=seed,
        note="permutation p-value",
    )
