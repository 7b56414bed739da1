"""The Metric ranking page: every metric of the study (computed here or attached) ranked by WMT's
meta-evaluation statistics, with significance clusters (:mod:`bleu_core.stats.clusters`).

One ranking is one criterion × statistic; each is cached on its own (:func:`cached_ranking`) so the page
can show progress between them and a change of one statistic recomputes only that one. The tables:

* :func:`ranking_frame`: one row per ranking × metric (long; CSV-friendly), with the bootstrap
  confidence interval of each value (``CI low``, ``CI high``);
* :func:`findings_frame`: the WMT findings' layout, one row per metric and, per ranking, its value,
  interval and cluster rank, metrics in the order of the first ranking (numbers: the CSV export);
* :func:`findings_display`: that table as shown, each value as ``0.812 [0.790, 0.835]``;
* :func:`findings_latex`: that table as LaTeX in the findings' style (cluster 1 in bold, the rank as a
  superscript, the interval in small type, a rule between the clusters of the first ranking, the BLEU
  row in italics).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from bleu_core.stats.clusters import MetricRanking, study_rankings
from bleu_core.stats.ranking_command import value_with_interval

STATISTIC_LABELS = {
    "pairwise-accuracy": "pairwise accuracy",
    "pearson": "Pearson",
    "kendall": "Kendall tau-b",
    "soft-pairwise-accuracy": "soft pairwise accuracy",
    "acc-eq": "acc*_eq",
    "tau-eq": "tau*_eq",
}
"""How the statistics are named in tables (the findings' names)."""


@st.cache_data(max_entries=64, show_spinner=False)
def cached_ranking(
    study_key: str,
    _study: Any,
    _tables: dict[str, Any],
    tables_key: tuple,
    criterion: str,
    statistic: str,
    n_resamples: int,
    alpha: float,
    seed: int,
) -> MetricRanking | None:
    """One ranking (``None`` when the criterion has no data for the statistic, e.g. no segment
    ratings for acc*_eq). ``tables_key`` identifies ``_tables`` (metric names, settings, systems)."""
    found = study_rankings(
        _study,
        _tables,
        criteria=[criterion],
        statistics=[statistic],
        n_resamples=n_resamples,
        alpha=alpha,
        seed=seed,
    )
    return found[0] if found else None


def column_name(ranking: MetricRanking) -> str:
    """The findings column of a ranking: ``"mqm · system · pairwise accuracy"``."""
    label = STATISTIC_LABELS.get(ranking.statistic, ranking.statistic)
    return f"{ranking.criterion} · {ranking.level} · {label}"


def ranking_frame(rankings: Sequence[MetricRanking]) -> pd.DataFrame:
    """One row per ranking × metric: criterion, level, statistic, rank (cluster), metric, value..."""
    rows = []
    for r in rankings:
        for row in r.rows:
            rows.append(
                {
                    "criterion": r.criterion,
                    "level": r.level,
                    "statistic": STATISTIC_LABELS.get(r.statistic, r.statistic),
                    "rank": row.rank,
                    "metric": row.metric,
                    "value": row.statistic,
                    # missing values are NaN (an empty cell), never Python's None
                    "CI low": math.nan
                    if row.confidence_interval is None
                    else row.confidence_interval[0],
                    "CI high": math.nan
                    if row.confidence_interval is None
                    else row.confidence_interval[1],
                    "kind": row.kind,
                    "higher is better": row.higher_is_better,
                    "tie threshold": math.nan if row.threshold is None else row.threshold,
                    "n": row.n,
                    "note": row.note or r.note,
                }
            )
    return pd.DataFrame(rows)


def findings_frame(rankings: Sequence[MetricRanking]) -> pd.DataFrame:
    """The findings' layout: ``metric``, ``kind``, then per ranking its value, ``CI low``, ``CI high``
    and ``rank`` columns; metrics in the order of the first ranking (best first)."""
    if not rankings:
        return pd.DataFrame(columns=["metric", "kind"])
    order = [row.metric for row in rankings[0].rows]
    for r in rankings[1:]:
        order += [row.metric for row in r.rows if row.metric not in order]
    kinds: dict[str, str] = {}
    columns: dict[str, dict[str, Any]] = {}
    for r in rankings:
        name = column_name(r)
        columns[name] = {row.metric: row.statistic for row in r.rows}
        for i, bound in enumerate(("CI low", "CI high")):
            columns[f"{name} · {bound}"] = {
                row.metric: None if row.confidence_interval is None else row.confidence_interval[i]
                for row in r.rows
            }
        columns[f"{name} · rank"] = {row.metric: row.rank for row in r.rows}
        kinds.update({row.metric: row.kind for row in r.rows})
    frame = pd.DataFrame({"metric": order, "kind": [kinds.get(m, "") for m in order]})
    for name, values in columns.items():
        frame[name] = [values.get(m) for m in order]
        if name.endswith(" · rank"):
            frame[name] = frame[name].astype("Int64")
    return frame


def findings_display(rankings: Sequence[MetricRanking]) -> pd.DataFrame:
    """:func:`findings_frame` as the page shows it: per ranking one ``value [95% CI]`` text column
    (``0.812 [0.790, 0.835]``) and its ``rank``."""
    frame = findings_frame(rankings)
    for r in rankings:
        name = column_name(r)
        cells = {
            row.metric: value_with_interval(row.statistic, row.confidence_interval)
            for row in r.rows
        }
        label = f"{name} [{r.confidence:.0%} CI]" if r.interval else name
        frame[name] = [cells.get(m, "—") for m in frame["metric"]]
        frame = frame.drop(columns=[f"{name} · CI low", f"{name} · CI high"]).rename(
            columns={name: label}
        )
    return frame


def highlight_bleu(frame: pd.DataFrame) -> Any:
    """A Styler of ``frame`` with the BLEU row highlighted (st.dataframe draws it) and ranks kept whole."""

    def paint(row: pd.Series) -> list[str]:
        on = str(row.get("metric", "")) == "BLEU"
        return ["background-color: rgba(255, 196, 0, 0.28); font-weight: 600" if on else ""] * len(
            row
        )

    numbers = [c for c in frame.columns if frame[c].dtype.kind == "f"]
    return frame.style.apply(paint, axis=1).format("{:.3f}", subset=numbers, na_rep="—")


def _tex(text: str) -> str:
    out = []
    for ch in str(text):
        if ch in "&%$#_{}":
            out.append("\\" + ch)
        elif ch == "~":
            out.append(r"\textasciitilde{}")
        elif ch == "^":
            out.append(r"\textasciicircum{}")
        elif ch == "\\":
            out.append(r"\textbackslash{}")
        else:
            out.append(ch)
    return "".join(out)


def findings_latex(rankings: Sequence[MetricRanking], *, caption: str = "") -> str:
    """The ranking as a LaTeX table in the WMT findings' style (booktabs).

    One row per metric, one column per ranking: the value with its cluster rank as a superscript, in
    bold in cluster 1, then its confidence interval in small type; a rule between the clusters of the
    first ranking; the BLEU row in italics.

    >>> from bleu_core.stats.clusters import MetricRanking, RankedMetric
    >>> import numpy as np
    >>> r = MetricRanking("pairwise-accuracy", "system", "mqm", (RankedMetric("COMET", 0.9, 1),
    ...     RankedMetric("BLEU", 0.7, 2)), np.full((2, 2), np.nan), 0.05, 100, 1, "perm-both")
    >>> print(findings_latex([r]).splitlines()[7])
    COMET & \\textbf{0.900}$^{1}$ \\\\
    """
    frame = findings_frame(rankings)
    first = {row.metric: row.rank for row in rankings[0].rows} if rankings else {}
    head = " & ".join(
        ["Metric"]
        + [
            _tex(f"{r.criterion} {STATISTIC_LABELS.get(r.statistic, r.statistic)}")
            for r in rankings
        ]
    )
    lines = [
        "\\begin{table}[ht]",
        "\\centering",
        "\\begin{tabular}{l" + "r" * len(rankings) + "}",
        "\\toprule",
        head + " \\\\",
        " & ".join([""] + [r.level for r in rankings]) + " \\\\",
        "\\midrule",
    ]
    previous = None
    for _, row in frame.iterrows():
        metric = row["metric"]
        if previous is not None and first.get(metric) not in (None, previous):
            lines.append("\\midrule")
        previous = first.get(metric, previous)
        cells = [f"\\textit{{{_tex(metric)}}}" if metric == "BLEU" else _tex(metric)]
        for r in rankings:
            value, rank = row[column_name(r)], row[f"{column_name(r)} · rank"]
            if value is None or (isinstance(value, float) and math.isnan(value)):
                cells.append("--")
                continue
            text = f"{value:.3f}"
            if not pd.isna(rank):
                text = (f"\\textbf{{{text}}}" if int(rank) == 1 else text) + f"$^{{{int(rank)}}}$"
            low, high = row[f"{column_name(r)} · CI low"], row[f"{column_name(r)} · CI high"]
            if not (pd.isna(low) or pd.isna(high)):
                text += f" {{\\scriptsize [{low:.3f}, {high:.3f}]}}"
            cells.append(text)
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    if caption:
        lines.append(f"\\caption{{{_tex(caption)}}}")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"
