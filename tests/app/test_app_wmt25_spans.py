"""The BLEU vs error spans page's WMT25 section under AppTest on the TED en-de demo: the table equals
:func:`bleu_core.study.wmt25_study.wmt25_span_scores`, the severity choice changes it, the label note
is there, and both TSV downloads are offered (their text is the CLI's ``--format wmt25-tsv``)."""

from __future__ import annotations

import pytest
from app_runs import start_app as start
from streamlit.testing.v1 import AppTest

from bleu_core.errors import InputError, StudyError
from bleu_core.study.wmt25_study import wmt25_span_scores
from ui.app import state as K
from ui.app.limits import UPLOAD_MAX_BYTES
from ui.explore.wmt25_view import cached_wmt25_tsv, score_upload


def _frame(at: AppTest):
    return next(
        d.value for d in at.dataframe if "row" in d.value.columns and "f1" in d.value.columns
    )


def test_wmt25_section_equals_the_library_and_follows_the_severity(ted_en_de) -> None:
    at = start("error_spans")
    frame = _frame(at).set_index("row")
    expected = wmt25_span_scores(ted_en_de, references=["ref"], max_order=1, severity="minor")
    assert frame.loc["mean over pairs", "precision"] == pytest.approx(
        expected.average.precision, abs=1e-12
    )
    assert frame.loc["pair en-de", "recall"] == pytest.approx(
        expected.pairs["en-de"].prf().recall, abs=1e-12
    )
    assert any("`avg_rec`" in c.value for c in at.caption)
    labels = [b.proto.label for b in at.get("download_button")]
    assert "BLEU's spans (WMT25 TSV)" in labels and "Raters' spans (WMT25 gold TSV)" in labels
    at.session_state[K.SPANS_WMT25_SEVERITY] = "major"
    at.run()
    assert not at.exception
    major = wmt25_span_scores(ted_en_de, references=["ref"], max_order=1, severity="major")
    got = _frame(at).set_index("row").loc["mean over pairs", "f1"]
    assert got == pytest.approx(major.average.f1, abs=1e-12)
    assert got != pytest.approx(expected.average.f1, abs=1e-6)


def test_the_downloads_are_the_task_tsv(ted_en_de) -> None:
    settings = (("ref",), "13a", False, 1, "minor")
    gold = cached_wmt25_tsv("test:ted", ted_en_de, settings, True)
    pred = cached_wmt25_tsv("test:ted", ted_en_de, settings, False)
    assert gold.splitlines()[0].endswith("start_indices\tend_indices\terror_types")
    assert len(gold.splitlines()) == len(pred.splitlines())
    assert gold != pred


def test_an_uploaded_tsv_is_scored_against_the_gold(ted_en_de) -> None:
    settings = (("ref",), "13a", False, 2, "by-order")
    pred = cached_wmt25_tsv("test:ted", ted_en_de, settings, False)
    result, warnings = score_upload(ted_en_de, ("ref",), pred.encode("utf-8"), "mine.tsv")
    expected = wmt25_span_scores(ted_en_de, references=["ref"], max_order=2, severity="by-order")
    assert warnings == [] and tuple(result.average) == pytest.approx(
        tuple(expected.average), abs=1e-12
    )
    lines = pred.splitlines()
    with pytest.raises(StudyError, match=r"^the study's spans: no row of short\.tsv"):
        score_upload(ted_en_de, ("ref",), "\n".join(lines[:2]).encode("utf-8"), "short.tsv")
    with pytest.raises(InputError, match=r"big\.tsv: file is"):
        score_upload(ted_en_de, ("ref",), b"x" * (UPLOAD_MAX_BYTES + 1), "big.tsv")


def test_the_page_offers_the_upload() -> None:
    at = start("error_spans")
    assert at.get("file_uploader"), "the WMT25 section has an uploader"
