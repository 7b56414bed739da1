"""A WMT release's ``scores/automatic-scores.tsv`` read as a published system table, one pair at a time:
the Published tables page and ``meta --system-scores`` accept the file the study loader attaches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_core.cli import main
from bleu_core.errors import InputError
from bleu_core.evaluation.system_table import parse_system_table

# invented scores in the file's shape (pair, system, id, is_constrained, metric, score)
TSV = """pair\tsystem\tid\tis_constrained\tmetric\tscore
de-en\tA\t1\tTrue\tbleu-A\t30.5
de-en\tA\t1\tTrue\tCOMET-A\t0.61
de-en\tB\t2\tTrue\tbleu-A\t25.0
de-en\tB\t2\tTrue\tCOMET-A\t0.55
de-en\tC\t3\tFalse\tbleu-A\t12.25
de-en\tC\t3\tFalse\tCOMET-A\t0.20
en-de\tA\t1\tTrue\tbleu-A\t28.0
"""


def test_one_pair_becomes_one_column_per_metric() -> None:
    table = parse_system_table(TSV, "automatic-scores.tsv", pair="de-en")
    assert table.systems == ("A", "B", "C") and table.columns == ("bleu-A", "COMET-A")
    assert table.column("bleu-A").tolist() == [30.5, 25.0, 12.25]


def test_several_pairs_need_a_choice() -> None:
    with pytest.raises(InputError, match=r"several language pairs \(de-en, en-de\); choose one"):
        parse_system_table(TSV, "automatic-scores.tsv")
    with pytest.raises(
        InputError, match=r"no scores for language pair 'fr-de'; pairs in the table"
    ):
        parse_system_table(TSV, "automatic-scores.tsv", pair="fr-de")


def test_bad_cells_name_their_own_line() -> None:
    bad = TSV.replace("de-en\tB\t2\tTrue\tbleu-A\t25.0", "de-en\tB\t2\tTrue\tbleu-A\tx")
    with pytest.raises(
        InputError, match=r"automatic-scores\.tsv, line 4, column score: 'x' is not"
    ):
        parse_system_table(bad, "automatic-scores.tsv", pair="de-en")
    twice = TSV + "de-en\tA\t1\tTrue\tbleu-A\t31\n"
    with pytest.raises(InputError, match=r"line 9: a second 'bleu-A' score for system 'A'"):
        parse_system_table(twice, "automatic-scores.tsv", pair="de-en")


def test_meta_command_reads_it_with_pair(tmp_path: Path, capsys) -> None:
    path = tmp_path / "automatic-scores.tsv"
    path.write_text(TSV, encoding="utf-8")
    argv = ["meta", "--system-scores", str(path), "--pair", "de-en", "--criteria", "COMET-A"]
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [row] = [r for r in data["correlations"] if r["metric"] == "bleu-A"]
    assert row["criterion"] == "COMET-A" and row["n"] == 3
