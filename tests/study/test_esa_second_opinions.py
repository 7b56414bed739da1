"""ESA's second opinions: the ratings of ``#incomplete`` documents are left out of the scores, as
the WMT organisers leave them out, but kept aside with their rater for the human ceiling; a rater's own
repeats still count once, with the mean, and the warning says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_core.study import Criterion, Segment, Study, load_study, read_saved_study, save_study
from bleu_core.study.formats.esa import (
    SECOND_OPINIONS,
    attach_esa,
    merge_files,
    read_esa,
    second_opinion_rows,
)

REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"
TEXTS = {"sysA": ["Hallo Welt", "Guten Tag"], "sysB": ["Hallo", "Tag"], "ref-A": ["Hallo", "Tag"]}


def _row(rater: str, system: str, line: int, score: float, doc: str = "doc1") -> str:
    return f"{rater},{system},{line},TGT,eng,deu,{score},{doc},False,[],0,1"


def _read(*rows: str, file: str = "esa.csv"):
    text = "\n".join(rows) + "\n"
    return read_esa(text, file, pair="en-de", segment_ids=["1", "2"], texts=TEXTS)


def test_incomplete_documents_are_second_opinions_kept_with_their_rater():
    got = _read(
        _row("r1", "sysA", 1, 70),
        _row("r2", "sysA", 1, 50, "doc1#incomplete"),
        _row("r2", "sysA", 1, 60, "doc1#incomplete"),  # r2's repeat: the mean, 55
        _row("r3", "sysB", 2, 40, "doc2#incomplete"),
    )
    assert [(r.system, r.segment_id, r.rater, r.score) for r in got.ratings] == [
        ("sysA", "1", "r1", 70.0)
    ]
    assert sorted((r.system, r.rater, r.score) for r in got.second_opinions) == [
        ("sysA", "r2", 55.0),
        ("sysB", "r3", 40.0),
    ]
    assert got.left_out == {"#incomplete": 3}
    (warning,) = got.warnings()
    assert "the 2 #incomplete ratings of test items are kept aside as second opinions" in (
        warning.message
    )


def test_an_incomplete_row_outside_the_study_stays_simply_left_out():
    got = _read(
        _row("r2", "sysZ", 1, 50, "d#incomplete"), _row("r2", "sysA", 9, 50, "d#incomplete")
    )
    assert got.second_opinions == () and got.left_out == {"#incomplete": 2}


def test_a_raters_repeat_counts_once_and_is_reported():
    got = _read(_row("r1", "sysA", 1, 70), _row("r1", "sysA", 1, 90), _row("r2", "sysA", 1, 10))
    assert sorted((r.rater, r.score) for r in got.ratings) == [("r1", 80.0), ("r2", 10.0)]
    assert got.repeats == 1
    assert "1 item rated more than once by the same rater count once" in got.warnings()[0].message


def test_second_opinions_of_several_files_merge_per_rater_and_item():
    one = _read(_row("r2", "sysA", 1, 50, "d#incomplete"), file="wave2.csv")
    two = _read(_row("r2", "sysA", 1, 70, "d#incomplete"), file="wave3.csv")
    assert second_opinion_rows([one, two]) == [["sysA", "1", "r2", None, "esa", 60.0]]
    ratings, _, _ = merge_files([one, two])
    assert ratings == []  # second opinions never become ratings


def test_attach_esa_keeps_them_in_the_metadata_and_a_saved_study_keeps_them(tmp_path):
    study = Study(
        "toy",
        (Segment("1"), Segment("2")),
        {"ref-A": TEXTS["ref-A"]},
        {"sysA": TEXTS["sysA"], "sysB": TEXTS["sysB"]},
        criteria={"mqm": Criterion("mqm", higher_is_better=False)},
        source_lang="en",
        target_lang="de",
    )
    text = "\n".join([_row("r1", "sysA", 0, 70), _row("r2", "sysA", 0, 40, "d#incomplete")])
    result = attach_esa(study, text + "\n", "esa.csv")
    rows = result.study.metadata[SECOND_OPINIONS]
    assert rows == [["sysA", "1", "r2", None, "esa", 40.0]]
    save_study(result.study, tmp_path / "saved")
    assert read_saved_study(tmp_path / "saved").metadata[SECOND_OPINIONS] == rows


@pytest.mark.skipif(not REAL.is_dir(), reason="the WMT24 release is not in shared/data")
def test_wmt24_en_ja_has_second_opinions_from_other_raters():
    study = load_study(REAL, pair="en-ja").study
    rows = study.metadata[SECOND_OPINIONS]
    kept = {(r.system, r.segment_id): r.rater for r in study.ratings}
    kept |= {(r[0], r[1]): r[2] for r in study.metadata["reference_ratings"]}
    # counted with the csv module from the two wave files: 373 TGT rows of #incomplete documents of
    # en-ja, each of an item that a different rater rated in a complete document (10 of them refA's)
    assert len(rows) == 373
    assert all(kept[(r[0], r[1])] != r[2] for r in rows)
    assert len({r[0] for r in rows if r[0] != "ref-A"}) == 12
