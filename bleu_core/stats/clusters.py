"""Metrics ranked by a statistic and grouped into significance clusters, as WMT findings tables do.

The WMT metrics task (Freitag et al. 2021-2024) sorts metrics by a meta-evaluation statistic
(pairwise accuracy, acc*_eq...), tests every pair of metrics (PERM-BOTH, Deutsch et al. 2021) and
assigns *ranks*: walking down the sorted list, a metric starts a new cluster when one of the metrics
of the current cluster is significantly better than it (MTME's ``data.AssignRanks``): "metrics
assigned rank r are those not significantly outperformed by any other metric of rank r, nor
outperformed by any metric of rank < r".

Statistics (``STATISTICS``), all computed on oriented scores (lower-is-better metrics negated):

* system level: ``pairwise-accuracy`` (Kocmi et al. 2021), ``pearson``, ``kendall`` (tau-b),
  tested by PERM-BOTH on the system scores; ``soft-pairwise-accuracy`` (Thompson et al. 2024; needs
  segment scores), tested as MTME tests it (PERM-BOTH on the segment scores,
  :func:`~bleu_core.stats.permutation_both.soft_pairwise_perm_both`);
* segment level, grouped by item: ``acc-eq`` (acc_23 with tie calibration) and ``tau-eq``
  (tau_23 with tie calibration) (Deutsch et al. 2023), tested by swapping pair outcomes.

Every row also carries a bootstrap confidence interval of its statistic
(:mod:`bleu_core.stats.ranking_intervals`: systems, items or segments resampled, as the test treats
them; same seed as the clusters).

>>> assign_ranks(np.array([[0, 0.3, 0.01], [0, 0, 0.04], [0, 0, 0]]), 0.05)   # MTME data.AssignRanks
[1, 1, 2]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import StatsInputError
from .resampling import DEFAULT_SEED, make_rng

SYSTEM_STATISTICS = ("pairwise-accuracy", "pearson", "kendall", "soft-pairwise-accuracy")
SEGMENT_STATISTICS = ("acc-eq", "tau-eq")
STATISTICS = SYSTEM_STATISTICS + SEGMENT_STATISTICS
DEFAULT_STATISTICS = ("pairwise-accuracy", "acc-eq")
#: MTME's ``PermutationSigDiffParams`` in its WMT tasks (``tasks.Task``): blocks of 100 resamples,
#: stop when p < 0.02 or p > 0.5. Used for soft pairwise accuracy, whose resamples are costly.
WMT_EARLY_STOP = (100, 0.02, 0.5)


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
        }


def _tables(tables: Mapping[str, Any]) -> list[Any]:
    if not tables:
        raise StatsInputError("no metrics to rank")
    return list(tables.values())


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
) -> MetricRanking:
    """Rank every metric of ``tables`` (``{name: MetricTable}``, same systems) by ``statistic``.

    Args:
        tables: from :func:`bleu_core.metrics.study_scores.study_metric_scores`.
        human_system: ``(K,)`` human system scores (NaN = system left out at system level).
        human_segment: ``(K, S)`` human segment scores (NaN = unrated), needed at segment level.
        statistic: one of :data:`STATISTICS`.
        n_resamples: permutation resamples per pair of metrics, and bootstrap resamples of each
            row's confidence interval (0 = rank without clusters or intervals).
        alpha: significance level of the clusters; ``seed``: one seed for every test and interval.
        confidence: level of the rows' bootstrap intervals.
    """
    from . import ranking_intervals as ri
    from .pairwise import pairwise_accuracy, soft_pairwise_accuracy
    from .permutation_both import pairs_permutation, perm_both, soft_pairwise_perm_both

    if statistic not in STATISTICS:
        raise StatsInputError(
            f"unknown statistic {statistic!r}; choose from: {', '.join(STATISTICS)}"
        )
    items = _tables(tables)
    systems = items[0].systems
    _, seed = make_rng(seed)
    h_sys = np.asarray(human_system, dtype=np.float64)
    level = "system" if statistic in SYSTEM_STATISTICS else "segment"
    values: dict[str, float] = {}
    info: dict[str, dict[str, Any]] = {}
    note = ""
    test = "none"
    boot = {"n_resamples": n_resamples, "confidence": confidence, "seed": seed}
    intervals: dict[str, tuple[Any, str]] = {}
    interval = ""
    if level == "system" and statistic != "soft-pairwise-accuracy":
        keep = ~np.isnan(h_sys)
        if keep.sum() < 3:
            raise StatsInputError(f"only {int(keep.sum())} systems have a human score; need 3")
        for t in items:
            m = t.oriented_system()
            if statistic == "pairwise-accuracy":
                r = pairwise_accuracy(m[keep], h_sys[keep])
                values[t.name], info[t.name] = r.statistic, {"n": r.n_pairs}
            else:
                from .correlation import correlation

                c = correlation(m[keep], h_sys[keep], statistic)
                values[t.name], info[t.name] = c.statistic, {"n": c.n}
        test = "perm-both (system scores swapped)"
        if n_resamples > 0:
            oriented = {t.name: t.oriented_system()[keep] for t in items}
            intervals = ri.system_intervals(oriented, h_sys[keep], statistic, **boot)
            interval = f"bootstrap over the {int(keep.sum())} systems"

        def compare(a: Any, b: Any) -> float:  # p that a beats b
            return perm_both(
                b.oriented_system()[keep],
                a.oriented_system()[keep],
                h_sys[keep],
                statistic,
                n_resamples=n_resamples,
                seed=seed,
            ).pvalue

    elif statistic == "soft-pairwise-accuracy":
        if human_segment is None:
            raise StatsInputError("soft pairwise accuracy needs human segment scores")
        h_seg = np.asarray(human_segment, dtype=np.float64)
        rated = ~np.isnan(h_sys) & ~np.isnan(h_seg).all(axis=1)
        # one set of segments for every metric: every rated system scored by the humans and by
        # every metric with segment scores
        common = ~np.isnan(h_seg[rated]).any(axis=0)
        oriented: dict[str, np.ndarray] = {}
        for t in items:
            seg = t.oriented_segment()
            if seg is None:
                info[t.name] = {"note": "no segment scores"}
                values[t.name] = math.nan
                continue
            oriented[t.name] = seg[rated]
            common &= ~np.isnan(seg[rated]).any(axis=0)
        h_common = h_seg[rated][:, common]
        for name, seg in oriented.items():
            oriented[name] = seg[:, common]
            if int(rated.sum()) < 2 or int(common.sum()) < 2:
                values[name], info[name] = math.nan, {"note": "too few segments scored by all"}
                continue
            r = soft_pairwise_accuracy(oriented[name], h_common)
            values[name], info[name] = r.statistic, {"n": r.n_pairs}
        test = (
            "perm-both (segment scores swapped, as MTME; stopped early as WMT's tasks: after a "
            "block of 100 resamples with p < 0.02 or p > 0.5)"
        )
        usable = {n: v for n, v in oriented.items() if not math.isnan(values[n])}
        if n_resamples > 0 and usable:
            intervals = ri.soft_pairwise_intervals(usable, h_common, **boot)
            interval = (
                f"bootstrap over the {int(common.sum())} segments scored for every rated system"
            )

        def compare(a: Any, b: Any) -> float:
            return soft_pairwise_perm_both(
                oriented[b.name],
                oriented[a.name],
                h_common,
                n_resamples=n_resamples,
                seed=seed,
                early_stop=WMT_EARLY_STOP,
            ).pvalue

    else:
        from .ties import pair_outcomes, tie_calibrated

        if human_segment is None:
            raise StatsInputError(f"{statistic} needs human segment scores")
        h_seg = np.asarray(human_segment, dtype=np.float64)
        variant = "acc23" if statistic == "acc-eq" else "23"
        with_seg = [t for t in items if t.segment is not None]
        # one set of pairs for every metric: human-rated and scored by every metric with segments
        valid = ~np.isnan(h_seg)
        for t in with_seg:
            valid &= ~np.isnan(t.segment)
        h_common = np.where(valid, h_seg, np.nan)
        outcomes: dict[str, tuple[np.ndarray, float]] = {}
        for t in items:
            if t.segment is None:
                values[t.name], info[t.name] = math.nan, {"note": "no segment scores"}
                continue
            m = np.where(valid, t.oriented_segment(), np.nan)
            r = tie_calibrated(m, h_common, variant, average_by="item")
            values[t.name] = r.statistic
            info[t.name] = {"n": r.n_pairs, "threshold": r.threshold}
            outcomes[t.name] = (m, r.threshold)
        from .ties import _VALUE

        table = _VALUE[variant]
        first = next(iter(outcomes.values()), None)
        if first is not None:
            base = pair_outcomes(first[0], h_common, "item")
            sizes = base.group_sizes.astype(np.float64)
            n_groups = int((sizes > 0).sum())
            weights = 1.0 / (sizes[base.group] * max(n_groups, 1))
        test = "pairs permutation (pair outcomes swapped, each metric at its own threshold)"

        def pair_values(t: Any) -> np.ndarray:
            m, eps = outcomes[t.name]
            return table[pair_outcomes(m, h_common, "item").outcomes_at(eps)]

        cache: dict[str, np.ndarray] = {}

        def compare(a: Any, b: Any) -> float:
            for t in (a, b):
                if t.name not in cache:
                    cache[t.name] = pair_values(t)
            return pairs_permutation(
                cache[b.name], cache[a.name], weights, n_resamples=n_resamples, seed=seed
            ).pvalue

        if n_resamples > 0 and first is not None:
            per_item = {}
            for t in items:
                if t.name in outcomes:
                    cache[t.name] = pair_values(t)
                    with np.errstate(invalid="ignore", divide="ignore"):
                        per_item[t.name] = np.bincount(
                            base.group, weights=cache[t.name], minlength=sizes.size
                        ) / np.where(sizes > 0, sizes, np.nan)
            intervals = ri.item_intervals(per_item, **boot)
            interval = (
                f"bootstrap over the {n_groups} items, each metric at its calibrated threshold"
            )

    order = sorted(
        items, key=lambda t: (math.isnan(values[t.name]), -np.nan_to_num(values[t.name]), t.name)
    )
    ranked = [t for t in order if not math.isnan(values[t.name])]
    n = len(ranked)
    pvalues = np.full((len(order), len(order)), np.nan)
    ranks: list[int | None] = [None] * len(order)
    if n_resamples > 0 and n > 0:
        for i in range(n):
            for j in range(i + 1, n):
                pvalues[i, j] = compare(ranked[i], ranked[j])
        ranks[:n] = assign_ranks(np.nan_to_num(pvalues[:n, :n], nan=1.0), alpha)
    elif n_resamples == 0:
        note = "n_resamples = 0: metrics ranked without significance clusters or intervals"
    if interval:
        interval += f", {n_resamples} resamples, seed {seed}"

    def row_note(name: str) -> str:
        parts = [info[name].get("note", ""), intervals.get(name, (None, ""))[1]]
        return "; ".join(p for p in parts if p)

    rows = tuple(
        RankedMetric(
            t.name,
            values[t.name],
            ranks[i],
            t.kind,
            t.higher_is_better,
            info[t.name].get("threshold"),
            int(info[t.name].get("n", 0)),
            row_note(t.name),
            intervals.get(t.name, (None, ""))[0],
        )
        for i, t in enumerate(order)
    )
    return MetricRanking(
        statistic,
        level,
        criterion,
        rows,
        pvalues,
        alpha,
        n_resamples,
        seed,
        test,
        tuple(systems),
        note,
        confidence=confidence,
        interval=interval,
    )


def study_rankings(
    study: Any,
    tables: Mapping[str, Any],
    *,
    criteria: Sequence[str] | None = None,
    statistics: Sequence[str] = DEFAULT_STATISTICS,
    n_resamples: int = 1000,
    alpha: float = 0.05,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
) -> list[MetricRanking]:
    """One :class:`MetricRanking` per human criterion × statistic of ``study``.

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
            if stat in SEGMENT_STATISTICS + ("soft-pairwise-accuracy",) and not has_seg:
                continue
            if stat in SYSTEM_STATISTICS and int((~np.isnan(h_sys)).sum()) < 3:
                continue
            out.append(
                rank_metrics(
                    tables,
                    h_sys,
                    h_seg if has_seg else None,
                    stat,
                    criterion=c,
                    n_resamples=n_resamples,
                    alpha=alpha,
                    seed=seed,
                    confidence=confidence,
                )
            )
    return out
