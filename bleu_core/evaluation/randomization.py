"""Paired approximate randomisation test (sacrebleu ``--paired-ar``; Riezler & Maxwell 2005).

If two systems were equally good, it would not matter which of the two produced a given segment's
translation. Approximate randomisation tests that: in each of ``R`` trials, every segment's pair of
translations is swapped between the two systems with probability 1/2, both pseudo-systems are scored,
and the absolute BLEU difference is recorded. The p-value is the share of trials whose difference
exceeds the observed one, with sacrebleu's add-one rule ``p = (#{|Δ_r| > |Δ|} + 1) / (R + 1)``.
(Because of the strict ``>``, two *identical* systems get the smallest possible p, ``1 / (R + 1)``, in
sacrebleu and here alike; the verdict is still ``~`` because the observed difference is 0.)

All trials are one ``R × S`` 0/1 swap matrix. Because swapping is linear in the statistics,
``swap @ stats`` for every system at once (one matrix product) gives every pseudo-system of every pair:
pseudo-A = ``swap @ A + (1 − swap) @ B = swap @ A − swap @ B + total(B)``. With the same seed the swap
matrix is exactly sacrebleu's. The same holds for any metric whose corpus score is a function of summed
per-segment statistics (``score=``, see :mod:`bleu_core.evaluation.metric_statistics`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..limits import MAX_RESAMPLES
from ..maths.resampling import DEFAULT_SEED, check_count, check_level, make_rng
from .results import (
    PairedComparison,
    PairedTestResult,
    exceedance_pvalue,
    pairs_to_test,
    verdict,
)
from .systems import bleu_scores, default_options, stack_systems

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions

#: Trials processed per matrix product (bounds memory: chunk × segments float64).
_CHUNK_CELLS = 8_000_000
#: Trials per chunk are also bounded so that the pseudo-systems (trials × pairs × F) stay cache-sized.
_PAIR_CELLS = 200_000
#: Largest swap matrix drawn in one call (as sacrebleu does); bigger ones are drawn in row chunks.
_MAX_CELLS = 100_000_000


def swap_matrix(n_trials: int, n_segments: int, rng: np.random.Generator) -> np.ndarray:
    """``R × S`` boolean matrix: ``True`` where a trial swaps a segment (sacrebleu's draw)."""
    if n_trials * n_segments <= _MAX_CELLS:
        return rng.integers(2, size=(n_trials, n_segments), dtype=bool)
    rows = max(1, _MAX_CELLS // n_segments)
    return np.concatenate(
        [
            rng.integers(2, size=(min(rows, n_trials - s), n_segments), dtype=bool)
            for s in range(0, n_trials, rows)
        ]
    )


def approximate_randomization(
    systems: Mapping[str, Any],
    options: BleuOptions | None = None,
    *,
    n_trials: int = 10_000,
    seed: int | None = DEFAULT_SEED,
    baseline: str | None = None,
    alpha: float = 0.05,
    score: Callable[[np.ndarray], np.ndarray] | None = None,
) -> PairedTestResult:
    """Paired approximate randomisation test of every pair of systems (or each against ``baseline``).

    Args:
        systems: ``{name: SegmentStatistics}`` over the same segments and references (at least 2).
        options: :class:`~bleu_core.engine.options.BleuOptions` (defaults when ``None``).
        n_trials: number of random swaps ``R`` (sacrebleu's default 10 000).
        seed: generator seed, reported in the result; ``None`` draws one.
        baseline: test each system against this one only (sacrebleu's layout); ``None`` = all pairs.
        alpha: significance level for the verdicts (``>``/``<`` when ``p < alpha``, else ``~``).
        score: another metric's corpus score from summed statistics (``systems`` then hold that
            metric's per-segment statistics; ``options`` is ignored).
    """
    stack = stack_systems(systems, min_systems=2)
    r = check_count(n_trials, "number of trials", maximum=MAX_RESAMPLES)
    check_level(1.0 - alpha)
    if score is None:
        options = default_options(options)

        def score(totals: np.ndarray) -> np.ndarray:
            return bleu_scores(totals, options)

    pairs = pairs_to_test(stack.names, baseline)
    rng, seed = make_rng(seed)
    swaps = swap_matrix(r, stack.n_segments, rng)

    totals = stack.totals()
    observed = np.asarray(score(totals), dtype=np.float64)
    sys_idx = np.array([i for i, _ in pairs])
    base_idx = np.array([j for _, j in pairs])
    null = np.empty((len(pairs), r))
    n_cols = len(pairs) * stack.array.shape[2]
    chunk = max(1, min(_CHUNK_CELLS // stack.n_segments, _PAIR_CELLS // n_cols))
    for start in range(0, r, chunk):
        part = stack.weighted_totals(
            swaps[start : start + chunk], integer_weights=True
        )  # m × K × F
        sel_sys, sel_base = part[:, sys_idx], part[:, base_idx]  # m × P × F
        # sacrebleu: shuffled baseline = sel @ base + ~sel @ sys; shuffled system = ~sel @ base + sel @ sys
        pseudo_base = sel_base - sel_sys + totals[sys_idx]
        pseudo_sys = totals[base_idx] - sel_base + sel_sys
        diff = np.asarray(score(pseudo_base) - score(pseudo_sys), dtype=np.float64)  # m × P
        null[:, start : start + chunk] = np.abs(diff).T

    comparisons = []
    for p, (i, j) in enumerate(pairs):
        delta = float(observed[i] - observed[j])
        pvalue = exceedance_pvalue(null[p], abs(delta))
        verdict = randomization_verdict(delta, pvalue, alpha)
        comparisons.append(
            PairedComparison(stack.names[i], stack.names[j], delta, pvalue, None, verdict)
        )
    return PairedTestResult(
        method="approximate-randomization",
        systems=stack.names,
        scores=tuple(float(s) for s in observed),
        comparisons=tuple(comparisons),
        n_resamples=r,
        seed=seed,
        alpha=float(alpha),
        confidence_level=1.0 - float(alpha),
    )


def randomization_verdict(difference: float, pvalue: float, alpha: float) -> str:
    """``>``/``<`` when ``p < alpha`` and the difference is not 0, else ``~`` (the verdict of every
    paired test, :func:`bleu_core.evaluation.results.verdict`).

    >>> randomization_verdict(-1.5, 0.01, 0.05), randomization_verdict(1.5, 0.2, 0.05)
    ('<', '~')
    """
    return verdict(difference, pvalue, alpha)


def at_alpha(result: PairedTestResult, alpha: float) -> PairedTestResult:
    """An approximate-randomisation result with its verdicts read at another significance level.

    The trials and p-values do not depend on ``alpha``; only the verdicts do, so nothing is re-run.
    """
    check_level(1.0 - alpha)
    comparisons = tuple(
        replace(c, verdict=randomization_verdict(c.statistic, c.pvalue, alpha))
        for c in result.comparisons
    )
    return replace(
        result, comparisons=comparisons, alpha=float(alpha), confidence_level=1.0 - float(alpha)
    )
