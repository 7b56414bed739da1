"""The app against hostile or oversized input: table downloads safe to open in a spreadsheet, resample
boxes capped and checked, upload limits stated and enforced.

The CSV rule is :mod:`bleu_core.csv_safety`'s (tested there on its own); here: the app's own tables go through
it, and what comes back when a spreadsheet-like reader splits the file keeps its numbers as numbers.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from app_runs import start_app
from streamlit.testing.v1 import AppTest

from bleu_core.csv_safety import formula_risk
from bleu_core.errors import InputError
from bleu_core.limits import MAX_LINE_CHARS, MAX_RESAMPLES
from bleu_core.study.model import Criterion, Rating, Segment, Study
from ui.app import state as K
from ui.app import uploads
from ui.app.export import frame_to_csv
from ui.app.limits import RESAMPLES_HELP, UPLOAD_LIMITS, UPLOAD_MAX_MB

ROOT = Path(__file__).resolve().parents[2]
PAYLOADS = ["=cmd|' /C calc'!A0", "x;=cmd|' /C calc'!A0;", "a\t+1+1", "@SUM(A1)", " -2+3", "ok, =1"]


def hostile_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "judge": PAYLOADS,
            "score": np.array([1.5, -2.25, 0.0, 3.0, -1e-9, 7.125]),
            "n": np.array([1, -2, 3, 4, 5, -6]),
            "note": [None, np.nan, "-3", "+4", "plain", "=A1"],
        }
    )


def test_table_csv_has_no_formula_cell_however_it_is_split():
    text = frame_to_csv(hostile_frame())
    fields = [field for row in csv.reader(io.StringIO(text)) for field in row]
    assert text.splitlines()[0] == '"judge","score","n","note"'  # every field quoted
    for field in fields:
        for separator in (",", ";", "\t", "\r", "\n"):
            for piece in field.split(separator):
                stripped = piece.lstrip(" ")
                assert (
                    not stripped
                    or stripped[0] not in "=+-@"
                    or re.fullmatch(r"[+-][0-9.e+-]+", stripped)
                ), (field, piece)
    assert not any(formula_risk(field) for field in fields)


def test_table_csv_keeps_numbers_numbers_and_missing_values_empty():
    back = pd.read_csv(io.StringIO(frame_to_csv(hostile_frame())))
    assert back["score"].tolist() == [1.5, -2.25, 0.0, 3.0, -1e-9, 7.125]  # full precision
    assert back["n"].tolist() == [1, -2, 3, 4, 5, -6] and back["n"].dtype.kind == "i"
    assert back["note"].isna().tolist()[:2] == [True, True]
    assert back["note"].tolist()[2:] == [-3, 4, "plain", "'=A1"] or back["note"].tolist()[2:] == [
        "-3",
        "+4",
        "plain",
        "'=A1",
    ]
    assert back["judge"].tolist()[0] == "'=cmd|' /C calc'!A0"


def cat_mat_study() -> Study:
    n = 6
    return Study(
        name="toy",
        segments=tuple(Segment(f"s{i}") for i in range(n)),
        references={"ref": [f"the cat {i} sat on the mat" for i in range(n)]},
        systems={
            "A": [f"the cat {i} sat on a mat" for i in range(n)],
            "B": [f"a cat {i} is on the mat" for i in range(n)],
            "C": [f"the dog {i} sat on the mat" for i in range(n)],
        },
    )


def app_page(page: str, **state: object) -> AppTest:
    study = cat_mat_study()
    key = "test:hardening-toy"
    return start_app(page, study, key=key, label=None, first_run=False, timeout=90, **state)


def test_export_resamples_box_is_capped_and_says_so():
    at = app_page("export", **{K.N_RESAMPLES: 10**9})  # e.g. kept from before the cap existed
    box = at.number_input(key=K.N_RESAMPLES)
    assert box.proto.max == MAX_RESAMPLES and "100,000" in box.help
    assert box.value == MAX_RESAMPLES
    box.set_value(MAX_RESAMPLES + 1).run()  # the box refuses more (Streamlit's own check)
    assert at.exception or at.number_input(key=K.N_RESAMPLES).value <= MAX_RESAMPLES


def rated_study() -> Study:
    """:func:`cat_mat_study` with an adequacy score for every translation (the analysis pages need one)."""
    base = cat_mat_study()
    ratings = tuple(
        Rating(system, segment.id, None, None, "adequacy", float(k + i % 3))
        for k, system in enumerate(base.systems)
        for i, segment in enumerate(base.segments)
    )
    return replace(base, criteria={"adequacy": Criterion("adequacy")}, ratings=ratings)


@pytest.mark.parametrize("page", ["metric_ranking", "correlation", "bleu_vs_human", "metrics"])
def test_pages_that_read_the_shared_resamples_apply_the_cap(page):
    """A resample count above the cap kept in the session (set before the cap existed) stops every page
    that resamples, with the limit stated: none runs 10**9 resamples (the Metric ranking page once read the
    session's value unchecked)."""
    at = start_app(
        page, rated_study(), key="test:hardening-rated", label=None, first_run=False, timeout=90,
        **{K.N_RESAMPLES: 10**9, K.SEED: 3},
    )  # fmt: skip
    errors = " ".join(e.value for e in at.error)
    assert "Resamples must be a whole number from 1 to 100,000" in errors
    assert "Change it on the Export page" in errors
    assert not at.dataframe  # the page stopped: nothing computed


def test_significance_boxes_are_capped():
    at = app_page("significance", **{K.N_RESAMPLES: 50, K.SIG_TRIALS: 200})
    for key in (K.N_RESAMPLES, K.SIG_TRIALS):
        box = at.number_input(key=key)
        assert box.proto.max == MAX_RESAMPLES and RESAMPLES_HELP in box.help


def test_study_page_states_the_upload_limits():
    at = app_page("study")
    uploader = at.get("file_uploader")[0].proto
    assert uploader.max_upload_size_mb == UPLOAD_MAX_MB
    assert f"{UPLOAD_MAX_MB} MB per file" in uploader.help
    assert f"{MAX_LINE_CHARS:,} characters per line" in uploader.help


def test_uploads_are_bounded_by_size_and_line_length(monkeypatch):
    long_line = b"w " * (MAX_LINE_CHARS // 2 + 1)
    with pytest.raises(
        InputError, match=r"b\.hyp, line 1: .*over the limit of 1,000,000 characters"
    ):
        uploads.load_uploaded.__wrapped__((("a.ref", b"x y\n"), ("b.hyp", long_line + b"\n")), None)
    monkeypatch.setattr(uploads, "UPLOAD_MAX_BYTES", 64)
    with pytest.raises(InputError, match=r"a\.ref: file is .* over the size cap"):
        uploads.load_uploaded.__wrapped__((("a.ref", b"x y\n" * 40), ("b.hyp", b"z\n" * 40)), None)
    assert "200 MB per file" in UPLOAD_LIMITS
