"""The organiser's side of ESA and quality control on the Campaigns page: each judge's pass rate (flagged
judges, "keep" switches), the exports in the field's formats (Appraise's ESA CSV, JSONL, Pearmut), and what the
analyses receive (the spans, the judges left out and kept).

Numbers come from :meth:`bleu_core.campaigns.CampaignStore.quality` and :mod:`bleu_core.campaigns.exports`;
nothing here computes. Judge names shown in tables are data, never markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bleu_core.campaigns import (
    CLASS_PROTOCOLS,
    Campaign,
    CampaignStore,
    Item,
    JudgeQuality,
    StoredRating,
    StoredSpan,
)
from bleu_core.campaigns.exports import campaign_jsonl, esa_csv
from bleu_core.campaigns.pearmut_export import PEARMUT_PROTOCOL, pearmut_bundle
from bleu_core.campaigns.protocols import PROTOCOL_TITLES, SPAN_PROTOCOLS
from bleu_core.errors import BleuStudyError
from bleu_core.study.model import Study
from ui.app import state as K
from ui.app.context import file_stem
from ui.app.markup import md_escape
from ui.campaigns.lesson_study import study_mismatch


@dataclass(frozen=True)
class AnalysisInput:
    """What "Use these ratings in the analyses" passes on besides the ratings."""

    spans: tuple[StoredSpan, ...] = ()
    left_out: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()


def quality_frame(quality: Sequence[JudgeQuality]) -> pd.DataFrame:
    """One row per judge: checks answered, passed, pending, pass rate, and whether they are flagged / kept.

    >>> q = JudgeQuality("Bo", "g", 3, 1, 1, True, False)
    >>> quality_frame([q]).iloc[0].to_dict()["status"]
    'left out of the analyses'
    """
    rows = []
    for q in quality:
        status = (
            "passed" if not q.failed else ("kept by you" if q.kept else "left out of the analyses")
        )
        if q.n_answered == 0:
            status = "no check answered yet"
        rows.append(
            {
                "judge": q.judge,
                "group": q.group,
                "checks answered": q.n_answered,
                "passed": q.n_passed,
                "pending": q.n_pending,
                "pass rate": q.pass_rate,
                "status": status,
            }
        )
    return pd.DataFrame(rows)


def quality_section(store: CampaignStore, campaign: Campaign, key: str) -> AnalysisInput:
    """The quality-control table and a "keep" switch per failing judge; what the analyses get."""
    quality = store.quality(campaign.code, key)
    qc = campaign.quality_control
    if not qc.get("tutorials") and not qc.get("attention"):
        st.caption("This campaign has no tutorial items or attention checks.")
    else:
        rate = float(qc.get("pass_rate", 2 / 3))
        st.caption(
            f"{qc.get('tutorials', 0)} tutorial item(s) and {qc.get('attention', 0)} attention check(s); "
            f"a judge who passes fewer than {rate:.0%} of the checks they answered is left out of the "
            "analyses unless you keep them."
        )
        if quality:
            st.dataframe(
                quality_frame(quality),
                hide_index=True,
                column_config={"pass rate": st.column_config.NumberColumn(format="percent")},
            )
    for q in (q for q in quality if q.failed):
        keep = st.toggle(
            f"Keep {md_escape(q.judge)} in the analyses", value=q.kept, key=f"camp_keep_{q.judge}"
        )
        if keep != q.kept:
            store.keep_judge(campaign.code, key, q.judge, keep)
            st.rerun()
    spans = tuple(store.spans(campaign.code, key)) if campaign.protocol in SPAN_PROTOCOLS else ()
    return AnalysisInput(
        spans,
        tuple(q.judge for q in quality if q.excluded),
        tuple(q.judge for q in quality if q.failed and q.kept),
    )


def field_downloads(
    store: CampaignStore,
    campaign: Campaign,
    key: str,
    ratings: Sequence[StoredRating],
    study: Study | None,
) -> None:
    """ "Appraise ESA CSV" (ESA and contrastive ESA campaigns, with the study the campaign was made from: one
    row per translation rated, a contrastive screen's translations as ESA rows), "JSONL" and Pearmut's
    zip (ESA, or cESA with a sentence's translations on one page)."""
    items = store.items(campaign.code, key)
    spans = store.spans(campaign.code, key)
    stem = f"{file_stem(campaign.name)}-{campaign.code}"
    c1, c2, c3 = st.columns([1, 1, 2])
    c2.download_button(
        "Ratings as JSONL",
        data=campaign_jsonl(items, ratings, spans),
        file_name=f"{stem}.jsonl",
        mime="application/jsonl",
        icon=":material/download:",
        on_click="ignore",
        disabled=not ratings,
        help="One line per judge and item in Pearmut's annotation-log shape: texts, scores, error spans.",
    )
    pearmut = PEARMUT_PROTOCOL.get(campaign.protocol)
    if pearmut is None:  # adequacy + fluency, DA: neither Appraise's ESA CSV nor Pearmut's ESA
        return
    pearmut_download(c3, (items, ratings, spans), stem, pearmut)
    mismatch = study_mismatch(campaign, study)
    if mismatch:
        c1.caption(f"Appraise ESA CSV: {md_escape(mismatch)}")
        return
    pair = None
    if study is not None:
        pair = study.metadata.get("pair") or f"{study.source_lang}-{study.target_lang}"
    try:
        data = esa_csv(
            items, ratings, spans, segment_ids=study.segment_ids if study else [], pair=str(pair),
            line_offset=int(bool(study.metadata.get("canary_line"))) if study else 0,
            documents={s.id: s.doc_id for s in study.segments if s.doc_id} if study else None,
        )  # fmt: skip
    except BleuStudyError as err:
        c1.caption(f"Appraise ESA CSV: {md_escape(str(err))}")
        return
    c1.download_button(
        "Appraise ESA CSV",
        data=data,
        file_name=f"{stem}-esa.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        disabled=not ratings or study is None,
        help="The shape WMT24 publishes (Appraise's export), one row per translation rated (a "
        "contrastive screen gives one row per translation); the WMT24 loader reads it back.",
    )


def pearmut_download(
    column: DeltaGenerator,
    campaign: tuple[Sequence[Item], Sequence[StoredRating], Sequence[StoredSpan]],
    stem: str,
    protocol: str = "ESA",
) -> None:
    """ "Pearmut campaign + annotations (zip)" (:func:`bleu_core.campaigns.pearmut_export.pearmut_bundle`)
    under Pearmut's *protocol* (``ESA``, or ``cESA``: one page per source sentence with its systems)."""
    try:
        bundle = pearmut_bundle(*campaign, campaign_id=stem, protocol=protocol)
    except BleuStudyError as err:
        column.caption(f"Pearmut: {md_escape(str(err))}")
        return
    column.download_button(
        "Pearmut campaign + annotations (zip)",
        data=bundle,
        file_name=f"{stem}-pearmut.zip",
        mime="application/zip",
        icon=":material/download:",
        on_click="ignore",
        help="campaign.json for `pearmut add`; with ratings, the three files `pearmut add-existing` "
        "loads (offsets as Pearmut counts them). See docs/formats.md.",
    )


def lesson_protocol_choice() -> str:
    """Class mode's protocol: ESA (students mark the errors, then score 0-100) or the paper's adequacy +
    fluency; the widget keeps it in :data:`ui.app.state.CAMP_CLASS_PROTOCOL`."""
    return str(
        st.radio(
            "What the class does",
            list(CLASS_PROTOCOLS),
            index=1,
            format_func=lambda p: PROTOCOL_TITLES[p],
            horizontal=True,
            key=K.CAMP_CLASS_PROTOCOL,
            help="ESA: students mark the errors in each translation (the projector then compares them "
            "with BLEU's unmatched words) and score it 0-100, as WMT since 2024. Contrastive ESA: 2-3 "
            "translations of a sentence side by side, each marked and scored (WMT26); the projector shows "
            "which one the class preferred against BLEU's order.",
        )
    )
