"""BLEU vs the raters' error spans, token by token: cached results, tables and charts.

The numbers come from :func:`bleu_core.study.error_agreement.error_agreement_by_order` (definitions there):
each hypothesis token of an annotated translation is *matched* by BLEU or not, and *inside* an MQM error
span or not. Two cells of that 2 × 2 table are where BLEU and the raters disagree:

* **rewarded errors** (``matched_in_error``): BLEU credited a token the raters marked as wrong;
* **penalised correct words** (``unmatched_clean``): BLEU gave nothing for a token no rater objected to.

The computation (0.4-1 s of CPU on WMT24 en-ja's 7,605 annotated paragraphs, most of it tokenising:
``benchmarks/bench_error_spans.py``) is done once per study key (which follows the sidebar's reference
choice) and settings, for max orders 1-4 together (:func:`agreement_by_order`), shared by the "BLEU vs
error spans" page, Explore's sorts and every session, and counted ahead for the other tokenizers once the
page has drawn (:mod:`ui.explore.error_spans_ahead`). Frames and charts here are pure functions of their
inputs (testable without Streamlit).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import streamlit as st

from bleu_core.study.error_agreement import COUNT_NAMES, AgreementCounts, ErrorAgreement
from bleu_core.study.spans import ErrorSpan
from ui.app import chart_layout as layout
from ui.explore.error_spans_ahead import agreement_job, view_result

if TYPE_CHECKING:
    import altair as alt

    from bleu_core.study import Study

ORDERS: tuple[int, ...] = (1, 2, 3, 4)
"""The max orders computed together (one tokenisation, one n-gram pass)."""

REWARDED = "rewarded errors"
PENALISED = "penalised correct words"
REWARDED_RATE = "rewarded errors (%)"
PENALISED_RATE = "penalised correct words (%)"
RATE_HELP = {
    REWARDED_RATE: "of the tokens inside error spans, the share BLEU matched",
    PENALISED_RATE: "of the tokens outside every span, the share BLEU left unmatched",
}
CELL_LABELS = {
    "matched_in_error": "matched, in error",
    "matched_clean": "matched, clean",
    "unmatched_in_error": "unmatched, in error",
    "unmatched_clean": "unmatched, clean",
}
"""Column names of the four counts (:data:`bleu_core.study.error_agreement.COUNT_NAMES`)."""

BROWSE_SORTS = {
    "rewarded errors": "rewarded errors (MQM spans)",
    "penalised words": "penalised correct words (MQM spans)",
}
"""Explore's sorts by the agreement counts: browse-frame column → label (descending: the most first)."""


# ------------------------------------------------------------------------------------------ cached
@st.cache_data(max_entries=16, show_spinner="Crossing BLEU's matches with the raters' error spans…")
def agreement_by_order(
    study_key: str,
    _study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    raters: tuple[str | None, ...] | None = None,
    severities: tuple[str, ...] | None = None,
    orders: tuple[int, ...] = ORDERS,
) -> dict[int, ErrorAgreement]:
    """:func:`~bleu_core.study.error_agreement.error_agreement_by_order` of the open study (``study_key``
    names it; the study itself is not hashed) against the reference streams ``references``: shared by
    every session and perhaps counted ahead (:mod:`ui.explore.error_spans_ahead`)."""
    job = agreement_job(
        study_key, _study, references, tokenize, lowercase, raters, severities, orders
    )
    return view_result(job)


@dataclass(frozen=True)
class SpanOverview:
    """What a study's spans hold: raters (named first, ``None`` last), severities (worst first), how many."""

    raters: tuple[str | None, ...]
    severities: tuple[str, ...]
    n_spans: int


@st.cache_data(max_entries=16, show_spinner=False)
def span_overview(study_key: str, _study: Study) -> SpanOverview:
    """The raters and severities of the study's error spans (for the filter widgets)."""
    from ui.explore.error_spans import severity_rank

    spans = _study.error_spans
    named = sorted({s.rater for s in spans if s.rater is not None})
    raters: tuple[str | None, ...] = tuple(named) + (
        (None,) if any(s.rater is None for s in spans) else ()
    )
    severities = tuple(sorted({s.severity for s in spans}, key=lambda s: (severity_rank(s), s)))
    return SpanOverview(raters, severities, len(spans))


@dataclass(frozen=True)
class SegmentAnnotations:
    """One segment's error spans (every system, both sides) and who rated which system's translation."""

    spans: tuple[ErrorSpan, ...]
    rated: frozenset[tuple[str, str | None]]

    def of(
        self, system: str, raters: Sequence[str | None] | None, side: str = "target"
    ) -> tuple[ErrorSpan, ...]:
        """The spans of ``system`` on ``side`` by ``raters`` (``None``: every rater)."""
        chosen = None if raters is None else set(raters)
        return tuple(
            s
            for s in self.spans
            if s.system == system and s.side == side and (chosen is None or s.rater in chosen)
        )

    def annotated(self, system: str, raters: Sequence[str | None] | None) -> bool:
        """Whether a chosen rater rated or marked ``system``'s translation (the rule of
        :func:`~bleu_core.study.error_agreement.error_agreement`)."""
        chosen = None if raters is None else set(raters)
        if any(s.system == system and (chosen is None or s.rater in chosen) for s in self.spans):
            return True
        return any(name == system and (chosen is None or r in chosen) for name, r in self.rated)


@st.cache_data(max_entries=256, show_spinner=False)
def segment_annotations(study_key: str, _study: Study, segment_id: str) -> SegmentAnnotations:
    """The spans and segment-level raters of one segment (Explore draws one segment: only that one is
    looked up, not the whole study)."""
    return SegmentAnnotations(
        tuple(s for s in _study.error_spans if s.segment_id == segment_id),
        frozenset((r.system, r.rater) for r in _study.ratings if r.segment_id == segment_id),
    )


# ------------------------------------------------------------------------------------------ frames
def _pct(value: float) -> float:
    return value * 100.0 if not math.isnan(value) else math.nan


def counts_row(counts: AgreementCounts) -> dict[str, Any]:
    """The four counts (named by :data:`CELL_LABELS`), the token total and the two rates in %."""
    return {
        **{CELL_LABELS[k]: v for k, v in counts.to_dict().items()},
        "tokens": counts.tokens,
        REWARDED_RATE: _pct(counts.rewarded_error_rate),
        PENALISED_RATE: _pct(counts.penalised_clean_rate),
    }


def table_2x2(counts: AgreementCounts) -> pd.DataFrame:
    """The 2 × 2 table with totals: rows BLEU matched / not, columns inside a span / outside every span.

    >>> table_2x2(AgreementCounts(3, 7, 5, 2)).to_dict("list")  # doctest: +NORMALIZE_WHITESPACE
    {'inside an error span': [3, 5, 8], 'outside every span': [7, 2, 9], 'all tokens': [10, 7, 17]}
    """
    return pd.DataFrame(
        {
            "inside an error span": [
                counts.matched_in_error,
                counts.unmatched_in_error,
                counts.in_error,
            ],
            "outside every span": [counts.matched_clean, counts.unmatched_clean, counts.clean],
            "all tokens": [
                counts.matched_in_error + counts.matched_clean,
                counts.unmatched_in_error + counts.unmatched_clean,
                counts.tokens,
            ],
        },
        index=pd.Index(["BLEU matched", "BLEU did not match", "all tokens"], name="tokens"),
    )


def systems_frame(agreement: ErrorAgreement) -> pd.DataFrame:
    """One row per system: the four counts, tokens, both rates (%), annotated segments, source-side
    spans; then a row ``all systems``."""
    rows = [
        {
            "system": name,
            **counts_row(a.counts),
            "annotated segments": a.annotated_segments,
            "source-side spans": a.source_spans,
        }
        for name, a in agreement.systems.items()
    ]
    rows.append(
        {
            "system": "all systems",
            **counts_row(agreement.counts),
            "annotated segments": sum(a.annotated_segments for a in agreement.systems.values()),
            "source-side spans": sum(a.source_spans for a in agreement.systems.values()),
        }
    )
    return pd.DataFrame(rows)


def groups_frame(groups: Mapping[str, AgreementCounts], label: str) -> pd.DataFrame:
    """One row per severity or top-level category (``label`` names the column): the table computed as if
    only that kind of span existed."""
    return pd.DataFrame([{label: key, **counts_row(c)} for key, c in groups.items()])


def orders_frame(by_order: Mapping[int, ErrorAgreement]) -> pd.DataFrame:
    """One row per max order (all systems): a token counts as matched inside a matched n-gram of order n."""
    return pd.DataFrame(
        [{"max order": n, **counts_row(a.counts)} for n, a in sorted(by_order.items())]
    )


def orders_by_system_frame(by_order: Mapping[int, ErrorAgreement]) -> pd.DataFrame:
    """Both rates (%) per system and max order, wide: one row per system, columns ``<rate> · n=k``."""
    rows: dict[str, dict[str, Any]] = {}
    for n, agreement in sorted(by_order.items()):
        for name, a in agreement.systems.items():
            row = rows.setdefault(name, {"system": name})
            row[f"rewarded % · n={n}"] = _pct(a.counts.rewarded_error_rate)
            row[f"penalised % · n={n}"] = _pct(a.counts.penalised_clean_rate)
    return pd.DataFrame(list(rows.values()))


def ranking_frame(agreement: ErrorAgreement, by: str, top: int = 10) -> pd.DataFrame:
    """The ``top`` translations by one count (``"matched_in_error"`` or ``"unmatched_clean"``)."""
    ranks = agreement.segment_ranking(by, top=top)
    return pd.DataFrame(
        [
            {
                "system": r.system,
                "segment": r.segment_id,
                CELL_LABELS[by]: r.value,
                **{CELL_LABELS[k]: v for k, v in r.counts.to_dict().items() if k != by},
            }
            for r in ranks
        ],
        columns=[
            "system",
            "segment",
            *[CELL_LABELS[by]],
            *[CELL_LABELS[k] for k in COUNT_NAMES if k != by],
        ],
    )


def browse_columns(
    frame: pd.DataFrame, agreement: ErrorAgreement, systems: Sequence[str]
) -> pd.DataFrame:
    """Explore's segment frame (rows: ``systems`` × segments, in that order) with the columns
    ``rewarded errors`` (matched tokens inside spans) and ``penalised words`` (unmatched tokens outside
    every span);
    empty (``<NA>``) for translations no chosen rater annotated, so they sort last."""
    n_seg = len(agreement.segment_ids)
    rewarded = np.full((len(systems), n_seg), -1, dtype=np.int64)
    penalised = np.full((len(systems), n_seg), -1, dtype=np.int64)
    for s, name in enumerate(systems):
        if name in agreement.systems:
            rows = agreement.systems[name].segment_counts
            rewarded[s] = rows[:, COUNT_NAMES.index("matched_in_error")]
            penalised[s] = rows[:, COUNT_NAMES.index("unmatched_clean")]
    as_column = [
        pd.array([int(x) if x >= 0 else None for x in v.ravel().tolist()], dtype="Int64")
        for v in (rewarded, penalised)
    ]
    rewarded_key, penalised_key = BROWSE_SORTS
    return frame.assign(**{rewarded_key: as_column[0], penalised_key: as_column[1]})


# ------------------------------------------------------------------------------------------ charts
def rates_chart(agreement: ErrorAgreement) -> alt.HConcatChart:
    """Per system, side by side: rewarded errors (%) and penalised correct words (%), systems sorted by
    rewarded errors; every system name shown (:mod:`ui.app.chart_layout`), however many."""
    import altair as alt

    frame = systems_frame(agreement)
    frame = frame[frame["system"] != "all systems"]
    names = frame.sort_values(REWARDED_RATE, ascending=False)["system"].tolist()
    height = layout.band_length(len(names))
    tooltip = [
        alt.Tooltip("system:N"),
        alt.Tooltip(f"{REWARDED_RATE}:Q", format=".1f"),
        alt.Tooltip(f"{PENALISED_RATE}:Q", format=".1f"),
        alt.Tooltip("tokens:Q"),
    ]

    def bars(column: str, color: str, axis: bool) -> alt.Chart:
        y_axis = layout.category_axis(names, title=None) if axis else None
        return (
            alt.Chart(frame, title=alt.Title(column, subtitle=RATE_HELP[column]))
            .mark_bar(color=color)
            .encode(
                y=alt.Y("system:N", sort=names, axis=y_axis),
                x=alt.X(f"{column}:Q", title="% of tokens", scale=alt.Scale(zero=True)),
                tooltip=tooltip,
            )
            .properties(width=260, height=height)
        )

    return alt.hconcat(bars(REWARDED_RATE, "#d62728", True), bars(PENALISED_RATE, "#2f6fdd", False))


def orders_chart(by_order: Mapping[int, ErrorAgreement]) -> alt.Chart:
    """Both rates (all systems) against the max order at which a token counts as matched."""
    import altair as alt

    frame = orders_frame(by_order).melt(
        id_vars=["max order"], value_vars=[REWARDED_RATE, PENALISED_RATE], var_name="rate"
    )
    return (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("max order:O", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("value:Q", title="% of tokens", scale=alt.Scale(domain=[0, 100])),
            color=alt.Color(
                "rate:N",
                scale=alt.Scale(
                    domain=[REWARDED_RATE, PENALISED_RATE], range=["#d62728", "#2f6fdd"]
                ),
                legend=layout.complete_legend([REWARDED_RATE, PENALISED_RATE], title=None),
            ),
            tooltip=["max order:O", "rate:N", alt.Tooltip("value:Q", format=".1f")],
        )
        .properties(width=420, height=240)
    )
