"""Bootstrap confidence intervals of BLEU and the paired bootstrap test (Zhang & Vogel 2004).

Zhang & Vogel resample the test set: ``M`` new test sets of ``S`` segments drawn with replacement,
each scored with BLEU. The middle 95 % of the ``M`` scores (2.5th to 97.5th percentile) is the 95 %
confidence interval of the system's BLEU; the relative standard deviation ``RSD = std / mean`` says
how precise the score is. For two systems on the *same* resampled test sets, the middle 95 % of the
``M`` differences is the confidence interval of the difference; if it does not contain 0 the
difference is significant (``>`` or ``<``), otherwise ``~``.

The p-value reported next to the verdict is sacrebleu's ``--paired-bs`` p-value (the Moses
``bootstrap-hypothesis-difference-significance.pl`` recipe): the resampled absolute differences,
centred on their mean, are compared with the observed absolute difference,
``p = (#{|d_m| − mean|d| > |d|} + 1) / (M + 1)``.

Everything runs on per-segment statistics: the resamples are an ``M × S`` count matrix, one matrix
product gives every resampled test set's statistics for every system, and one vectorised BLEU call
scores them all. With the same seed the resampled test sets are exactly sacrebleu's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..limits import MAX_RESAMPLES
from .resampling import (
    DEFAULT_SEED,
    bootstrap_indices,
    check_count,
    check_level,
    counts_from_indices,
    make_rng,
    percentile_interval,
)
from .results import PairedComparison, PairedTestResult, exceedance_pvalue, pairs_to_test
from .systems import SystemStack, bleu_scores, default_options, stack_systems

#: Largest number of (resample, segment) cells drawn in one call (bigger runs are drawn in row chunks).
_MAX_CELLS = 30_000_000


@dataclass(frozen=True)
class SystemInterval:
    """Bootstrap summary of one system's BLEU.

    Attributes:
        system: the system name.
        statistic: BLEU (0-100) on the full test set.
        mean, std: mean and standard deviation (ddof=1) of the resampled BLEU scores.
        rsd: relative standard deviation ``std / mean`` (Zhang & Vogel), ``nan`` when the mean is 0.
        confidence_interval: percentile interval ``(low, high)`` of the resampled scores.
    """

    system: str
    statistic: float
    mean: float
    std: float
    rsd: float
    confidence_interval: tuple[float, float]


@dataclass(frozen=True, eq=False)
class BootstrapResult:
    """Resampled BLEU of several systems on the same ``M`` bootstrap test sets.

    Attributes:
        systems: names in input order. ``observed``: BLEU on the full test set (``K``).
        samples: resampled BLEU, ``K × M`` (row k = system k).
        intervals: one :class:`SystemInterval` per system.
        n_resamples, seed, confidence_level: how it was computed.
    """

    systems: tuple[str, ...]
    observed: np.ndarray
    samples: np.ndarray
    intervals: tuple[SystemInterval, ...]
    n_resamples: int
    seed: int
    confidence_level: float

    def interval(self, system: str) -> SystemInterval:
        return self.intervals[self.systems.index(system)]

    def paired(self, *, baseline: str | None = None, alpha: float = 0.05) -> PairedTestResult:
        """Paired bootstrap test of every pair of systems (or each against ``baseline``).

        The verdict follows Zhang & Vogel: significant when the ``1 − alpha`` percentile interval of
        the difference excludes 0.
        """
        level = check_level(1.0 - alpha)
        comparisons = []
        for i, j in pairs_to_test(self.systems, baseline):
            observed = float(self.observed[i] - self.observed[j])
            diffs = self.samples[i] - self.samples[j]
            low, high = percentile_interval(diffs, level)
            magnitude = np.abs(diffs)
            pvalue = exceedance_pvalue(magnitude - magnitude.mean(), abs(observed))
            verdict = ">" if low > 0 else "<" if high < 0 else "~"
            comparisons.append(
                PairedComparison(
                    system=self.systems[i],
                    baseline=self.systems[j],
                    statistic=observed,
                    pvalue=pvalue,
                    confidence_interval=(low, high),
                    verdict=verdict,
                )
            )
        return PairedTestResult(
            method="paired-bootstrap",
            systems=self.systems,
            scores=tuple(float(s) for s in self.observed),
            comparisons=tuple(comparisons),
            n_resamples=self.n_resamples,
            seed=self.seed,
            alpha=float(alpha),
            confidence_level=level,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "confidence_level": self.confidence_level,
            "systems": [
                {
                    "system": iv.system,
                    "score": iv.statistic,
                    "mean": iv.mean,
                    "std": iv.std,
                    "rsd": iv.rsd,
                    "confidence_interval": list(iv.confidence_interval),
                }
                for iv in self.intervals
            ],
        }


def resampled_bleu(stack: SystemStack, counts: np.ndarray, options: Any) -> np.ndarray:
    """BLEU of every system on every resampled test set: ``K × M`` from an ``M × S`` count matrix."""
    return bleu_scores(stack.weighted_totals(counts, integer_weights=True), options).T


def draw_indices(n_segments: int, n_resamples: int, rng: np.random.Generator):
    """Bootstrap indices in row blocks: one block (sacrebleu's single draw) unless it is very large."""
    rows = (
        n_resamples if n_segments * n_resamples <= _MAX_CELLS else max(1, _MAX_CELLS // n_segments)
    )
    for start in range(0, n_resamples, rows):
        yield bootstrap_indices(n_segments, min(rows, n_resamples - start), rng)


def draw_counts(n_segments: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap count matrix ``M × S``, drawn in one call (as sacrebleu) unless it is very large."""
    return np.concatenate(
        [counts_from_indices(i, n_segments) for i in draw_indices(n_segments, n_resamples, rng)]
    )


def summarise(
    samples: np.ndarray, confidence: float
) -> tuple[float, float, float, tuple[float, float]]:
    """Mean, standard deviation (ddof=1), RSD and percentile interval of 1-D resampled scores."""
    mean = float(np.mean(samples))
    std = float(np.std(samples, ddof=1)) if len(samples) > 1 else float("nan")
    rsd = std / mean if mean != 0 else float("nan")
    return mean, std, rsd, percentile_interval(samples, confidence)


def bootstrap(
    systems: Mapping[str, Any],
    options: Any = None,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = DEFAULT_SEED,
) -> BootstrapResult:
    """Bootstrap BLEU of every system on the same ``n_resamples`` resampled test sets.

    Args:
        systems: ``{name: SegmentStatistics}`` (all over the same segments, same references).
        options: :class:`~bleu_core.options.BleuOptions` (default options when ``None``).
        n_resamples: number of bootstrap test sets ``M`` (Zhang & Vogel use 1000-2000).
        confidence: level of the percentile intervals.
        seed: generator seed (reported in the result); ``None`` draws one.

    Returns:
        A :class:`BootstrapResult`; call ``.paired()`` on it for the paired test.
    """
    stack = stack_systems(systems)
    m = check_count(n_resamples, "number of resamples", maximum=MAX_RESAMPLES)
    level = check_level(confidence)
    options = default_options(options)
    rng, seed = make_rng(seed)
    samples = np.concatenate(
        [
            bleu_scores(stack.resampled_totals(indices), options).T
            for indices in draw_indices(stack.n_segments, m, rng)
        ],
        axis=1,
    )
    observed = bleu_scores(stack.totals(), options)
    intervals = []
    for k, name in enumerate(stack.names):
        mean, std, rsd, ci = summarise(samples[k], level)
        intervals.append(SystemInterval(name, float(observed[k]), mean, std, rsd, ci))
    return BootstrapResult(
        systems=stack.names,
        observed=observed,
        samples=samples,
        intervals=tuple(intervals),
        n_resamples=m,
        seed=seed,
        confidence_level=level,
    )


def paired_bootstrap(
    systems: Mapping[str, Any],
    options: Any = None,
    *,
    n_resamples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    baseline: str | None = None,
    alpha: float = 0.05,
) -> PairedTestResult:
    """Paired bootstrap test (sacrebleu ``--paired-bs``) of every pair, or of each system vs ``baseline``.

    A shortcut for ``bootstrap(...).paired(...)``.
    """
    result = bootstrap(systems, options, n_resamples=n_resamples, confidence=1.0 - alpha, seed=seed)
    return result.paired(baseline=baseline, alpha=alpha)
