"""PERM-BOTH null draws of soft pairwise accuracy for every pair of metrics of a task at once.

The global view (:mod:`bleu_core.evaluation.multi_pair`) compares every pair of metrics ``(a, b)``: each
resample swaps every (system, segment) score between the two z-scored metrics with probability 1/2 (mask
``w``, ``K × S``) and takes ``SPA(where(w, za, zb)) - SPA(where(w, zb, za))``. SPA needs, for each hybrid,
the sums of its scores under MTME's ``P = 1000`` sign flips (``signs``, ``P × S``): a ``P × S × K``
product per hybrid, two hybrids per pair of metrics, ``M (M - 1)`` products per resample for ``M`` metrics.

Every pair of metrics draws its masks from the same seed, so resample ``r`` has the same ``w`` for all of
them, and the sums of a hybrid split into parts of one metric each::

    signs @ where(w, za, zb)ᵀ = signs @ (w∘za)ᵀ + signs @ ((1 - w)∘zb)ᵀ = A_a + (T_b - A_b)

with ``A_m = signs @ (w∘z_m)ᵀ`` (one product per metric and resample) and ``T_m = signs @ z_mᵀ`` (one per
metric). With 32 metrics that is 32 products per resample instead of 992. The sums are taken in float64
(MTME's ``pce.py`` sums each hybrid in float32: its p-values differ from these only where a permuted
difference lies within float32 rounding of the observed one). What is left per hybrid is counting, for each
of the ``K (K - 1) / 2`` pairs of systems, the flips whose difference reaches the observed one: the compiled
kernel ``hybrid_counts`` (:func:`bleu_core.fast.native.hybrid_counts`: both hybrids built and counted in C),
or its numpy twin; the pairs of metrics are spread over the cores (the kernel releases the GIL).

>>> rng = np.random.default_rng(0)
>>> human = rng.normal(size=(4, 30)) + np.arange(4)[:, None]
>>> scores = {"good": human + 0.1 * rng.normal(size=(4, 30)), "poor": rng.normal(size=(4, 30))}
>>> null = spa_null_draws(scores, human, [("good", "poor")], 50, seed=3)[("good", "poor")]
>>> null.shape, bool(abs(null.mean()) < 0.05)
((50,), True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..fast.compiled import use_compiled
from .pairwise import batched_pairwise_pvalues, sign_matrix

#: MTME pce.py's sign flips: 1000 of them, drawn from seed 4.
N_PERMUTATIONS, PERMUTATION_SEED = 1000, 4
#: Threads that compute the pairs' draws (the cores this process may use).
_WORKERS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
#: Null differences within this of the observed one count as reaching it (as :mod:`.permutation_both`).
TOLERANCE = 1e-12
#: How many float64 permuted sums (8 bytes each) the parts of one batch of resamples may hold: 48 MB.
BATCH_SUMS = 6_000_000


def zscore(x: np.ndarray) -> np.ndarray:
    """``x`` standardised over all its values (PERM-BOTH makes two metrics' scores comparable this way)."""
    sd = x.std()
    return (x - x.mean()) / (sd if sd > 0 else 1.0)


def _pair_counts_numpy(partial: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """The numpy twin of the compiled ``pair_counts``: ``R × K × P`` sums, ``R × Q`` observed → counts."""
    k = partial.shape[1]
    counts = []
    for i in range(k - 1):
        null = partial[:, i : i + 1] - partial[:, i + 1 :]
        start = i * (2 * k - i - 1) // 2
        obs = observed[:, start : start + k - 1 - i, None]
        counts.append(np.count_nonzero(null >= obs, axis=2))
    return np.concatenate(counts, axis=1)


def pair_counts(
    partial: np.ndarray, observed: np.ndarray, *, force: bool | None = None
) -> np.ndarray:
    """For each score set ``r`` and pair of systems ``q = (i < j)``: the number of flips ``t`` with
    ``partial[r, i, t] - partial[r, j, t] >= observed[r, q]`` (compiled when built; ``force=False``: numpy)."""
    if use_compiled(partial.size, force=force):
        from ..fast.native import pair_counts as compiled

        return compiled(partial, observed)
    return _pair_counts_numpy(partial, observed)


class _Parts:
    """One metric's permuted sums for a batch of masks: ``A = signs @ (w∘z)ᵀ`` (``R × K × P``), the sums
    ``a = Σ_s w∘z`` (``R × K``), and the mask-free ``T = signs @ zᵀ`` (``K × P``), ``t = Σ_s z``."""

    def __init__(self, z: np.ndarray, signs: np.ndarray) -> None:
        self.z, self.signs = z, signs
        self.T = np.ascontiguousarray((signs @ z.T).T)
        self.t = z.sum(axis=1)
        self.A = np.zeros((0, *self.T.shape))
        self.a = np.zeros((0, z.shape[0]))

    def draw(self, w: np.ndarray) -> None:
        r, k, s = w.shape
        masked = w * self.z  # R × K × S
        self.a = masked.sum(axis=2)
        prod = self.signs @ masked.transpose(2, 0, 1).reshape(s, r * k)  # P × (R·K)
        self.A = np.ascontiguousarray(prod.reshape(-1, r, k).transpose(1, 2, 0))


def _spa(partial: np.ndarray, totals: np.ndarray, ph: np.ndarray, force: bool | None) -> np.ndarray:
    """SPA of ``R`` score sets from their permuted sums and totals against the human p-values ``ph``."""
    iu, ju = np.triu_indices(totals.shape[1], k=1)
    counts = pair_counts(partial, totals[:, iu] - totals[:, ju], force=force)
    return 1.0 - np.abs(counts / partial.shape[2] - ph).mean(axis=1)


class SpaHybrids:
    """The metrics of one task ready for PERM-BOTH: z-scored, their mask-free sums, MTME's human p-values.

    ``scores`` and ``human`` are ``K × S`` (systems × segments, every segment scored, oriented); the sign
    flips are MTME pce.py's (``n_permutations`` drawn from ``permutation_seed``). :meth:`draw` takes a batch
    of masks for the metrics named; :meth:`null` then gives ``SPA(where(w, za, zb)) - SPA(where(w, zb, za))``
    for each mask.
    """

    def __init__(
        self,
        scores: Mapping[str, np.ndarray],
        human: np.ndarray,
        n_permutations: int = N_PERMUTATIONS,
        permutation_seed: int = PERMUTATION_SEED,
        force: bool | None = None,
    ) -> None:
        h = np.asarray(human, dtype=np.float64)
        self.shape, self.n_permutations = h.shape, n_permutations
        signs32 = sign_matrix(n_permutations, h.shape[1], permutation_seed)
        self.ph = batched_pairwise_pvalues(h[None], signs32)  # MTME's, float32
        signs = signs32.astype(np.float64)
        self.parts = {
            m: _Parts(zscore(np.asarray(x, dtype=np.float64)), signs) for m, x in scores.items()
        }
        self.force = force

    def value(self, name: str) -> float:
        """SPA of metric *name* itself (its z-scores; the same sums and counting as the hybrids)."""
        part = self.parts[name]
        return float(_spa(part.T[None], part.t[None], self.ph, self.force)[0])

    def batch_size(self, n_metrics: int) -> int:
        """How many masks one :meth:`draw` of *n_metrics* metrics takes (:data:`BATCH_SUMS`)."""
        return max(1, BATCH_SUMS // max(1, n_metrics * self.shape[0] * self.n_permutations))

    def draw(self, w: np.ndarray, names: Sequence[str]) -> None:
        for m in names:
            self.parts[m].draw(w)

    def nulls(self, pairs: Sequence[tuple[str, str]]) -> list[np.ndarray]:
        """:meth:`null` of every pair, on this machine's cores (the counting kernel and numpy's
        arithmetic release the GIL; each pair's draws are computed as they would be alone)."""
        if len(pairs) < 2 or _WORKERS < 2:
            return [self.null(*pair) for pair in pairs]
        with ThreadPoolExecutor(_WORKERS) as pool:
            return list(pool.map(lambda pair: self.null(*pair), pairs))

    def null(self, a: str, b: str) -> np.ndarray:
        pa, pb = self.parts[a], self.parts[b]
        total1, total2 = (
            pa.a + (pb.t - pb.a),
            pb.a + (pa.t - pa.a),
        )  # where(w, za, zb), where(w, zb, za)
        iu, ju = np.triu_indices(self.shape[0], k=1)
        obs1, obs2 = total1[:, iu] - total1[:, ju], total2[:, iu] - total2[:, ju]
        if use_compiled(pa.A.size, force=self.force):
            from ..fast.native import hybrid_counts

            counts1, counts2 = hybrid_counts(pa.A, pb.A, pa.T, pb.T, obs1, obs2)
        else:
            counts1 = pair_counts(pa.A + (pb.T - pb.A), obs1, force=False)
            counts2 = pair_counts(pb.A + (pa.T - pa.A), obs2, force=False)
        p = self.n_permutations
        spa1 = 1.0 - np.abs(counts1 / p - self.ph).mean(axis=1)
        spa2 = 1.0 - np.abs(counts2 / p - self.ph).mean(axis=1)
        return spa1 - spa2


def spa_null_draws(
    scores: Mapping[str, np.ndarray],
    human: np.ndarray,
    pairs: Sequence[tuple[str, str]],
    n: int,
    seed: int,
    *,
    force: bool | None = None,
) -> dict[tuple[str, str], np.ndarray]:
    """``n`` null draws of ``SPA(a) - SPA(b)`` for every pair ``(a, b)`` in *pairs* (the same masks for
    all, drawn from ``default_rng(seed)`` as ``rng.random((n, K, S)) < 0.5``): the hybrid that takes ``a``'s
    z-score where the mask is set minus the one that takes ``b``'s there.
    """
    names = sorted({m for pair in pairs for m in pair})
    model = SpaHybrids({m: scores[m] for m in names}, human, force=force)
    rng = np.random.default_rng(seed)
    out = {pair: np.empty(n) for pair in pairs}
    batch, done = model.batch_size(len(names)), 0
    while done < n:
        m = min(batch, n - done)
        model.draw(rng.random((m, *model.shape)) < 0.5, names)
        for pair, null in zip(pairs, model.nulls(pairs), strict=True):
            out[pair][done : done + m] = null
        done += m
    return out


@dataclass(frozen=True)
class SpaTest:
    """PERM-BOTH of ``SPA(a) - SPA(b)``: ``statistic`` (the observed delta), the one-sided ``pvalue`` of "a is
    better", each metric's SPA, and how many resamples were drawn before the test stopped."""

    statistic: float
    pvalue: float
    value_a: float
    value_b: float
    n_resamples: int


def spa_perm_both(
    scores: Mapping[str, np.ndarray],
    human: np.ndarray,
    pairs: Sequence[tuple[str, str]],
    n: int,
    seed: int,
    *,
    early_stop: tuple[int, float, float] | None = None,
    n_permutations: int = N_PERMUTATIONS,
    permutation_seed: int = PERMUTATION_SEED,
    force: bool | None = None,
) -> dict[tuple[str, str], SpaTest]:
    """PERM-BOTH tests of every pair ``(a, b)``: ``p = P(null >= SPA(a) - SPA(b))`` over ``n`` masks drawn
    from ``default_rng(seed)``, the same masks for every pair (each test alone would draw the same ones).

    ``early_stop = (block, low, high)`` ends a pair's test, as MTME's ``PermutationSigDiffParams`` do, after
    any whole block of resamples where its p-value so far is below ``low`` or above ``high``; the draws go
    on while any pair's test does.
    """
    names = sorted({m for pair in pairs for m in pair})
    model = SpaHybrids(
        {m: scores[m] for m in names}, human, n_permutations, permutation_seed, force
    )
    values = {m: model.value(m) for m in names}
    delta = {(a, b): values[a] - values[b] for a, b in pairs}
    hits = dict.fromkeys(pairs, 0)
    done = dict.fromkeys(pairs, 0)
    active = list(dict.fromkeys(pairs))
    rng = np.random.default_rng(seed)
    block = n if early_stop is None else early_stop[0]
    drawn = 0
    while drawn < n and active:
        end = min(n, drawn + block)
        live = sorted({m for pair in active for m in pair})
        batch = model.batch_size(len(live))
        while drawn < end:
            m = min(batch, end - drawn)
            model.draw(rng.random((m, *model.shape)) < 0.5, live)
            for pair, null in zip(active, model.nulls(active), strict=True):
                hits[pair] += int((null >= delta[pair] - TOLERANCE).sum())
            drawn += m
        for pair in active:
            done[pair] = drawn
        if early_stop is not None:
            active = [p for p in active if early_stop[1] <= hits[p] / drawn <= early_stop[2]]
    return {
        (a, b): SpaTest(
            delta[(a, b)], hits[(a, b)] / done[(a, b)], values[a], values[b], done[(a, b)]
        )
        for a, b in pairs
    }
