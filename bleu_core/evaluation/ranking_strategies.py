"""The statistics metrics are ranked by: one strategy class per kind of statistic, one interface.

:func:`bleu_core.evaluation.clusters.rank_metrics` sorts metrics by a meta-evaluation statistic, tests every
pair and assigns cluster ranks. What differs between statistics is only how each metric's value is
computed, how two metrics are tested against each other and how the rows' confidence intervals are
resampled. A :class:`RankingStatistic` holds those three things for one kind of statistic:

* :class:`SystemScoreStatistic`: ``pairwise-accuracy``, ``pearson``, ``spearman``, ``kendall`` on the
  system scores,
  tested by PERM-BOTH with the system scores swapped, intervals by resampling systems;
* :class:`SoftPairwiseStatistic`: ``soft-pairwise-accuracy`` (Thompson et al. 2024), tested as MTME does
  (PERM-BOTH on segment scores, stopped early as WMT's tasks), intervals by resampling segments;
* :class:`TieCalibratedStatistic`: ``acc-eq`` / ``tau-eq`` (Deutsch et al. 2023) grouped by item, each
  metric at its calibrated tie threshold, tested by swapping pair outcomes, intervals by resampling items.

:meth:`RankingStatistic.score` returns a :class:`Scored`: every metric's value and details, and
``pvalue(a, b)``, the p-value of "metric ``a`` beats metric ``b``". ``rank_metrics`` looks the strategy
up by name in :data:`STRATEGIES`; a new statistic is one more subclass and one more entry there.

>>> STRATEGIES["acc-eq"].level, STRATEGIES["soft-pairwise-accuracy"].needs_segment_scores
('segment', True)
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

import numpy as np

from . import ranking_intervals as ri
from .errors import StatsInputError
from .statistic_names import TIE_VARIANTS

#: MTME's ``PermutationSigDiffParams`` in its WMT tasks (``tasks.Task``): blocks of 100 resamples,
#: stop when p < 0.02 or p > 0.5. Used for soft pairwise accuracy, whose resamples are costly.
WMT_EARLY_STOP = (100, 0.02, 0.5)


@dataclass(frozen=True)
class RankingInputs:
    """What every strategy gets: the metrics' tables and the oriented human scores.

    ``items`` are :class:`~bleu_core.evaluation.metric_statistics.MetricTable` objects over the same
    systems; ``human_system`` is ``(K,)`` (NaN = left out), ``human_segment`` ``(K, S)`` or ``None``.
    ``n_resamples``, ``seed`` and ``confidence`` are shared by the tests and the bootstrap intervals.
    ``tau_like``: the criterion's :class:`~bleu_core.evaluation.tau_like.TauLikeRule` (``kendall-wmt``;
    ``None``: WMT's 25 points), ``select`` the scores that choose its pairs when not the human ones.
    """

    items: Sequence[Any]
    human_system: np.ndarray
    human_segment: np.ndarray | None
    n_resamples: int
    seed: int
    confidence: float
    tau_like: Any = None
    select: np.ndarray | None = None

    def bootstrap(self) -> dict[str, Any]:
        """The keyword arguments of :mod:`~bleu_core.evaluation.ranking_intervals`' functions."""
        return {"n_resamples": self.n_resamples, "confidence": self.confidence, "seed": self.seed}


@dataclass(frozen=True)
class Scored:
    """Every metric's value of one statistic, and how to test two metrics against each other.

    ``values[name]`` is the statistic (NaN = undefined; such a metric is ranked last, without a rank);
    ``info[name]`` may hold ``n`` (pairs or systems counted), ``threshold`` and ``note``;
    ``pvalue(a, b)`` is the p-value that the metric named ``a`` beats the one named ``b``;
    ``intervals[name]`` is ``(confidence interval or None, note)``; ``interval`` says how they were
    resampled (empty when they were not); ``pvalues(pairs)``, when set, gives ``pvalue`` of many pairs at
    once (a statistic whose tests share their draws).
    """

    values: dict[str, float]
    info: dict[str, dict[str, Any]]
    pvalue: Callable[[str, str], float]
    intervals: dict[str, tuple[Any, str]] = field(default_factory=dict)
    interval: str = ""
    pvalues: Callable[[Sequence[tuple[str, str]]], dict[tuple[str, str], float]] | None = None


class RankingStatistic(ABC):
    """One kind of statistic metrics are ranked by (see the module docstring).

    Subclasses set ``level`` (``"system"`` or ``"segment"``), ``test`` (how pairs of metrics are
    tested, shown with the ranking) and ``needs_segment_scores`` (human segment scores required), and
    implement :meth:`score`.
    """

    level: ClassVar[str]
    test: ClassVar[str]
    needs_segment_scores: ClassVar[bool] = False

    def __init__(self, name: str) -> None:
        self.name = name

    @abstractmethod
    def score(self, inputs: RankingInputs) -> Scored:
        """Every metric's value of this statistic, its intervals and its pairwise test."""


class SystemScoreStatistic(RankingStatistic):
    """Pairwise accuracy (Kocmi et al. 2021), Pearson's r, Spearman's rho or Kendall's tau-b of the
    system scores.

    Systems without a human score are left out (at least 3 must remain). Pairs of metrics are
    tested by PERM-BOTH (Deutsch et al. 2021) with the system scores swapped.
    """

    level = "system"
    test = "perm-both (system scores swapped)"

    def score(self, inputs: RankingInputs) -> Scored:
        human = inputs.human_system
        keep = ~np.isnan(human)
        if keep.sum() < 3:
            raise StatsInputError(f"only {int(keep.sum())} systems have a human score; need 3")
        oriented = {t.name: t.oriented_system()[keep] for t in inputs.items}
        values: dict[str, float] = {}
        info: dict[str, dict[str, Any]] = {}
        for name, m in oriented.items():
            values[name], n = self._value(m, human[keep])
            info[name] = {"n": n}
        intervals: dict[str, tuple[Any, str]] = {}
        interval = ""
        if inputs.n_resamples > 0:
            intervals = ri.system_intervals(oriented, human[keep], self.name, **inputs.bootstrap())
            interval = f"bootstrap over the {int(keep.sum())} systems"
        pvalue = partial(self._pvalue, oriented, human[keep], inputs)
        return Scored(values, info, pvalue, intervals, interval)

    def _value(self, metric: np.ndarray, human: np.ndarray) -> tuple[float, int]:
        if self.name == "pairwise-accuracy":
            from .pairwise import pairwise_accuracy

            r = pairwise_accuracy(metric, human)
            return r.statistic, r.n_pairs
        from .correlation import correlation

        c = correlation(metric, human, self.name)
        return c.statistic, c.n

    def _pvalue(
        self,
        oriented: dict[str, np.ndarray],
        human: np.ndarray,
        inputs: RankingInputs,
        a: str,
        b: str,
    ) -> float:
        from .permutation_both import perm_both

        return perm_both(
            oriented[b],
            oriented[a],
            human,
            self.name,
            n_resamples=inputs.n_resamples,
            seed=inputs.seed,
        ).pvalue


class SoftPairwiseStatistic(RankingStatistic):
    """Soft pairwise accuracy (Thompson et al. 2024) from segment scores, tested as MTME tests it.

    One set of segments for every metric: those every rated system has a human score for and every
    metric with segment scores has scored. Metrics without segment scores get NaN.
    """

    level = "system"
    test = (
        "perm-both (segment scores swapped, as MTME; stopped early as WMT's tasks: after a "
        "block of 100 resamples with p < 0.02 or p > 0.5)"
    )
    needs_segment_scores = True

    def score(self, inputs: RankingInputs) -> Scored:
        from .pairwise import soft_pairwise_accuracy

        if inputs.human_segment is None:
            raise StatsInputError("soft pairwise accuracy needs human segment scores")
        h_seg = np.asarray(inputs.human_segment, dtype=np.float64)
        rated = ~np.isnan(inputs.human_system) & ~np.isnan(h_seg).all(axis=1)
        common = ~np.isnan(h_seg[rated]).any(axis=0)
        values: dict[str, float] = {}
        info: dict[str, dict[str, Any]] = {}
        oriented: dict[str, np.ndarray] = {}
        for t in inputs.items:
            seg = t.oriented_segment()
            if seg is None:
                values[t.name], info[t.name] = math.nan, {"note": "no segment scores"}
                continue
            oriented[t.name] = seg[rated]
            common &= ~np.isnan(seg[rated]).any(axis=0)
        human = h_seg[rated][:, common]
        for name, seg in oriented.items():
            oriented[name] = seg[:, common]
            if int(rated.sum()) < 2 or int(common.sum()) < 2:
                values[name], info[name] = math.nan, {"note": "too few segments scored by all"}
                continue
            r = soft_pairwise_accuracy(oriented[name], human)
            values[name], info[name] = r.statistic, {"n": r.n_pairs}
        usable = {n: v for n, v in oriented.items() if not math.isnan(values[n])}
        intervals: dict[str, tuple[Any, str]] = {}
        interval = ""
        if inputs.n_resamples > 0 and usable:
            intervals = ri.soft_pairwise_intervals(usable, human, **inputs.bootstrap())
            interval = (
                f"bootstrap over the {int(common.sum())} segments scored for every rated system"
            )
        pvalues = partial(self._pvalues, oriented, human, inputs)
        return Scored(
            values, info, lambda a, b: pvalues([(a, b)])[(a, b)], intervals, interval, pvalues
        )

    @staticmethod
    def _pvalues(
        oriented: dict[str, np.ndarray],
        human: np.ndarray,
        inputs: RankingInputs,
        pairs: Sequence[tuple[str, str]],
    ) -> dict[tuple[str, str], float]:
        """Every pair's PERM-BOTH p-value that ``a`` beats ``b``, all on the same masks
        (:func:`~bleu_core.evaluation.spa_nulls.spa_perm_both`)."""
        from .spa_nulls import spa_perm_both

        names = {m for pair in pairs for m in pair}
        tests = spa_perm_both(
            {m: oriented[m] for m in names},
            human,
            pairs,
            inputs.n_resamples,
            inputs.seed,
            early_stop=WMT_EARLY_STOP,
        )
        return {pair: t.pvalue for pair, t in tests.items()}


class _PairValues:
    """Each metric's value of every pair of segments of one item (outcome value at its threshold),
    computed once and shared by every test of that metric."""

    def __init__(self, table: np.ndarray, human: np.ndarray, metrics: dict[str, tuple]) -> None:
        self.table, self.human, self.metrics = table, human, metrics
        self.cache: dict[str, np.ndarray] = {}

    def __call__(self, name: str) -> np.ndarray:
        from .ties import pair_outcomes

        if name not in self.cache:
            m, eps = self.metrics[name]
            outcomes = pair_outcomes(m, self.human, "item").outcomes_at(eps)
            self.cache[name] = self.table[outcomes]
        return self.cache[name]


class TieCalibratedStatistic(RankingStatistic):
    """acc*_eq (``acc-eq``: acc_23) or tau_eq (``tau-eq``: tau_23) with tie calibration, by item.

    Deutsch et al. (2023): one set of pairs for every metric (human-rated and scored by every metric
    with segment scores); each metric at its own optimised tie threshold. Pairs of metrics are tested
    by swapping the values of their pair outcomes (weights: one item counts as much as another).
    """

    level = "segment"
    test = "pairs permutation (pair outcomes swapped, each metric at its own threshold)"
    needs_segment_scores = True
    variants: ClassVar[dict[str, str]] = TIE_VARIANTS

    def score(self, inputs: RankingInputs) -> Scored:
        from .ties import OUTCOME_VALUES, pair_outcomes, tie_calibrated

        if inputs.human_segment is None:
            raise StatsInputError(f"{self.name} needs human segment scores")
        h_seg = np.asarray(inputs.human_segment, dtype=np.float64)
        variant = self.variants[self.name]
        valid = ~np.isnan(h_seg)
        for t in inputs.items:
            if t.segment is not None:
                valid &= ~np.isnan(t.segment)
        human = np.where(valid, h_seg, np.nan)
        values: dict[str, float] = {}
        info: dict[str, dict[str, Any]] = {}
        calibrated: dict[str, tuple[np.ndarray, float]] = {}
        for t in inputs.items:
            if t.segment is None:
                values[t.name], info[t.name] = math.nan, {"note": "no segment scores"}
                continue
            m = np.where(valid, t.oriented_segment(), np.nan)
            r = tie_calibrated(m, human, variant, average_by="item")
            values[t.name] = r.statistic
            info[t.name] = {"n": r.n_pairs, "threshold": r.threshold}
            calibrated[t.name] = (m, r.threshold)
        pair_values = _PairValues(OUTCOME_VALUES[variant], human, calibrated)
        if not calibrated:
            return Scored(values, info, partial(self._pvalue, pair_values, np.zeros(0), inputs))
        base = pair_outcomes(next(iter(calibrated.values()))[0], human, "item")
        sizes = base.group_sizes.astype(np.float64)
        n_groups = int((sizes > 0).sum())
        weights = 1.0 / (sizes[base.group] * max(n_groups, 1))
        pvalue = partial(self._pvalue, pair_values, weights, inputs)
        if inputs.n_resamples <= 0:
            return Scored(values, info, pvalue)
        with np.errstate(invalid="ignore", divide="ignore"):
            per_item = {
                name: np.bincount(base.group, weights=pair_values(name), minlength=sizes.size)
                / np.where(sizes > 0, sizes, np.nan)
                for name in calibrated
            }
        intervals = ri.item_intervals(per_item, **inputs.bootstrap())
        interval = f"bootstrap over the {n_groups} items, each metric at its calibrated threshold"
        return Scored(values, info, pvalue, intervals, interval)

    @staticmethod
    def _pvalue(
        pair_values: _PairValues, weights: np.ndarray, inputs: RankingInputs, a: str, b: str
    ) -> float:
        from .permutation_both import pairs_permutation

        return pairs_permutation(
            pair_values(b),
            pair_values(a),
            weights,
            n_resamples=inputs.n_resamples,
            seed=inputs.seed,
        ).pvalue


def common_segments(inputs: RankingInputs, name: str) -> np.ndarray:
    """Where the humans rated and every metric with segment scores scored (``K × S``)."""
    if inputs.human_segment is None:
        raise StatsInputError(f"{name} needs human segment scores")
    valid = ~np.isnan(inputs.human_segment)
    for t in inputs.items:
        if t.segment is not None:
            valid &= ~np.isnan(t.segment)
    return valid


class TauLikeStatistic(RankingStatistic):
    """WMT's tau-like (``kendall-wmt``): over the pairs of translations of each segment whose human
    scores differ by at least the criterion's threshold (:mod:`bleu_core.evaluation.tau_like`), concordant
    minus discordant (a metric tie is discordant) over all pairs pooled. One set of pairs for every
    metric (rated and scored by every metric with segment scores); pairs of metrics are tested by
    swapping their pair values, the interval resamples the segments.
    """

    level = "segment"
    test = "pairs permutation (pair values swapped)"
    needs_segment_scores = True

    def score(self, inputs: RankingInputs) -> Scored:
        from .permutation_both import pairs_permutation
        from .tau_like import tau_like_pairs, tau_like_rule

        valid = common_segments(inputs, self.name)
        human = np.where(valid, np.asarray(inputs.human_segment, dtype=np.float64), np.nan)
        rule = inputs.tau_like or tau_like_rule("human", (0.0, 100.0))
        select = None if inputs.select is None else np.where(valid, inputs.select, np.nan)
        pairs = tau_like_pairs(human, rule.threshold, select)
        values: dict[str, float] = {}
        info: dict[str, dict[str, Any]] = {}
        per_pair: dict[str, np.ndarray] = {}
        for t in inputs.items:
            if t.segment is None:
                values[t.name], info[t.name] = math.nan, {"note": "no segment scores"}
                continue
            per_pair[t.name] = pairs.values(t.oriented_segment())
            n = per_pair[t.name].size
            values[t.name] = float(per_pair[t.name].mean()) if n else math.nan
            info[t.name] = {"n": n} if n else {"n": 0, "note": f"no pair: {rule.describe()}"}
        weights = np.full(pairs.item.size, 1.0 / max(pairs.item.size, 1))

        def pvalue(a: str, b: str) -> float:
            return pairs_permutation(
                per_pair[b], per_pair[a], weights, n_resamples=inputs.n_resamples, seed=inputs.seed
            ).pvalue

        if inputs.n_resamples <= 0 or not pairs.item.size:
            return Scored(values, info, pvalue)
        sums = {
            name: np.bincount(pairs.item, weights=v, minlength=pairs.n_items)
            for name, v in per_pair.items()
        }
        counts = np.bincount(pairs.item, minlength=pairs.n_items)
        intervals = ri.pooled_item_intervals(sums, counts, **inputs.bootstrap())
        interval = f"bootstrap over the {pairs.n_items} segments, pairs pooled"
        return Scored(values, info, pvalue, intervals, interval)


STRATEGIES: dict[str, RankingStatistic] = {
    s.name: s
    for s in (
        SystemScoreStatistic("pairwise-accuracy"),
        SystemScoreStatistic("pearson"),
        SystemScoreStatistic("spearman"),
        SystemScoreStatistic("kendall"),
        SoftPairwiseStatistic("soft-pairwise-accuracy"),
        TieCalibratedStatistic("acc-eq"),
        TieCalibratedStatistic("tau-eq"),
        TauLikeStatistic("kendall-wmt"),
    )
}
"""Every statistic :func:`~bleu_core.evaluation.clusters.rank_metrics` knows, by name (system level first)."""


def strategy(name: str) -> RankingStatistic:
    """The strategy of the statistic ``name``; the error lists the known names."""
    if name not in STRATEGIES:
        raise StatsInputError(f"unknown statistic {name!r}; choose from: {', '.join(STRATEGIES)}")
    return STRATEGIES[name]
