"""Metrics ranked by a statistic and grouped into significance clusters, as WMT findings tables do.

The WMT metrics task (Freitag et al. 2021-2024) sorts metrics by a meta-evaluation statistic
(pairwise accuracy, acc*_eq...), tests every pair of metrics (PERM-BOTH, Deutsch et al. 2021) and
assigns *ranks*: walking down the sorted list, a metric starts a new cluster when one of the metrics
of the current cluster is significantly better than it (MTME's ``data.AssignRanks``): "metrics
assigned rank r are those not significantly outperformed by any other metric of rank r, nor
outperformed by any metric of rank < r".

Statistics (``STATISTICS``), all computed on oriented scores (lower-is-better metrics negated):

* system level: ``pairwise-accuracy`` (Kocmi et al. 2021), ``pearson``, ``spearman``, ``kendall`` (tau-b),
  tested by PERM-BOTH on the system scores; ``soft-pairwise-accuracy`` (Thompson et al. 2024; needs
  segment scores), tested as MTME tests it (PERM-BOTH on the segment scores,
  :func:`~bleu_core.evaluation.permutation_both.soft_pairwise_perm_both`);
* segment level, grouped by item: ``acc-eq`` (acc_23 with tie calibration) and ``tau-eq``
  (tau_23 with tie calibration) (Deutsch et al. 2023), tested by swapping pair outcomes.
* segment level, pooled: ``kendall-wmt`` (WMT's tau-like, pairs chosen by the criterion's rule:
  :mod:`bleu_core.evaluation.tau_like`), tested by swapping pair values.

Every row also carries a bootstrap confidence interval of its statistic
(:mod:`bleu_core.evaluation.ranking_intervals`: systems, items or segments resampled, as the test treats
them; same seed as the clusters). Each kind of statistic is a strategy of
:mod:`bleu_core.evaluation.ranking_strategies` (its value, its test, its intervals); this module sorts,
tests every pair and clusters, the same for all of them.

>>> assign_ranks(np.array([[0, 0.3, 0.01], [0, 0, 0.04], [0, 0, 0]]), 0.05)   # MTME data.AssignRanks
[1, 1, 2]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..maths.resampling import DEFAULT_SEED, make_rng
from .ceiling import add_ceiling
from .chance import add_chance
from .errors import StatsInputError
from .ranking_strategies import STRATEGIES, WMT_EARLY_STOP, RankingInputs, Scored, strategy
from .tau_like import tau_like_of

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = [
    "DEFAULT_STATISTICS",
    "SEGMENT_STATISTICS",
    "STATISTICS",
    "SYSTEM_STATISTICS",
    "WMT_EARLY_STOP",
    "MetricRanking",
    "RankedMetric",
    "assign_ranks",
    "rank_metrics",
    "study_rankings",
]

STATISTICS = tuple(STRATEGIES)
SYSTEM_STATISTICS = tuple(n for n, s in STRATEGIES.items() if s.level == "system")
SEGMENT_STATISTICS = tuple(n for n, s in STRATEGIES.items() if s.level == "segment")
DEFAULT_STATISTICS = ("pairwise-accuracy", "acc-eq")


def assign_ranks(pvalues: np.ndarray, alpha: float = 0.05) -> list[int]:
    """Cluster ranks from an upper-triangular p-value matrix over metrics sorted best first.

    ``pvalues[i, j]`` (``i < j``) is the p-value of "metric i is better than metric j".
    """
    p = np.asarray(pvalues, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise StatsInputError("the p-value matrix must be square")
    ranks, current, start = [], 1, 0
    for i in range(p.shape[0]):
        if np.any(p[start:i, i] <= alpha):
            current += 1
            start = i
        ranks.append(current)
    return ranks


@dataclass(frozen=True)
class RankedMetric:
    """One row of a ranking: the metric, its statistic, its cluster (1 = best) and details.

    ``confidence_interval`` is the bootstrap interval of ``statistic`` (``None`` when not computed,
    e.g. ``n_resamples=0``, or undefined; ``note`` then says why).
    """

    metric: str
    statistic: float
    rank: int | None
    kind: str = ""
    higher_is_better: bool = True
    threshold: float | None = None
    n: int = 0
    note: str = ""
    confidence_interval: tuple[float, float] | None = None


@dataclass(frozen=True, eq=False)
class MetricRanking:
    """Metrics sorted by one statistic with significance clusters.

    ``pvalues[i, j]`` (``i < j``, rows in ``rows`` order) is the p-value that metric i beats j;
    ``rank`` is ``None`` for every row when no test was run (``n_resamples=0`` or no test exists).
    ``interval`` says how the rows' confidence intervals (level ``confidence``) were resampled.
    """

    statistic: str
    level: str
    criterion: str
    rows: tuple[RankedMetric, ...]
    pvalues: np.ndarray
    alpha: float
    n_resamples: int
    seed: int
    test: str
    systems: tuple[str, ...] = ()
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    confidence: float = 0.95
    interval: str = ""
    set_aside: tuple[tuple[str, str], ...] = ()
    """``(system, reason)`` for every system of the tables that does not enter the statistic
    (``systems`` are those that do: the human-rated ones, :func:`entering_systems`)."""

    def describe_systems(self, label: Any = str) -> str:
        """How many systems enter the statistic, and which are set aside and why (``label``: a system's
        shown name, ``HUMAN-B (ref-B)`` for a reference).

        >>> r = MetricRanking("pearson", "system", "esa", (), np.zeros((0, 0)), 0.05, 0, 1, "",
        ...                   ("A", "B", "C"), set_aside=(("D", "no esa rating"), ("E", "no esa rating")))
        >>> r.describe_systems()
        '3 systems enter; set aside: D, E (no esa rating)'
        """
        head = f"{len(self.systems)} system{'' if len(self.systems) == 1 else 's'} enter"
        if not self.set_aside:
            return head
        reasons: dict[str, list[str]] = {}
        for name, why in self.set_aside:
            reasons.setdefault(why, []).append(label(name))
        return (
            head
            + "; set aside: "
            + "; ".join(f"{', '.join(names)} ({why})" for why, names in reasons.items())
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "statistic": self.statistic,
            "level": self.level,
            "criterion": self.criterion,
            "test": self.test,
            "alpha": self.alpha,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "confidence": self.confidence,
            "interval": self.interval,
            "systems": list(self.systems),
            "set_aside": [{"system": n, "reason": why} for n, why in self.set_aside],
            "note": self.note,
            "metrics": [
                {
                    "metric": r.metric,
                    "statistic": None if math.isnan(r.statistic) else r.statistic,
                    "rank": r.rank,
                    "confidence_interval": (
                        None if r.confidence_interval is None else list(r.confidence_interval)
                    ),
                    "kind": r.kind,
                    "higher_is_better": r.higher_is_better,
                    "threshold": r.threshold,
                    "n": r.n,
                    "note": r.note,
                }
                for r in self.rows
            ],
            "pvalues": [[None if math.isnan(v) else float(v) for v in row] for row in self.pvalues],
            **{
                k: self.extra[k]
                for k in ("chance", "degenerate", "ceiling", "tau_like")
                if k in self.extra
            },
        }


def entering_systems(
    systems: Sequence[str],
    human_system: np.ndarray,
    human_segment: np.ndarray | None,
    level: str,
    criterion: str,
) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The systems a ranking's statistic is computed on, and those set aside with the reason: at system
    level the systems with a human system score, at segment level those with a rated segment.

    >>> entering_systems(["A", "B", "C"], np.array([1.0, np.nan, 2.0]), None, "system", "esa")
    (('A', 'C'), (('B', 'no esa rating'),))
    """
    if level == "segment" and human_segment is not None:
        rated = ~np.all(np.isnan(human_segment), axis=1)
    else:
        rated = ~np.isnan(human_system)
    why = f"no {criterion or 'human'} rating"
    kept = tuple(s for s, r in zip(systems, rated, strict=True) if r)
    return kept, tuple((s, why) for s, r in zip(systems, rated, strict=True) if not r)


def _tables(tables: Mapping[str, Any]) -> list[Any]:
    if not tables:
        raise StatsInputError("no metrics to rank")
    return list(tables.values())


def _clusters(
    order: Sequence[Any], scored: Scored, n_resamples: int, alpha: float
) -> tuple[np.ndarray, list[int | None]]:
    """p-values of every pair of ranked metrics (best first) and their cluster ranks."""
    ranked = [t.name for t in order if not math.isnan(scored.values[t.name])]
    n = len(ranked)
    pvalues = np.full((len(order), len(order)), np.nan)
    ranks: list[int | None] = [None] * len(order)
    if n_resamples > 0 and n > 0:
        pairs = [(ranked[i], ranked[j]) for i in range(n) for j in range(i + 1, n)]
        found = scored.pvalues(pairs) if scored.pvalues is not None else {}
        for i in range(n):
            for j in range(i + 1, n):
                pair = (ranked[i], ranked[j])
                pvalues[i, j] = found[pair] if pair in found else scored.pvalue(*pair)
        ranks[:n] = assign_ranks(np.nan_to_num(pvalues[:n, :n], nan=1.0), alpha)
    return pvalues, ranks


def _row(t: Any, rank: int | None, scored: Scored) -> RankedMetric:
    info = scored.info[t.name]
    ci, ci_note = scored.intervals.get(t.name, (None, ""))
    return RankedMetric(
        t.name,
        scored.values[t.name],
        rank,
        t.kind,
        t.higher_is_better,
        info.get("threshold"),
        int(info.get("n", 0)),
        "; ".join(p for p in (info.get("note", ""), ci_note) if p),
        ci,
    )


def rank_metrics(
    tables: Mapping[str, Any],
    human_system: Any,
    human_segment: Any | None,
    statistic: str = "pairwise-accuracy",
    *,
    criterion: str = "",
    n_resamples: int = 1000,
    alpha: float = 0.05,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
    tau_like: Any = None,
    select: Any = None,
) -> MetricRanking:
    """Rank every metric of ``tables`` (``{name: MetricTable}``, same systems) by ``statistic``.

    The statistic's :class:`~bleu_core.evaluation.ranking_strategies.RankingStatistic` computes every
    metric's value, interval and pairwise test; here the metrics are sorted (best first, undefined
    values last), every pair of defined ones tested and the clusters assigned.

    Args:
        tables: from :func:`bleu_core.metrics.study_scores.study_metric_scores`.
        human_system: ``(K,)`` human system scores (NaN = system left out at system level).
        human_segment: ``(K, S)`` human segment scores (NaN = unrated), needed at segment level.
        statistic: one of :data:`STATISTICS`.
        n_resamples: permutation resamples per pair of metrics, and bootstrap resamples of each
            row's confidence interval (0 = rank without clusters or intervals).
        alpha: significance level of the clusters; ``seed``: one seed for every test and interval.
        confidence: level of the rows' bootstrap intervals.
        tau_like, select: ``kendall-wmt``'s rule for the criterion and the scores choosing its pairs
            (:func:`bleu_core.evaluation.tau_like.study_rule`), kept in ``extra["tau_like"]``.
    """
    kind = strategy(statistic)
    items = _tables(tables)
    _, seed = make_rng(seed)
    h_seg = None if human_segment is None else np.asarray(human_segment, dtype=np.float64)
    inputs = RankingInputs(
        items, np.asarray(human_system, dtype=np.float64), h_seg, n_resamples, seed, confidence,
        tau_like, None if select is None else np.asarray(select, dtype=np.float64),
    )  # fmt: skip
    scored = kind.score(inputs)
    values = scored.values
    order = sorted(
        items, key=lambda t: (math.isnan(values[t.name]), -np.nan_to_num(values[t.name]), t.name)
    )
    pvalues, ranks = _clusters(order, scored, n_resamples, alpha)
    note = ""
    if n_resamples == 0:
        note = "n_resamples = 0: metrics ranked without significance clusters or intervals"
    interval = scored.interval
    if interval:
        interval += f", {n_resamples} resamples, seed {seed}"
    entering, set_aside = entering_systems(
        items[0].systems, inputs.human_system, h_seg, kind.level, criterion
    )
    return MetricRanking(
        statistic,
        kind.level,
        criterion,
        tuple(_row(t, ranks[i], scored) for i, t in enumerate(order)),
        pvalues,
        alpha,
        n_resamples,
        seed,
        kind.test,
        entering,
        note,
        confidence=confidence,
        interval=interval,
        set_aside=set_aside,
        extra={"tau_like": tau_like.to_dict(), "tau_like_select": select}
        if statistic == "kendall-wmt" and tau_like is not None
        else {},
    )


def study_rankings(
    study: Study,
    tables: Mapping[str, Any],
    *,
    criteria: Sequence[str] | None = None,
    statistics: Sequence[str] = DEFAULT_STATISTICS,
    n_resamples: int = 1000,
    alpha: float = 0.05,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
    chance: bool = True,
) -> list[MetricRanking]:
    """One :class:`MetricRanking` per human criterion × statistic of ``study``.

    With ``chance`` every ranking carries its chance line and flags degenerate tie thresholds
    (:func:`bleu_core.evaluation.chance.add_chance`; the permutations drawn from ``seed``) and its human
    ceiling (:func:`bleu_core.evaluation.ceiling.add_ceiling`, or why there is none).

    Human system scores are ``study.system_scores(criterion)`` (published system-level scores when
    the study has them), segment scores ``study.segment_scores(criterion)``; a segment-level
    statistic is skipped for a criterion without segment ratings.
    """
    items = _tables(tables)
    systems = list(items[0].systems)
    index = [list(study.systems).index(s) for s in systems]
    chosen = list(study.criteria) if criteria is None else list(criteria)
    out = []
    for c in chosen:
        if c not in study.criteria:
            raise StatsInputError(
                f"unknown criterion {c!r}; this study has: {', '.join(study.criteria)}"
            )
        sign = 1.0 if study.criteria[c].higher_is_better else -1.0
        sys_scores = study.system_scores(c)
        h_sys = sign * np.array([sys_scores[s] for s in systems])
        h_seg = sign * study.segment_scores(c)[index]
        has_seg = not np.all(np.isnan(h_seg))
        for stat in statistics:
            kind = strategy(stat)
            if kind.needs_segment_scores and not has_seg:
                continue
            if kind.level == "system" and int((~np.isnan(h_sys)).sum()) < 3:
                continue
            rule, select = tau_like_of(study, c, index) if stat == "kendall-wmt" else (None, None)
            ranking = rank_metrics(
                tables,
                h_sys,
                h_seg if has_seg else None,
                stat,
                criterion=c,
                n_resamples=n_resamples,
                alpha=alpha,
                seed=seed,
                confidence=confidence,
                tau_like=rule,
                select=select,
            )
            if chance:
                ranking = add_chance(ranking, tables, h_sys, h_seg if has_seg else None)
                ranking = add_ceiling(ranking, study)
            out.append(ranking)
    return out
