"""The metric rankings of ``python -m bleu_core meta``: every metric × statistic, ranked, clustered.

:func:`meta_rankings` scores the study's systems with the computed metrics and every external metric
attached to the study (``--metric-scores``), then ranks them by each statistic for each human
criterion (:func:`bleu_core.stats.clusters.study_rankings`); :func:`format_rankings` prints the
tables as the WMT findings do: best first, with the cluster rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .clusters import DEFAULT_STATISTICS, STATISTICS, MetricRanking, study_rankings
from .errors import StatsInputError

DEFAULT_COMPUTED = ("BLEU", "chrF")


def parse_statistics(value: str | None) -> list[str]:
    """``--statistics`` names (comma-separated; ``none`` = no rankings), validated.

    >>> parse_statistics("pairwise-accuracy, acc-eq")
    ['pairwise-accuracy', 'acc-eq']
    """
    if value is None:
        return list(DEFAULT_STATISTICS)
    names = [v.strip() for v in value.split(",") if v.strip()]
    if names == ["none"]:
        return []
    unknown = [n for n in names if n not in STATISTICS]
    if unknown:
        raise StatsInputError(
            f"unknown statistic(s) {', '.join(map(repr, unknown))}; choose from: "
            f"{', '.join(STATISTICS)} (or none)"
        )
    return names


def meta_rankings(
    study: Any,
    systems: Sequence[str],
    *,
    metrics: Sequence[str] = DEFAULT_COMPUTED,
    statistics: Sequence[str] = DEFAULT_STATISTICS,
    criteria: Sequence[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    n_resamples: int = 1000,
    alpha: float = 0.05,
    seed: int | None = None,
) -> list[MetricRanking]:
    """Rankings of every metric (computed ``metrics`` and the study's external ones)."""
    from ..metrics.study_scores import study_metric_scores
    from .resampling import DEFAULT_SEED

    if not statistics:
        return []
    tables = study_metric_scores(
        study, list(metrics), systems=systems, tokenize=tokenize, lowercase=lowercase
    )
    return study_rankings(
        study,
        tables,
        criteria=criteria,
        statistics=statistics,
        n_resamples=n_resamples,
        alpha=alpha,
        seed=DEFAULT_SEED if seed is None else seed,
    )


def _fmt(value: float | None) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.4f}"


def format_rankings(rankings: Sequence[MetricRanking]) -> str:
    """Text tables: one per criterion × statistic, best metric first, with its cluster rank."""
    blocks = []
    for r in rankings:
        head = (
            f"{r.statistic} ({r.level} level) against {r.criterion}: {len(r.systems)} systems; "
            f"clusters: {r.test}, {r.n_resamples} resamples, alpha {r.alpha}, seed {r.seed}"
        )
        rows = [["rank", "metric", r.statistic, "tie threshold", "pairs", "kind", "note"]]
        for m in r.rows:
            rows.append(
                [
                    "-" if m.rank is None else str(m.rank),
                    m.metric,
                    _fmt(m.statistic),
                    "" if m.threshold is None else f"{m.threshold:.4g}",
                    str(m.n),
                    m.kind,
                    m.note,
                ]
            )
        widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
        table = "\n".join(
            "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
        )
        blocks.append(head + "\n" + table + (f"\n{r.note}" if r.note else ""))
    return "\n\n".join(blocks)
