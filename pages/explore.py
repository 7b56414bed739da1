"""Explore page: browse (system, segment) pairs, then see one segment's n-gram matches for every system."""

from __future__ import annotations

import math

import streamlit as st

from bleu_core.study.criterion_order import criteria_order
from bleu_core.study.system_names import system_label
from ui.app import cache
from ui.app import state as K
from ui.app.context import current_scores, signature_caption
from ui.app.criterion import criterion_box
from ui.app.markup import md_escape
from ui.app.segment_bleu import NOT_IN_RELEASE
from ui.explore import browse
from ui.explore import span_view as spans
from ui.explore.frames import ngram_frame, system_entries
from ui.explore.highlight import browse_label, comparison_table, texts_block
from ui.explore.rated import rated_only, render_rated_counts

PAGE_SIZE = 25
SORTS = {
    "disagreement": "BLEU vs human disagreement",
    "BLEU": "sentence BLEU",
    "human": "human score",
    "hyp_len": "hypothesis length",
    "position": "segment order",
}

st.title("Explore translations")
scores = current_scores()
study, options = scores.study, scores.options
criteria = criteria_order(study.criteria)

# ---- browser controls (in a pop-over: cheaper to re-draw, see ui.explore.highlight.browse_label) ----------------
sorts = {**SORTS, **spans.browse_sorts(study)}  # + rewarded errors, penalised words (MQM spans)
sort_keys = [k for k in sorts if criteria or k not in ("disagreement", "human")]
if st.session_state.get(K.EXPLORE_SORT) not in sort_keys:
    st.session_state[K.EXPLORE_SORT] = "BLEU"
label = browse_label(
    systems=st.session_state.get(K.EXPLORE_SYSTEMS) or [],
    n_systems=len(study.systems),
    docs=st.session_state.get(K.EXPLORE_DOCS) or [],
    bleu_range=tuple(st.session_state.get(K.EXPLORE_BLEU_RANGE) or (0.0, 100.0)),
    search=st.session_state.get(K.EXPLORE_SEARCH) or "",
    sort=sorts[st.session_state[K.EXPLORE_SORT]],
    descending=bool(st.session_state.get(K.EXPLORE_DESCENDING)),
)
with st.popover(label, icon=":material/filter_list:"):
    systems = st.multiselect(
        "Systems", list(study.systems), key=K.EXPLORE_SYSTEMS, placeholder="all systems",
        format_func=lambda s: system_label(s, study.human_systems),  # HUMAN-B (ref-B): both names
    )  # fmt: skip
    docs = st.multiselect("Documents", study.doc_ids(), key=K.EXPLORE_DOCS, placeholder="all documents")  # fmt: skip
    criterion = criterion_box(st, "Human criterion", study, K.EXPLORE_CRITERION)
    rated = st.toggle("Rated translations only", key=K.EXPLORE_RATED_ONLY, disabled=not criterion)
    sort = st.selectbox("Sort by", sort_keys, format_func=sorts.get, key=K.EXPLORE_SORT)
    descending = st.toggle("Descending", key=K.EXPLORE_DESCENDING)
    low, high = st.slider("Sentence BLEU range", 0.0, 100.0, step=1.0, key=K.EXPLORE_BLEU_RANGE)
    search = st.text_input(
        "Search text",
        key=K.EXPLORE_SEARCH,
        placeholder="segment id, or text in output, reference, source",
    )

missing = browse.missing(scores)  # the table and its view: built once per settings (browse)
frame = spans.with_agreement(browse.segment_table(scores, criterion), scores, sort)
view = browse.browse_view(
    scores,
    frame,
    criterion=criterion,
    systems=systems,
    docs=docs,
    bleu_range=(low, high),
    search=search,
    sort=sort,
    descending=descending,
)
view = rated_only(view, rated and bool(criterion))  # the translations with a human score

n_pages = max(1, math.ceil(len(view) / PAGE_SIZE))
st.session_state[K.EXPLORE_PAGE] = min(max(1, st.session_state.get(K.EXPLORE_PAGE, 1)), n_pages)
page = st.number_input(
    "Page", min_value=1, max_value=n_pages, step=1, key=K.EXPLORE_PAGE, width=180
)
shown = browse.shown_rows(scores, view, (page - 1) * PAGE_SIZE, page * PAGE_SIZE)
columns = ["segment", "doc", "system", "BLEU", "human", "disagreement", "hyp_len", "output"]
columns[-1:-1] = spans.BROWSE_COLUMNS  # shown when the browser is sorted by them
event = st.dataframe(
    shown[[c for c in columns if c in shown.columns]],
    hide_index=True,
    on_select="rerun",
    selection_mode="single-row",
    key=K.EXPLORE_TABLE,
    column_config={
        "BLEU": st.column_config.ProgressColumn(
            "sentence BLEU", format="%.1f", min_value=0, max_value=100
        ),
        "human": st.column_config.NumberColumn(criterion or "human", format="%.2f"),
        "disagreement": st.column_config.NumberColumn(
            format="%.2f", help="|BLEU rank − human rank| (0-1)"
        ),
        "output": st.column_config.TextColumn("system output", width="large"),
    },
)
n_absent = int(view["missing"].sum())
absent_note = f" (+ {n_absent} {NOT_IN_RELEASE})" if n_absent else ""
st.caption(  # one caption (not two beside a page box in columns): fewer elements to redraw
    f"{len(view) - n_absent} of {int((~frame['missing']).sum())} translations match{absent_note} · "
    f"page {page} of {n_pages} · select a row to see its segment below · BLEU signature: "
    f"`{scores.signature}`"
)
render_rated_counts(study, frame, criterion)  # each system's translations with a human score
# A selection is read once, when it changes: the table keeps its selected *position* across re-runs,
# and after a sort, filter or settings change that position holds another segment.
rows = [r for r in (event.selection.rows if event is not None else []) if r < len(shown)]
if tuple(rows) != st.session_state.get(K.EXPLORE_PICKED):
    st.session_state[K.EXPLORE_PICKED] = tuple(rows)
    if rows:
        st.session_state[K.EXPLORE_SEGMENT] = str(shown.iloc[rows[0]]["segment"])
        st.session_state[K.EXPLORE_FOCUS_SYSTEM] = str(shown.iloc[rows[0]]["system"])
seg_id = st.session_state.get(K.EXPLORE_SEGMENT)
if seg_id not in study.segment_ids:
    if view.empty:
        st.stop()
    seg_id = str(view.iloc[0]["segment"])
    st.session_state[K.EXPLORE_FOCUS_SYSTEM] = str(view.iloc[0]["system"])

# ---- one segment in detail ------------------------------------------------------------------------
i = study.segment_index(seg_id)
segment = study.segments[i]
st.subheader(f"Segment {seg_id}" + (f" · document {segment.doc_id}" if segment.doc_id else ""), divider="gray")  # fmt: skip
if (st.session_state.get(K.EXPLORE_ORDER) or 1) > options.max_order:
    st.session_state[K.EXPLORE_ORDER] = 1
order = st.segmented_control(
    "Highlight n-grams of order", list(range(1, options.max_order + 1)), key=K.EXPLORE_ORDER
)
order = min(int(order or 1), options.max_order)
refs = [
    (r, study.references[r][i]) for r in scores.references if study.references[r][i] is not None
]
ref_names = [r for r, _ in refs]
texts = ([("source", segment.source)] if segment.source else []) + refs
st.html(texts_block(texts) + spans.style(scores))  # style sheets: this block ignores the settings

shown_systems = systems or list(study.systems)
all_matches = cache.segment_matches_of_systems(
    scores.key,
    study,
    i,
    tuple(shown_systems),
    tuple(ref_names),
    options.max_order,
    options.tokenize,
    options.lowercase,
)
human_scores = {c: cache.segment_scores(scores.key, study, c) for c in criteria}
entries = system_entries(scores, i, shown_systems, all_matches, human_scores, missing)
spans.mark_entries(entries, scores, i, order, ref_names)  # the raters' error spans, if any
st.html(comparison_table(entries, order, ref_names, criteria, style=False))
signature_caption(scores.signature)
signature_caption(scores.segment_signature, prefix="Segment BLEU signature")

# ---- one system's n-grams against the references ---------------------------------------------------
focus = st.session_state.get(K.EXPLORE_FOCUS_SYSTEM)
focus = focus if focus in shown_systems else shown_systems[0]
st.markdown(f"**N-grams of order {order} of one system, and where the references hold them**")
pick = st.selectbox(
    "System", shown_systems, index=shown_systems.index(focus), key=K.EXPLORE_NGRAM_SYSTEM
)
spans.rater_filter(scores.key, study)  # whose MQM error spans are drawn (a study with spans)
focus_entry = next(e for e in entries if e["system"] == pick)
ngrams = ngram_frame(focus_entry["matches"], order, ref_names)
grams = st.dataframe(  # full width: the clipping columns need the room
    ngrams,
    hide_index=True,
    width="stretch",
    on_select="rerun",
    selection_mode="single-row",
    key=K.EXPLORE_NGRAM_TABLE,
)
st.caption("Select an n-gram to outline it in the hypothesis and the references below.")
selected = None
picked = [r for r in (grams.selection.rows if grams is not None else []) if r < len(ngrams)]
if picked:
    selected = tuple(ngrams.iloc[picked[0]]["n-gram"].split(" "))
if focus_entry["missing"]:
    st.info(f"{md_escape(pick)}: {NOT_IN_RELEASE} for this segment.")
else:  # with the raters' error spans when the study has them
    st.html(spans.focus_block(scores, i, pick, focus_entry["matches"], order, ref_names, selected))
