"""The multi-pair meta-evaluation as tables: text, and LaTeX in the WMT findings' layout.

One row per metric (best global score first); the columns: the global score (weighted average of the
[0, 1]-normalised values), the average cluster rank and the global cluster, then per language pair and
statistic the value with its cluster rank. In LaTeX, as mt-metrics-eval's ``tasks.MetricsTable``
writes it (``fmt='latex'``): rank-1 values in bold, the baselines (BLEU, spBLEU, chrF) underlined.

>>> import numpy as np
>>> from bleu_core.stats.multi_pair import MultiPairResult
>>> res = MultiPairResult((), (), (), ("chrF", "BLEU"), {"chrF": 0.7, "BLEU": 0.6},
...     {"chrF": 1.0, "BLEU": 1.5}, {"chrF": 1, "BLEU": 1}, np.full((2, 2), np.nan), 10, 4, 0.05)
>>> print(format_text(res).splitlines()[1])
rank  metric  global  avg rank
"""

from __future__ import annotations

import math

from .multi_pair import MultiPairResult

BASELINES = ("BLEU", "spBLEU", "chrF")
"""The WMT metrics task's baseline metrics (underlined in LaTeX, as MTME marks baselines)."""
LABELS = {"soft-pairwise-accuracy": "SPA", "acc-eq": "acc*_eq", "tau-eq": "tau*_eq"}


def _cell(value: float, rank: int | None) -> str:
    if math.isnan(value):
        return "--"
    return f"{value:.3f}" + ("" if rank is None else f" ({rank})")


def format_text(result: MultiPairResult) -> str:
    """The global table as text, with the columns' weights, resamples and seed in its header."""
    head = (
        f"global view over {len(result.columns)} task(s) (language pair × statistic), weights "
        + ", ".join(f"{t} {LABELS.get(s, s)} {w:.3g}" for (t, s), w in zip(
            result.columns, result.weights, strict=True))
        + f"; clusters from the tasks' shared null draws: {result.n_resamples} resamples, "
        f"alpha {result.alpha}, seed {result.seed}"
    )  # fmt: skip
    columns = [f"{t} {LABELS.get(s, s)}" for t, s in result.columns]
    rows = [["rank", "metric", "global", "avg rank", *columns]]
    for m in result.metrics:
        rank = result.rank.get(m)
        rows.append(
            ["-" if rank is None else str(rank), m, f"{result.average[m]:.3f}",
             f"{result.average_rank[m]:.2f}" if not math.isnan(result.average_rank[m]) else "--",
             *(_cell(*result.value(i, m)) for i in range(len(result.columns)))]
        )  # fmt: skip
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    table = "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )
    return "\n".join([head, table, *result.notes])


def _tex(s: str) -> str:
    return "".join("\\" + c if c in "_&%#$" else c for c in s)


def format_latex(result: MultiPairResult, caption: str = "") -> str:
    """The global table as a LaTeX ``table`` (booktabs rules), BLEU and the other baselines underlined.

    >>> import numpy as np
    >>> from bleu_core.stats.multi_pair import MultiPairResult
    >>> res = MultiPairResult((), (), (), ("BLEU",), {"BLEU": 0.6}, {"BLEU": 1.0}, {"BLEU": 1},
    ...     np.full((1, 1), np.nan), 10, 4, 0.05)
    >>> [line for line in format_latex(res).splitlines() if "BLEU" in line]
    ['\\\\underline{BLEU} & \\\\textbf{0.600} & 1.00 \\\\\\\\']
    """
    cols = "l" + "rr" + "r" * len(result.columns)
    names = [f"{_tex(t)} {_tex(LABELS.get(s, s))}" for t, s in result.columns]
    lines = [
        "\\begin{table}[t]",
        "\\centering",
        f"\\begin{{tabular}}{{{cols}}}",
        "\\toprule",
        " & ".join(["metric", "global", "avg rank", *names]) + " \\\\",
        "\\midrule",
    ]
    for m in result.metrics:
        name = f"\\underline{{{_tex(m)}}}" if m in BASELINES else _tex(m)
        avg = f"{result.average[m]:.3f}"
        avg = f"\\textbf{{{avg}}}" if result.rank.get(m) == 1 else avg
        cells = [name, avg, f"{result.average_rank[m]:.2f}"]
        for i in range(len(result.columns)):
            value, rank = result.value(i, m)
            text = _cell(value, rank)
            cells.append(f"\\textbf{{{text}}}" if rank == 1 else text)
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    if caption:
        lines.append(f"\\caption{{{_tex(caption)}}}")
    lines.append("\\end{table}")
    return "\n".join(lines)
