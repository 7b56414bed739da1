"""Meta-evaluation: how well do metric scores track human scores, and how sure are we?

System-level correlations get bootstrap confidence intervals by resampling *segments*: each bootstrap
test set is drawn once, and **both** the metric's system scores (BLEU recomputed from the resampled
per-segment statistics) **and** the human system scores (mean of the resampled segments' human
scores) are recomputed on it, so the interval reflects the uncertainty of both sides (Deutsch et al.
2021, "BOOT-INPUTS"). Segment-level correlations are resampled by segment (item) as well.

A *score source* is anything that gives one score per system on the full test set (``observed()``)
and on every resampled test set (``resampled(counts)``, ``M × K`` from an ``M × S`` count matrix):
:class:`BleuSource` for BLEU from per-segment statistics, :class:`SegmentMeanSource` for a score that
is the mean of segment scores (human ratings, or a segment-level metric averaged).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..limits import MAX_RESAMPLES
from ..maths.resampling import DEFAULT_SEED, check_count, check_level, make_rng, percentile_interval
from .bootstrap import draw_counts
from .correlation import (
    METHODS,
    ROW_FUNCTIONS,
    SEGMENT_METHODS,
    WMT_DARR_THRESHOLD,
    CorrelationResult,
    check_grouping,
    check_method,
    correlation,
    item_correlations,
    item_result,
    segment_correlation,
    wmt_pair_counts,
    wmt_result,
)
from .errors import StatsInputError
from .systems import SystemStack, bleu_scores
from .tau_like import TauLikeRule, tau_like_counts, tau_like_result

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions


class ScoreSource(Protocol):
    """One score per system, on the full test set and on resampled test sets."""

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def n_segments(self) -> int: ...

    def observed(self) -> np.ndarray: ...

    def resampled(self, counts: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True, eq=False)
class BleuSource:
    """Corpus BLEU of every system, recomputed from per-segment statistics on each resample."""

    stack: SystemStack
    options: BleuOptions

    @property
    def names(self) -> tuple[str, ...]:
        return self.stack.names

    @property
    def n_segments(self) -> int:
        return self.stack.n_segments

    def observed(self) -> np.ndarray:
        return bleu_scores(self.stack.totals(), self.options)

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        return bleu_scores(self.stack.weighted_totals(counts, integer_weights=True), self.options)


@dataclass(frozen=True, eq=False)
class SegmentMeanSource:
    """System score = mean of its non-missing segment scores (``K × S``, NaN = unrated).

    ``given``: system scores published as such (WMT's official DA z per system), when the study has
    them. The observed score is then the given one, and a resampled score is the mean of the
    resampled segment scores shifted by ``given − mean of all its segment scores``: the official
    number, with the segments' uncertainty around it (a system without a given score: its mean).

    >>> s = SegmentMeanSource(("A", "B"), np.array([[1.0, 3.0], [2.0, np.nan]]), np.array([2.5, np.nan]))
    >>> s.observed().tolist(), s.resampled(np.array([[2.0, 0.0]])).tolist()
    ([2.5, 2.0], [[1.5, 2.0]])
    """

    names: tuple[str, ...]
    scores: np.ndarray
    given: np.ndarray | None = None

    @property
    def n_segments(self) -> int:
        return self.scores.shape[1]

    def _means(self) -> np.ndarray:
        valid = ~np.isnan(self.scores)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(valid, self.scores, 0.0).sum(1) / valid.sum(1)

    def _offset(self) -> np.ndarray | float:
        if self.given is None:
            return 0.0
        given = np.asarray(self.given, dtype=np.float64)
        return np.where(np.isnan(given), 0.0, given - self._means())

    def observed(self) -> np.ndarray:
        means = self._means()
        if self.given is None:
            return means
        given = np.asarray(self.given, dtype=np.float64)
        return np.where(np.isnan(given), means, given)

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        valid = ~np.isnan(self.scores)
        num = counts @ np.where(valid, self.scores, 0.0).T
        den = counts @ valid.T.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
        return means + self._offset()


def human_source(
    names: Sequence[str], segment_scores: Any, system_scores: Any = None
) -> SegmentMeanSource | None:
    """The human side of a system-level correlation: every caller (pages, ``meta``, Export) builds it
    here, so one criterion gives one r and one interval everywhere.

    ``segment_scores`` (``K × S``, NaN = unrated) and the study's system scores (``K``; the official
    system-level ratings where the study has them, NaN where not). Returns ``None`` when there is no
    segment score at all: then only the system scores exist, and :func:`system_correlations` gives
    Pearson's r a Fisher z interval instead of resampling segments.
    """
    seg = np.asarray(segment_scores, dtype=np.float64)
    if seg.size == 0 or not np.isfinite(seg).any():
        return None
    given = None if system_scores is None else np.asarray(system_scores, dtype=np.float64)
    return SegmentMeanSource(tuple(names), seg, given)


def bootstrap_counts(
    n_segments: int, n_resamples: int, seed: int | None = DEFAULT_SEED
) -> tuple[np.ndarray, int]:
    """The bootstrap count matrix (``n_resamples × n_segments``) that :func:`system_correlations` and
    :func:`segment_correlations` draw with ``seed``, and the seed (drawn when ``None``). Pass it back as
    their ``counts`` to draw it once for both (and for several metrics or settings).

    >>> counts, seed = bootstrap_counts(5, 3, seed=1)
    >>> counts.shape, counts.sum(axis=1).tolist(), seed
    ((3, 5), [5.0, 5.0, 5.0], 1)
    """
    m_count = check_count(n_resamples, "number of resamples", maximum=MAX_RESAMPLES)
    rng, seed = make_rng(seed)
    return draw_counts(n_segments, m_count, rng), seed


def _counts(
    counts: np.ndarray | None, n_segments: int, n_resamples: int, seed: int | None
) -> tuple[np.ndarray, int | None]:
    if counts is None:
        return bootstrap_counts(n_segments, n_resamples, seed)
    check_count(n_resamples, "number of resamples", maximum=MAX_RESAMPLES)
    counts = np.asarray(counts)
    if counts.shape != (n_resamples, n_segments):
        raise StatsInputError(
            f"bootstrap counts of shape {counts.shape} for {n_resamples} resamples of "
            f"{n_segments} segments"
        )
    return counts, seed


def _interval_from_rows(values: np.ndarray, level: float) -> tuple[tuple[float, float] | None, str]:
    ok = values[~np.isnan(values)]
    if ok.size < max(2, 0.5 * values.size):
        return (
            None,
            f"bootstrap interval undefined in {values.size - ok.size} of {values.size} resamples",
        )
    note = "" if ok.size == values.size else f"{values.size - ok.size} undefined resamples skipped"
    return percentile_interval(ok, level), note


def interval_method(result: CorrelationResult) -> str:
    """How ``result``'s interval was made, in words every surface prints the same way.

    >>> from bleu_core.maths.correlation import CorrelationResult
    >>> interval_method(CorrelationResult("pearson", 0.5, 0.1, 9).with_interval((0.1, 0.8), 0.95, 1000, 7))
    'bootstrap: segments resampled, metric and human scores recomputed on each (1000 resamples, seed 7)'
    """
    if result.confidence_interval is None:
        return result.note or "no interval"
    if result.interval_method == "Fisher z":
        return f"Fisher z ({SYSTEM_LEVEL_ONLY})"
    return (
        "bootstrap: segments resampled, metric and human scores recomputed on each "
        f"({result.n_resamples} resamples, seed {result.seed})"
    )


SYSTEM_LEVEL_ONLY = "human scores are system-level only"
"""Why a system-level r has a Fisher z interval (or none) rather than a bootstrap one."""


def _fisher(result: CorrelationResult, level: float) -> CorrelationResult:
    """Nothing to resample: Pearson's r gets its Fisher z interval, said in the note; others none."""
    if result.note:
        return result
    fisher = result.with_fisher_interval(level)
    if fisher.confidence_interval is None:
        return replace(result, note=f"{SYSTEM_LEVEL_ONLY}: no interval")
    return replace(fisher, note=f"{SYSTEM_LEVEL_ONLY}: Fisher z interval")


def system_correlations(
    metric: ScoreSource,
    human: ScoreSource | None,
    *,
    human_scores: Sequence[float] | None = None,
    methods: Sequence[str] = METHODS,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = DEFAULT_SEED,
    counts: np.ndarray | None = None,
) -> dict[str, CorrelationResult]:
    """System-level correlations of a metric with human scores, with bootstrap intervals.

    Args:
        metric: the metric's score source.
        human: the human score source (same systems and segments; :func:`human_source`), or
            ``None`` when only fixed system-level human scores exist; then pass ``human_scores``:
            nothing can be resampled, so Pearson's r gets its Fisher z interval (said in ``note``)
            and the other coefficients none.
        methods: any of ``pearson``, ``spearman``, ``kendall``.
        n_resamples: bootstrap resamples (0 = no intervals).
        seed: generator seed, reported in each result.
        counts: the bootstrap count matrix (``n_resamples × segments``) when it was drawn already
            (:func:`bootstrap_counts` with the same ``seed``: the same result, nothing drawn again).
    """
    for m in methods:
        check_method(m)
    level = check_level(confidence)
    observed_metric = metric.observed()
    if human is not None:
        if tuple(human.names) != tuple(metric.names) or human.n_segments != metric.n_segments:
            raise StatsInputError(
                "metric and human scores must cover the same systems and segments"
            )
        observed_human = human.observed()
    elif human_scores is not None:
        observed_human = np.asarray(human_scores, dtype=np.float64)
        if observed_human.shape != observed_metric.shape:
            raise StatsInputError(
                f"{observed_human.size} human system scores for {observed_metric.size} systems"
            )
    else:
        raise StatsInputError("give human scores: a score source or system-level scores")
    results = {
        m: replace(correlation(observed_metric, observed_human, m), level="system") for m in methods
    }
    if n_resamples == 0:
        return results
    if human is None:
        return {m: _fisher(r, level) for m, r in results.items()}
    counts, seed = _counts(counts, metric.n_segments, n_resamples, seed)
    m_count = counts.shape[0]
    keep = ~(np.isnan(observed_metric) | np.isnan(observed_human))
    mr = metric.resampled(counts)[:, keep]
    hr = human.resampled(counts)[:, keep]
    complete = ~(np.isnan(mr).any(1) | np.isnan(hr).any(1))
    out = {}
    for m, res in results.items():
        if np.isnan(res.statistic):
            out[m] = res
            continue
        values = np.full(m_count, np.nan)
        values[complete] = ROW_FUNCTIONS[m](mr[complete], hr[complete])
        interval, note = _interval_from_rows(values, level)
        res = replace(res, note=note) if note else res
        out[m] = res if interval is None else res.with_interval(interval, level, m_count, seed)
    return out


def _weighted_pearson(counts: np.ndarray, metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    """Pearson r over all (system, segment) pairs of each resample (segments weighted by counts)."""
    valid = ~(np.isnan(metric) | np.isnan(human))
    x = np.where(valid, metric, 0.0)
    y = np.where(valid, human, 0.0)
    moments = np.stack(
        [valid.sum(0), x.sum(0), y.sum(0), (x * x).sum(0), (y * y).sum(0), (x * y).sum(0)], axis=1
    ).astype(np.float64)  # S × 6
    n, sx, sy, sxx, syy, sxy = (counts @ moments).T
    with np.errstate(invalid="ignore", divide="ignore"):
        cov = sxy - sx * sy / n
        r = cov / np.sqrt((sxx - sx * sx / n) * (syy - sy * sy / n))
    return np.clip(r, -1.0, 1.0)


def segment_correlations(
    metric: Any,
    human: Any,
    *,
    methods: Sequence[tuple[str, str]] = (
        ("pearson", "none"),
        ("kendall", "none"),
        ("kendall-wmt", "item"),
    ),
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = DEFAULT_SEED,
    threshold: float = WMT_DARR_THRESHOLD,
    counts: np.ndarray | None = None,
    rule: TauLikeRule | None = None,
    select: np.ndarray | None = None,
) -> list[CorrelationResult]:
    """Segment-level correlations (``(method, grouping)`` pairs) with bootstrap intervals over segments.

    ``metric`` and ``human`` are ``systems × segments`` arrays (NaN = missing). Intervals are computed
    for Pearson without grouping (weighted moments), for every method grouped by item, and for WMT's
    tau-like; ungrouped Kendall has none (its cost grows with the square of the number of pairs).
    ``counts``: the bootstrap count matrix when drawn already (see :func:`bootstrap_counts`).
    ``rule``: the tau-like's rule for this criterion (:func:`~bleu_core.evaluation.tau_like.study_rule`;
    it replaces ``threshold`` and says itself beside the number), with ``select`` the scores that
    choose its pairs when they are not ``human``'s own (raw DA for a DA z gold).
    """
    m_arr = np.asarray(metric, dtype=np.float64)
    h_arr = np.asarray(human, dtype=np.float64)
    level = check_level(confidence)
    if n_resamples:
        counts, seed = _counts(counts, m_arr.shape[1], n_resamples, seed)
    else:
        counts = None
    results = []
    for method, grouping in methods:
        check_method(method, SEGMENT_METHODS)
        check_grouping(grouping)
        # per-segment values computed once, for the estimate and its bootstrap alike (both check shapes)
        if method == "kendall-wmt" and rule is not None:
            c, d, left_out = tau_like_counts(m_arr, h_arr, rule.threshold, select)
            res = tau_like_result(c, d, rule, left_out)
        elif method == "kendall-wmt":
            c, d = wmt_pair_counts(m_arr, h_arr, threshold)
            res = wmt_result(c, d, threshold)
        elif grouping == "item":
            per_item = item_correlations(m_arr, h_arr, method)
            res = item_result(method, per_item)
        else:
            res = segment_correlation(m_arr, h_arr, method, grouping=grouping, threshold=threshold)
        if counts is None or np.isnan(res.statistic):
            results.append(res)
            continue
        with np.errstate(invalid="ignore", divide="ignore"):
            if method == "kendall-wmt":
                cc, dd = counts @ c, counts @ d
                values = (cc - dd) / (cc + dd)
            elif grouping == "item":
                ok = ~np.isnan(per_item)
                values = (counts @ np.where(ok, per_item, 0.0)) / (counts @ ok.astype(np.float64))
            elif method == "pearson":
                values = _weighted_pearson(counts, m_arr, h_arr)
            else:
                results.append(replace(res, note="no bootstrap interval for ungrouped Kendall"))
                continue
        interval, note = _interval_from_rows(np.asarray(values, dtype=np.float64), level)
        res = replace(res, note=note) if note else res
        results.append(
            res if interval is None else res.with_interval(interval, level, counts.shape[0], seed)
        )
    return results
