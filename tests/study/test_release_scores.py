"""A release's own automatic scores (``scores/automatic-scores.tsv`` of WMT21-23) are attached as metrics
when the study loads, with a note."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bleu_core.study import load_study

MINI = Path(__file__).resolve().parent / "data" / "wmt24-mini"
WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"

HEADER = "pair\tsystem\tid\tis_constrained\tmetric\tscore\n"


def _release_with_scores(tmp_path: Path, rows: str) -> Path:
    release = tmp_path / "release"
    shutil.copytree(MINI, release)
    (release / "scores").mkdir()
    (release / "scores" / "automatic-scores.tsv").write_text(HEADER + rows, encoding="utf-8")
    return release


def test_scores_of_the_pair_are_attached_with_a_note(tmp_path: Path) -> None:
    rows = (
        "en-ja\tsysA\t1\tTrue\tCOMET-A\t0.85\nen-ja\tsysB\t2\tTrue\tCOMET-A\t0.41\n"
        "en-ja\tref-B\t3\tTrue\tCOMET-A\t0.88\nen-de\tsysC\t4\tTrue\tCOMET-A\t0.7\n"
    )
    result = load_study(_release_with_scores(tmp_path, rows), pair="en-ja")
    assert result.study.metric_scores["COMET-A"].system == {
        "sysA": 0.85,
        "sysB": 0.41,
        "ref-B": 0.88,
    }
    [note] = [w for w in result.warnings if w.code == "release-metric-scores"]
    assert "attached as metrics (COMET-A)" in note.message
    assert note.file.endswith("scores/automatic-scores.tsv")


def test_a_table_that_does_not_fit_is_left_out_with_the_reason(tmp_path: Path) -> None:
    rows = "en-ja\tsysA\t1\tTrue\tBLEU-A\t20.5\nen-ja\tsysQ\t2\tTrue\tBLEU-A\t10.0\n"
    result = load_study(_release_with_scores(tmp_path, rows), pair="en-ja")
    assert result.study.metric_scores == {}
    [note] = [w for w in result.warnings if w.code == "release-metric-scores"]
    assert note.message.startswith("the release's automatic scores were not attached")
    assert "sysQ" in note.message


@pytest.mark.skipif(not WMT21.is_dir(), reason="the WMT21 release is not in shared/data")
def test_wmt21_release_scores_are_attached() -> None:
    release = WMT21 / "wmt21-news-systems"
    study = load_study(release, pair="de-en").study
    table = (release / "scores" / "automatic-scores.tsv").read_text(encoding="utf-8").split("\n")
    expected = {
        cells[1]: float(cells[5])
        for cells in (line.split("\t") for line in table[1:] if line)
        if cells[0] == "de-en" and cells[4] == "bleu-A"
    }
    assert study.metric_scores["bleu-A"].system == expected
