"""The ``study`` sub-command."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bleu_core.cli.study_command import register


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from bleu_core.cli import main

    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_register_adds_the_study_command() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["study", "demo:ted-en-de", "--pair", "en-de", "--format", "json"])
    assert (args.path, args.pair, args.format) == ("demo:ted-en-de", "en-de", "json")
    assert callable(args.func)


def test_json_summary_of_the_ted_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["study", "demo:ted-zh-en", "--format", "json"], capsys)
    assert code == 0
    summary = json.loads(out)
    assert (summary["segments"], summary["documents"], summary["references"]) == (529, 5, ["refB"])
    assert [c["name"] for c in summary["criteria"]] == ["mqm", "mqm_accuracy", "mqm_fluency"]
    assert summary["criteria"][0]["rated_items"] == 14 * 529
    human = {s["name"]: s for s in summary["systems"]}["ref"]
    assert human["human_translation"] is True
    assert (
        round(human["human"]["mqm"], 2) == -5.52
    )  # data README: ref (ref-A) MQM 5.52, worst of all
    assert all(0 < s["bleu"] < 100 for s in summary["systems"])
    assert summary["bleu_signature"].startswith("nrefs:1|")


def test_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["study", "demo:paper-examples"], capsys)
    assert code == 0
    assert "segments: 4" in out and "references (3): reference-1, reference-2, reference-3" in out
    assert "criteria: none" in out
    assert "(BLEU on the 2 of 4 segments with output)" in out


def test_bad_input_prints_the_message_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["study", str(tmp_path / "missing")], capsys)
    assert code == 2 and out == ""
    assert "no such file or folder" in err and "Traceback" not in err
