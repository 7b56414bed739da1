"""The chance line: what a metric that scores at random, and one that scores everything alike, would get.

A meta-evaluation number means little alone: pairwise accuracy 0.55 sounds poor until one knows a coin
scores 0.50; acc\\*_eq 0.48 sounds fair until one knows a metric that gives every translation the same
score also gets 0.48 (mt-metrics-eval reports no such baseline). For each statistic of a ranking this module gives two
baselines, computed on the same data, grouping and ties as the metric's own value:

* the **random metric**: the metric's own scores shuffled (a permutation, drawn from a stated seed)
  *within the grouping the statistic uses* (among the systems for a system-level statistic, among the
  systems' translations of each segment for soft pairwise accuracy, the by-item statistics and the
  tau-like), then the statistic computed exactly as for the metric (acc\\*_eq re-calibrates its tie
  threshold on every permutation); the line is the mean over the permutations, with the range of the
  middle 95 %;
* the **constant metric**: every translation the same score, so every pair a metric tie. Pairwise
  accuracy then counts only the pairs the humans tie; acc\\*_eq only the human ties too; SPA compares the
  humans' p-values with 1 (the constant metric never says "i beats j"); Pearson, Spearman and Kendall
  are undefined; WMT's tau-like (``kendall-wmt``) counts a metric tie as discordant: -1.

A metric's calibrated tie threshold is **degenerate** when it turns every pair into a metric tie: its
acc\\*_eq is then the constant metric's, the share of human ties, whatever the metric says. On the TED
demo BLEU, chrF and NIST all get 0.480 against MQM that way (ε = 100 for BLEU): :func:`is_degenerate`
says so, and the ranking shows it beside the number.

>>> human = np.array([1.0, 2, 3, 4, 5, 6])
>>> line = chance_line("pairwise-accuracy", human * 2, human, n_permutations=200, seed=3)
>>> round(line.random, 1), line.constant, line.seed       # a coin: 0.5; no human tie: 0
(0.5, 0.0, 3)
>>> constant_value("acc-eq", np.array([[1.0, 1, 2], [1, 2, 2]]))   # items 1 and 3: human ties
0.6666666666666666
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..maths.resampling import DEFAULT_SEED, make_rng
from .errors import StatsInputError
from .statistic_names import TIE_VARIANTS
from .tau_like import tau_like_pairs

SYSTEM_LEVEL = ("pairwise-accuracy", "pearson", "spearman", "kendall")
ITEM_LEVEL = ("acc-eq", "tau-eq")
TAU_LIKE = "kendall-wmt"
CHANCE_STATISTICS = SYSTEM_LEVEL + ("soft-pairwise-accuracy",) + ITEM_LEVEL + (TAU_LIKE,)
DEFAULT_PERMUTATIONS = {"system": 1000, "soft-pairwise-accuracy": 100, "item": 20, TAU_LIKE: 200}
"""Permutations per statistic kind: system-level values are cheap; an SPA permutation is a whole
permutation test; an acc\\*_eq permutation is a tie calibration over every pair of every item; a
tau-like permutation one comparison per counted pair."""
WMT_RULE = (25.0, None)
"""WMT's tau-like rule where none is given: pairs whose human scores differ by 25 or more."""


@dataclass(frozen=True)
class ChanceLine:
    """The chance line of one statistic for one metric.

    Attributes:
        statistic: the statistic's name.
        random: mean value over ``n_permutations`` random permutations of the metric's scores.
        random_range: the 2.5 and 97.5 percentiles of those values.
        constant: the value of a constant metric (NaN where the statistic is undefined for it).
        n_permutations, seed: how the permutations were drawn (the seed to reproduce them).
        grouping: what the scores were shuffled among (``systems`` or ``each item's systems``).
        note: anything to say beside the numbers.
    """

    statistic: str
    random: float
    random_range: tuple[float, float]
    constant: float
    n_permutations: int
    seed: int
    grouping: str
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else float(x)

        return {
            "statistic": self.statistic,
            "random": num(self.random),
            "random_range": [num(self.random_range[0]), num(self.random_range[1])],
            "constant": num(self.constant),
            "n_permutations": self.n_permutations,
            "seed": self.seed,
            "grouping": self.grouping,
            "note": self.note,
        }


def permute_within_items(scores: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``scores`` (``systems × items``) with each item's scored entries shuffled among themselves.

    NaN entries stay where they are; each column's other values are permuted uniformly at random.

    >>> x = np.array([[1.0, 5.0], [2.0, np.nan], [3.0, 6.0]])
    >>> y = permute_within_items(x, np.random.default_rng(0))
    >>> sorted(y[:, 0].tolist()), bool(np.isnan(y[1, 1])), sorted(y[[0, 2], 1].tolist())
    ([1.0, 2.0, 3.0], True, [5.0, 6.0])
    """
    x = np.asarray(scores, dtype=np.float64)
    valid = ~np.isnan(x)
    keys = np.where(valid, rng.random(x.shape), 2.0)
    source = np.argsort(keys, axis=0)  # per column: the valid rows in random order, then the rest
    target = np.argsort(~valid, axis=0, kind="stable")  # the valid rows in their own order
    cols = np.broadcast_to(np.arange(x.shape[1]), x.shape)
    take = np.arange(x.shape[0])[:, None] < valid.sum(axis=0)[None, :]
    out = x.copy()
    out[target[take], cols[take]] = x[source[take], cols[take]]
    return out


def _system_value(statistic: str, metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    """The system-level statistic of every row of ``metric`` (``(R, K)``) against ``human`` (K,)."""
    from .permutation_both import SYSTEM_ROW_STATISTICS

    return np.asarray(SYSTEM_ROW_STATISTICS[statistic](metric, human), dtype=np.float64)


def _item_value(statistic: str, metric: np.ndarray, human: np.ndarray) -> tuple[float, float]:
    """acc\\*_eq or tau\\*_eq (tie-calibrated, by item) and its threshold."""
    from .ties import tie_calibrated

    variant = TIE_VARIANTS[statistic]
    r = tie_calibrated(metric, human, variant, average_by="item")
    return r.statistic, r.threshold


def statistic_value(
    statistic: str, metric: Any, human: Any, tau_like: tuple[float, Any] = WMT_RULE
) -> float:
    """One metric's value of ``statistic`` against ``human`` (oriented; shapes as :func:`chance_line`;
    ``tau_like``: the threshold and selecting scores of ``kendall-wmt``).

    >>> statistic_value("pairwise-accuracy", [1.0, 3, 2], [1.0, 2, 3])
    0.6666666666666666
    """
    m = np.asarray(metric, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if statistic in SYSTEM_LEVEL:
        keep = ~(np.isnan(m) | np.isnan(h))
        return float(_system_value(statistic, m[keep][None], h[keep])[0])
    if statistic in ITEM_LEVEL:
        return _item_value(statistic, m, h)[0]
    if statistic == "soft-pairwise-accuracy":
        from .pairwise import soft_pairwise_accuracy

        return soft_pairwise_accuracy(m, h).statistic
    if statistic == TAU_LIKE:
        values = tau_like_pairs(h, *tau_like).values(m)
        return float(values.mean()) if values.size else math.nan
    raise StatsInputError(
        f"unknown statistic {statistic!r}; choose from: {', '.join(CHANCE_STATISTICS)}"
    )


def constant_value(statistic: str, human: Any, tau_like: tuple[float, Any] = WMT_RULE) -> float:
    """The statistic of a metric that gives every translation the same score (every pair a tie).

    ``human`` is ``(K,)`` system scores for the system-level statistics, ``systems × items`` for the
    others (NaN = unrated). WMT's tau-like counts a metric tie as discordant: -1.
    """
    h = np.asarray(human, dtype=np.float64)
    if statistic == TAU_LIKE:
        return -1.0 if tau_like_pairs(h, *tau_like).item.size else math.nan
    if statistic in ("pearson", "spearman", "kendall"):
        return math.nan
    if statistic == "pairwise-accuracy":
        return float(_system_value(statistic, np.zeros((1, h.size)), h)[0])
    if statistic in ITEM_LEVEL:
        return _item_value(statistic, np.where(np.isnan(h), np.nan, 0.0), h)[0]
    if statistic == "soft-pairwise-accuracy":
        from .pairwise import soft_pairwise_accuracy

        return soft_pairwise_accuracy(np.zeros_like(h), h).statistic
    raise StatsInputError(
        f"no chance line for {statistic!r}; choose from: {', '.join(CHANCE_STATISTICS)}"
    )


def _random_values(
    statistic: str,
    metric: np.ndarray,
    human: np.ndarray,
    n: int,
    rng: np.random.Generator,
    tau_like: tuple[float, Any] = WMT_RULE,
) -> np.ndarray:
    if statistic == TAU_LIKE:
        pairs = tau_like_pairs(human, *tau_like)
        if not pairs.item.size:
            return np.full(n, np.nan)
        return np.array([pairs.values(permute_within_items(metric, rng)).mean() for _ in range(n)])
    if statistic in SYSTEM_LEVEL:
        keep = ~(np.isnan(metric) | np.isnan(human))
        m, h = metric[keep], human[keep]
        rows = np.argsort(rng.random((n, m.size)), axis=1)
        return _system_value(statistic, m[rows], h)
    if statistic in ITEM_LEVEL:
        return np.array(
            [_item_value(statistic, permute_within_items(metric, rng), human)[0] for _ in range(n)]
        )
    from .pairwise import batched_pairwise_pvalues, sign_matrix

    signs = sign_matrix(1000, human.shape[1], 4)  # MTME pce.py's sign flips: 1000, seed 4
    ph = batched_pairwise_pvalues(human[None], signs)
    stack = np.stack([permute_within_items(metric, rng) for _ in range(n)])
    return 1.0 - np.abs(batched_pairwise_pvalues(stack, signs) - ph).mean(axis=1)


def chance_line(
    statistic: str,
    metric: Any,
    human: Any,
    *,
    n_permutations: int | None = None,
    seed: int | None = DEFAULT_SEED,
    tau_like: tuple[float, Any] = WMT_RULE,
) -> ChanceLine:
    """The chance line of ``statistic`` for a metric with scores ``metric`` against ``human``.

    Scores are oriented (higher = better on both sides): ``(K,)`` system scores for
    ``pairwise-accuracy``, ``pearson``, ``spearman`` and ``kendall``; ``systems × items`` segment
    scores for ``soft-pairwise-accuracy`` (every entry scored), ``acc-eq`` / ``tau-eq`` and
    ``kendall-wmt`` (NaN = unrated, left out; ``tau_like``: its threshold and the scores choosing
    its pairs, :mod:`bleu_core.evaluation.tau_like`). ``n_permutations`` defaults to
    :data:`DEFAULT_PERMUTATIONS` of the statistic's kind.
    """
    if statistic not in CHANCE_STATISTICS:
        raise StatsInputError(
            f"no chance line for {statistic!r}; choose from: {', '.join(CHANCE_STATISTICS)}"
        )
    m = np.asarray(metric, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if m.shape != h.shape:
        raise StatsInputError(
            f"metric and human scores must have the same shape, got {m.shape} and {h.shape}"
        )
    if statistic in SYSTEM_LEVEL:
        kind, grouping = "system", "systems"
    else:
        kind = statistic if statistic in DEFAULT_PERMUTATIONS else "item"
        grouping = "each item's systems"
    n = DEFAULT_PERMUTATIONS[kind] if n_permutations is None else int(n_permutations)
    if n < 1:
        raise StatsInputError(f"the chance line needs 1 or more permutations, got {n}")
    rng, seed = make_rng(seed)
    values = _random_values(statistic, m, h, n, rng, tau_like)
    finite = values[~np.isnan(values)]
    if finite.size:
        mean = float(finite.mean())
        low, high = (float(v) for v in np.percentile(finite, [2.5, 97.5]))
    else:
        mean = low = high = math.nan
    constant = constant_value(statistic, h, tau_like)
    note = "a constant metric has no correlation" if math.isnan(constant) else ""
    return ChanceLine(statistic, mean, (low, high), constant, n, seed, grouping, note)


def is_degenerate(metric: Any, human: Any, threshold: float | None) -> bool:
    """Whether a calibrated tie threshold makes every pair of ``metric``'s scores a tie.

    ``metric`` and ``human`` are ``systems × items`` (NaN = unrated); the pairs are those of
    acc\\*_eq, by item. With such a threshold the statistic is the constant metric's, whatever the
    metric's scores.

    >>> m = np.array([[10.0, 30.0], [40.0, 50.0]]); h = np.array([[1.0, 2.0], [1.0, 3.0]])
    >>> is_degenerate(m, h, 30.0), is_degenerate(m, h, 20.0), is_degenerate(m, h, None)
    (True, False, False)
    """
    if threshold is None:
        return False
    from .ties import pair_outcomes

    diffs = pair_outcomes(metric, human, "item").metric_diff
    return bool(diffs.size) and bool(threshold >= diffs.max())


def ranking_data(tables: list[Any], statistic: str, human_system: Any, human_segment: Any) -> Any:
    """The human scores and each metric's oriented scores on the data its ranking uses."""
    h_sys = np.asarray(human_system, dtype=np.float64)
    if statistic in SYSTEM_LEVEL:
        keep = ~np.isnan(h_sys)
        return h_sys[keep], {t.name: t.oriented_system()[keep] for t in tables}
    if human_segment is None:
        raise StatsInputError(f"{statistic} needs human segment scores")
    h_seg = np.asarray(human_segment, dtype=np.float64)
    with_seg = [t for t in tables if t.segment is not None]
    if statistic in ITEM_LEVEL or statistic == TAU_LIKE:
        valid = ~np.isnan(h_seg)
        for t in with_seg:
            valid &= ~np.isnan(t.segment)
        human = np.where(valid, h_seg, np.nan)
        return human, {t.name: np.where(valid, t.oriented_segment(), np.nan) for t in with_seg}
    rated = ~np.isnan(h_sys) & ~np.isnan(h_seg).all(axis=1)
    common = ~np.isnan(h_seg[rated]).any(axis=0)
    for t in with_seg:
        common &= ~np.isnan(t.segment[rated]).any(axis=0)
    human = h_seg[rated][:, common]
    return human, {t.name: t.oriented_segment()[rated][:, common] for t in with_seg}


def ranking_chance(
    tables: Mapping[str, Any],
    human_system: Any,
    human_segment: Any | None,
    statistic: str,
    *,
    n_permutations: int | None = None,
    seed: int | None = DEFAULT_SEED,
    tau_like: tuple[float, Any] = WMT_RULE,
) -> dict[str, ChanceLine]:
    """The chance line of every metric of a ranking (the inputs of
    :func:`bleu_core.evaluation.clusters.rank_metrics`: oriented human scores, the metrics' tables), on
    the data the ranking uses. One seed for every metric (each metric's permutations start from it)."""
    if statistic not in CHANCE_STATISTICS:
        raise StatsInputError(
            f"no chance line for {statistic!r}; choose from: {', '.join(CHANCE_STATISTICS)}"
        )
    _, seed = make_rng(seed)
    human, scores = ranking_data(list(tables.values()), statistic, human_system, human_segment)
    return {
        name: chance_line(
            statistic, m, human, n_permutations=n_permutations, seed=seed, tau_like=tau_like
        )
        for name, m in scores.items()
    }


def degenerate_note(threshold: float | None) -> str:
    """What a degenerate tie threshold means, said beside the number."""
    eps = "" if threshold is None else f" (ε = {threshold:.4g})"
    return (
        f"degenerate tie threshold{eps}: every pair is a metric tie, so the value is the share of "
        "tied human pairs (the constant metric's), whatever the metric says"
    )


def ranking_rule(ranking: Any) -> tuple[float, Any]:
    """The tau-like threshold and selecting scores a ``kendall-wmt`` ranking was computed with
    (``extra["tau_like"]`` and ``extra["tau_like_select"]``; WMT's 25 points without them)."""
    rule = ranking.extra.get("tau_like")
    if not rule:
        return WMT_RULE
    return float(rule["threshold"]), ranking.extra.get("tau_like_select")


def add_chance(
    ranking: Any,
    tables: Mapping[str, Any],
    human_system: Any,
    human_segment: Any | None,
    *,
    n_permutations: int | None = None,
) -> Any:
    """``ranking`` (a :class:`~bleu_core.evaluation.clusters.MetricRanking`) with its chance lines.

    ``ranking.extra["chance"]`` becomes ``{metric: ChanceLine.to_dict()}`` (drawn from the ranking's
    seed) and a metric whose calibrated tie threshold is degenerate (:func:`is_degenerate`) gets
    :func:`degenerate_note` in its row's note and ``extra["degenerate"]`` lists it.
    """
    from dataclasses import replace

    if ranking.statistic not in CHANCE_STATISTICS:
        return ranking
    lines = ranking_chance(
        tables,
        human_system,
        human_segment,
        ranking.statistic,
        n_permutations=n_permutations,
        seed=ranking.seed,
        tau_like=ranking_rule(ranking),
    )
    degenerate: list[str] = []
    rows = list(ranking.rows)
    if ranking.statistic in ITEM_LEVEL:
        human, scores = ranking_data(
            list(tables.values()), ranking.statistic, human_system, human_segment
        )
        for i, row in enumerate(rows):
            if row.metric in scores and is_degenerate(scores[row.metric], human, row.threshold):
                degenerate.append(row.metric)
                note = "; ".join(p for p in (degenerate_note(row.threshold), row.note) if p)
                rows[i] = replace(row, note=note)
    extra = {
        **ranking.extra,
        "chance": {name: line.to_dict() for name, line in lines.items()},
        "degenerate": degenerate,
    }
    return replace(ranking, rows=tuple(rows), extra=extra)
