"""The `score` command line: output formats, every flag, and clear errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import sacrebleu

from bleu_core.cli import main

# sacrebleu README example (v2.x): default settings give BLEU = 48.53 with both references.
REF1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
REF2 = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]
HYP = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]


@pytest.fixture
def files(tmp_path):
    def write(name, lines):
        p = tmp_path / name
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return str(p)

    return {
        "r1": write("ref1.txt", REF1),
        "r2": write("ref2.txt", REF2),
        "h": write("sys.txt", HYP),
        "h2": write("other.txt", [h.lower() for h in HYP]),
        "short": write("short.txt", HYP[:2]),
        "write": write,
    }


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_fields(files, capsys):
    code, out, _ = run(
        [
            "score",
            "-r",
            files["r1"],
            files["r2"],
            "-i",
            files["h"],
            files["h2"],
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0
    data = json.loads(out)
    assert [d["system"] for d in data] == ["sys.txt", "other.txt"]
    assert set(data[0]) == {
        "system",
        "bleu",
        "score",
        "precisions",
        "counts",
        "totals",
        "bp",
        "ratio",
        "hyp_len",
        "ref_len",
        "signature",
    }
    expected = sacrebleu.corpus_bleu(HYP, [REF1, REF2])
    assert data[0]["score"] == pytest.approx(expected.score, abs=1e-9)
    assert data[0]["bleu"] == pytest.approx(expected.score / 100, abs=1e-11)
    assert data[0]["counts"] == expected.counts


def test_text_output_and_signature(files, capsys):
    code, out, _ = run(
        [
            "score",
            "-r",
            files["r1"],
            "-i",
            files["h"],
            "--lowercase",
            "--smooth",
            "floor",
            "--max-order",
            "3",
            "--ref-length",
            "shortest",
        ],
        capsys,
    )
    assert code == 0
    assert out.startswith("sys.txt: BLEU = ")
    assert (
        "signature: nrefs:1|case:lc|eff:no|tok:13a|smooth:floor[0.10]|order:3|reflen:shortest|version:"
        in out
    )


def test_weights_and_tokenizer_flags(files, capsys):
    code, out, _ = run(
        [
            "score",
            "-r",
            files["r1"],
            "-i",
            files["h"],
            "--weights",
            "0.5",
            "0.5",
            "--max-order",
            "2",
            "--tokenize",
            "intl",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0
    assert (
        "weights" not in json.loads(out)[0]["signature"]
    )  # 0.5/0.5 is the uniform default for N = 2
    code, out, _ = run(
        [
            "score",
            "-r",
            files["r1"],
            "-i",
            files["h"],
            "--weights",
            "1",
            "0",
            "--max-order",
            "2",
            "--format",
            "json",
        ],
        capsys,
    )
    assert "weights:1,0" in json.loads(out)[0]["signature"]


def test_sentence_level(files, capsys):
    code, out, _ = run(
        ["score", "-r", files["r1"], "-i", files["h"], "--sentence-level", "--format", "json"],
        capsys,
    )
    rows = json.loads(out)
    assert [r["segment"] for r in rows] == [1, 2, 3]
    for r, h, ref in zip(rows, HYP, REF1, strict=True):
        assert r["score"] == pytest.approx(sacrebleu.sentence_bleu(h, [ref]).score, abs=1e-9)
    assert "eff:yes" in rows[0]["signature"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--tokenize", "moses"],
            r"unknown tokenizer 'moses'; choose one of: 13a, intl, char, zh, none, paper",
        ),
        (
            ["--smooth", "laplace"],
            r"unknown smoothing 'laplace'; choose one of: none, floor, add-k, exp",
        ),
        (
            ["--weights", "0.5", "0.6", "--max-order", "2"],
            r"weights must sum to 1, they sum to 1.1",
        ),
        (["--max-order", "12"], r"max order must be from 1 to 9, got 12"),
        (["--ref-length", "longest"], r"unknown reference-length policy 'longest'"),
    ],
)
def test_bad_options_exit_2(files, capsys, argv, message):
    code, _, err = run(["score", "-r", files["r1"], "-i", files["h"], *argv], capsys)
    assert code == 2
    assert err.startswith("bleu-study: error: ")
    import re

    assert re.search(message, err)


def test_line_count_mismatch_names_both_files(files, capsys):
    code, _, err = run(["score", "-r", files["r1"], "-i", files["short"]], capsys)
    assert code == 2
    assert "ref1.txt has 3 lines but" in err and "short.txt has 2" in err


def test_empty_file(files, capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    empty = str(empty)
    code, _, err = run(["score", "-r", files["r1"], "-i", empty], capsys)
    assert code == 2 and "empty.txt: the file is empty" in err


def test_undecodable_file(files, capsys, tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9\nb\nc\n".encode("latin-1"))
    code, _, err = run(["score", "-r", files["r1"], "-i", str(bad)], capsys)
    assert (
        code == 2
        and "latin1.txt, line 1, column 4: bytes that are not UTF-8 (0xe9 at byte offset 3)" in err
    )


def test_console_entry_point_no_traceback(files):
    proc = subprocess.run(
        [sys.executable, "-m", "bleu_core", "score", "-r", files["r1"], "-i", files["short"]],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "lines but" in proc.stderr


def test_all_blank_hypotheses_are_scored_zero_with_a_warning(files, capsys):
    blank = files["write"]("blank.txt", ["", " ", "\t"])
    code, out, err = run(["score", "-r", files["r1"], "-i", blank, "--format", "json"], capsys)
    assert code == 0, err
    [row] = json.loads(out)
    # sacrebleu 2.x scores an all-blank hypothesis file 0 (corpus_bleu(["", " ", "\t"], [REF1]))
    expected = sacrebleu.corpus_bleu(["", " ", "\t"], [REF1]).score
    assert row["score"] == pytest.approx(expected) == 0.0
    assert "blank.txt: all 3 lines are blank: BLEU is 0 (as sacrebleu scores it)" in err
    assert "error" not in err
