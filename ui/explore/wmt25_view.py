"""BLEU vs error spans page: WMT25's span score of BLEU's unmatched words, and the task's TSV downloads.

The numbers are :func:`bleu_core.study.wmt25_study.wmt25_span_scores` (WMT25 subtask 2's own definition:
characters of the hypothesis, half credit for the other severity, pooled per language pair, the mean over
pairs), cached per study and settings; the TSVs are :func:`bleu_core.study.wmt25_tsv.write_tsv` of BLEU's
predicted spans (a submission) and of the raters' spans (the gold), the same files ``spans --format
wmt25-tsv`` writes; an uploaded TSV of any other span predictions is scored against that gold
(:func:`score_upload`, as ``spans PATH --predictions-tsv FILE``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from bleu_core.errors import BleuStudyError
from bleu_core.study.span_scorer_wmt25 import Wmt25Result
from bleu_core.study.wmt25_study import (
    BLEU_SEVERITY_RULES,
    bleu_spans,
    gold_rows,
    study_rows,
    wmt25_span_scores,
)
from bleu_core.study.wmt25_tsv import parse_tsv_bytes, score_tsv, write_tsv
from ui.app import state as K
from ui.app.limits import UPLOAD_LIMITS, UPLOAD_MAX_BYTES
from ui.app.markup import md_escape

if TYPE_CHECKING:
    from bleu_core.study.model import Study

SEVERITY_LABELS = {
    "minor": "minor (every unmatched word)",
    "major": "major (every unmatched word)",
    "by-order": "by order (no unigram match: major; out of context: minor)",
}


@st.cache_data(max_entries=16, show_spinner="Scoring BLEU's spans the WMT25 way…")
def cached_wmt25(
    study_key: str, _study: Study, settings: tuple[tuple[str, ...], str, bool, int, str]
) -> Wmt25Result:
    """WMT25's span scores of the open study (``study_key`` names it) for ``settings`` = (references,
    tokenize, lowercase, max order, severity rule)."""
    references, tokenize, lowercase, order, severity = settings
    return wmt25_span_scores(_study, references=references, max_order=order, tokenize=tokenize,
                             lowercase=lowercase, severity=severity)  # fmt: skip


@st.cache_data(max_entries=8, show_spinner=False)
def cached_wmt25_tsv(
    study_key: str, _study: Study, settings: tuple[tuple[str, ...], str, bool, int, str], gold: bool
) -> str:
    """The task's TSV of the open study: BLEU's spans, or the raters' (``gold``)."""
    references, tokenize, lowercase, order, severity = settings
    items, rows, _ = gold_rows(_study, references=references)
    if gold:
        return write_tsv(rows)
    spans = bleu_spans(_study, items, references=references, max_order=order, tokenize=tokenize,
                       lowercase=lowercase, severity=severity)  # fmt: skip
    return write_tsv(study_rows(_study, items, spans, references=references))


def wmt25_frame(result: Wmt25Result) -> pd.DataFrame:
    """Per pair (pooled), the mean over pairs, then per system (the mean of its pairs): P, R, F1."""
    rows: list[dict[str, Any]] = []
    for pair, counts in result.pairs.items():
        rows.append({"row": f"pair {pair}", **counts.prf()._asdict(), "translations": counts.items})
    rows.append({"row": "mean over pairs", **result.average._asdict(), "translations": None})
    for name in result.system_names():
        rows.append({"row": name, **result.system_average(name)._asdict(), "translations": None})
    return pd.DataFrame(rows)


def show_wmt25_spans(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    order: int,
) -> None:
    """The section: the severity BLEU claims, WMT25's table, the label note, the two TSV downloads."""
    st.subheader("WMT25's span score", divider="gray")
    st.markdown(
        "WMT25's metrics task scores predicted error spans **its own way** (subtask 2, the organisers' "
        "`scoring_esa.py`): per **character** of the translation, full credit when a prediction has the "
        "rater's severity (critical counts as major), **half credit** for the other severity; omissions "
        "(`missing`) are skipped; precision is 1 when nothing is predicted. Counts are pooled over every "
        "translation of a language pair, and the headline is the **mean over pairs**. The gold is each "
        "translation's first rating. BLEU has no severities, so choose the one its unmatched words claim."
    )
    severity = st.segmented_control(
        "BLEU's unmatched words are",
        list(BLEU_SEVERITY_RULES),
        format_func=SEVERITY_LABELS.__getitem__,
        key=K.SPANS_WMT25_SEVERITY,
    )
    settings = (references, tokenize, lowercase, order, str(severity or "minor"))
    result = cached_wmt25(study_key, study, settings)
    number = st.column_config.NumberColumn(format="%.4f")
    st.dataframe(
        wmt25_frame(result),
        hide_index=True,
        column_config={"precision": number, "recall": number, "f1": number},
    )
    st.caption(
        "Compared with the task's leaderboard: the organisers' script prints the mean precision as "
        "`avg_rec` and the mean recall as `avg_prec`; here each is under its right name. "
        + " ".join(md_escape(n) for n in result.notes)
    )
    left, right = st.columns(2)
    left.download_button(
        "BLEU's spans (WMT25 TSV)",
        data=lambda: cached_wmt25_tsv(study_key, study, settings, False),
        file_name=f"bleu-spans-order{order}-{settings[-1]}.tsv",
        mime="text/tab-separated-values",
    )
    right.download_button(
        "Raters' spans (WMT25 gold TSV)",
        data=lambda: cached_wmt25_tsv(study_key, study, settings, True),
        file_name="gold-spans.tsv",
        mime="text/tab-separated-values",
    )
    show_upload(study, references)


def score_upload(
    study: Study, references: tuple[str, ...], data: bytes, name: str
) -> tuple[Wmt25Result, list[str]]:
    """An uploaded predictions TSV scored against the study's gold (the rows the gold download holds)."""
    rows, warnings = parse_tsv_bytes(data, name, max_bytes=UPLOAD_MAX_BYTES)
    _, gold, _ = gold_rows(study, references=references)
    result = score_tsv(gold, rows, files=("the study's spans", name), predictor=name)
    return result, warnings


def show_upload(study: Study, references: tuple[str, ...]) -> None:
    """Any span predictions (xCOMET, an LLM…) in the task's TSV, scored the WMT25 way."""
    upload = st.file_uploader(
        "Score other span predictions (a WMT25 TSV with the gold download's rows)",
        type=["tsv"],
        key=K.SPANS_WMT25_UPLOAD,
        help="The task's columns; each row one translation of the gold TSV, with its predicted "
        f"start_indices, end_indices and error_types. {UPLOAD_LIMITS}",
    )
    if upload is None:
        return
    try:
        result, warnings = score_upload(study, references, upload.getvalue(), upload.name)
    except BleuStudyError as err:
        st.error(md_escape(str(err)), icon=":material/error:")
        return
    for warning in warnings[:20]:
        st.warning(md_escape(warning), icon=":material/warning:")
    if len(warnings) > 20:
        st.caption(f"{len(warnings) - 20:,} more warnings like these.")
    number = st.column_config.NumberColumn(format="%.4f")
    st.dataframe(
        wmt25_frame(result),
        hide_index=True,
        column_config={"precision": number, "recall": number, "f1": number},
    )
