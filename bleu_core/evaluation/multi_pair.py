"""A whole release at once: metrics ranked over several language pairs, as WMT24 and WMT25 report them.

The WMT24 metrics task (Freitag et al. 2024) meta-evaluates every metric on every language pair with two
statistics — system-level **soft pairwise accuracy** (SPA, Thompson et al. 2024) and segment-level
**acc\\*_eq** (tie-calibrated pairwise accuracy, Deutsch et al. 2023, by item) — and then summarises:

* **per pair and statistic** (a *task*): every metric's value and its significance cluster
  (:func:`bleu_core.evaluation.clusters.rank_metrics`, the tests MTME runs for that statistic);
* the **global score**: the weighted average over tasks of each metric's value, every value first
  mapped to [0, 1] (``(value - low) / (high - low)`` with the statistic's range: accuracies are already
  there, correlations from [-1, 1]) — mt-metrics-eval's ``TaskSetResults.AverageCorrs``;
* the **average rank**: the weighted average of the metric's cluster ranks over tasks (``AverageRanks``);
* **global clusters** (``AverageCorrMatrix``): for two metrics, every task draws its own null
  differences (the two metrics' scores, or pair outcomes, swapped at random, as its test does); the
  draws are summed over tasks with the same weights and normalisation (SPA's draws for all pairs of metrics
  at once, summed in float64: :mod:`bleu_core.evaluation.spa_nulls`), and
  ``p = P(Σ weighted null difference >= observed global difference)``; clusters as WMT assigns them.

Beside the metrics, each task carries its **human ceiling** when it knows its study
(:func:`task_from_study`): the same statistic with one human score set against another
(:mod:`bleu_core.evaluation.ceiling`: two raters of the criterion, or a second criterion ``ceiling=``), and the
global view its weighted average when every task has one.

Only metrics scored on every task enter the global view (as MTME). Weights default to equal (each task
``1 / tasks``). mt-metrics-eval's ``tasks.WMT24OnWMT23`` builds its weight list as
``[len(lps)] + [1] * (tasks - 1)``, carried over from WMT23 where the first task was the global
pairwise accuracy: there the first pair's SPA would weigh ``len(lps)`` times more; pass ``weights`` to
reproduce that. Every number is reproducible from ``seed`` (stated with the result).

>>> import numpy as np
>>> from bleu_core.metrics.study_scores import MetricTable
>>> rng = np.random.default_rng(1)
>>> def task(name):
...     human = rng.normal(size=(5, 30)) + np.arange(5)[:, None]
...     names = tuple("abcde")
...     good, noisy = human + rng.normal(0, 0.3, human.shape), rng.normal(size=human.shape)
...     tables = {n: MetricTable(n, names, m.mean(1), m, True, "x")
...               for n, m in (("good", good), ("noisy", noisy))}
...     return Task(name, "esa", tables, human.mean(1), human)
>>> res = multi_pair_meta([task("en-ja"), task("en-hi")], ("acc-eq",), n_resamples=200, seed=4)
>>> res.metrics, [res.rank[m] for m in res.metrics], [res.average_rank[m] for m in res.metrics]
(('good', 'noisy'), [1, 2], [1.0, 2.0])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..maths.resampling import DEFAULT_SEED, check_count, make_rng
from .ceiling import add_ceiling, check_ceiling_criterion
from .chance import ITEM_LEVEL, SYSTEM_LEVEL, add_chance, ranking_data
from .clusters import MetricRanking, assign_ranks, rank_metrics
from .errors import StatsInputError
from .spa_nulls import spa_null_draws, zscore
from .statistic_names import TIE_VARIANTS

if TYPE_CHECKING:
    from bleu_core.study.model import Study

WMT24_STATISTICS = ("soft-pairwise-accuracy", "acc-eq")
"""WMT24's two statistics: SPA (MTME ``stats.PairwiseConfidenceError``: 1000 sign flips, seed 4) and
acc\\*_eq (``KendallWithTiesOpt(variant='acc23', average_by='item', sample_rate=1.0)``)."""
RANGES = {"pearson": (-1.0, 1.0), "kendall": (-1.0, 1.0), "tau-eq": (-1.0, 1.0)}
"""The statistics whose values lie in [-1, 1]; every other lies in [0, 1] (MTME's ``TaskResults.range``)."""


@dataclass(frozen=True)
class Task:
    """One language pair's data: the metrics' tables and the oriented human scores (higher = better).

    ``human_system`` is ``(K,)``, ``human_segment`` ``(K, S)`` (NaN = unrated) or ``None``; the tables
    are :class:`~bleu_core.metrics.study_scores.MetricTable` objects over the same ``K`` systems.
    ``study`` (optional) is the study the scores come from: with it the task's rankings carry their
    human ceiling.
    """

    name: str
    criterion: str
    tables: Mapping[str, Any]
    human_system: np.ndarray
    human_segment: np.ndarray | None
    study: Study | None = None


def task_from_study(
    study: Study, tables: Mapping[str, Any], criterion: str, name: str = ""
) -> Task:
    """The :class:`Task` of one study (one pair) and criterion, oriented as the rankings orient it.

    ``name`` defaults to the study's pair ``source-target`` (else its name).
    """
    if criterion not in study.criteria:
        raise StatsInputError(
            f"unknown criterion {criterion!r}; this study has: {', '.join(study.criteria)}"
        )
    systems = list(next(iter(tables.values())).systems)
    index = [list(study.systems).index(s) for s in systems]
    sign = 1.0 if study.criteria[criterion].higher_is_better else -1.0
    by_system = study.system_scores(criterion)
    h_sys = sign * np.array([by_system.get(s, math.nan) for s in systems], dtype=np.float64)
    h_seg = sign * study.segment_scores(criterion)[index]
    pair = f"{study.source_lang}-{study.target_lang}" if study.source_lang else study.name
    segment = None if np.isnan(h_seg).all() else h_seg
    return Task(name or pair, criterion, tables, h_sys, segment, study)


@dataclass(frozen=True, eq=False)
class MultiPairResult:
    """Per-task rankings and the global view over them (see the module docstring).

    Attributes:
        rankings: one :class:`~bleu_core.evaluation.clusters.MetricRanking` per task × statistic, in the
            order of ``columns`` (``(task name, statistic)``); ``weights`` the same order, summing to 1.
        metrics: the metrics scored on every task, best global score first.
        average: each metric's weighted average of [0, 1]-normalised values; ``average_rank`` of
            its cluster ranks; ``rank`` its global cluster (1 = best).
        pvalues: ``pvalues[i, j]`` (``i < j``, ``metrics`` order): p that metric i beats metric j.
        n_resamples, seed, alpha: of every test, per task and global.
    """

    columns: tuple[tuple[str, str], ...]
    rankings: tuple[MetricRanking, ...]
    weights: tuple[float, ...]
    metrics: tuple[str, ...]
    average: dict[str, float]
    average_rank: dict[str, float]
    rank: dict[str, int | None]
    pvalues: np.ndarray
    n_resamples: int
    seed: int
    alpha: float
    notes: tuple[str, ...] = field(default=())

    def value(self, column: int, metric: str) -> tuple[float, int | None]:
        """``(value, cluster rank)`` of ``metric`` in column ``column`` (NaN, None when absent)."""
        for row in self.rankings[column].rows:
            if row.metric == metric:
                return row.statistic, row.rank
        return math.nan, None

    def ceiling(self, column: int) -> dict[str, Any] | None:
        """The human ceiling of column ``column`` (:meth:`HumanCeiling.to_dict
        <bleu_core.evaluation.ceiling.HumanCeiling.to_dict>`), ``None`` when its task has no study."""
        return self.rankings[column].extra.get("ceiling")

    def global_ceiling(self) -> float:
        """The weighted average of the columns' [0, 1]-normalised ceilings, as the metrics' global
        score; NaN unless every column has one."""
        values = [(c or {}).get("statistic") for c in map(self.ceiling, range(len(self.columns)))]
        if not values or any(v is None for v in values):
            return math.nan
        return float(sum(w * normalised(s, v) for w, (_, s), v in zip(
            self.weights, self.columns, values, strict=True)))  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else float(x)

        return {
            "columns": [
                {"task": t, "statistic": s, "weight": w, "ceiling": self.ceiling(i)}
                for i, ((t, s), w) in enumerate(zip(self.columns, self.weights, strict=True))
            ],
            "global_ceiling": num(self.global_ceiling()),
            "global": [
                {
                    "metric": m,
                    "average": num(self.average[m]),
                    "average_rank": num(self.average_rank[m]),
                    "rank": self.rank[m],
                    "per_task": [
                        {"value": num(self.value(i, m)[0]), "rank": self.value(i, m)[1]}
                        for i in range(len(self.columns))
                    ],
                }
                for m in self.metrics
            ],
            "pvalues": [[None if math.isnan(v) else float(v) for v in row] for row in self.pvalues],
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "alpha": self.alpha,
            "notes": list(self.notes),
            "rankings": [r.to_dict() for r in self.rankings],
        }


def normalised(statistic: str, value: Any) -> Any:
    """``value`` mapped to [0, 1] from the statistic's range (MTME ``AverageCorrs``).

    >>> normalised("pearson", 0.5), normalised("acc-eq", 0.5)
    (0.75, 0.5)
    """
    low, high = RANGES.get(statistic, (0.0, 1.0))
    return (value - low) / (high - low)


def _system_null(statistic: str, a: np.ndarray, b: np.ndarray, h: np.ndarray, n: int, rng: Any):
    from .permutation_both import SYSTEM_ROW_STATISTICS

    fn = SYSTEM_ROW_STATISTICS[statistic]
    keep = ~(np.isnan(a) | np.isnan(b) | np.isnan(h))
    za, zb, hk = zscore(a[keep]), zscore(b[keep]), h[keep]
    w = rng.random((n, hk.size)) < 0.5
    return fn(np.where(w, za, zb), hk) - fn(np.where(w, zb, za), hk)


class _ItemPairs:
    """acc\\*_eq / tau\\*_eq of one task: every metric's per-pair values at its calibrated threshold."""

    def __init__(self, statistic: str, human: np.ndarray, scores: Mapping[str, np.ndarray]):
        from .ties import OUTCOME_VALUES, pair_outcomes, tie_calibrated

        variant = TIE_VARIANTS[statistic]
        table = OUTCOME_VALUES[variant]
        self.values: dict[str, np.ndarray] = {}
        self.weights = np.zeros(0)
        for name, m in scores.items():
            eps = tie_calibrated(m, human, variant, average_by="item").threshold
            o = pair_outcomes(m, human, "item")
            self.values[name] = table[o.outcomes_at(eps)]
            sizes = o.group_sizes.astype(np.float64)
            self.weights = 1.0 / (sizes[o.group] * max(int((sizes > 0).sum()), 1))

    def null(self, a: str, b: str, n: int, rng: Any) -> np.ndarray:
        """Null draws of value(a) - value(b) with pair outcomes swapped (``pairs_permutation``'s)."""
        d = (self.weights * (self.values[a] - self.values[b]))[self.values[a] != self.values[b]]
        terms, sizes = np.unique(d, return_counts=True)
        return (2.0 * rng.binomial(sizes, 0.5, size=(n, terms.size)) - sizes) @ terms


class _TaskNulls:
    """Null draws of one task × statistic for any pair of metrics (the data selected once)."""

    def __init__(self, task: Task, statistic: str) -> None:
        self.statistic = statistic
        self.human, self.scores = ranking_data(
            list(task.tables.values()), statistic, task.human_system, task.human_segment
        )
        self.items = (
            _ItemPairs(statistic, self.human, self.scores) if statistic in ITEM_LEVEL else None
        )

    def nulls(
        self, pairs: Sequence[tuple[str, str]], n: int, seed: int
    ) -> dict[tuple[str, str], np.ndarray]:
        """``n`` null draws of value(a) - value(b) for every pair, each from ``default_rng(seed)``; SPA's
        for all pairs at once (:func:`bleu_core.evaluation.spa_nulls.spa_null_draws`: the same masks)."""
        if self.items is None and self.statistic not in SYSTEM_LEVEL:  # soft pairwise accuracy
            return spa_null_draws(self.scores, self.human, pairs, n, seed)
        out = {}
        for a, b in pairs:
            rng = np.random.default_rng(seed)
            if self.items is not None:
                out[(a, b)] = self.items.null(a, b, n, rng)
            else:
                out[(a, b)] = _system_null(
                    self.statistic, self.scores[a], self.scores[b], self.human, n, rng
                )
        return out


def _weights(weights: Sequence[float] | None, n: int) -> tuple[float, ...]:
    if weights is None:
        return tuple([1.0 / n] * n)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (n,) or (w < 0).any() or w.sum() <= 0:
        raise StatsInputError(
            f"weights must be {n} non-negative numbers (one per task × statistic) with a positive "
            f"sum, got {list(weights)}"
        )
    return tuple(float(v) for v in w / w.sum())


def _global_clusters(
    nulls: Sequence[_TaskNulls],
    columns: Sequence[tuple[str, str]],
    weights: Sequence[float],
    metrics: Sequence[str],
    average: Mapping[str, float],
    n: int,
    seed: int,
) -> np.ndarray:
    """p-values of every pair of metrics (best first) from the tasks' weighted null draws."""
    pairs = [
        (metrics[i], metrics[j]) for i in range(len(metrics)) for j in range(i + 1, len(metrics))
    ]
    total = {pair: np.zeros(n) for pair in pairs}
    for k, (task_nulls, (_, stat), w) in enumerate(zip(nulls, columns, weights, strict=True)):
        low, high = RANGES.get(stat, (0.0, 1.0))
        for pair, draws in task_nulls.nulls(pairs, n, seed + k).items():
            total[pair] += w * draws / (high - low)
    p = np.full((len(metrics), len(metrics)), np.nan)
    for i in range(len(metrics)):
        for j in range(i + 1, len(metrics)):
            a, b = metrics[i], metrics[j]
            p[i, j] = float(np.mean(total[(a, b)] >= average[a] - average[b] - 1e-12))
    return p


def multi_pair_meta(
    tasks: Sequence[Task],
    statistics: Sequence[str] = WMT24_STATISTICS,
    *,
    weights: Sequence[float] | None = None,
    n_resamples: int = 1000,
    alpha: float = 0.05,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
    chance: bool = True,
    ceiling: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> MultiPairResult:
    """Rank the metrics of every task by every statistic, and over all of them (module docstring).

    ``weights``: one per task × statistic (tasks outer, statistics inner), normalised to sum 1;
    equal by default. ``n_resamples`` draws for every test (per task and global) and every interval.
    With ``chance`` each task's ranking carries its chance line (:func:`~bleu_core.evaluation.chance.add_chance`)
    and, for a task with its study, its human ceiling: one rater against another, or the second
    criterion ``ceiling`` against the task's (every such study must have it). ``progress`` is told, in a
    line, what is computed next (the command line prints it: a whole release takes minutes).
    """
    say = progress or (lambda _line: None)
    if not tasks:
        raise StatsInputError("no language pairs to meta-evaluate")
    others = {
        t.name: check_ceiling_criterion(t.study, ceiling, f"task {t.name}")
        for t in tasks
        if t.study is not None
    }
    count = check_count(n_resamples, "number of resamples", minimum=0)
    _, seed = make_rng(seed)
    columns = [(t.name, s) for t in tasks for s in statistics]
    w = _weights(weights, len(columns))
    rankings, nulls = [], []
    for t in tasks:
        for s in statistics:
            say(f"{t.name}: ranking {len(t.tables)} metrics by {s}, {count} resamples")
            ranking = rank_metrics(
                t.tables, t.human_system, t.human_segment, s, criterion=f"{t.criterion} ({t.name})",
                n_resamples=count, alpha=alpha, seed=seed, confidence=confidence,
            )  # fmt: skip
            if chance:
                ranking = add_chance(ranking, t.tables, t.human_system, t.human_segment)
            if chance and t.study is not None:
                ranking = add_ceiling(ranking, t.study, criterion=t.criterion, other=others[t.name])
            rankings.append(ranking)
            nulls.append(_TaskNulls(t, s))
    shared = set.intersection(
        *({r.metric for r in k.rows if not math.isnan(r.statistic)} for k in rankings)
    )
    average, mean_rank = {}, {}
    for m in shared:
        rows = [next(r for r in k.rows if r.metric == m) for k in rankings]
        average[m] = float(sum(x * normalised(k.statistic, r.statistic)
                               for x, k, r in zip(w, rankings, rows, strict=True)))  # fmt: skip
        task_ranks = [r.rank for r in rows if r.rank is not None]
        mean_rank[m] = (
            math.nan
            if len(task_ranks) < len(rows)
            else float(sum(x * r for x, r in zip(w, task_ranks, strict=True)))
        )
    metrics = tuple(sorted(shared, key=lambda m: (-average[m], m)))
    if count:
        n_pairs = len(metrics) * (len(metrics) - 1) // 2
        say(f"global view: {n_pairs} pairs of metrics over {len(columns)} tasks, {count} resamples")
    p = _global_clusters(nulls, columns, w, metrics, average, count, seed) if count else None
    pvalues = np.full((len(metrics),) * 2, np.nan) if p is None else p
    ranks: list[int | None] = [None] * len(metrics)
    if p is not None:
        ranks = list(assign_ranks(np.nan_to_num(pvalues, nan=1.0), alpha))
    left_out = sorted({r.metric for k in rankings for r in k.rows} - shared)
    notes = (f"left out of the global view (not scored on every task): {', '.join(left_out)}",)
    return MultiPairResult(
        tuple(columns), tuple(rankings), w, metrics, average, mean_rank,
        dict(zip(metrics, ranks, strict=True)),
        pvalues, count, seed, alpha, notes if left_out else (),
    )  # fmt: skip
