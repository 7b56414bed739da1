"""Bootstrap confidence intervals of BLEU and the paired bootstrap test (Zhang & Vogel 2004).

Zhang & Vogel resample the test set: ``M`` new test sets of ``S`` segments drawn with replacement,
each scored with BLEU. The middle 95 % of the ``M`` scores (2.5th to 97.5th percentile) is the 95 %
confidence interval of the system's BLEU; the relative standard deviation ``RSD = std / mean`` says
how precise the score is. For two systems on the *same* resampled test sets, the middle 95 % of the
``M`` differences is the confidence interval of the difference.

**One rule for the verdict, its interval and its p-value.** The verdict of a pair is read from the
``1 − alpha`` percentile interval of its ``M`` resampled differences: ``>`` when the interval lies above 0
(and the observed difference is positive), ``<`` when it lies below 0, else ``~``. Its p-value comes from the
same resamples and the same rule: the smallest ``alpha`` at which that percentile interval would exclude 0 on
the observed difference's side (:func:`percentile_pvalues`: twice the share of resampled differences beyond
0, interpolated as the percentiles are), so ``p < alpha`` exactly when the interval excludes 0, and no row
shows a verdict its own interval or p-value contradicts. (0 means no resample crossed 0: read ``p < 1/M``.)

sacrebleu's ``--paired-bs`` p-value (the Moses ``bootstrap-hypothesis-difference-significance.pl``
recipe) is kept beside it as ``sacrebleu_pvalue``: the resampled absolute differences, centred on their
mean, are compared with the observed absolute difference, ``p = (#{|d_m| − mean|d| > |d|} + 1) / (M + 1)``.
It tests another null (a centred |difference|), so it can fall below ``alpha`` while the percentile
interval still holds 0, or the other way; the verdict does not use it. With sacrebleu's seed it is
sacrebleu's number to the last digit.

Everything runs on per-segment statistics: the resamples are an ``M × S`` count matrix, one matrix
product gives every resampled test set's statistics for every system, and one vectorised BLEU call
scores them all. With the same seed the resampled test sets are exactly sacrebleu's. The paired test
of every pair is one array operation too: the ``P × M`` differences, their percentile intervals and
p-values are computed for all ``P`` pairs at once (in row chunks that bound memory).

Any metric whose corpus score is a function of summed per-segment statistics works the same way: pass
``score`` (statistics ``(..., F)`` → scores ``(...)``). :mod:`bleu_core.evaluation.metric_statistics` builds
such statistics for chrF, TER, NIST... and for a metric scored elsewhere (COMET...) whose corpus score is
the mean of its segment scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..limits import MAX_RESAMPLES
from ..maths.resampling import (
    DEFAULT_SEED,
    bootstrap_indices,
    check_count,
    check_level,
    counts_from_indices,
    make_rng,
    percentile_interval,
    percentile_intervals,
)
from .results import PairedComparison, PairedTestResult, interval_verdict, pairs_to_test
from .systems import SystemStack, bleu_scores, default_options, stack_systems

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions

#: Largest number of (resample, segment) cells drawn in one call (bigger runs are drawn in row chunks).
_MAX_CELLS = 30_000_000
#: Largest number of (pair, resample) cells of differences held at once by :meth:`BootstrapResult.paired`.
_PAIR_CELLS = 4_000_000

ScoreFunction = Callable[[np.ndarray], np.ndarray]
"""Corpus scores from summed statistics: ``(..., F)`` → ``(...)`` (BLEU's by default)."""


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

        The verdict is read from the ``1 − alpha`` percentile interval of the difference
        (:func:`~bleu_core.evaluation.results.interval_verdict`), and the p-value is that interval's own
        (:func:`percentile_pvalues`): ``p < alpha`` exactly when the interval excludes 0, so verdict,
        interval and p never disagree. sacrebleu's ``--paired-bs`` p-value is kept as ``sacrebleu_pvalue``
        (see the module docstring).
        """
        level = check_level(1.0 - alpha)
        pairs = pairs_to_test(self.systems, baseline)
        stats = paired_statistics(self.observed, self.samples, pairs, level)
        comparisons = []
        for (i, j), row in zip(pairs, stats.tolist(), strict=True):
            observed, sacrebleu_p, low, high, pvalue = row
            comparisons.append(
                PairedComparison(
                    system=self.systems[i],
                    baseline=self.systems[j],
                    statistic=observed,
                    pvalue=pvalue,
                    confidence_interval=(low, high),
                    verdict=interval_verdict(observed, low, high),
                    sacrebleu_pvalue=sacrebleu_p,
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

    def with_confidence(self, confidence: float) -> BootstrapResult:
        """The same resamples summarised at another confidence level (nothing is resampled again)."""
        level = check_level(confidence)
        if level == self.confidence_level:
            return self
        return replace(
            self,
            intervals=summarise_systems(self.systems, self.observed, self.samples, level),
            confidence_level=level,
        )

    def subset(self, systems: Sequence[str]) -> BootstrapResult:
        """Only ``systems`` (in that order): the same as bootstrapping them alone with the same seed.

        Every system is scored on the same resampled test sets, and which test sets are drawn depends
        on the seed and the number of segments only, so dropping systems changes no other system's
        numbers.
        """
        index = [self.systems.index(s) for s in systems]
        return replace(
            self,
            systems=tuple(systems),
            observed=self.observed[index],
            samples=self.samples[index],
            intervals=tuple(self.intervals[i] for i in index),
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


def bleu_scorer(options: BleuOptions | None) -> ScoreFunction:
    """BLEU (0-100) of summed statistics under ``options`` (defaults when ``None``)."""
    chosen = default_options(options)

    def score(totals: np.ndarray) -> np.ndarray:
        return bleu_scores(totals, chosen)

    return score


def resampled_bleu(stack: SystemStack, counts: np.ndarray, options: BleuOptions) -> np.ndarray:
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


def summarise_systems(
    names: Sequence[str], observed: np.ndarray, samples: np.ndarray, confidence: float
) -> tuple[SystemInterval, ...]:
    """:func:`summarise` of every row of ``K × M`` ``samples`` (the intervals in one quantile call).

    >>> rows = summarise_systems(["A"], np.array([2.0]), np.array([[1.0, 2.0, 3.0]]), 0.5)
    >>> rows[0].mean, rows[0].std, rows[0].confidence_interval
    (2.0, 1.0, (1.5, 2.5))
    """
    m = samples.shape[1]
    cis = percentile_intervals(samples, confidence)
    out = []
    for k, name in enumerate(
        names
    ):  # 1-D mean/std: a row-wise reduction can differ in the last bit
        mean = float(np.mean(samples[k]))
        std = float(np.std(samples[k], ddof=1)) if m > 1 else float("nan")
        rsd = std / mean if mean != 0 else float("nan")
        ci = (float(cis[k, 0]), float(cis[k, 1]))
        out.append(SystemInterval(name, float(observed[k]), mean, std, rsd, ci))
    return tuple(out)


def paired_statistics(
    observed: np.ndarray, samples: np.ndarray, pairs: Sequence[tuple[int, int]], confidence: float
) -> np.ndarray:
    """Per pair ``(i, j)``: observed difference, sacrebleu's p-value, interval low and high, and the
    interval's own p-value (a ``P × 5`` array).

    The differences ``samples[i] − samples[j]`` of all pairs are formed as one ``P × M`` array (in
    row chunks of at most ``_PAIR_CELLS`` cells); the percentile interval, sacrebleu's p-value
    ``(#{|d_m| − mean|d| > |d|} + 1) / (M + 1)`` and :func:`percentile_pvalues` are row-wise
    reductions of it.

    >>> paired_statistics(np.array([3.0, 1.0]), np.array([[3.0, 4.0, 2.0], [1.0, 1.0, 1.0]]),
    ...                   [(0, 1)], 0.5).tolist()
    [[2.0, 0.25, 1.5, 2.5, 0.0]]
    """
    out = np.empty((len(pairs), 5))
    if not len(pairs):
        return out
    first = np.array([i for i, _ in pairs], dtype=np.intp)
    second = np.array([j for _, j in pairs], dtype=np.intp)
    m = samples.shape[1]
    rows = max(1, _PAIR_CELLS // max(1, m))
    for start in range(0, len(pairs), rows):
        i, j = first[start : start + rows], second[start : start + rows]
        diffs = samples[i] - samples[j]
        observed_diff = observed[i] - observed[j]
        magnitude = np.abs(diffs)
        means = np.array([row.mean() for row in magnitude])  # as 1-D means (bit for bit)
        centred = magnitude - means[:, None]
        count = np.sum(centred > np.abs(observed_diff)[:, None], axis=1)
        block = out[start : start + rows]
        block[:, 0] = observed_diff
        block[:, 1] = (count + 1) / (m + 1)
        block[:, 2:4] = percentile_intervals(diffs, confidence)
        block[:, 4] = percentile_pvalues(diffs, observed_diff)
    return out


def percentile_pvalues(diffs: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Per row of ``P × M`` resampled differences, the p-value of its percentile interval: the smallest
    ``alpha`` at which the ``1 − alpha`` percentile interval (linear interpolation, as
    :func:`~bleu_core.maths.resampling.percentile_intervals`) excludes 0 on the side of the row's
    ``observed`` difference; 1 for an observed difference of 0.

    With ``q(t)`` the ``t`` quantile (non-decreasing, piecewise linear), the low end ``q(alpha/2)`` is above
    0 exactly when ``alpha/2 > t0 = sup{t : q(t) <= 0}``, so ``p = 2 t0`` for a positive difference;
    likewise ``p = 2 (1 − t1)``, ``t1 = inf{t : q(t) >= 0}``, for a negative one.

    >>> percentile_pvalues(np.array([[-1.0, 1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0, 5.0]]),
    ...                    np.array([2.0, 3.0])).tolist()
    [0.25, 0.0]
    >>> percentile_pvalues(np.array([[-4.0, -3.0, -2.0, -1.0, 1.0], [0.0, 0.0, 0.0, 0.0, 0.0]]),
    ...                    np.array([-2.0, 0.0])).tolist()
    [0.25, 1.0]
    """
    d = np.sort(np.asarray(diffs, dtype=np.float64), axis=-1)
    p_count, m = d.shape
    if m < 2:
        return np.where(np.asarray(observed) == 0, 1.0, 0.0) * np.ones(p_count)
    rows = np.arange(p_count)
    below_or_at = np.sum(d <= 0, axis=1)  # d[:k] <= 0 < d[k:]
    below = np.sum(d < 0, axis=1)  # d[:k] < 0 <= d[k:]
    # t0: the last position where q <= 0, between d[k-1] <= 0 and d[k] > 0
    k = np.clip(below_or_at, 1, m - 1)
    a, b = d[rows, k - 1], d[rows, k]
    with np.errstate(invalid="ignore", divide="ignore"):
        t0 = (k - 1 + np.where(b > a, -a / (b - a), 0.0)) / (m - 1)
    t0 = np.where(below_or_at == 0, 0.0, np.where(below_or_at == m, 1.0, t0))
    # t1: the first position where q >= 0, between d[k-1] < 0 and d[k] >= 0
    k = np.clip(below, 1, m - 1)
    a, b = d[rows, k - 1], d[rows, k]
    with np.errstate(invalid="ignore", divide="ignore"):
        t1 = (k - 1 + np.where(b > a, -a / (b - a), 0.0)) / (m - 1)
    t1 = np.where(below == 0, 0.0, np.where(below == m, 1.0, t1))
    obs = np.asarray(observed, dtype=np.float64)
    p = np.where(obs > 0, 2.0 * t0, np.where(obs < 0, 2.0 * (1.0 - t1), 1.0))
    return np.clip(p, 0.0, 1.0)


def bootstrap(
    systems: Mapping[str, Any],
    options: BleuOptions | None = None,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = DEFAULT_SEED,
    score: ScoreFunction | None = None,
) -> BootstrapResult:
    """Bootstrap BLEU (or ``score``) of every system on the same ``n_resamples`` resampled test sets.

    Args:
        systems: ``{name: SegmentStatistics}`` (all over the same segments, same references).
        options: :class:`~bleu_core.engine.options.BleuOptions` (default options when ``None``).
        n_resamples: number of bootstrap test sets ``M`` (Zhang & Vogel use 1000-2000).
        confidence: level of the percentile intervals.
        seed: generator seed (reported in the result); ``None`` draws one.
        score: another metric's corpus score from summed statistics (``systems`` then hold that
            metric's per-segment statistics; ``options`` is ignored), see
            :mod:`bleu_core.evaluation.metric_statistics`.

    Returns:
        A :class:`BootstrapResult`; call ``.paired()`` on it for the paired test.
    """
    stack = stack_systems(systems)
    m = check_count(n_resamples, "number of resamples", maximum=MAX_RESAMPLES)
    level = check_level(confidence)
    scorer = score if score is not None else bleu_scorer(options)
    rng, seed = make_rng(seed)
    samples = np.concatenate(
        [
            np.asarray(scorer(stack.resampled_totals(indices)), dtype=np.float64).T
            for indices in draw_indices(stack.n_segments, m, rng)
        ],
        axis=1,
    )
    observed = np.asarray(scorer(stack.totals()), dtype=np.float64)
    return BootstrapResult(
        systems=stack.names,
        observed=observed,
        samples=samples,
        intervals=summarise_systems(stack.names, observed, samples, level),
        n_resamples=m,
        seed=seed,
        confidence_level=level,
    )


def paired_bootstrap(
    systems: Mapping[str, Any],
    options: BleuOptions | None = None,
    *,
    n_resamples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    baseline: str | None = None,
    alpha: float = 0.05,
    score: ScoreFunction | None = None,
) -> PairedTestResult:
    """Paired bootstrap test (sacrebleu ``--paired-bs``) of every pair, or of each system vs ``baseline``.

    A shortcut for ``bootstrap(...).paired(...)``.
    """
    result = bootstrap(
        systems, options, n_resamples=n_resamples, confidence=1.0 - alpha, seed=seed, score=score
    )
    return result.paired(baseline=baseline, alpha=alpha)
