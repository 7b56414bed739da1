"""Corpus page: every system's corpus BLEU with its parts, beside the human scores; CSV/LaTeX downloads."""

from __future__ import annotations

import streamlit as st

from bleu_core.study.criterion_order import criteria_order
from bleu_core.study.output_rows import missing_note
from bleu_core.study.system_names import system_label
from ui.analysis.charts import corpus_bars
from ui.analysis.domains import render_corpus_domains
from ui.analysis.frames import WMT_ESA_COLUMN, corpus_frame, wmt_esa_column
from ui.analysis.reference_bias_view import render_reference_bias
from ui.analysis.reference_scores import (
    reference_rows,
    render_reference_scores,
    with_reference_rows,
)
from ui.app import state as K
from ui.app.context import current_scores, show_chart, signature_caption, table_downloads
from ui.app.frames import system_human_scores

st.title("Corpus BLEU")
st.write(
    "Corpus BLEU sums clipped n-gram matches, n-gram totals and lengths over all segments, then scores "
    "once (it is **not** the mean of sentence BLEU). Human columns are system-level means per criterion."
)
scores = current_scores()
study = scores.study

wmt = wmt_esa_column(study)  # ESA: WMT24's domain-averaged figure beside the plain mean
human = {c: system_human_scores(study, c) for c in criteria_order(study.criteria)} | wmt
frame = corpus_frame(
    scores.systems, scores.corpus, human_systems=study.human_systems, human_scores=human
)
refs = reference_rows(study, list(frame.columns), wmt)  # the reference rated like a system (refA)
humans = set(study.human_systems) | set(refs["system"])
include_humans = st.toggle(
    "Include human translations",
    key=K.INCLUDE_HUMANS,
    disabled=not humans,
    help="Human translations of the study (a rated reference has no BLEU of its own): "
    + (", ".join(sorted(humans)) or "none"),
)
frame = with_reference_rows(frame, refs)
if not include_humans:
    frame = frame[~frame["human"]].reset_index(drop=True)
frame["system"] = [system_label(s, humans) for s in frame["system"]]  # HUMAN-A (ref-A)

n = scores.options.max_order
config = {
    "BLEU": st.column_config.NumberColumn("BLEU", format="%.2f", help="0-100 (sacrebleu's scale)"),
    "BP": st.column_config.NumberColumn("BP", format="%.4f", help="brevity penalty"),
    "ratio": st.column_config.NumberColumn(
        "ratio", format="%.4f", help="hypothesis length / reference length"
    ),
    "ref_len": st.column_config.NumberColumn(
        "ref_len", format="%d" if frame["ref_len"].dtype.kind == "i" else "%.1f"
    ),
    **{f"p{k}": st.column_config.NumberColumn(f"p{k} %", format="%.2f") for k in range(1, n + 1)},
    **{
        c: st.column_config.NumberColumn(
            c, format="%.3f", help=study.criteria[c].description or None
        )
        for c in criteria_order(study.criteria)
    },
    "esa": st.column_config.NumberColumn(
        "esa (plain mean)",
        format="%.3f",
        help="the mean of the system's rated segments; WMT24 averages per-domain means",
    ),
    WMT_ESA_COLUMN: st.column_config.NumberColumn(WMT_ESA_COLUMN, format="%.3f"),
}
st.dataframe(frame, hide_index=True, column_config=config, width="stretch")
render_reference_scores(study)
signature_caption(scores.signature)
missing = missing_note(study)  # shown under the signature; the downloads carry it too
table_downloads(
    frame,
    "corpus bleu",
    caption=f"Corpus BLEU of {study.name} ({scores.signature})"
    + (f"; {missing}" if missing else ""),
)

show_chart(
    corpus_bars(
        frame.dropna(subset=["BLEU"]),
        title=f"Corpus BLEU · {study.name}",
        subtitle=scores.signature,
    ),  # a reference has no BLEU of its own: no bar
    "corpus bleu chart",
)
# A study with domains: BLEU and human scores per domain.
render_corpus_domains(scores, include_humans)
render_reference_bias(scores)  # two or more human translations: the ranking under each
