"""Explore's error-span parts: the rater filter, one system's translation with BLEU's matches and
the raters' spans, and the browse table's "rewarded errors" / "penalised correct words" columns.

Explore stays fast: the detail view looks up only the shown segment's spans
(:func:`ui.explore.agreement.segment_annotations`) and tokenises one translation; the whole-study
agreement (:func:`ui.explore.agreement.agreement_by_order`, cached) is computed only when the browser is
sorted by one of its counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from bleu_core.engine.matches import match_provenance
from bleu_core.study import Study
from bleu_core.study.error_agreement import SegmentTokens, token_records
from bleu_core.study.spans import ErrorSpan
from ui.app import state as K
from ui.app.markup import label_html
from ui.explore import agreement
from ui.explore.agreement import segment_annotations
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

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions

__all__ = [
    "BROWSE_COLUMNS",
    "browse_sorts",
    "chosen_raters",
    "explore_order",
    "focus_block",
    "mark_entries",
    "open_in_explore",
    "rater_filter",
    "style",
    "table_hypotheses",
    "with_agreement",
]

BROWSE_COLUMNS: list[str] = list(agreement.BROWSE_SORTS)
"""The browse table's columns of the agreement counts (present when the browser is sorted by them)."""


def style(scores: Any) -> str:
    """The spans' style sheet and legend when the study has spans (for the page's block that seldom
    changes; ``scores``: :class:`ui.app.context.Scores`)."""
    if not scores.study.error_spans:
        return ""
    overview = agreement.span_overview(scores.key, scores.study)
    return SPAN_STYLE + spans_legend_html(overview.severities)


def browse_sorts(study: Study) -> dict[str, str]:
    """Explore's extra sort keys (browse-frame column → label): only for a study with spans and
    references (BLEU's matches need one)."""
    return dict(agreement.BROWSE_SORTS) if study.error_spans and study.references else {}


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


def open_in_explore(system: str, segment_id: str, order: int) -> None:
    """Show ``system``'s translation of ``segment_id`` in Explore, n-grams of ``order`` highlighted."""
    st.session_state[K.EXPLORE_SEGMENT] = segment_id
    st.session_state[K.EXPLORE_FOCUS_SYSTEM] = system
    st.session_state[K.EXPLORE_ORDER] = order
    st.session_state.pop(K.EXPLORE_NGRAM_SYSTEM, None)  # the n-gram section follows the focus
    st.switch_page("pages/explore.py")


def explore_order(options: BleuOptions) -> int:
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


def _records(
    scores: Any,
    index: int,
    system: str,
    order: int,
    reference_names: Sequence[str],
    spans: Sequence[ErrorSpan],
) -> SegmentTokens:
    study = scores.study
    refs = [
        text for text in (study.references[r][index] for r in reference_names) if text is not None
    ]
    return token_records(  # no reference text: every token unmatched
        study.systems[system][index] or "",
        refs or [""],
        spans,
        max_order=order,
        tokenize=scores.options.tokenize,
        lowercase=scores.options.lowercase,
    )


@st.cache_data(max_entries=64, show_spinner=False)
def table_hypotheses(
    study_key: str,
    _study: Study,
    index: int,
    systems: tuple[str, ...],
    reference_names: tuple[str, ...],
    order: int,
    tokenize: str,
    lowercase: bool,
    raters: tuple[str | None, ...] | None,
) -> dict[str, str]:
    """HTML of each of ``systems``' translations of segment ``index`` with BLEU's order-``order`` matches
    and the chosen raters' spans, ``title`` tooltips (Explore's all-systems table). Cached: ~8 ms a
    translation, drawn again on every re-run of the page."""
    notes = segment_annotations(study_key, _study, _study.segments[index].id)
    refs = [
        text for text in (_study.references[r][index] for r in reference_names) if text is not None
    ]
    out = {}
    for system in systems:
        hypothesis = _study.systems[system][index] or ""
        records = token_records(
            hypothesis,
            refs or [""],
            notes.of(system, raters),
            max_order=order,
            tokenize=tokenize,
            lowercase=lowercase,
        )
        matches = match_provenance(
            hypothesis, refs, max_order=order, tokenize=tokenize, lowercase=lowercase
        )
        out[system] = spans_hypothesis_html(
            records, matches=matches, order=order, reference_names=reference_names, popups=False
        )
    return out


def mark_entries(
    entries: list[dict[str, Any]],
    scores: Any,
    index: int,
    order: int,
    reference_names: Sequence[str],
) -> None:
    """Give each entry of Explore's all-systems table (:func:`ui.explore.frames.system_entries`) its
    hypothesis with the chosen raters' error spans (``hypothesis_html``, ``title`` tooltips as the table's
    other tokens), when the study has spans (:func:`table_hypotheses`)."""
    study = scores.study
    if not study.error_spans:
        return
    shown = tuple(e["system"] for e in entries if not e.get("missing"))
    options = scores.options
    html = table_hypotheses(
        scores.key,
        study,
        index,
        shown,
        tuple(reference_names),
        order,
        options.tokenize,
        options.lowercase,
        chosen_raters(scores.key, study),
    )
    for entry in entries:
        if entry["system"] in html:
            entry["hypothesis_html"] = html[entry["system"]]


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
    records = _records(scores, index, system, order, reference_names, target)
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
