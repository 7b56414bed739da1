"""DataFrames for the statistics pages (pandas lives in ``ui``; ``bleu_core.stats`` results in, frames out)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd


def block_frames(blocks: Any) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(Table 2 layout, neighbour t-tests, long per-block scores) of a :class:`bleu_core.stats.BlockResult`."""
    table = blocks.table()
    layout = pd.DataFrame(
        [r[1:] for r in table[1:]], index=[r[0] for r in table[1:]], columns=table[0][1:]
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
                "mean difference": t.mean_difference,
                "95% CI low": t.confidence_interval[0],
                "95% CI high": t.confidence_interval[1],
            }
            for t in blocks.tests
        ]
    )
    long = pd.DataFrame(
        [
            {"system": s, "block": b + 1, "BLEU": float(blocks.scores[k, b])}
            for k, s in enumerate(blocks.systems)
            for b in range(blocks.n_blocks)
        ]
    )
    return layout, tests, long


def intervals_frame(boot: Any, level: str) -> pd.DataFrame:
    """Bootstrap summary per system, best first."""
    return pd.DataFrame(
        [
            {
                "system": iv.system,
                "BLEU": iv.statistic,
                "mean": iv.mean,
                f"{level} CI low": iv.confidence_interval[0],
                f"{level} CI high": iv.confidence_interval[1],
                "RSD": iv.rsd,
            }
            for iv in boot.intervals
        ]
    ).sort_values("BLEU", ascending=False)


def matrix_frame(test: Any) -> pd.DataFrame:
    """Every ordered pair of a :class:`bleu_core.stats.PairedTestResult` (for the verdict matrix)."""
    rows = []
    for a in test.systems:
        for b in test.systems:
            if a != b:
                c = test.get(a, b)
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
                "CI low": None if c.confidence_interval is None else c.confidence_interval[0],
                "CI high": None if c.confidence_interval is None else c.confidence_interval[1],
                "verdict": c.verdict,
            }
            for c in test.comparisons
        ]
    )


def correlation_rows(results: Iterable[Any], level: str) -> list[dict[str, Any]]:
    """Rows for :class:`bleu_core.stats.CorrelationResult` objects."""
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
