"""Metric ranking page: every metric as an error-free detector (WMT26 subtask 3), a PR chart and a table.

The numbers are :func:`bleu_core.stats.error_free.error_free_detection` (definitions there) on the page's
metric tables (BLEU's segment scores are the sidebar's sentence BLEU, as everywhere) and systems; a study
without ESA or MQM ratings gets a line saying what is needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from bleu_core.stats.error_free import DetectorRow, SegmentTable, error_free_detection
from bleu_core.stats.error_free_command import has_error_free_gold
from ui.app import state as K
from ui.app.chart_layout import chart_title, complete_legend
from ui.app.context import show_chart, table_downloads
from ui.app.markup import md_escape

if TYPE_CHECKING:
    from bleu_core.study.model import Study


def detector_frame(rows: Sequence[DetectorRow]) -> pd.DataFrame:
    """One row per metric: AP, the chance line, best F1 and its threshold, translations counted."""
    return pd.DataFrame(
        [
            {
                "metric": r.metric,
                "average precision": r.curve.average_precision,
                "chance": r.curve.chance,
                "best F1": r.curve.best_f1,
                "threshold (score ≥)": r.curve.best_threshold,
                "translations": r.curve.n,
                "error-free": r.curve.n_error_free,
            }
            for r in rows
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
    gold, rows, notes = error_free_detection(study, tables, systems)
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
    frame = detector_frame(chosen)
    number = st.column_config.NumberColumn(format="%.3f")
    st.dataframe(frame, hide_index=True, column_config={c: number for c in frame.columns[1:5]})
    table_downloads(frame, f"error-free detection {group}")
    st.caption(" · ".join(md_escape(n) for n in [f"{len(systems)} systems", *notes]))
