"""PERM-BOTH: is metric 2's agreement with humans significantly higher than metric 1's?

Deutsch, Dror & Roth (2021), "A Statistical Analysis of Summarization Evaluation Metrics using
Resampling Methods", §4: under the null hypothesis the two metrics are exchangeable, so each score
(after standardising each metric's scores to z-scores, so that they are comparable) is swapped
between the two metrics with probability 1/2; the statistic (a correlation, pairwise accuracy...)
of the two hybrid metrics is recomputed, and ``p = P(stat(hybrid 2) - stat(hybrid 1) >= observed
delta)``. This is MTME's ``PermutationSigDiff`` (one-sided: a small p says metric 2 is better),
vectorised over resamples and without MTME's early stopping.

:func:`pairs_permutation` is MTME's ``PairwisePermutationSigDiff`` for tie-calibrated Kendall
variants: instead of scores, the *outcomes of pairs* (concordant, tie...) are swapped, so each
metric keeps its own calibrated ε and no re-calibration is needed per resample.

>>> human = np.array([1.0, 2, 3, 4, 5, 6, 7, 8])
>>> good, noisy = human + 0.1, np.array([2.0, 1, 4, 3, 6, 5, 8, 7])
>>> r = perm_both(noisy, good, human, "pairwise-accuracy", n_resamples=200, seed=1)
>>> round(r.statistic, 3), r.pvalue < 0.05     # accuracy 1.0 vs 0.857
(0.143, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..maths.resampling import DEFAULT_SEED, check_count, make_rng
from .errors import StatsInputError

_TOLERANCE = 1e-12


@dataclass(frozen=True)
class PermBothResult:
    """A PERM-BOTH comparison of two metrics.

    Attributes:
        statistic: ``stat(metric 2) - stat(metric 1)`` (the observed delta).
        pvalue: one-sided p-value of "metric 2 is better" (MTME's convention).
        statistic1, statistic2: each metric's statistic; ``n_resamples``, ``seed``: the draws.
    """

    method: str
    statistic: float
    pvalue: float
    statistic1: float
    statistic2: float
    n_resamples: int
    seed: int


def _zscore(x: np.ndarray, valid: np.ndarray) -> np.ndarray:
    out = np.full(x.shape, np.nan)
    v = x[valid]
    sd = v.std()
    out[valid] = (v - v.mean()) / (sd if sd > 0 else 1.0)
    return out


def _accuracy_rows(metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    from .pairwise import agreement_rows

    agree, n = agreement_rows(metric, human)
    with np.errstate(invalid="ignore", divide="ignore"):
        return agree / n


def _correlation_rows(name: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    from .correlation import ROW_FUNCTIONS

    row = ROW_FUNCTIONS[name]

    def rows(metric: np.ndarray, human: np.ndarray) -> np.ndarray:
        return row(metric, np.broadcast_to(human, metric.shape))

    return rows


#: Statistics of system-level score vectors, vectorised over rows: ``f(metric (M, K), human (K,))``.
SYSTEM_ROW_STATISTICS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "pairwise-accuracy": _accuracy_rows,
    "pearson": _correlation_rows("pearson"),
    "spearman": _correlation_rows("spearman"),
    "kendall": _correlation_rows("kendall"),
}


def perm_both(
    metric1: Any,
    metric2: Any,
    human: Any,
    statistic: str | Callable[[np.ndarray, np.ndarray], np.ndarray] = "pairwise-accuracy",
    *,
    n_resamples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    batch: int = 250,
) -> PermBothResult:
    """PERM-BOTH test on system-level scores (one score per system; NaN human = left out).

    ``statistic`` is a name in :data:`SYSTEM_ROW_STATISTICS` or a function computing the statistic
    for every row of an ``(M, K)`` array of metric scores against the ``(K,)`` human scores.
    Scores must be oriented (higher = better).
    """
    fn = SYSTEM_ROW_STATISTICS.get(statistic) if isinstance(statistic, str) else statistic
    if fn is None:
        raise StatsInputError(
            f"unknown statistic {statistic!r}; choose one of: {', '.join(SYSTEM_ROW_STATISTICS)}"
        )
    m1 = np.asarray(metric1, dtype=np.float64)
    m2 = np.asarray(metric2, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if not (m1.shape == m2.shape == h.shape) or h.ndim != 1:
        raise StatsInputError("the two metrics and the humans need one score per system each")
    valid = ~(np.isnan(h) | np.isnan(m1) | np.isnan(m2))
    if valid.sum() < 2:
        raise StatsInputError("fewer than 2 systems have human and both metrics' scores")
    h, z1, z2 = h[valid], _zscore(m1, valid)[valid], _zscore(m2, valid)[valid]
    count = check_count(n_resamples, "number of resamples")
    rng, seed = make_rng(seed)
    s1 = float(fn(z1[None], h)[0])
    s2 = float(fn(z2[None], h)[0])
    delta = s2 - s1
    hits = 0
    done = 0
    while done < count:
        m = min(batch, count - done)
        w = rng.random((m, h.size)) < 0.5
        hybrid1 = np.where(w, z1, z2)
        hybrid2 = np.where(w, z2, z1)
        null = fn(hybrid2, h) - fn(hybrid1, h)
        hits += int((null >= delta - _TOLERANCE).sum())
        done += m
    name = statistic if isinstance(statistic, str) else getattr(statistic, "__name__", "statistic")
    return PermBothResult(f"perm-both {name}", delta, hits / count, s1, s2, count, seed)


def pairs_permutation(
    values1: np.ndarray,
    values2: np.ndarray,
    weights: np.ndarray,
    *,
    n_resamples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    method: str = "pairs permutation",
) -> PermBothResult:
    """Permutation test that swaps the two metrics' per-pair values (MTME ``PairwisePermutationSigDiff``).

    ``values1``/``values2`` are each metric's value of every pair (e.g. 1 for concordant or tied on
    both sides, else 0, for acc_23) and ``weights`` each pair's weight in the statistic
    (``1 / (pairs in its group × groups)``), so ``stat = Σ weights · values``. Swapping pair ``p``
    flips the sign of its term ``weights_p (values2_p - values1_p)`` in the delta; only pairs where
    the metrics differ matter, and pairs with equal terms are drawn together (a binomial count of
    swaps per distinct term), so a test costs ``resamples × distinct terms``, not ``× pairs``.
    """
    v1 = np.asarray(values1, dtype=np.float64)
    v2 = np.asarray(values2, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    s1, s2 = float(w @ v1), float(w @ v2)
    d = (w * (v2 - v1))[v1 != v2]
    delta = float(d.sum())
    count = check_count(n_resamples, "number of resamples")
    rng, seed = make_rng(seed)
    # Pairs with the same term u contribute u · (2·B - n) with B ~ Binomial(n, 1/2): drawing one
    # binomial per distinct term is the same distribution as one coin per pair, and much cheaper.
    terms, sizes = np.unique(d, return_counts=True)
    null = (2.0 * rng.binomial(sizes, 0.5, size=(count, terms.size)) - sizes) @ terms
    pvalue = float((null >= delta - _TOLERANCE).mean())
    return PermBothResult(method, s2 - s1, pvalue, s1, s2, count, seed)


def soft_pairwise_perm_both(
    metric1: Any,
    metric2: Any,
    human: Any,
    *,
    n_resamples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    n_permutations: int = 1000,
    permutation_seed: int = 4,
    early_stop: tuple[int, float, float] | None = None,
) -> PermBothResult:
    """PERM-BOTH for soft pairwise accuracy: is metric 2's SPA significantly higher than metric 1's?

    As MTME compares metrics by pairwise confidence error (``data.CompareMetricsWithPairwise
    ConfidenceError``: ``PermutationSigDiff`` on the segment scores, ``average_by='none'``): each
    metric's segment scores (``K × S`` arrays, every system scored on every segment, oriented) are
    z-scored over all its scores, every (system, segment) score is swapped between the two metrics
    with probability 1/2, and soft pairwise accuracy
    (:func:`bleu_core.evaluation.pairwise.soft_pairwise_accuracy`, ``n_permutations`` sign flips drawn
    from ``permutation_seed``) is recomputed for both hybrids; the human p-values stay fixed.
    ``p = P(SPA(hybrid 2) - SPA(hybrid 1) >= observed delta)``, one-sided as :func:`perm_both`.

    ``early_stop = (block, low, high)`` stops, as MTME's ``PermutationSigDiffParams`` do, after any
    whole ``block`` of resamples where the p-value so far is below ``low`` or above ``high`` (WMT's
    task settings: ``(100, 0.02, 0.5)``; the result's ``n_resamples`` says how many were used).
    Every resample costs one permutation test per hybrid, so this matters here. The sums under the sign
    flips are taken in float64 (:func:`bleu_core.evaluation.spa_nulls.spa_perm_both`, which tests many
    pairs of metrics on the same masks at once).

    >>> rng = np.random.default_rng(0)
    >>> human = rng.normal(size=(4, 30)) + np.arange(4)[:, None]
    >>> good, poor = human + 0.1 * rng.normal(size=(4, 30)), rng.normal(size=(4, 30))
    >>> r = soft_pairwise_perm_both(poor, good, human, n_resamples=100, n_permutations=200)
    >>> r.statistic > 0, r.pvalue < 0.05
    (True, True)
    """
    from .spa_nulls import spa_perm_both

    m1 = np.asarray(metric1, dtype=np.float64)
    m2 = np.asarray(metric2, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if not (m1.shape == m2.shape == h.shape) or h.ndim != 2 or h.shape[0] < 2:
        raise StatsInputError(
            "soft pairwise accuracy's test needs two metrics' and the humans' segment scores as "
            f"systems × segments arrays of one shape (2 or more systems), got {m1.shape}, "
            f"{m2.shape} and {h.shape}"
        )
    if np.isnan(m1).any() or np.isnan(m2).any() or np.isnan(h).any():
        raise StatsInputError("soft pairwise accuracy's test needs every segment scored")
    count = check_count(n_resamples, "number of resamples")
    if early_stop is not None:
        check_count(early_stop[0], "early-stop block")
    _, seed = make_rng(seed)
    test = spa_perm_both(
        {"2": m2, "1": m1},
        h,
        [("2", "1")],
        count,
        seed,
        early_stop=early_stop,
        n_permutations=n_permutations,
        permutation_seed=permutation_seed,
    )[("2", "1")]
    values = (test.value_b, test.value_a)
    method = "perm-both soft pairwise accuracy"
    return PermBothResult(method, test.statistic, test.pvalue, *values, test.n_resamples, seed)
