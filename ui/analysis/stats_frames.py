"""DataFrames for the statistics pages (pandas lives in ``ui``; ``bleu_core.evaluation`` results in, frames out)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import pandas as pd

from ui.app.numbers import format_ci


def block_frames(
    blocks: Any, metric: str = "BLEU", scale: str = "0-100"
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(Table 2 layout, neighbour t-tests, long per-block scores) of a :class:`bleu_core.evaluation.BlockResult`.

    Every BLEU here is on the 0-100 scale (the paper's Table 2 prints 0-1: ``blocks.table()``), so the
    layout's Mean and StdDev rows read on the same scale as the differences and the chart. Another
    ``metric`` is named in the labels, on its own ``scale`` (``""``: none stated). The long frame's
    score column is ``score``.
    """
    unit = f" ({scale})" if scale else ""
    t_row = ["—"] + [f"{t.statistic:.2f}" for t in blocks.tests]
    digits = 2 if scale else 4
    layout = pd.DataFrame(
        [
            [f"{m:.{digits}f}" for m in blocks.mean],
            [f"{d:.{digits}f}" for d in blocks.std],
            t_row,
        ],
        index=[f"Mean {metric}{unit}", f"StdDev{unit}", "t vs left neighbour"],
        columns=list(blocks.systems),
    )
    p_name = "p (one-sided)" if blocks.alternative == "greater" else "p"
    tests = pd.DataFrame(
        [
            {
                "system": t.system,
                "vs left neighbour": t.neighbour,
                "t": t.statistic,
                p_name: t.pvalue,
                "df": t.df,
                f"mean difference [95% CI] ({metric}{' ' + scale if scale else ''})": format_ci(
                    t.mean_difference, *t.confidence_interval, digits=digits
                ),
            }
            for t in blocks.tests
        ]
    )
    long = pd.DataFrame(
        [
            {"system": s, "block": b + 1, "score": float(blocks.scores[k, b])}
            for k, s in enumerate(blocks.systems)
            for b in range(blocks.n_blocks)
        ]
    )
    return layout, tests, long


def intervals_frame(boot: Any, level: str, metric: str = "BLEU", digits: int = 2) -> pd.DataFrame:
    """Bootstrap summary per system, best (highest score) first; the score column is named ``metric``."""
    return pd.DataFrame(
        [
            {
                "system": iv.system,
                metric: iv.statistic,
                f"{metric} [{level} CI]": format_ci(
                    iv.statistic, *iv.confidence_interval, digits=digits
                ),
                "mean": iv.mean,
                f"{level} CI low": iv.confidence_interval[0],
                f"{level} CI high": iv.confidence_interval[1],
                "RSD": iv.rsd,
            }
            for iv in boot.intervals
        ]
    ).sort_values(metric, ascending=False)


def matrix_frame(test: Any) -> pd.DataFrame:
    """Every ordered pair of a :class:`bleu_core.evaluation.PairedTestResult` (for the verdict matrix).

    The comparisons are indexed once (``test.get`` per cell scans every comparison: 2,450 cells × 1,225
    comparisons for 50 systems).
    """
    found = {}
    for c in test.comparisons:
        found[(c.system, c.baseline)] = c
        found.setdefault((c.baseline, c.system), c.flipped())
    rows = []
    for a in test.systems:
        for b in test.systems:
            if a != b:
                c = found[(a, b)]
                rows.append(
                    {
                        "row": a,
                        "column": b,
                        "verdict": c.verdict,
                        "difference": c.statistic,
                        "p": c.pvalue,
                    }
                )
    return pd.DataFrame(rows)


def comparisons_frame(test: Any) -> pd.DataFrame:
    """The tested pairs of a paired test, one row each."""
    return pd.DataFrame(
        [
            {
                "system": c.system,
                "baseline": c.baseline,
                "difference": c.statistic,
                "p": c.pvalue,
                # no interval (approximate randomisation): NaN, an empty cell, never "None"
                "CI low": math.nan if c.confidence_interval is None else c.confidence_interval[0],
                "CI high": math.nan if c.confidence_interval is None else c.confidence_interval[1],
                "verdict": c.verdict,
                # the paired bootstrap's p as sacrebleu --paired-bs computes it (not the verdict's)
                "p (sacrebleu)": math.nan if c.sacrebleu_pvalue is None else c.sacrebleu_pvalue,
            }
            for c in test.comparisons
        ]
    )


def pairs_display(frame: pd.DataFrame, n_resamples: int) -> pd.DataFrame:
    """:func:`comparisons_frame` of a paired bootstrap for the screen (:func:`ui.app.numbers.tidy_frame`):
    a p of 0 (no resampled difference crossed 0) reads ``< 1/M``, what ``M`` resamples can resolve.

    >>> pairs_display(pd.DataFrame({"p": [0.0, 0.2], "p (sacrebleu)": [0.01, 0.3]}), 200)["p"].tolist()
    ['< 0.005', '0.2']
    """
    from ui.app.numbers import tidy_frame

    shown = tidy_frame(frame)
    shown.loc[frame["p"] == 0, "p"] = f"< {1 / n_resamples:.2g}"
    return shown


def correlation_rows(results: Iterable[Any], level: str) -> list[dict[str, Any]]:
    """Rows for :class:`bleu_core.evaluation.CorrelationResult` objects."""
    return [
        {
            "level": level,
            "method": r.method + ("" if r.grouping in (None, "none") else f" (by {r.grouping})"),
            "r": r.statistic,
            "p": r.pvalue,
            "n": r.n,
            "CI low": None if r.confidence_interval is None else r.confidence_interval[0],
            "CI high": None if r.confidence_interval is None else r.confidence_interval[1],
            "note": r.note,
        }
        for r in results
    ]


def subset_frames(subsets: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(BLEU per system per reference subset, per-size Kendall summary) of a reference-subset result."""
    scores = pd.DataFrame(
        [
            {
                "system": s,
                "size": sub.size,
                "references": " + ".join(sub.references),
                "BLEU": sub.scores[k],
            }
            for sub in subsets.subsets
            for k, s in enumerate(subsets.systems)
        ]
    )
    sizes = pd.DataFrame(
        [
            {
                "references": size,
                "subsets": v["n_subsets"],
                "mean Kendall vs all": v["kendall_mean"],
                "min Kendall vs all": v["kendall_min"],
            }
            for size, v in subsets.by_size().items()
        ]
    )
    return scores, sizes
