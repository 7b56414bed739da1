"""System-level pairwise accuracy (Kocmi et al. 2021) and soft pairwise accuracy (Thompson et al. 2024).

**Pairwise accuracy** (Kocmi, Federmann, Grundkiewicz, Junczys-Dowmunt, Matsushita & Menezes 2021,
"To Ship or Not to Ship"): over all pairs of systems, the fraction for which the metric's difference
has the same sign as the humans' difference, ``accuracy = |sign(Δmetric) = sign(Δhuman)| / |pairs|``
(MTME's ``Agreement``: a tie on both sides agrees, a tie on one side only does not). The
*significance-aware* variant counts only the pairs whose human difference is statistically
significant (Kocmi et al. report both).

**Soft pairwise accuracy** (Thompson, Mathur, Deutsch & Khayrallah 2024, "Improving Statistical
Significance in Human Evaluation of Automatic Metrics via Soft Pairwise Accuracy"):
``SPA = 1 - mean over pairs |p_human(i > j) - p_metric(i > j)|``, where each ``p`` is the p-value of
a paired permutation test over segments that system ``i`` beats system ``j`` (MTME's ``pce.py``: one
set of random sign flips shared by all pairs and by both sides, seed 4 by default, float32).

>>> human = [1.0, 2.0, 3.0, 3.0, 4.0]; metric = [1.0, 1.0, 2.0, 1.0, 2.0]
>>> r = pairwise_accuracy(metric, human)           # MTME stats_test.testAgreement: 5 of 10
>>> r.statistic, r.n_pairs, r.n_agree
(0.5, 10, 5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import StatsInputError


@dataclass(frozen=True)
class PairwiseAccuracyResult:
    """Pairwise accuracy of a metric against human scores.

    Attributes:
        statistic: agreeing pairs / pairs counted (``nan`` when no pair counts).
        n_pairs, n_agree: pairs counted and pairs agreeing.
        significant_only: whether only pairs with a significant human difference counted.
        pvalue: ``None`` (use :func:`bleu_core.evaluation.permutation_both.perm_both` to compare metrics).
    """

    statistic: float
    n_pairs: int
    n_agree: int
    significant_only: bool = False
    pvalue: float | None = None


@dataclass(frozen=True)
class SoftPairwiseAccuracyResult:
    """Soft pairwise accuracy (1 - pairwise confidence error) and the p-value matrices behind it."""

    statistic: float
    n_pairs: int
    n_segments: int
    human_pvalues: np.ndarray
    metric_pvalues: np.ndarray
    n_permutations: int
    seed: int
    pvalue: float | None = None


def _vector(x: Any, name: str) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 1:
        raise StatsInputError(f"{name} scores must be one score per system, got shape {a.shape}")
    return a


def agreement_rows(metric: np.ndarray, human: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Agreeing pairs and pairs counted for each row of ``metric`` (``(..., K)``) against ``human`` (K,).

    Pairs with a NaN on either side are not counted.
    """
    k = human.shape[-1]
    iu, ju = np.triu_indices(k, k=1)
    dh = human[iu] - human[ju]
    dm = metric[..., iu] - metric[..., ju]
    ok = ~(np.isnan(dm) | np.isnan(dh))
    agree = (np.sign(dm) == np.sign(dh)) & ok
    return agree.sum(-1), ok.sum(-1)


def pairwise_accuracy(
    metric: Any, human: Any, *, pairs: np.ndarray | None = None
) -> PairwiseAccuracyResult:
    """Pairwise accuracy of system-level ``metric`` scores against ``human`` scores (same order).

    ``pairs`` (``K × K`` booleans, e.g. from :func:`significant_pairs`) restricts the pairs counted
    to those marked (``pairs[i, j]`` or ``pairs[j, i]``): the significance-aware variant. Scores must
    be oriented so that higher is better on both sides.
    """
    m, h = _vector(metric, "metric"), _vector(human, "human")
    if m.shape != h.shape:
        raise StatsInputError(f"{m.size} metric scores for {h.size} human scores")
    if pairs is not None:
        mask = np.asarray(pairs, dtype=bool)
        if mask.shape != (h.size, h.size):
            raise StatsInputError(f"pairs must be a {h.size} × {h.size} boolean matrix")
        iu, ju = np.triu_indices(h.size, k=1)
        chosen = mask[iu, ju] | mask[ju, iu]
        dm, dh = m[iu] - m[ju], h[iu] - h[ju]
        ok = chosen & ~(np.isnan(dm) | np.isnan(dh))
        agree = int(((np.sign(dm) == np.sign(dh)) & ok).sum())
        n = int(ok.sum())
    else:
        a, c = agreement_rows(m, h)
        agree, n = int(a), int(c)
    return PairwiseAccuracyResult(agree / n if n else math.nan, n, agree, pairs is not None)


def sign_matrix(n_permutations: int, n_segments: int, seed: int) -> np.ndarray:
    """MTME pce.py's random ±1 matrix (float32), drawn from ``default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    signs = rng.random(size=(n_permutations, n_segments), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    return signs


def pairwise_pvalues(segment_scores: Any, n_permutations: int = 1000, seed: int = 4) -> np.ndarray:
    """p-values of "system i beats system j" (upper triangle, NaN elsewhere): paired permutation.

    The null distribution of ``sum_i - sum_j`` flips the sign of each segment's difference at
    random; ``p = mean(null >= observed)`` (MTME ``pce.compute_pairwise_p_values``).
    """
    scores = np.asarray(segment_scores, dtype=np.float64)
    if scores.ndim != 2:
        raise StatsInputError("segment scores must be a systems × segments array")
    k, s = scores.shape
    signs = sign_matrix(n_permutations, s, seed)
    # C order as MTME's packed arrays: float32 sums round by layout, and a null difference equal to the
    # observed one in exact arithmetic (systems with equal segment scores) must land where MTME's does.
    seg = np.ascontiguousarray(scores, dtype=np.float32)
    totals = seg.sum(axis=1)
    partial = signs @ seg.T  # permutations × systems
    iu, ju = np.triu_indices(k, k=1)
    null = partial[:, iu] - partial[:, ju]
    out = np.full((k, k), np.nan)
    out[iu, ju] = (null >= (totals[iu] - totals[ju])).mean(axis=0)
    return out


def pvalue_batch(n_systems: int, n_permutations: int) -> int:
    """How many score matrices :func:`batched_pairwise_pvalues` should take at once: about 4
    million partial sums (16 MB) per call, which measured fastest for 8 and 23 systems.

    >>> pvalue_batch(23, 1000), pvalue_batch(8, 1000)
    (173, 500)
    """
    return max(10, 4_000_000 // max(1, n_systems * n_permutations))


def batched_pairwise_pvalues(scores: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """:func:`pairwise_pvalues` of many score matrices at once: ``(R, K, S)`` → ``(R, pairs)``.

    ``signs`` is the ``P × S`` matrix of :func:`sign_matrix`; pairs are ``np.triu_indices(K, 1)``.
    One matrix product serves all ``R`` matrices (the resampled or permuted test sets of the
    bootstrap intervals and of the PERM-BOTH test of soft pairwise accuracy).

    >>> x = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 0.2]])
    >>> signs = sign_matrix(200, 3, 4)
    >>> p = batched_pairwise_pvalues(x[None], signs)[0, 0]
    >>> bool(p == pairwise_pvalues(x, 200, 4)[0, 1])
    True
    """
    x = np.ascontiguousarray(scores, dtype=np.float32)  # C order, as pairwise_pvalues
    r, k, s = x.shape
    totals = x.sum(-1)  # R × K
    partial = signs @ x.transpose(2, 0, 1).reshape(s, r * k)  # P × (R·K)
    partial = np.ascontiguousarray(partial.reshape(-1, r, k).transpose(1, 2, 0))  # R × K × P
    counts = []
    for i in range(k - 1):  # pairs (i, j > i) in np.triu_indices order; the P axis contiguous
        null = partial[:, i : i + 1] - partial[:, i + 1 :]
        observed = (totals[:, i : i + 1] - totals[:, i + 1 :])[..., None]
        counts.append(np.count_nonzero(null >= observed, axis=2))
    if not counts:
        return np.zeros((r, 0))
    return np.concatenate(counts, axis=1) / signs.shape[0]


def significant_pairs(
    human_segment: Any, alpha: float = 0.05, n_permutations: int = 1000, seed: int = 4
) -> np.ndarray:
    """``K × K`` booleans: pairs whose human difference is significant (two-sided permutation test).

    Segments where any system lacks a human score are left out.
    """
    h = np.asarray(human_segment, dtype=np.float64)
    h = h[:, ~np.isnan(h).any(axis=0)]
    if h.shape[1] < 2:
        raise StatsInputError("too few segments scored for every system to test human differences")
    p = pairwise_pvalues(h, n_permutations, seed)
    two_sided = 2 * np.minimum(p, 1 - p)
    sig = np.nan_to_num(two_sided, nan=1.0) < alpha
    return sig | sig.T


def soft_pairwise_accuracy(
    metric_segment: Any, human_segment: Any, *, n_permutations: int = 1000, seed: int = 4
) -> SoftPairwiseAccuracyResult:
    """Soft pairwise accuracy from segment scores (``systems × segments``, higher = better).

    Segments where any system lacks a human or a metric score are left out (a permutation test over
    segments needs every system on every segment).
    """
    m = np.asarray(metric_segment, dtype=np.float64)
    h = np.asarray(human_segment, dtype=np.float64)
    if m.shape != h.shape or m.ndim != 2:
        raise StatsInputError(
            f"metric and human segment scores must be two systems × segments arrays of one shape, "
            f"got {m.shape} and {h.shape}"
        )
    keep = ~(np.isnan(m).any(axis=0) | np.isnan(h).any(axis=0))
    if keep.sum() < 2 or m.shape[0] < 2:
        raise StatsInputError(
            "soft pairwise accuracy needs 2 or more systems scored on 2 or more common segments"
        )
    ph = pairwise_pvalues(h[:, keep], n_permutations, seed)
    pm = pairwise_pvalues(m[:, keep], n_permutations, seed)
    iu = np.triu_indices(m.shape[0], k=1)
    stat = 1.0 - float(np.mean(np.abs(ph - pm)[iu]))
    return SoftPairwiseAccuracyResult(
        stat, int(iu[0].size), int(keep.sum()), ph, pm, n_permutations, seed
    )
