"""``--esa FILE`` with a long-table study: a long table names no language pair, so the ESA rows take
it from ``--pair`` (which also sets the target language, hence BLEU's tokenizer), and without it the command
says what to add. The table is written from the committed invented release ``tests/study/data/wmt24-mini``
(segment ids 1..6, as the release numbers them), so every number must equal the release's own."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bleu_core.cli import main
from bleu_core.cli.options import with_esa_files
from bleu_core.errors import InputError
from bleu_core.study import load_study

MINI = Path(__file__).resolve().parents[1] / "study" / "data" / "wmt24-mini"


def write_long_table(tmp_path: Path, ids: list[str] | None = None) -> tuple[Path, Path]:
    """wmt24-mini en-ja as a long table (segment ids ``ids``, default the release's) and its ESA rows."""
    study = load_study(MINI, pair="en-ja").study
    table = tmp_path / "en-ja.csv"
    with table.open("w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["segment_id", "doc_id", "source", "system", "role", "text"])
        for i, segment in enumerate(study.segments):
            seg_id = segment.id if ids is None else ids[i]
            for name, texts in {**study.references, **study.systems}.items():
                role = "reference" if name in study.references else "system"
                role = "human" if name in study.human_systems else role
                if texts[i] is not None:
                    out.writerow([seg_id, segment.doc_id, segment.source, name, role, texts[i]])
    rows = (MINI / "humeval" / "esa_mini.csv").read_text(encoding="utf-8").splitlines()
    esa = tmp_path / "esa-en-ja.csv"
    esa.write_text("\n".join(r for r in rows if ",eng,jpn," in r) + "\n", encoding="utf-8")
    return table, esa


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_long_table_with_esa_and_pair_equals_the_release(tmp_path: Path, capsys) -> None:
    table, esa = write_long_table(tmp_path)
    got = run_json(["study", str(table), "--pair", "en-ja", "--esa", str(esa)], capsys)
    release = run_json(["study", str(MINI), "--pair", "en-ja"], capsys)
    # the target language comes from --pair: BLEU with ja-mecab, as for the release
    assert got["bleu_signature"] == release["bleu_signature"]
    assert [(s["name"], s["bleu"], s["human"]) for s in got["systems"]] == [
        (s["name"], s["bleu"], s["human"]) for s in release["systems"]
    ]
    # the table has no domains ("-"), so only each translation's ratings and their mean compare
    assert [(r["system"], r["n"], r["mean"]) for r in got["esa"]] == [
        (r["system"], r["n"], r["mean"]) for r in release["esa"]
    ]
    spans = run_json(["spans", str(table), "--pair", "en-ja", "--esa", str(esa)], capsys)
    assert spans["overall"] == run_json(["spans", str(MINI), "--pair", "en-ja"], capsys)["overall"]


def test_meta_and_significance_read_the_long_tables_esa(tmp_path: Path, capsys) -> None:
    table, esa = write_long_table(tmp_path)
    argv = ["--pair", "en-ja", "--n-resamples", "20", "--statistics", "none", "--include-human"]
    got = run_json(["meta", str(table), *argv, "--esa", str(esa)], capsys)
    want = run_json(["meta", str(MINI), *argv], capsys)
    assert [(r["level"], r["method"], r["statistic"]) for r in got["correlations"]] == [
        (r["level"], r["method"], r["statistic"]) for r in want["correlations"]
    ]
    sig = run_json(["significance", str(table), "--pair", "en-ja", "--esa", str(esa)], capsys)
    assert "|tok:ja-mecab-0.996-IPA|" in sig["signature"]


def test_without_pair_the_message_says_what_to_add(tmp_path: Path, capsys) -> None:
    table, esa = write_long_table(tmp_path)
    assert main(["study", str(table), "--esa", str(esa)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"bleu-study: error: {esa}: the study names no language pair (a long table has none), so this "
        "ESA file's rows cannot be checked against it: add --pair xx-yy (the file's first row is "
        "eng-jpn: --pair en-ja)\n"
    )
    loaded = load_study(table)
    with pytest.raises(
        InputError, match=r"names no language pair .* add --pair xx-yy \(the file's"
    ):
        with_esa_files(loaded, [str(esa)])


def test_a_pair_other_than_the_files_is_refused(tmp_path: Path, capsys) -> None:
    table, esa = write_long_table(tmp_path)
    assert main(["study", str(table), "--pair", "en-de", "--esa", str(esa)]) == 2
    assert (
        "line 1, column source language: this row is for eng-jpn (en-ja), but the study is en-de"
        in (capsys.readouterr().err)
    )


def test_other_segment_ids_are_read_by_position(tmp_path: Path) -> None:
    # ids that are not 1..n: a row's line L is the table's L-th segment, counting from 0
    table, _ = write_long_table(tmp_path, ids=[f"s{k}" for k in range(1, 7)])
    esa = tmp_path / "one-row.csv"
    esa.write_text("r1,sysA,0,TGT,eng,jpn,77,d,False,[],1,2\n", encoding="utf-8")
    study = with_esa_files(load_study(table), [str(esa)], pair="en-ja").study
    assert [(r.system, r.segment_id, r.score) for r in study.ratings] == [("sysA", "s1", 77.0)]


def test_the_long_table_keeps_no_canary_line(tmp_path: Path) -> None:
    table, esa = write_long_table(tmp_path)
    study = with_esa_files(load_study(table), [str(esa)], pair="en-ja").study
    assert "canary_line" not in study.metadata and study.metadata["pair"] == "en-ja"
    assert (study.source_lang, study.target_lang) == ("en", "ja")
