"""The multi-pair meta-evaluation as tables: text, and LaTeX in the WMT findings' layout.

One row per metric (best global score first); the columns: the global score (weighted average of the
[0, 1]-normalised values), the average cluster rank and the global cluster, then per language pair and
statistic the value with its cluster rank. Under the metrics, where the tasks know their studies, a
**human ceiling** row: per column one human score set against another (two raters of the criterion, or a
second criterion), in the global column their weighted average (when every column has one); the text
says below the table on what each column's ceiling rests (items, systems, seed). In LaTeX, as
mt-metrics-eval's ``tasks.MetricsTable`` writes it (``fmt='latex'``): rank-1 values in bold, the
baselines (BLEU, spBLEU, chrF) underlined, the ceiling row in italics after a rule, then, as in the
single-study table (:mod:`bleu_core.evaluation.ranking_latex`), the **random metric** and **constant metric**
rows of each column's chance line, with a caption saying how they were drawn (permutations, seed) and,
for a WMT tau-like column, which pairs it counted.

>>> import numpy as np
>>> from bleu_core.evaluation.multi_pair import MultiPairResult
>>> res = MultiPairResult((), (), (), ("chrF", "BLEU"), {"chrF": 0.7, "BLEU": 0.6},
...     {"chrF": 1.0, "BLEU": 1.5}, {"chrF": 1, "BLEU": 1}, np.full((2, 2), np.nan), 10, 4, 0.05)
>>> print(format_text(res).splitlines()[1])
rank  metric  global  avg rank
"""

from __future__ import annotations

import math

from ..latex import tex
from .multi_pair import MultiPairResult
from .ranking_latex import chance_caption, chance_rows, rule_caption
from .statistic_names import statistic_name

BASELINES = ("BLEU", "spBLEU", "chrF")
"""The WMT metrics task's baseline metrics (underlined in LaTeX, as MTME marks baselines)."""


def _cell(value: float, rank: int | None) -> str:
    if math.isnan(value):
        return "--"
    return f"{value:.3f}" + ("" if rank is None else f" ({rank})")


def _ceiling_cells(result: MultiPairResult) -> list[str] | None:
    """The human ceiling row's cells (global, then one per column), ``None`` when no column has one."""
    found = [result.ceiling(i) for i in range(len(result.columns))]
    if all(c is None for c in found):
        return None
    cells = [
        "n/a" if c is None or c["statistic"] is None else f"{c['statistic']:.3f}" for c in found
    ]
    overall = result.global_ceiling()
    return ["--" if math.isnan(overall) else f"{overall:.3f}", *cells]


def ceiling_notes(result: MultiPairResult) -> list[str]:
    """One line per column with a ceiling: what it compares and on how many items and systems."""
    return [
        f"human ceiling, {t} {statistic_name(s)}: {c['note']}"
        for (t, s), c in zip(
            result.columns, map(result.ceiling, range(len(result.columns))), strict=True
        )
        if c is not None
    ]


def format_text(result: MultiPairResult) -> str:
    """The global table as text, with the columns' weights, resamples and seed in its header."""
    head = (
        f"global view over {len(result.columns)} task(s) (language pair × statistic), weights "
        + ", ".join(f"{t} {statistic_name(s)} {w:.3g}" for (t, s), w in zip(
            result.columns, result.weights, strict=True))
        + f"; clusters from the tasks' shared null draws: {result.n_resamples} resamples, "
        f"alpha {result.alpha}, seed {result.seed}"
    )  # fmt: skip
    columns = [f"{t} {statistic_name(s)}" for t, s in result.columns]
    rows = [["rank", "metric", "global", "avg rank", *columns]]
    for m in result.metrics:
        rank = result.rank.get(m)
        rows.append(
            ["-" if rank is None else str(rank), m, f"{result.average[m]:.3f}",
             f"{result.average_rank[m]:.2f}" if not math.isnan(result.average_rank[m]) else "--",
             *(_cell(*result.value(i, m)) for i in range(len(result.columns)))]
        )  # fmt: skip
    ceiling = _ceiling_cells(result)
    if ceiling is not None:
        rows.append(["-", "human ceiling", ceiling[0], "", *ceiling[1:]])
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    table = "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )
    return "\n".join([head, table, *result.notes, *ceiling_notes(result)])


def format_latex(result: MultiPairResult, caption: str = "") -> str:
    """The global table as a LaTeX ``table`` (booktabs rules), BLEU and the other baselines underlined.

    >>> import numpy as np
    >>> from bleu_core.evaluation.multi_pair import MultiPairResult
    >>> res = MultiPairResult((), (), (), ("BLEU",), {"BLEU": 0.6}, {"BLEU": 1.0}, {"BLEU": 1},
    ...     np.full((1, 1), np.nan), 10, 4, 0.05)
    >>> [line for line in format_latex(res).splitlines() if "BLEU" in line]
    ['\\\\underline{BLEU} & \\\\textbf{0.600} & 1.00 \\\\\\\\']
    """
    cols = "l" + "rr" + "r" * len(result.columns)
    names = [f"{tex(t)} {tex(statistic_name(s))}" for t, s in result.columns]
    lines = [
        "\\begin{table}[t]",
        "\\centering",
        f"\\begin{{tabular}}{{{cols}}}",
        "\\toprule",
        " & ".join(["metric", "global", "avg rank", *names]) + " \\\\",
        "\\midrule",
    ]
    for m in result.metrics:
        name = f"\\underline{{{tex(m)}}}" if m in BASELINES else tex(m)
        avg = f"{result.average[m]:.3f}"
        avg = f"\\textbf{{{avg}}}" if result.rank.get(m) == 1 else avg
        cells = [name, avg, f"{result.average_rank[m]:.2f}"]
        for i in range(len(result.columns)):
            value, rank = result.value(i, m)
            text = _cell(value, rank)
            cells.append(f"\\textbf{{{text}}}" if rank == 1 else text)
        lines.append(" & ".join(cells) + " \\\\")
    ceiling = _ceiling_cells(result)
    if ceiling is not None:
        italic = [f"\\textit{{{c}}}" for c in ceiling]
        lines += ["\\midrule", " & ".join(["\\textit{human ceiling}", italic[0], "", *italic[1:]])
                  + " \\\\"]  # fmt: skip
    lines += chance_rows(result.rankings, skip=2)
    lines += ["\\bottomrule", "\\end{tabular}"]
    if caption and not caption.endswith("."):
        caption += "."
    said = " ".join(
        p for p in (caption, rule_caption(result.rankings), chance_caption(result.rankings)) if p
    )
    if said:
        lines.append(f"\\caption{{{tex(said)}}}")
    lines.append("\\end{table}")
    return "\n".join(lines)
