"""Study page: open the bundled demo or upload a study; see what was loaded and what looked wrong."""

from __future__ import annotations

from dataclasses import astuple

import streamlit as st

from bleu_core.errors import BleuStudyError
from bleu_core.study import demo
from ui.app import context, uploads
from ui.app import state as K
from ui.app.limits import UPLOAD_LIMITS, UPLOAD_MAX_MB
from ui.app.markup import markdown_table, md_escape
from ui.study import upload
from ui.study.metric_upload import metric_scores_panel
from ui.study.overview import study_overview

context.ensure_entrypoint()
st.title("Study")
st.write(
    "A *study* is a test set with reference translations, the outputs of several systems (human "
    "translations can be systems too) and human ratings. Every page works on the study opened here."
)


def _demo_entries() -> list[tuple[str, str]]:
    entries = []
    for entry in demo.list_demos():
        name = getattr(entry, "name", entry)
        entries.append((str(name), str(getattr(entry, "description", "") or "")))
    return entries


def _open_demo() -> None:
    name = st.session_state[K.STUDY_DEMO_CHOICE]
    try:
        context.open_demo(name)
    except BleuStudyError as err:
        st.session_state[K.STUDY_ERROR] = str(err)


def _uploaded(nonce: int) -> list:
    return st.session_state.get(K.STUDY_UPLOAD_PREFIX + str(nonce)) or []


def _pairs(uploaded: list) -> list[str]:
    files_id = tuple((f.name, f.size, f.file_id) for f in uploaded)
    return uploads.upload_pairs(files_id, tuple((f.name, f.getvalue()) for f in uploaded))


def _open_upload() -> None:
    nonce = st.session_state[K.STUDY_UPLOAD_NONCE]
    uploaded = _uploaded(nonce)
    if not uploaded:
        st.session_state[K.STUDY_ERROR] = "Choose one or more files first."
        return
    files = tuple((f.name, f.getvalue()) for f in uploaded)
    pairs = _pairs(uploaded)
    pair = st.session_state.get(K.STUDY_PAIR) if len(pairs) > 1 else None
    roles = upload.chosen_roles(st.session_state, nonce, [name for name, _ in files])
    try:
        result = uploads.load_uploaded(files, pair if pair in pairs else None, roles)
    except BleuStudyError as err:
        names = ", ".join(name for name, _ in files)
        st.session_state[K.STUDY_ERROR] = md_escape(
            f"Could not load {names}: {err}. {UPLOAD_LIMITS}"
        )
        return
    context.open_study(
        result.study,
        key=result.key,
        label=", ".join(name for name, _ in files),
        warnings=result.warnings,
        inputs=[{"name": n, "bytes": size, "sha256": sha} for n, size, sha in result.inputs],
    )
    st.session_state[K.STUDY_UPLOAD_NONCE] = nonce + 1


def _upload_form(nonce: int) -> None:
    """Roles of files whose names do not say them, and the pair of a release of several pairs."""
    chosen = _uploaded(nonce)
    plan = upload.upload_plan([f.name for f in chosen])
    if plan.needs_roles and plan.recognised:
        st.caption(
            "Read from the names: "
            + "; ".join(f"{md_escape(n)} → {md_escape(r)}" for n, r in plan.recognised)
        )
    if plan.unrecognised:
        st.caption("Say what each of these files is (or rename it: hover ⓘ for names that work):")
    for name in plan.unrecognised:
        st.selectbox(
            name,
            list(upload.ROLE_LABELS),
            key=upload.role_key(nonce, name),
            format_func=upload.ROLE_LABELS.__getitem__,
            help=upload.role_help(name),
        )
    pairs = _pairs(chosen) if chosen else []
    if len(pairs) > 1:
        st.selectbox("Language pair", pairs, key=K.STUDY_PAIR, help="The files hold several pairs.")
    elif pairs:
        st.caption(f"Language pair: {pairs[0]}")


open_tab, upload_tab = st.columns([2, 3])
with open_tab.container(border=True):
    st.markdown("**Open a demo**")
    entries = _demo_entries()
    descriptions = dict(entries)
    st.selectbox(
        "Bundled demo study",
        [name for name, _ in entries],
        key=K.STUDY_DEMO_CHOICE,
        format_func=lambda n: f"{n} — {descriptions.get(n, '')}" if descriptions.get(n) else n,
    )
    st.button("Open demo", on_click=_open_demo, type="primary", width="stretch")
with upload_tab.container(border=True):
    st.markdown("**Upload your data**")
    st.file_uploader(
        "Study files",
        accept_multiple_files=True,
        key=K.STUDY_UPLOAD_PREFIX + str(st.session_state[K.STUDY_UPLOAD_NONCE]),
        max_upload_size=UPLOAD_MAX_MB,
        help=f"{UPLOAD_LIMITS} "
        + "One file: a long CSV/TSV table, a saved study (.json), Google's MQM TSV, a WMT release "
        ".zip or Pearmut's annotation log or download (.jsonl/.json). Several files: a WMT release's "
        "files, Pearmut's campaign and annotation files, or plain-text references and system outputs (one "
        "segment per line; WMT names, NAME.ref and NAME.hyp say their role, other names get one below) "
        "and a ratings CSV/TSV. See docs/formats.md for every format with an example.",
    )
    _upload_form(st.session_state[K.STUDY_UPLOAD_NONCE])
    st.button("Load files", on_click=_open_upload, type="primary", width="stretch")

if st.session_state.get(K.STUDY_ERROR):
    st.error(st.session_state[K.STUDY_ERROR], icon=":material/error:")

study = context.current_study()
if study is None:
    st.info("No study is open yet: open a demo or upload files above.")
    st.stop()

st.subheader(f"Open: {md_escape(study.name)}")
st.caption(f"Opened from {md_escape(st.session_state.get(K.STUDY_LABEL, ''))}")
demo_name = (st.session_state.get(K.STUDY_KEY) or "").removeprefix("demo:")
info = next((d for d in demo.list_demos() if d.name == demo_name), None)
if info is not None:
    with st.expander(f"About this demo: {md_escape(info.title)}"):
        st.markdown(md_escape(info.description))
        st.caption(f"Source: {md_escape(info.source)} · licence: {md_escape(info.licence)}")
        st.caption(f"Cite: {md_escape(info.citation)}")
for warning in st.session_state.get(K.STUDY_WARNINGS) or []:
    st.warning(md_escape(warning), icon=":material/warning:")

overview = study_overview(study)
cols = st.columns(5)
cols[0].metric("Segments", overview.segments)
cols[1].metric(
    "Documents",
    overview.documents or "—",  # a release without document ids has unknown documents, not 0
    help=None if overview.documents else "The study names no documents (no document ids).",
)
cols[2].metric("References", overview.references)
cols[3].metric("Systems", overview.systems, help=f"of which {overview.human} human translations")
cols[4].metric(
    "Rated items", overview.rated_items, help="(system, segment) pairs with a segment rating"
)
if study.source_lang or study.target_lang:
    st.caption(f"Language pair: {study.source_lang or '?'} → {study.target_lang or '?'}")

# Small tables as markdown: the first page stays free of pandas and of the data-grid script.
left, right = st.columns(2)
with left:
    st.markdown("**Systems**")
    st.markdown(markdown_table(*astuple(overview.systems_table)))
with right:
    st.markdown("**Reference streams**")
    st.markdown(markdown_table(*astuple(overview.references_table)))
st.markdown("**Human-judgment criteria**")
if overview.criteria_table.empty:
    st.caption("This study has no human ratings: BLEU pages work, BLEU-vs-human needs ratings.")
else:
    st.markdown(markdown_table(*astuple(overview.criteria_table)))
metric_scores_panel(study)  # COMET, BLEURT… scores attached to the open study
