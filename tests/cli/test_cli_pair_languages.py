"""``--pair xx-yy`` names the languages of a study whose files name none (a long table, a plain-text folder), so
BLEU's default tokenizer is the target language's, as sacrebleu's ``-l xx-yy`` picks it, on ``study``,
``meta``, ``significance`` and ``spans`` alike; and under ``--domain`` the load-time warnings say they are
about the whole study, and ``spans`` names the domain that has no error spans.

Studies: small invented en-ja tables and folders written here, and the committed invented release
``tests/study/data/wmt24-mini``. Oracle: sacrebleu 2.6 ``corpus_bleu`` with ``tokenize="ja-mecab"``.
"""

from __future__ import annotations

import argparse
import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest
import sacrebleu

from bleu_core.cli import main, spans_command
from bleu_core.errors import InputError, StudyError
from bleu_core.study import load_study
from bleu_core.study.storage import save_study

MINI = Path(__file__).resolve().parents[1] / "study" / "data" / "wmt24-mini"
REFERENCE = [
    "犬が庭で吠えている。",
    "今日は雨が降っています。",
    "彼は本を読んだ。",
    "駅はどこですか。",
]
SYSTEMS = {
    "sysA": ["犬が庭で吠えている。", "今日は雨が降る。", "彼は本を読みました。", "駅はどこ。"],
    "sysB": ["犬は吠える。", "今日は雨です。", "彼は本を読んだ。", "駅はどこですか。"],
    "sysC": ["庭の犬。", "雨が降っています。", "本を読んだ。", "どこが駅ですか。"],
}
ESA = {"sysA": [90, 60, 80, 50], "sysB": [70, 65, 95, 90], "sysC": [40, 55, 60, 70]}
SPANS = '[{"start_i": 0, "end_i": 2, "severity": "minor"}]'


def write_table(tmp_path: Path) -> Path:
    """An invented en-ja long table: one reference, three systems rated on ESA, one error span each."""
    path = tmp_path / "en-ja.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(
            ["segment_id", "system", "role", "text", "rater", "criterion", "score", "spans"]
        )
        for i, reference in enumerate(REFERENCE, start=1):
            out.writerow([i, "ref-A", "reference", reference, "", "", "", ""])
            for name, texts in SYSTEMS.items():
                row = [i, name, "system", texts[i - 1], "r1", "esa", ESA[name][i - 1], SPANS]
                out.writerow(row)
    return path


def write_folder(tmp_path: Path) -> Path:
    """The same texts as a plain-text study folder (references/, systems/)."""
    folder = tmp_path / "plain"
    (folder / "references").mkdir(parents=True)
    (folder / "systems").mkdir()
    (folder / "references" / "ref-A.txt").write_text("\n".join(REFERENCE) + "\n", "utf-8")
    for name, texts in SYSTEMS.items():
        (folder / "systems" / f"{name}.txt").write_text("\n".join(texts) + "\n", "utf-8")
    return folder


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def error_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    return capsys.readouterr().err


def sacrebleu_ja(name: str) -> float:
    """sacrebleu 2.6 ``corpus_bleu(..., tokenize="ja-mecab")``: what ``sacrebleu -l en-ja`` scores."""
    return sacrebleu.corpus_bleu(SYSTEMS[name], [REFERENCE], tokenize="ja-mecab").score


@pytest.mark.parametrize("kind", ["long table", "plain-text folder"])
def test_pair_sets_the_target_language_and_so_the_tokenizer(kind, tmp_path, capsys) -> None:
    path = str(write_table(tmp_path) if kind == "long table" else write_folder(tmp_path))
    plain = run_json(["study", path], capsys)
    assert plain["target_lang"] is None and "|tok:13a|" in plain["bleu_signature"]
    got = run_json(["study", path, "--pair", "en-ja"], capsys)
    assert (got["source_lang"], got["target_lang"]) == ("en", "ja")
    assert "|tok:ja-mecab-" in got["bleu_signature"]
    for system in got["systems"]:
        assert system["bleu"] == pytest.approx(sacrebleu_ja(system["name"]), abs=1e-9)
    significance = run_json(
        ["significance", path, "--pair", "en-ja", "--n-resamples", "10"], capsys
    )
    assert "|tok:ja-mecab-" in significance["signature"]
    scores = {s["system"]: s["score"] for s in significance["bootstrap"]["systems"]}
    assert scores == pytest.approx({s["name"]: s["bleu"] for s in got["systems"]}, abs=1e-9)


def test_meta_and_spans_take_the_pair_of_a_long_table(tmp_path, capsys) -> None:
    path = str(write_table(tmp_path))
    meta = run_json(["meta", path, "--pair", "en-ja", "--n-resamples", "10"], capsys)
    assert "|tok:ja-mecab-" in meta["bleu_signature"]
    spans = run_json(["spans", path, "--pair", "en-ja"], capsys)
    assert spans["tokenize"] == "ja-mecab"
    assert run_json(["spans", path], capsys)["tokenize"] == "13a"


def test_a_pair_that_is_not_xx_yy_is_refused(tmp_path, capsys) -> None:
    path = write_table(tmp_path)
    with pytest.raises(InputError, match=r"en-ja\.csv: --pair 'enja' is not a language pair: give"):
        load_study(path, pair="enja")
    assert "--pair 'enja' is not a language pair" in error_of(
        ["study", str(path), "--pair", "enja"], capsys
    )


def test_a_pair_the_study_contradicts_is_refused(capsys) -> None:
    with pytest.raises(
        StudyError, match=r"this study names its language pair en-de, not en-ja: leave --pair out"
    ):
        load_study("demo:ted-en-de", pair="en-ja")
    err = error_of(["study", "demo:ted-en-de", "--pair", "en-ja"], capsys)
    assert "names its language pair en-de, not en-ja" in err


def test_domain_output_says_its_load_warnings_are_of_the_whole_study(capsys) -> None:
    summary = run_json(["study", str(MINI), "--pair", "en-ja", "--domain", "news"], capsys)
    [unrated] = [w for w in summary["warnings"] if w["code"] == "unrated-segments"]
    assert unrated["scope"] == "whole study" and "33% of segments (2 of 6)" in unrated["message"]
    assert main(["study", str(MINI), "--pair", "en-ja", "--domain", "news"]) == 0
    assert "warning [unrated-segments] (whole study): 33% of segments" in capsys.readouterr().out
    assert main(["study", str(MINI), "--pair", "en-ja"]) == 0
    assert "warning [unrated-segments]: 33% of segments" in capsys.readouterr().out
    argv = ["significance", str(MINI), "--pair", "en-ja", "--domain", "news", "--n-resamples", "10"]
    assert main(argv) == 0
    assert "bleu-study: warning (whole study): " in capsys.readouterr().err


def test_spans_on_a_domain_without_spans_names_the_domain(tmp_path, capsys) -> None:
    study = load_study(MINI, pair="en-ja").study
    literary = {s.id for s in study.segments if s.domain == "literary"}
    kept = tuple(e for e in study.error_spans if e.segment_id not in literary)
    assert kept and len(kept) < len(study.error_spans)
    path = tmp_path / "mini.json"
    save_study(replace(study, error_spans=kept), path)
    err = error_of(["spans", str(path), "--domain", "literary"], capsys)
    assert "domain 'literary' has no error spans (" in err and "this study has no" not in err
    parser = argparse.ArgumentParser()
    spans_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["spans", str(path), "--domain", "literary"])
    with pytest.raises(
        StudyError, match=r"domain 'literary' has no error spans \(\d+ in the whole"
    ):
        spans_command.handler(args)
