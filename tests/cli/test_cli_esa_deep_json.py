"""``--esa FILE`` whose spans cell is JSON nested deeper than Python's recursion limit: a one-line error
naming the file, line and column (exit code 2), not a ``RecursionError`` traceback."""

from __future__ import annotations

from pathlib import Path

from bleu_core.cli import main

MINI = Path(__file__).resolve().parents[1] / "study" / "data" / "wmt24-mini"


def test_deeply_nested_spans_in_an_esa_file_are_an_error_naming_the_line(
    tmp_path: Path, capsys
) -> None:
    esa = tmp_path / "esa.csv"
    deep = "[" * 5000 + "]" * 5000
    esa.write_text(
        "r1,sysA,1,TGT,eng,jpn,95,doc-news-1,False,[],1724100001.0,1724100011.0\n"
        f"r1,sysA,2,TGT,eng,jpn,80,doc-news-1,False,{deep},1724100002.0,1724100012.0\n",
        encoding="utf-8",
    )
    assert main(["study", str(MINI), "--pair", "en-ja", "--esa", str(esa)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"bleu-study: error: {esa}, line 2, column spans: the spans are JSON nested too deeply to read"
    )
    assert "Traceback" not in err and err.count("\n") == 1
