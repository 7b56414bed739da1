"""The Metric ranking page: every metric of the study (computed here or attached) ranked by WMT's
meta-evaluation statistics, with significance clusters (:mod:`bleu_core.evaluation.clusters`).

One ranking is one criterion × statistic; each is cached on its own (:func:`cached_ranking`) so the page
can show progress between them and a change of one statistic recomputes only that one. The tables:

* :func:`ranking_frame`: one row per ranking × metric (long; CSV-friendly), with the bootstrap
  confidence interval of each value (``CI low``, ``CI high``) and its chance line (a random metric's
  mean and middle 95 %, the constant metric's value: :mod:`bleu_core.evaluation.chance`);
* :func:`findings_frame`: the WMT findings' layout, one row per metric and, per ranking, its value,
  interval and cluster rank, metrics in the order of the first ranking (numbers: the CSV export);
* :func:`findings_display`: that table as shown, each value as ``0.812 [0.790, 0.835]`` with its
  chance line beside it (``0.501 / 0.480``: random metric / constant metric);
* :func:`~bleu_core.evaluation.ranking_latex.findings_latex` (re-exported): that table as LaTeX in the
  findings' style, the one ``meta --latex`` prints (cluster 1 in bold, the rank as a superscript, the
  interval in small type, a rule between the clusters of the first ranking, the BLEU row in italics,
  the random and constant metrics' rows and how they were drawn).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from bleu_core.cli.ranking_command import value_with_interval
from bleu_core.evaluation.ceiling_flags import ceiling_line, chance_of
from bleu_core.evaluation.clusters import MetricRanking, study_rankings
from bleu_core.evaluation.ranking_latex import findings_latex
from bleu_core.evaluation.statistic_names import STATISTIC_NAMES, statistic_name

if TYPE_CHECKING:
    from bleu_core.study.model import Study


@st.cache_data(max_entries=64, show_spinner=False)
def cached_ranking(
    study_key: str,
    _study: Study,
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
    label = statistic_name(ranking.statistic)
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
                    "statistic": statistic_name(r.statistic),
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
                    **chance_numbers(r, row.metric),
                    "note": row.note or r.note,
                }
            )
    return pd.DataFrame(rows)


def chance_numbers(ranking: MetricRanking, metric: str) -> dict[str, float]:
    """A metric's chance line as numbers (NaN where there is none): ``random metric``, ``random low``,
    ``random high`` (the middle 95 % of the permutations) and ``constant metric``."""
    line = ranking.extra.get("chance", {}).get(metric) or {}
    low, high = line.get("random_range") or (None, None)
    values = (line.get("random"), low, high, line.get("constant"))
    names = ("random metric", "random low", "random high", "constant metric")
    return {n: math.nan if v is None else float(v) for n, v in zip(names, values, strict=True)}


def chance_short(ranking: MetricRanking, metric: str) -> str:
    """``0.501 / 0.480``: the random metric's mean and the constant metric's value (``n/a``), or ``—``.

    >>> import numpy as np
    >>> from bleu_core.evaluation.clusters import MetricRanking, RankedMetric
    >>> r = MetricRanking("pearson", "system", "mqm", (RankedMetric("BLEU", 0.7, 1),), np.zeros((1, 1)),
    ...     0.05, 10, 1, "t", extra={"chance": {"BLEU": {"random": 0.01, "constant": None}}})
    >>> chance_short(r, "BLEU"), chance_short(r, "chrF")
    ('0.010 / n/a', '—')
    """
    n = chance_numbers(ranking, metric)
    if math.isnan(n["random metric"]) and math.isnan(n["constant metric"]):
        return "—"
    return " / ".join(
        "n/a" if math.isnan(v) else f"{v:.3f}" for v in (n["random metric"], n["constant metric"])
    )


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
        for part in ("random metric", "constant metric"):  # the chance line (NaN: none)
            columns[f"{name} · {part}"] = {
                row.metric: chance_numbers(r, row.metric)[part] for row in r.rows
            }
        kinds.update({row.metric: row.kind for row in r.rows})
    notes = _with_ceilings(rankings, columns, order, kinds)
    frame = pd.DataFrame({"metric": order, "kind": [kinds.get(m, "") for m in order]})
    for name, values in columns.items():
        frame[name] = [values.get(m) for m in order]
        if name.endswith(" · rank"):
            frame[name] = frame[name].astype("Int64")
    if notes:
        frame["ceiling note"] = [notes if m == CEILING_ROW else "" for m in order]
    return frame


#: The findings row of each ranking's human ceiling (one rater against another, or two criteria).
CEILING_ROW = "human ceiling"


def _with_ceilings(
    rankings: Sequence[MetricRanking],
    columns: dict[str, dict[str, Any]],
    order: list[str],
    kinds: dict[str, str],
) -> str:
    """Add the :data:`CEILING_ROW` to the findings' ``columns`` (its value and interval in each ranking's
    columns, no rank, no chance line) and return its note: per ranking the ceiling with its n and flags
    (:func:`bleu_core.evaluation.ceiling_flags.ceiling_line`); ``""`` when no ranking has a ceiling value."""
    said = []
    if not any((r.extra.get("ceiling") or {}).get("statistic") is not None for r in rankings):
        return ""  # no ranking has a ceiling (every item has a single rating): no row
    for r in rankings:
        ceiling = r.extra.get("ceiling")
        if not ceiling:
            continue
        name = column_name(r)
        ci = ceiling.get("confidence_interval") or (None, None)
        columns[name][CEILING_ROW] = (
            math.nan if ceiling["statistic"] is None else ceiling["statistic"]
        )
        columns[f"{name} · CI low"][CEILING_ROW] = ci[0]
        columns[f"{name} · CI high"][CEILING_ROW] = ci[1]
        said.append(f"{name}: {ceiling_line(ceiling, chance_of(r.extra.get('chance')))}")
    if said:
        order.append(CEILING_ROW)
        kinds[CEILING_ROW] = "human"
    return " | ".join(said)


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
        ceiling = r.extra.get("ceiling")
        if ceiling and ceiling["statistic"] is not None:  # the ceiling's row, with its interval
            ci = ceiling.get("confidence_interval")
            cells[CEILING_ROW] = value_with_interval(
                ceiling["statistic"], tuple(ci) if ci else None
            )
        label = f"{name} [{r.confidence:.0%} CI]" if r.interval else name
        frame[name] = [cells.get(m, "—") for m in frame["metric"]]
        frame.insert(  # beside the value: what a random and a constant metric get
            frame.columns.get_loc(name) + 1,
            f"{name} · random / constant",
            [chance_short(r, m) for m in frame["metric"]],
        )
        drop = [
            f"{name} · {part}" for part in ("CI low", "CI high", "random metric", "constant metric")
        ]
        frame = frame.drop(columns=drop).rename(columns={name: label})
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


__all__ = [
    "STATISTIC_NAMES",
    "cached_ranking",
    "chance_numbers",
    "chance_short",
    "column_name",
    "findings_display",
    "findings_frame",
    "findings_latex",
    "highlight_bleu",
    "ranking_frame",
]
