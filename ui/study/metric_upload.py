"""The Study page's metric-score upload: scores of metrics computed elsewhere (COMET, BLEURT...) attached
to the open study, so every analysis page treats them as metrics.

Accepted files (:mod:`bleu_core.study.metric_scores`): MTME score files ``[xx-yy.]NAME-REF.LEVEL.score``
(``sys``, ``seg``, ``doc``; the levels of one metric in several files are merged), a long CSV/TSV
``system, segment_id, metric, score``, and a WMT release's ``automatic-scores.tsv``. Every file is
validated against the open study; the first problem is shown naming the file and the line, and nothing is
attached. The study with its scores gets a new key (its digest), so every cache follows; the files are
recorded as inputs of the export zip, and the study can be downloaded as a saved study (.json) with them.

>>> parse_lower("COMET-QE, my-error ,")
('COMET-QE', 'my-error')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import streamlit as st

from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app import warmup
from ui.app.markup import md_escape

if TYPE_CHECKING:
    from bleu_core.study.model import Study

#: What the uploader accepts (MTME ``.score`` files, tables).
SCORE_TYPES = ["score", "csv", "tsv", "txt"]


def parse_lower(text: str) -> tuple[str, ...]:
    """Comma-separated metric names, stripped, empty ones dropped."""
    return tuple(n.strip() for n in (text or "").split(",") if n.strip())


def attached_scores(files: list[tuple[str, bytes]], study: Study, lower: tuple[str, ...]) -> Any:
    """``study`` with the metric scores of ``files`` (name, bytes) attached; raises
    :class:`~bleu_core.errors.BleuStudyError` naming the file and line of the first problem."""
    from bleu_core.study.metric_scores import attach_metric_scores, metric_scores_from_files

    # the levels of one metric in several files are merged, as read_metric_scores merges them
    return attach_metric_scores(
        study, metric_scores_from_files(files, study, lower_is_better=lower)
    )


def _attach() -> None:
    import hashlib

    # Imported here, not with the page: the Study page is the first page after a server start, and
    # this module imports every metric (bleu_core.metrics.registry, ~45 ms). The background imports
    # (ui.app.warmup) load the same modules: they finish first, so no module loads in two threads.
    warmup.wait(show=lambda fraction, text: None)
    from ui.app.metric_tables import metric_scores_digest, study_key_with_metric_scores

    state = st.session_state
    nonce = state[K.METRIC_UPLOAD_NONCE]
    uploaded = state.get(K.METRIC_UPLOAD_PREFIX + str(nonce)) or []
    study = state.get(K.STUDY)
    state[K.METRIC_UPLOAD_ERROR] = state[K.METRIC_UPLOAD_NOTICE] = None
    if not uploaded or study is None:
        state[K.METRIC_UPLOAD_ERROR] = "Choose one or more score files first."
        return
    files = [(f.name, f.getvalue()) for f in uploaded]
    try:
        new = attached_scores(files, study, parse_lower(state.get(K.METRIC_UPLOAD_LOWER, "")))
    except BleuStudyError as err:
        state[K.METRIC_UPLOAD_ERROR] = f"The metric scores were not attached. {err}"
        return
    old_key = str(state.get(K.STUDY_KEY) or study.name)
    state[K.STUDY] = new  # the reference choice takes it as the base of a new record
    state[K.STUDY_KEY] = study_key_with_metric_scores(old_key, metric_scores_digest(new))
    state[K.EXPORT_REGISTRY] = {}
    inputs = list(state.get(K.STUDY_INPUTS) or [])
    inputs += [
        {"name": n, "bytes": len(d), "sha256": hashlib.sha256(d).hexdigest()} for n, d in files
    ]
    state[K.STUDY_INPUTS] = inputs
    added = sorted(set(new.metric_scores) - set(study.metric_scores)) or sorted(new.metric_scores)
    state[K.METRIC_UPLOAD_NOTICE] = (
        f"Attached {', '.join(added)} from {', '.join(n for n, _ in files)}: every analysis page "
        "now offers it as a metric (Metric ranking ranks it with BLEU and chrF)."
    )
    state[K.METRIC_UPLOAD_NONCE] = nonce + 1


def _saved_study_json(study: Study) -> bytes:
    import json

    from bleu_core.study.storage import study_to_dict

    return json.dumps(study_to_dict(study), ensure_ascii=False).encode("utf-8")


def metric_scores_panel(study: Study) -> None:
    """The upload of metric scores for ``study`` (the open study) and the list of attached metrics."""
    with st.expander(
        "Metric scores (COMET, BLEURT… computed elsewhere)", expanded=bool(study.metric_scores)
    ):
        st.file_uploader(
            "Score files",
            type=SCORE_TYPES,
            accept_multiple_files=True,
            key=K.METRIC_UPLOAD_PREFIX + str(st.session_state[K.METRIC_UPLOAD_NONCE]),
            help="MTME score files NAME-REF.sys.score / NAME-REF.seg.score (lines SYSTEM<TAB>SCORE; a seg "
            "file: each system's lines in segment order), a long CSV/TSV system, segment_id, metric, "
            "score (empty segment_id: a system score), or a WMT release's automatic-scores.tsv. See "
            "docs/formats.md.",
        )
        st.text_input(
            "Better when lower",
            key=K.METRIC_UPLOAD_LOWER,
            placeholder="e.g. MetricX-23 (TER, WER, PER… are known)",
            help="Comma-separated names of uploaded metrics whose scores are better when lower.",
        )
        st.button("Attach scores", on_click=_attach, icon=":material/upload_file:")
        if st.session_state.get(K.METRIC_UPLOAD_ERROR):
            st.error(md_escape(st.session_state[K.METRIC_UPLOAD_ERROR]), icon=":material/error:")
        if st.session_state.get(K.METRIC_UPLOAD_NOTICE):
            st.success(
                md_escape(st.session_state[K.METRIC_UPLOAD_NOTICE]), icon=":material/check_circle:"
            )
        if not study.metric_scores:
            st.caption("No metric scores attached: BLEU, chrF, TER, NIST… are computed here.")
            return
        for name, item in study.metric_scores.items():
            direction = "higher is better" if item.higher_is_better else "lower is better"
            st.markdown(
                f"- **{md_escape(name)}**: {', '.join(item.levels)} level · {direction} · "
                f"from {md_escape(item.source or 'a file')}"
            )
        st.download_button(
            "Download the study with its metric scores (.json)",
            data=lambda: _saved_study_json(study),
            file_name="study-with-metric-scores.json",
            mime="application/json",
            on_click="ignore",
            icon=":material/download:",
        )
