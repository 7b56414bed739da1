"""Any metric's per-segment statistics, ready for the resampling tests (bootstrap, randomisation, blocks).

The paired bootstrap, approximate randomisation and the block experiment never re-score text: they sum
per-segment statistics over resampled, swapped or blocked segments and turn the sums into corpus scores.
That works for every metric whose corpus score is a function of summed per-segment statistics:

* **BLEU**: n-gram matches and counts, lengths (:mod:`bleu_core.engine.statistics`);
* **chrF, TER, NIST, PER...** computed here: the additive statistics of
  :class:`bleu_core.metrics.registry.MetricScores` and its ``from_stats``;
* **a metric scored elsewhere** (COMET, BLEURT... attached to a study) with segment scores: the corpus
  score is the **mean of the segment scores**, MTME's convention (google-research/mt-metrics-eval
  averages segment scores into system scores for its significance tests). The statistics of a segment
  are ``(score, 1)``, or ``(0, 0)`` where the system has no score for it (that segment is left out of
  the mean), and the corpus score is ``sum(score) / sum(count)``. A system-level score given in a
  ``sys`` file is not used: resampling needs segment scores, and the mean of the segment scores is what
  is resampled (MTME computes both the same way for its own metrics).

A metric with system-level scores only cannot be resampled: there is nothing per segment to draw.

>>> stats = mean_of_segments("COMET", {"A": [0.5, 0.7, np.nan], "B": [0.1, 0.3, 0.2]})
>>> stats.score(np.stack([stats.systems["A"].sum(axis=0), stats.systems["B"].sum(axis=0)])).round(3)
array([0.6, 0.2])
>>> from bleu_core.evaluation import paired_bootstrap
>>> test = paired_bootstrap(stats.systems, n_resamples=100, seed=1, score=stats.score)
>>> round(test.get("A", "B").statistic, 3), test.seed
(0.4, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import StatsInputError

MEAN_OF_SEGMENTS = (
    "the mean of its segment scores (MTME's convention; segments without a score left out)"
)
"""How an attached metric's corpus score is formed here (shown next to its results)."""


@dataclass(frozen=True, eq=False)
class MetricStatistics:
    """One metric's per-segment statistics for every system, and how they make a corpus score.

    Attributes:
        metric: the metric's name (as shown).
        systems: ``{system: S × F array}`` of additive statistics, all over the same segments.
        score: corpus scores from summed statistics, ``(..., F)`` → ``(...)``.
        higher_is_better: the metric's direction (the tests compare scores; this says what is better).
        corpus_rule: how the corpus score is formed, in words.
    """

    metric: str
    systems: dict[str, np.ndarray]
    score: Callable[[np.ndarray], np.ndarray]
    higher_is_better: bool
    corpus_rule: str

    def subset(self, names: Sequence[str]) -> dict[str, np.ndarray]:
        """``{system: statistics}`` for ``names``, in that order."""
        return {name: self.systems[name] for name in names}


def segment_mean(totals: np.ndarray) -> np.ndarray:
    """``sum(score) / sum(count)`` of summed ``(score, count)`` statistics: NaN where nothing was scored.

    >>> segment_mean(np.array([[3.0, 2.0], [0.0, 0.0]])).tolist()
    [1.5, nan]
    """
    totals = np.asarray(totals, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return totals[..., 0] / totals[..., 1]


def mean_of_segments(
    metric: str,
    segment_scores: Mapping[str, Any],
    *,
    higher_is_better: bool = True,
) -> MetricStatistics:
    """Statistics of a metric whose corpus score is the mean of its segment scores (see the module).

    Args:
        metric: the metric's name.
        segment_scores: ``{system: S scores}``; NaN marks a segment the system has no score for.
        higher_is_better: the metric's direction.

    Raises :class:`~bleu_core.evaluation.errors.StatsInputError` when the systems' lengths differ, a score
    is infinite, or a system has no segment score at all.

    >>> mean_of_segments("M", {"A": [1.0, np.nan], "B": [np.nan, np.nan]})
    Traceback (most recent call last):
    ...
    bleu_core.errors.StatsInputError: metric 'M': system 'B' has no segment score: it cannot be resampled
    """
    systems: dict[str, np.ndarray] = {}
    length: int | None = None
    for name, values in segment_scores.items():
        row = np.asarray(values, dtype=np.float64).ravel()
        if length is not None and row.size != length:
            raise StatsInputError(
                f"metric {metric!r}: system {name!r} has {row.size} segment scores but the first "
                f"system has {length}: every system must be scored on the same segments"
            )
        length = row.size
        if np.isinf(row).any():
            bad = int(np.flatnonzero(np.isinf(row))[0])
            raise StatsInputError(
                f"metric {metric!r}: system {name!r} has an infinite score at segment {bad + 1}"
            )
        valid = ~np.isnan(row)
        if not valid.any():
            raise StatsInputError(
                f"metric {metric!r}: system {name!r} has no segment score: it cannot be resampled"
            )
        systems[str(name)] = np.column_stack([np.where(valid, row, 0.0), valid.astype(np.float64)])
    if not systems:
        raise StatsInputError(f"metric {metric!r}: no systems")
    return MetricStatistics(metric, systems, segment_mean, higher_is_better, MEAN_OF_SEGMENTS)


def additive_metric(
    metric: str,
    names: Sequence[str],
    stats: np.ndarray,
    from_stats: Callable[[np.ndarray], np.ndarray],
    *,
    higher_is_better: bool = True,
    corpus_rule: str = "its corpus score from summed per-segment statistics",
) -> MetricStatistics:
    """Statistics of a metric computed here: ``stats`` is ``K × S × F`` (row k = ``names[k]``).

    ``from_stats`` is the metric's corpus score of summed statistics, e.g. the ``from_stats`` of a
    :class:`bleu_core.metrics.registry.MetricScores`.
    """
    stats = np.asarray(stats, dtype=np.float64)
    if stats.ndim != 3 or stats.shape[0] != len(names):
        raise StatsInputError(
            f"metric {metric!r}: expected statistics of shape ({len(names)}, segments, columns), "
            f"got {stats.shape}"
        )

    def score(totals: np.ndarray) -> np.ndarray:
        return np.asarray(from_stats(totals), dtype=np.float64)

    systems = {str(name): stats[k] for k, name in enumerate(names)}
    return MetricStatistics(metric, systems, score, higher_is_better, corpus_rule)
