"""Metric rankings as one LaTeX table in the WMT findings' style: ``meta --latex`` and the Metric
ranking page's download write the same table.

One row per metric (in the order of the first ranking), one column per ranking: the value with its
cluster rank as a superscript, in bold in cluster 1, then its bootstrap interval in small type; a rule
between the clusters of the first ranking; the BLEU row in italics. Under a last rule, the baselines:
a **random metric** (the range of the metrics' random means, each metric's own scores permuted:
:mod:`bleu_core.evaluation.chance`) and the **constant metric**; the caption says how they were drawn
(permutations and seed) and, for WMT's tau-like, which pairs it counted and why that threshold
(:mod:`bleu_core.evaluation.tau_like`).

>>> import numpy as np
>>> from bleu_core.evaluation.clusters import MetricRanking, RankedMetric
>>> r = MetricRanking("pairwise-accuracy", "system", "mqm", (RankedMetric("COMET", 0.9, 1),
...     RankedMetric("BLEU", 0.7, 2)), np.full((2, 2), np.nan), 0.05, 100, 1, "perm-both")
>>> print(findings_latex([r]).splitlines()[7])
COMET & \\textbf{0.900}$^{1}$ \\\\
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..latex import tex
from .statistic_names import statistic_name

if TYPE_CHECKING:
    from .clusters import MetricRanking


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


def _span(values: Sequence[float]) -> str:
    finite = [v for v in values if not math.isnan(v)]
    if not finite:
        return "--"
    low, high = min(finite), max(finite)
    return f"{low:.3f}" if high - low < 5e-4 else f"{low:.3f} to {high:.3f}"


def chance_rows(rankings: Sequence[MetricRanking], *, skip: int = 0) -> list[str]:
    """The baseline rows, under a rule: a random metric (the range of the metrics' random means) and
    the constant metric, per ranking; none when no ranking has chance lines. ``skip`` empty cells stand
    between the row's name and the rankings' cells (the multi-pair table's global columns)."""
    if not any(r.extra.get("chance") for r in rankings):
        return []
    random = ["\\textit{random metric}", *[""] * skip]
    constant = ["\\textit{constant metric}", *[""] * skip]
    for r in rankings:
        lines = [r.extra.get("chance", {}).get(row.metric) or {} for row in r.rows]
        random.append(_span([_number(line.get("random")) for line in lines]))
        constant.append(_span([_number(line.get("constant")) for line in lines]))
    return ["\\midrule", " & ".join(random) + " \\\\", " & ".join(constant) + " \\\\"]


def rule_caption(rankings: Sequence[MetricRanking]) -> str:
    """Which pairs each WMT tau-like column counted, and why that threshold (empty without one)."""
    return " ".join(
        f"WMT tau-like ({r.criterion}): {r.extra['tau_like']['said']}."
        for r in rankings
        if r.extra.get("tau_like")
    )


def chance_caption(rankings: Sequence[MetricRanking]) -> str:
    """How the baseline rows were drawn (permutations per statistic, seed), for the caption."""
    said, seed = [], None
    for r in rankings:
        first = next(iter(r.extra.get("chance", {}).values()), None)
        if first:
            label = statistic_name(r.statistic)
            said.append(
                f"{label}: {first['n_permutations']} permutations within {first['grouping']}"
            )
            seed = first["seed"] if seed is None else seed
    if not said:
        return ""
    return (
        "Random metric: each metric's own scores permuted ("
        + "; ".join(dict.fromkeys(said))
        + f"; seed {seed}); constant metric: every translation the same score."
    )


def _cell(ranking: MetricRanking, metric: str) -> str:
    row = next((row for row in ranking.rows if row.metric == metric), None)
    if row is None or math.isnan(row.statistic):
        return "--"
    text = f"{row.statistic:.3f}"
    if row.rank is not None:
        text = (f"\\textbf{{{text}}}" if row.rank == 1 else text) + f"$^{{{row.rank}}}$"
    if row.confidence_interval is not None:
        low, high = row.confidence_interval
        text += f" {{\\scriptsize [{low:.3f}, {high:.3f}]}}"
    return text


def findings_latex(rankings: Sequence[MetricRanking], *, caption: str = "") -> str:
    """The rankings (:class:`~bleu_core.evaluation.clusters.MetricRanking`) as one LaTeX ``table``
    (booktabs; see the module docstring)."""
    order: list[str] = []
    for r in rankings:
        order += [row.metric for row in r.rows if row.metric not in order]
    first = {row.metric: row.rank for row in rankings[0].rows} if rankings else {}
    head = ["Metric"] + [tex(f"{r.criterion} {statistic_name(r.statistic)}") for r in rankings]
    lines = [
        "\\begin{table}[ht]",
        "\\centering",
        "\\begin{tabular}{l" + "r" * len(rankings) + "}",
        "\\toprule",
        " & ".join(head) + " \\\\",
        " & ".join([""] + [r.level for r in rankings]) + " \\\\",
        "\\midrule",
    ]
    previous = None
    for metric in order:
        if previous is not None and first.get(metric) not in (None, previous):
            lines.append("\\midrule")
        previous = first.get(metric, previous)
        name = f"\\textit{{{tex(metric)}}}" if metric == "BLEU" else tex(metric)
        lines.append(" & ".join([name] + [_cell(r, metric) for r in rankings]) + " \\\\")
    lines += chance_rows(rankings)
    lines += ["\\bottomrule", "\\end{tabular}"]
    if caption and not caption.endswith("."):
        caption += "."
    said = " ".join(p for p in (caption, rule_caption(rankings), chance_caption(rankings)) if p)
    if said:
        lines.append(f"\\caption{{{tex(said)}}}")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"
