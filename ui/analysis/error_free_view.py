"""Metric ranking page: every metric as an error-free detector (WMT26 subtask 3), a PR chart and a table.

The numbers are :func:`bleu_core.evaluation.error_free.error_free_by_system_set` (definitions in
:mod:`bleu_core.evaluation.error_free`) on the page's metric tables (BLEU's segment scores are the sidebar's
sentence BLEU, as everywhere) and systems: the table gives each system set of the page's systems (human
translations out, and in when the page includes them) one row per metric, side by side; the chart is drawn
on the page's systems. A study without ESA or MQM ratings gets a line saying what is needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from bleu_core.cli.error_free_command import has_error_free_gold
from bleu_core.evaluation.error_free import (
    DetectorRow,
    SegmentTable,
    error_free_by_system_set,
    set_label,
)
from ui.app import state as K
from ui.app.chart_layout import chart_title, complete_legend
from ui.app.context import show_chart, table_downloads
from ui.app.markup import md_escape

if TYPE_CHECKING:
    from bleu_core.study.model import Study


def detector_frame(rows: Sequence[tuple[str, DetectorRow]]) -> pd.DataFrame:
    """One row per metric and system set (``(set label, row)`` pairs, in that order): AP, the chance
    line, best F1 and its threshold, translations counted."""
    return pd.DataFrame(
        [
            {
                "metric": r.metric,
                "systems": label,
                "average precision": r.curve.average_precision,
                "chance": r.curve.chance,
                "best F1": r.curve.best_f1,
                "threshold (score ≥)": r.curve.best_threshold,
                "translations": r.curve.n,
                "error-free": r.curve.n_error_free,
            }
            for label, r in rows
        ]
    )


def pr_chart(rows: Sequence[DetectorRow], group: str) -> Any:
    """Precision against recall, one step line per metric, the chance line dashed."""
    points = pd.DataFrame(
        [
            {"metric": r.metric, "recall": float(rec), "precision": float(prec)}
            for r in rows
            for rec, prec in zip(r.curve.recall, r.curve.precision, strict=True)
        ]
    )
    names = [r.metric for r in rows]
    lines = (
        alt.Chart(points)
        .mark_line(interpolate="step-before", point=False)
        .encode(
            x=alt.X("recall:Q", scale=alt.Scale(domain=[0, 1]), title="recall (error-free found)"),
            y=alt.Y("precision:Q", scale=alt.Scale(domain=[0, 1]), title="precision"),
            color=alt.Color("metric:N", sort=names, legend=complete_legend(names)),
            tooltip=[
                "metric",
                alt.Tooltip("recall:Q", format=".3f"),
                alt.Tooltip("precision:Q", format=".3f"),
            ],
        )
    )
    chance = rows[0].curve.chance
    rule = (
        alt.Chart(pd.DataFrame({"chance": [chance]}))
        .mark_rule(strokeDash=[4, 4], color="gray")
        .encode(y="chance:Q")
    )
    title = chart_title(
        "Metrics as error-free detectors", f"{group}; dashed: chance ({chance:.3f})"
    )
    return (lines + rule).properties(height=320, title=title)


def show_error_free(
    study: Study, tables: Mapping[str, SegmentTable], systems: Sequence[str]
) -> None:
    """The section: what is asked, the group choice, the PR chart and the table with its downloads."""
    st.subheader("Error-free detection (WMT26 subtask 3)")
    if not has_error_free_gold(study):
        st.caption(
            "Error-free detection needs ESA or MQM ratings (a translation's errors); this study has none."
        )
        return
    gold, by_set, notes = error_free_by_system_set(study, tables, systems)
    rows = by_set[-1][1]  # the chart: every one of the page's systems
    st.markdown(
        f"Is a translation **free of errors**? The raters' answer: {md_escape(gold.rule)}. A metric "
        "answers with its segment score: error-free when the score is at least a threshold. Each "
        "threshold gives a precision and a recall of the error-free class; **average precision** is the "
        "area under that curve (scikit-learn's definition), **chance** the share of error-free "
        "translations (what a metric that knows nothing reaches), **best F1** the best threshold's F1."
    )
    groups = list(dict.fromkeys(r.group for r in rows))
    if not groups:
        st.caption("No metric here has segment scores.")
        return
    if st.session_state.get(K.RANK_ERROR_FREE_GROUP) not in groups:
        st.session_state[K.RANK_ERROR_FREE_GROUP] = groups[0]
    group = st.selectbox("Translations", groups, key=K.RANK_ERROR_FREE_GROUP)
    chosen = [r for r in rows if r.group == group and r.curve.n_error_free > 0]
    if not chosen:
        st.caption("No translation of this group is error-free: nothing to detect.")
        return
    show_chart(pr_chart(chosen, group), f"error-free detection {group}")
    metrics = [r.metric for r in chosen]
    side_by_side = sorted(  # each metric's system sets one under the other (a stable sort)
        ((set_label(found), r) for found, found_rows in by_set for r in found_rows
         if r.group == group and r.metric in metrics),
        key=lambda pair: metrics.index(pair[1].metric),
    )  # fmt: skip
    frame = detector_frame(side_by_side)
    number = st.column_config.NumberColumn(format="%.3f")
    st.dataframe(frame, hide_index=True, column_config={c: number for c in frame.columns[2:6]})
    table_downloads(frame, f"error-free detection {group}")
    sets = [f"{set_label(found)}: {', '.join(found.systems)}" for found, _ in by_set]
    st.caption(
        " · ".join(md_escape(n) for n in [*sets, f"chart: {set_label(by_set[-1][0])}", *notes])
    )
