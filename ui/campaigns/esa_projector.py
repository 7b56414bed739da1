"""The projector in an ESA lesson: for the segment on screen, BLEU's matches against the words the class
marked (how many students marked each word), the token-level agreement of BLEU and the class, and how much
the students' spans overlap.

Numbers: :mod:`bleu_core.campaigns.class_spans`. BLEU's matches are against the reference stored with each
item, with the lesson's tokenizer (read from its BLEU signature). Every text is escaped before it goes into
HTML; each word carries a label for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from bleu_core.campaigns import Campaign, CampaignStore, Item, StoredRating, StoredSpan
from bleu_core.campaigns.class_spans import (
    ExpertAgreement,
    ItemMarks,
    class_span_overlap,
    class_vs_experts,
    item_marks,
)
from bleu_core.engine.signature import tokenizer_name
from bleu_core.study.agreement_counts import AgreementCounts
from ui.app import state as K
from ui.app.markup import html_text

ESA_PROJECTOR_STYLE = """
<style>
.bs-class-words { font-size: 1.6rem; line-height: 2.6rem; max-width: 60ch; }
.bs-class-words span.bs-tok { padding: 0.1rem 0.2rem; border-radius: 0.3rem; }
.bs-class-words span.bs-matched { border-bottom: 3px solid #1f4e8c; }
.bs-class-words span.bs-unmatched { border-bottom: 3px dotted #888; }
.bs-class-words sup { font-size: 0.9rem; color: #7a0000; font-weight: 700; }
.bs-class-legend { font-size: 1.1rem; line-height: 2.2rem; }
.bs-class-legend span.bs-tok { padding: 0.1rem 0.3rem; border-radius: 0.3rem; }
.bs-class-legend span.bs-matched { border-bottom: 3px solid #1f4e8c; }
.bs-class-legend span.bs-unmatched { border-bottom: 3px dotted #888; }
.bs-class-legend sup { font-size: 0.8rem; color: #7a0000; font-weight: 700; }
</style>
"""

#: The key to the words above, in words and in the same shapes (shade, number, solid and dotted lines).
LEGEND_HTML = (
    '<div class="bs-class-legend" role="note"><b>How to read it:</b> '
    '<span class="bs-tok" style="background: rgba(220, 40, 40, 0.45)">pink</span><sup>3</sup> '
    "= marked as an error by the class (the deeper the pink, the more students), the small number = how many "
    'students marked the word · <span class="bs-tok bs-matched">solid underline</span> = BLEU found the word '
    'in the reference (matched) · <span class="bs-tok bs-unmatched">dotted underline</span> = BLEU did not '
    "(unmatched)</div>"
)


def tokenizer_of(campaign: Campaign) -> str:
    """The tokenizer of the lesson's BLEU signature (``tok:13a``), ``13a`` when it names none.

    >>> from datetime import datetime, UTC
    >>> c = Campaign("K", "n", "s", ("A",), ("1",), (), "neither", ("g",), 0, 1, datetime(2024, 1, 1, tzinfo=UTC),
    ...              metadata={"bleu_signature": "nrefs:1|case:mixed|eff:no|tok:intl|smooth:exp"})
    >>> tokenizer_of(c)
    'intl'
    """
    for field in str(campaign.metadata.get("bleu_signature", "")).split("|"):
        if field.startswith("tok:"):  # sacrebleu's form, e.g. tok:ja-mecab-0.996-IPA
            return tokenizer_name(field[4:])
    return "13a"


def words_html(marks: ItemMarks) -> str:
    """The translation word by word: BLEU's matched words underlined, the number of students who marked a
    word above it, the shade growing with that number."""
    out = []
    for t in marks.tokens:
        share = t.n_marked / marks.n_students if marks.n_students else 0.0
        shade = f"background: rgba(220, 40, 40, {0.6 * share:.2f});" if t.n_marked else ""
        said = "matched by BLEU" if t.status == "matched" else "not matched by BLEU"
        label = (
            f"{html_text(t.text)}: {said}, marked by {t.n_marked} of {marks.n_students} students"
        )
        count = f"<sup>{t.n_marked}</sup>" if t.n_marked else ""
        out.append(
            f'<span class="bs-tok bs-{"matched" if t.status == "matched" else "unmatched"}" '
            f'style="{shade}" aria-label="{label}">{html_text(t.text)}</span>{count}'
        )
    return '<div class="bs-class-words">' + " ".join(out) + "</div>"


def counts_frame(counts: AgreementCounts, label: str) -> pd.DataFrame:
    """The 2 × 2 table (BLEU matched or not × marked by the class or not) as a small frame."""
    return pd.DataFrame(
        {
            "": ["BLEU matched", "BLEU not matched"],
            f"marked by the class ({label})": [counts.matched_in_error, counts.unmatched_in_error],
            f"not marked ({label})": [counts.matched_clean, counts.unmatched_clean],
        }
    )


def _raters(ratings: Sequence[StoredRating]) -> dict[int, list[str]]:
    out: dict[int, set[str]] = {}
    for r in ratings:
        out.setdefault(r.position, set()).add(r.judge)
    return {pos: sorted(names) for pos, names in out.items()}


def spans_by_item(spans: Sequence[StoredSpan]) -> dict[int, list[StoredSpan]]:
    """The spans of each position, in their order."""
    out: dict[int, list[StoredSpan]] = {}
    for s in spans:
        out.setdefault(s.position, []).append(s)
    return out


def _item_marks(
    item: Item, by_item: dict[int, list[StoredSpan]], students: Sequence[str], tok: str
) -> ItemMarks:
    mine = by_item.get(item.position, [])
    return item_marks(item.translation, [item.reference or ""], mine, students, tokenize=tok)


def experts_part(campaign: Campaign, rated: Sequence[Item], marks: dict[int, ItemMarks]) -> None:
    """Where the study had expert error spans for the rated items: the class's words against the experts'
    (*marks*: each rated item's words as the class marked them, by position)."""
    experts = campaign.metadata.get("expert_spans") or {}
    total, n_items = ExpertAgreement(), 0
    for it in rated:
        theirs = experts.get(f"{it.system}\t{it.segment_id}")
        if theirs is not None:
            total = total + class_vs_experts(marks[it.position], theirs)
            n_items += 1
    if n_items:
        st.markdown(
            f"**The class vs the experts' error spans** ({n_items} segment(s), words): both marked "
            f"{total.both} · only the class {total.class_only} · only the experts {total.experts_only} · "
            f"neither {total.neither}"
        )


def esa_class_panel(
    store: CampaignStore, campaign: Campaign, ratings: Sequence[StoredRating]
) -> None:
    """The ESA part of the projector (see the module docstring); nothing before the first rating."""
    state = st.session_state
    items, spans = store.class_spans(
        campaign.code, key=state.get(K.PROJ_KEY), view=state.get(K.PROJ_VIEW)
    )
    raters = _raters(ratings)
    rated = [it for it in items if it.kind == "test" and it.position in raters and it.reference]
    if not rated:
        st.caption("The class's error spans appear here with the first ratings.")
        return
    tok = tokenizer_of(campaign)
    st.markdown(ESA_PROJECTOR_STYLE, unsafe_allow_html=True)
    labels = {it.position: f"segment {it.segment_id} · {it.system}" for it in rated}
    position = st.selectbox(
        "Segment on screen", list(labels), format_func=labels.__getitem__, key=K.PROJ_ESA_ITEM
    )
    by_item = spans_by_item(spans)
    every = {it.position: _item_marks(it, by_item, raters[it.position], tok) for it in rated}
    marks = every[position]
    st.markdown(words_html(marks), unsafe_allow_html=True)
    st.markdown(LEGEND_HTML, unsafe_allow_html=True)
    if marks.n_missing:
        st.caption(f"{marks.n_missing} student(s) marked something [missing].")
    total = AgreementCounts(0, 0, 0, 0)
    for it in rated:
        total = total + every[it.position].counts()
    left, right = st.columns(2)
    left.dataframe(counts_frame(marks.counts(), "this segment"), hide_index=True)
    right.dataframe(counts_frame(total, "all segments"), hide_index=True)
    experts_part(campaign, rated, every)
    overlap = class_span_overlap(spans, {it.position: raters[it.position] for it in rated})
    st.caption(
        "A word counts as marked by the class when at least half the students who rated it marked it. "
        + (
            f"Span overlap between students (mean Jaccard per pair): {overlap:.2f}."
            if not math.isnan(overlap)
            else "Span overlap needs two students on one segment."
        )
    )
