"""Explore's error-span parts (issue 18): the rater filter, one system's translation with BLEU's matches and
the raters' spans, and the browse table's "rewarded errors" / "penalised correct words" columns.

Explore stays fast: the detail view looks up only the shown segment's spans
(:func:`ui.explore.agreement.segment_annotations`) and tokenises one translation; the whole-study
agreement (:func:`ui.explore.agreement.agreement_by_order`, cached) is computed only when the browser is
sorted by one of its counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from bleu_core.study import Study
from bleu_core.study.error_agreement import token_records
from ui.app import state as K
from ui.app.markup import label_html
from ui.explore import agreement
from ui.explore.error_spans import (
    SPAN_STYLE,
    counts_line,
    empty_spans_note,
    rater_label,
    source_spans_html,
    spans_hypothesis_html,
    spans_legend_html,
)
from ui.explore.highlight import (
    ngram_rows,
    occurrences,
    reference_html,
    reference_tokens,
    segment_block,
)

__all__ = [
    "BROWSE_COLUMNS",
    "browse_sorts",
    "chosen_raters",
    "explore_order",
    "focus_block",
    "rater_filter",
    "style",
    "with_agreement",
]

BROWSE_COLUMNS: list[str] = list(agreement.BROWSE_SORTS)
"""The browse table's columns of the agreement counts (present when the browser is sorted by them)."""


def style(study: Study) -> str:
    """The spans' style sheet when the study has spans (for the page's block that seldom changes)."""
    return SPAN_STYLE if study.error_spans else ""


def browse_sorts(study: Study) -> dict[str, str]:
    """Explore's extra sort keys (browse-frame column → label): only for a study with spans."""
    return dict(agreement.BROWSE_SORTS) if study.error_spans else {}


def chosen_raters(study_key: str, study: Study) -> tuple[str | None, ...] | None:
    """The raters chosen in Explore's filter (``None``: every rater), kept to the study's raters."""
    if not study.error_spans:
        return None
    known = agreement.span_overview(study_key, study).raters
    picked = [r for r in st.session_state.get(K.EXPLORE_SPAN_RATERS) or [] if r in known]
    return tuple(picked) or None


def rater_filter(study_key: str, study: Study) -> tuple[str | None, ...] | None:
    """The multiselect of the raters whose spans are drawn and counted (nothing without spans)."""
    if not study.error_spans:
        return None
    overview = agreement.span_overview(study_key, study)
    st.session_state[K.EXPLORE_SPAN_RATERS] = list(chosen_raters(study_key, study) or [])
    st.multiselect(
        "Raters' error spans",
        list(overview.raters),
        format_func=rater_label,
        key=K.EXPLORE_SPAN_RATERS,
        placeholder="all raters",
        help="Whose MQM error spans are underlined and counted (here and in the browser's sorts).",
    )
    return chosen_raters(study_key, study)


def explore_order(options: Any) -> int:
    """Explore's highlighted order (session state), within the sidebar's max order."""
    return max(1, min(int(st.session_state.get(K.EXPLORE_ORDER) or 1), options.max_order))


def with_agreement(frame: pd.DataFrame, scores: Any, sort: str) -> pd.DataFrame:
    """Explore's segment frame with the :data:`BROWSE_COLUMNS` counted at Explore's highlighted order
    with the chosen raters, when the browser is sorted by one of them (else unchanged: the whole-study
    table is not computed). ``scores``: :class:`ui.app.context.Scores`."""
    if sort not in agreement.BROWSE_SORTS:
        return frame
    options, order = scores.options, explore_order(scores.options)
    result = agreement.agreement_by_order(
        scores.key,
        scores.study,
        tuple(scores.references),
        options.tokenize,
        options.lowercase,
        chosen_raters(scores.key, scores.study),
        None,
        tuple(range(1, max(4, order) + 1)),
    )[order]
    return agreement.browse_columns(frame, result, list(scores.systems))


def focus_block(
    scores: Any,
    index: int,
    system: str,
    matches: Any,
    order: int,
    reference_names: Sequence[str],
    selected: tuple[str, ...] | None = None,
) -> str:
    """HTML of one system's translation of segment ``index`` (``scores``: :class:`ui.app.context.Scores`).

    Without spans in the study: :func:`ui.explore.highlight.segment_block`. With spans: the source-side
    spans of the chosen raters (if any), the hypothesis with BLEU's order-``order`` matches and the spans,
    the counts line, and the references with the tokens the hypothesis shares. Style sheets are left to
    the page (:data:`ui.app.markup.STYLE`, :func:`style`).
    """
    study = scores.study
    if not study.error_spans:
        return segment_block(
            matches, order, reference_names, system=system, selected=selected, style=False
        )
    raters = chosen_raters(scores.key, study)
    segment = study.segments[index]
    notes = agreement.segment_annotations(scores.key, study, segment.id)
    target = notes.of(system, raters)
    source = notes.of(system, raters, side="source")
    parts = [label_html(f"{system} · BLEU's matches and the raters' error spans")]
    if source and segment.source:
        parts.append(label_html("source · errors the raters marked on the source (e.g. omissions)"))
        parts.append(source_spans_html(segment.source, source))
    refs = [
        text for text in (study.references[r][index] for r in reference_names) if text is not None
    ]
    records = token_records(  # no reference text: every token unmatched
        study.systems[system][index] or "",
        refs or [""],
        target,
        max_order=order,
        tokenize=scores.options.tokenize,
        lowercase=scores.options.lowercase,
    )
    chosen = [
        i
        for occ in occurrences(matches, order)
        if selected is not None and occ.ngram == selected
        for i in range(occ.start, occ.end)
    ]
    parts.append(
        spans_hypothesis_html(
            records,
            matches=matches,
            order=order,
            reference_names=reference_names,
            selected=chosen,
        )
    )
    parts.append(
        counts_line(records.counts(), order=order, annotated=notes.annotated(system, raters))
    )
    parts.append(empty_spans_note(target))
    severities = {s.severity for s in notes.spans}
    if severities:
        parts.append(spans_legend_html(sorted(severities)))
    hyp_counts = {row.ngram: row.count for row in ngram_rows(matches, order)}
    for name, tokens in zip(reference_names, reference_tokens(matches), strict=False):
        parts.append(label_html(name))
        parts.append(reference_html(tokens, hyp_counts, order, selected=selected))
    return "\n".join(p for p in parts if p)
