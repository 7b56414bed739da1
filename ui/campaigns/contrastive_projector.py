"""The projector in a contrastive ESA lesson: which translation the class preferred against BLEU's order, per
pair of systems over the whole lesson and on each sentence (the BLEU paper's §4 pairwise comparison, live).

Numbers: :func:`bleu_core.campaigns.pairwise_preference.pairwise_preferences` on the students' ratings and the
sentence BLEU the lesson carries (:func:`bleu_core.campaigns.contrastive.sentence_bleu_of`, scored when the
lesson was made: sacrebleu's ``sentence_bleu`` under the teacher's settings, the segment signature shown).
The lesson is made by :func:`cesa_lesson` (class mode, protocol "cesa").
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import replace

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from bleu_core.campaigns import Campaign, StoredRating
from bleu_core.campaigns.contrastive import MAX_PER_SCREEN, contrastive_plan, sentence_bleu_of
from bleu_core.campaigns.pairwise_preference import PairwiseComparison, pairwise_preferences
from bleu_core.campaigns.planning import CampaignPlan
from ui.app import chart_layout as layout
from ui.app import state as K
from ui.app.context import Scores
from ui.app.presentation import show_altair

__all__ = ["MAX_PER_SCREEN", "cesa_lesson", "class_pairwise", "pairwise_panel"]


def cesa_lesson(plan: CampaignPlan, scores: Scores) -> CampaignPlan:
    """A class lesson *plan* as contrastive ESA, with the sentence BLEU of every item (from ``scores.sentence``,
    the open study's segment BLEU under the sidebar's settings) and its signature for the projector."""
    seg_index = {seg: i for i, seg in enumerate(scores.study.segment_ids)}
    sys_index = {s: i for i, s in enumerate(scores.systems)}
    table = np.asarray(scores.sentence.score, dtype=float)
    bleu = {
        (it.segment_id, it.system): float(table[sys_index[it.system], seg_index[it.segment_id]])
        for it in plan.items
    }
    cesa = contrastive_plan(plan, bleu)
    metadata = {**cesa.metadata, "sentence_bleu_signature": scores.segment_signature}
    return replace(cesa, metadata=metadata)


def class_pairwise(campaign: Campaign, ratings: Sequence[StoredRating]) -> PairwiseComparison:
    """The class's paired judgments of *campaign* (test items, its one criterion) against BLEU."""
    criterion = campaign.criteria[0].name
    judgments = [
        (r.judge, r.segment_id, r.system, float(r.score))
        for r in ratings
        if r.criterion == criterion and r.kind == "test"
    ]
    corpus = {s: float(v) for s, v in campaign.metadata.get("bleu", {}).items()}
    return pairwise_preferences(
        judgments, sentence_bleu_of(campaign.metadata), campaign.systems, corpus_bleu=corpus
    )


def _percent(value: float) -> str:
    return "—" if not math.isfinite(value) else f"{value:.0%}"


def pairs_frame(result: PairwiseComparison) -> pd.DataFrame:
    """One row per pair of systems: the class's choice and shares against BLEU's order and agreement."""
    return pd.DataFrame(
        [
            {
                "pair": f"{p.system_a} vs {p.system_b}",
                "paired judgments": p.n,
                "class: first / tie / second": (
                    f"{_percent(p.share_a)} / {_percent(1 - p.share_a - p.share_b) if p.n else '—'}"
                    f" / {_percent(p.share_b)}"
                ),
                "class prefers": p.class_preference or "neither",
                "BLEU prefers (whole test set)": p.corpus_preference or "neither",
                "agree with sentence BLEU": _percent(p.agreement),
            }
            for p in result.pairs
        ]
    )


def shares_chart(result: PairwiseComparison) -> alt.Chart:
    """Per pair, the share of paired judgments preferring the first system, tying, preferring the second."""
    rows = []
    for p in result.pairs:
        pair = f"{p.system_a} vs {p.system_b}"
        for choice, count in (
            (f"prefers the first ({p.system_a})", p.prefer_a),
            ("tie", p.ties),
            (f"prefers the second ({p.system_b})", p.prefer_b),
        ):
            rows.append(
                {
                    "pair": pair,
                    "choice": choice.split(" (")[0],
                    "system": choice,
                    "share": count / p.n if p.n else 0.0,
                }
            )
    frame = pd.DataFrame(rows)
    return (
        alt.Chart(frame, title="Which translation the class preferred, per pair")
        .mark_bar()
        .encode(
            y=alt.Y("pair:N", title=None, axis=layout.category_axis(frame["pair"].unique())),
            x=alt.X("share:Q", title="share of paired judgments", axis=alt.Axis(format="%")),
            color=alt.Color(
                "choice:N",
                title=None,
                sort=["prefers the first", "tie", "prefers the second"],
                scale=alt.Scale(range=["#1f4e8c", "#b0b0b0", "#b35c00"]),
                legend=alt.Legend(orient="top", labelLimit=0),
            ),
            order=alt.Order("choice:N"),
            tooltip=["pair", "system", alt.Tooltip("share:Q", format=".0%")],
        )
        # a thick bar per pair at any type size: the legend, title and axis take what they need besides
        .properties(height=alt.Step(64))
    )


def sentence_frame(result: PairwiseComparison, segment: str) -> pd.DataFrame:
    """On one sentence: per pair, the students' choices and the sentence BLEU of both translations."""
    return pd.DataFrame(
        [
            {
                "pair": f"{s.system_a} vs {s.system_b}",
                "students: first / tie / second": f"{s.prefer_a} / {s.ties} / {s.prefer_b}",
                "class prefers": s.class_preference or "neither",
                "sentence BLEU (first, second)": f"{s.bleu_a:.1f}, {s.bleu_b:.1f}",
                "BLEU prefers": s.bleu_preference or "neither",
            }
            for s in result.sentences
            if s.segment_id == segment
        ]
    )


def pairwise_panel(campaign: Campaign, ratings: Sequence[StoredRating]) -> None:
    """The contrastive lesson's part of the projector (see the module docstring)."""
    result = class_pairwise(campaign, ratings)
    st.subheader("Which translation did the class prefer? (the paper's §4, pair by pair)")
    st.markdown(
        f'<div class="bs-proj-r-label">The class agrees with sentence BLEU on</div>'
        f'<div class="bs-proj-r">{html.escape(_percent(result.overall_agreement))}</div>'
        f"<div>of {result.n_judgments} paired judgments (a student's scores of two translations of one "
        "sentence; ties on either side are left out of the rate)</div>",
        unsafe_allow_html=True,
    )
    if not result.n_judgments:
        st.info("No paired judgment yet: the first saved sentence brings the comparison.")
        return
    st.dataframe(pairs_frame(result), hide_index=True, width="stretch")
    show_altair(shares_chart(result))
    segments = sorted({s.segment_id for s in result.sentences})
    segment = st.selectbox(
        "One sentence", segments, key=K.PROJ_CESA_SEGMENT, format_func=lambda s: f"segment {s}"
    )
    if segment is not None:
        st.dataframe(sentence_frame(result, segment), hide_index=True, width="stretch")
    signature = campaign.metadata.get("sentence_bleu_signature")
    st.caption(
        (f"Sentence BLEU: `{signature}` · " if signature else "")
        + "corpus BLEU over the whole test set gives the first table's 'BLEU prefers' column."
    )
