"""BLEU vs error spans page: BLEU's unmatched words scored as predicted error spans (precision, recall, F1).

The numbers come from :func:`bleu_core.study.span_scores.span_scores` (definitions and a worked example in
its docstring), cached per study and settings; this module lays them out as one table per system and one
overall row, each matching (exact, overlap, character) plain and severity-weighted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from bleu_core.study.span_scores import SpanScoreResult
from ui.app import state as K
from ui.explore.error_spans_ahead import span_scores_job, view_result

if TYPE_CHECKING:
    from bleu_core.study.model import Study

MATCHINGS = {
    "exact": "exact span",
    "overlap": "overlapping span",
    "character": "characters",
}


@st.cache_data(max_entries=16, show_spinner="Scoring BLEU's unmatched words as error spans…")
def cached_span_scores(
    study_key: str,
    _study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    max_order: int,
    severities: tuple[str, ...] | None,
) -> SpanScoreResult:
    """:func:`~bleu_core.study.span_scores.span_scores` of the open study (``study_key`` names it):
    shared by every session and perhaps counted ahead (:mod:`ui.explore.error_spans_ahead`)."""
    job = span_scores_job(study_key, _study, references, tokenize, lowercase, max_order, severities)
    return view_result(job)


def scores_frame(result: SpanScoreResult, weighted: bool) -> pd.DataFrame:
    """One row per system and one ``overall`` row: P, R, F1 for each matching."""
    rows = []
    for name, scores in [*result.systems.items(), ("overall", result.overall)]:
        row: dict[str, Any] = {"system": name}
        for key, label in MATCHINGS.items():
            prf = getattr(scores, key + ("_weighted" if weighted else ""))
            row[f"{label} P"] = prf.precision
            row[f"{label} R"] = prf.recall
            row[f"{label} F1"] = prf.f1
        row["predicted spans"] = scores.counts.predicted
        row["gold spans"] = scores.counts.gold
        rows.append(row)
    return pd.DataFrame(rows)


def show_span_scores(result: SpanScoreResult) -> None:
    """The section: what is scored, the weighted toggle, the table."""
    st.subheader("BLEU as an error-span detector", divider="gray")
    st.markdown(
        "WMT scores error-span detection by **precision, recall and F1** of predicted spans against the "
        "raters'. BLEU predicts spans without meaning to: every run of consecutive words it leaves "
        f"unmatched (order {result.max_order}) is a span it calls wrong. **Exact**: the same characters "
        "as a rater's span; **overlapping**: at least one character shared; **characters**: the share of "
        "predicted (or marked) letters that are in both. Counts are summed over all items, then divided "
        "(micro-averaged)."
    )
    weighted = st.toggle(
        "Weight by severity (Minor 1, Major 5, Critical 10; a false alarm weighs 1)",
        key=K.SPANS_WEIGHTED,
    )
    frame = scores_frame(result, weighted)
    number = st.column_config.NumberColumn(format="%.3f")
    st.dataframe(
        frame,
        hide_index=True,
        column_config={c: number for c in frame.columns if c[-2:] in (" P", " R", "F1")},
    )
    st.caption(
        "High overlap recall with low precision is BLEU's signature: nearly every error contains a word "
        "BLEU did not match, but most unmatched words are not errors (synonyms, other word orders). "
        "Omissions cover no word of the translation and are left out "
        f"({result.overall.counts.left_out:,} spans)."
    )
