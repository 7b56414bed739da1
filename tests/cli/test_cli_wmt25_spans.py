"""``spans``' WMT25 parts: the task's scores in text and JSON, ``--format wmt25-tsv`` (BLEU's spans,
``--gold``), the TSVs scored back with ``--gold-tsv``/``--predictions-tsv``, and the messages."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_core.cli import build_parser, main
from bleu_core.cli.spans_command import handler
from bleu_core.errors import StudyError
from tests.study.wmt25_oracle import score_files


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def tsvs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("wmt25")
    paths = []
    for name, extra in (("gold", ["--gold"]), ("pred", ["--bleu-severity", "by-order"])):
        args = build_parser().parse_args(
            ["spans", "demo:ted-en-de", "--format", "wmt25-tsv", "--max-order", "2", *extra]
        )
        path = folder / f"{name}.tsv"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert handler(args) == 0
        path.write_text(out.getvalue(), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def test_json_has_wmt25_scores_of_bleu_and_of_a_predictions_tsv(tsvs, capsys) -> None:
    gold, pred = tsvs
    argv = ["spans", "demo:ted-en-de", "--max-order", "2", "--bleu-severity", "by-order"]
    summary = json.loads(_run([*argv, "--format", "json", "--predictions-tsv", str(pred)], capsys))
    bleu = summary["wmt25"]["BLEU"]
    assert "avg_rec" in bleu["label_note"]
    # the written TSV of BLEU's spans, read back, scores as BLEU scores in the study
    assert summary["wmt25"][str(pred)]["pairs"] == bleu["pairs"]
    # and the test-only second implementation reads the two files the same way
    pairs, means = score_files(gold, pred)
    got = bleu["average"]
    assert (got["precision"], got["recall"], got["f1"]) == pytest.approx(means, abs=1e-9)


def test_tsv_only_scoring_text_and_json(tsvs, capsys) -> None:
    gold, pred = tsvs
    text = _run(["spans", "--gold-tsv", str(gold), "--predictions-tsv", str(pred)], capsys)
    assert "WMT25 span scores of pred.tsv" in text and "mean over pairs" in text
    assert "prints the mean precision as avg_rec" in text
    data = json.loads(
        _run(
            ["spans", "--gold-tsv", str(gold), "--predictions-tsv", str(pred), "--format", "json"],
            capsys,
        )
    )
    _, means = score_files(gold, pred)
    avg = data["wmt25"][str(pred)]["average"]
    assert avg["f1"] == pytest.approx(means[2], abs=1e-9)
    assert data["warnings"] == []


def test_the_gold_tsv_has_one_row_per_rated_translation(tsvs) -> None:
    gold, pred = tsvs
    g = gold.read_text(encoding="utf-8").splitlines()
    p = pred.read_text(encoding="utf-8").splitlines()
    assert len(g) == len(p) > 1000
    assert g[0].split("\t")[-3:] == ["start_indices", "end_indices", "error_types"]
    assert {line.split("\t")[10] for line in g[1:]} == {"MQM"}


def test_bad_rows_warn_on_stderr(tsvs, tmp_path, capsys) -> None:
    gold, pred = tsvs
    lines = pred.read_text(encoding="utf-8").splitlines()
    cells = lines[1].split("\t")
    cells[-1] = "huge"
    bad = tmp_path / "bad.tsv"
    bad.write_text("\n".join([lines[0], "\t".join(cells), *lines[2:]]) + "\n", encoding="utf-8")
    assert main(["spans", "--gold-tsv", str(gold), "--predictions-tsv", str(bad)]) == 0
    err = capsys.readouterr().err
    assert f"warning: {bad}, line 2: " in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["spans"], "give PATH"),
        (["spans", "demo:ted-en-de", "--gold-tsv", "g.tsv"], "not both"),
        (["spans", "demo:ted-en-de", "--gold"], "--gold goes with --format wmt25-tsv"),
        (["spans", "--gold-tsv", "g.tsv"], "--gold-tsv needs --predictions-tsv"),
        (["spans", "--gold-tsv", "g.tsv", "--format", "wmt25-tsv"], "writes a study's spans"),
    ],
)
def test_wrong_combinations_are_refused(argv: list[str], message: str) -> None:
    with pytest.raises(StudyError, match=message):
        handler(build_parser().parse_args(argv))


SCORER = os.environ.get("WMT25_SCORING_ESA")


@pytest.mark.skipif(
    not SCORER,
    reason="set WMT25_SCORING_ESA to the organisers' scripts/scoring/task2/scoring_esa.py "
    "(wmt-conference/wmt25-mteval) to run it",
)
def test_the_organisers_scorer_prints_our_numbers(tsvs, tmp_path, capsys) -> None:
    gold, pred = tsvs
    (tmp_path / "in" / "ref").mkdir(parents=True)
    (tmp_path / "in" / "res").mkdir()
    (tmp_path / "out").mkdir()
    shutil.copy(gold, tmp_path / "in" / "ref" / "task2_refs.tsv")
    shutil.copy(pred, tmp_path / "in" / "res" / "predictions.tsv")
    subprocess.run(
        [sys.executable, str(SCORER), str(tmp_path / "in"), str(tmp_path / "out")],
        check=True,
        capture_output=True,
    )
    printed = dict(
        line.split(": ") for line in (tmp_path / "out" / "scores.txt").read_text().splitlines()
    )
    ours = json.loads(
        _run(
            ["spans", "--gold-tsv", str(gold), "--predictions-tsv", str(pred), "--format", "json"],
            capsys,
        )
    )["wmt25"][str(pred)]
    pair = ours["pairs"]["en-de"]
    assert printed["ende_prec"] == f"{pair['precision']:.4}"
    assert printed["ende_rec"] == f"{pair['recall']:.4}"
    assert printed["ende_f1"] == f"{pair['f1']:.4}"
    # the organisers' labels are swapped: avg_rec is the mean precision, avg_prec the mean recall
    assert printed["avg_rec"] == f"{ours['average']['precision']:.4}"
    assert printed["avg_prec"] == f"{ours['average']['recall']:.4}"
