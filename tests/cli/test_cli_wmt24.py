"""`study`, `meta`, `significance` and `spans` on a WMT24+ release with ESA scores: the committed
invented release ``tests/study/data/wmt24-mini`` and, where present, the real WMT24 en-ja release in
``shared/data/wmt24-general-esa`` (read in place)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sacrebleu
from scipy import stats as scipy_stats

from bleu_core.cli import main
from bleu_core.study import load_study
from bleu_core.study.formats.esa import esa_system_scores

MINI = Path(__file__).resolve().parents[1] / "study" / "data" / "wmt24-mini"
REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"


def _lines(release: Path, relative: str) -> list[str]:
    """A release file's lines without its canary line."""
    return (release / relative).read_text(encoding="utf-8").split("\n")[1:-1]


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_study_json_uses_mecab_for_japanese(capsys) -> None:
    summary = _json(["study", str(MINI), "--pair", "en-ja", "--format", "json"], capsys)
    assert "|tok:ja-mecab-0.996-IPA|" in summary["bleu_signature"]
    ref = _lines(MINI, "txt/references/en-ja.refA.txt")
    for system in ("sysA", "sysB"):
        hyp = _lines(MINI, f"txt/system-outputs/en-ja/{system}.txt")
        expected = sacrebleu.corpus_bleu(hyp, [ref], tokenize="ja-mecab").score
        got = {s["name"]: s for s in summary["systems"]}[system]
        assert got["bleu"] == pytest.approx(expected, abs=1e-12)
    esa = {row["system"]: row for row in summary["esa"]}
    assert esa["ref-A"]["reference"] and esa["ref-A"]["mean"] == 100.0  # esa_mini.csv row 9
    assert esa["ref-B"]["human"] and not esa["ref-B"]["reference"]


def test_study_text_shows_the_esa_table(capsys) -> None:
    assert main(["study", str(MINI), "--pair", "en-ja"]) == 0
    out = capsys.readouterr().out
    assert "ESA, every rated translation" in out
    # one name everywhere (issue 39)
    assert "HUMAN-A (ref-A) R" in out and "HUMAN-B (ref-B) " in out


def test_study_other_target_language_keeps_13a(capsys) -> None:
    summary = _json(["study", str(MINI), "--pair", "en-de", "--format", "json"], capsys)
    assert "|tok:13a|" in summary["bleu_signature"]


def test_references_choice_from_the_command_line(capsys) -> None:
    argv = ["study", str(MINI), "--pair", "en-ja", "--references", "B", "--format", "json"]
    summary = _json(argv, capsys)
    assert summary["references"] == ["ref-B"]
    assert {s["name"]: s["human_translation"] for s in summary["systems"]}["ref-A"] is True


def test_meta_bleu_against_esa(capsys) -> None:
    argv = ["meta", str(MINI), "--pair", "en-ja", "--include-human", "--format", "json"]
    data = _json(argv, capsys)
    assert "|tok:ja-mecab-0.996-IPA|" in data["bleu_signature"]
    [row] = [
        r
        for r in data["correlations"]
        if (r["metric"], r["criterion"], r["method"], r["n"]) == ("BLEU", "esa", "pearson", 3)
    ]
    study = load_study(MINI, pair="en-ja").study
    ref = _lines(MINI, "txt/references/en-ja.refA.txt")
    names = ["sysA", "sysB", "ref-B"]
    files = {"sysA": "system-outputs/en-ja/sysA", "sysB": "system-outputs/en-ja/sysB"}
    files["ref-B"] = "references/en-ja.refB"
    bleu = [
        sacrebleu.corpus_bleu(_lines(MINI, f"txt/{files[n]}.txt"), [ref], tokenize="ja-mecab").score
        for n in names
    ]
    esa = [study.system_scores("esa")[n] for n in names]
    assert row["statistic"] == pytest.approx(scipy_stats.pearsonr(bleu, esa).statistic)


def test_meta_tokenizer_can_still_be_chosen(capsys) -> None:
    argv = ["meta", str(MINI), "--pair", "en-ja", "--include-human", "--tokenize", "char"]
    data = _json([*argv, "--format", "json"], capsys)
    assert "|tok:char|" in data["bleu_signature"]


def test_significance_on_the_release(capsys) -> None:
    argv = ["significance", str(MINI), "--pair", "en-ja", "--n-resamples", "50", "--format", "json"]
    data = _json(argv, capsys)
    scores = {s["system"]: s["score"] for s in data["bootstrap"]["systems"]}
    ref = _lines(MINI, "txt/references/en-ja.refA.txt")
    hyp = _lines(MINI, "txt/system-outputs/en-ja/sysA.txt")
    assert scores["sysA"] == pytest.approx(
        sacrebleu.corpus_bleu(hyp, [ref], tokenize="ja-mecab").score, abs=1e-9
    )


def test_spans_on_esa(capsys) -> None:
    data = _json(["spans", str(MINI), "--pair", "en-ja", "--format", "json"], capsys)
    assert data["tokenize"] == "ja-mecab"
    overall = data["overall"]
    assert set(overall["by_severity"]) == {"Major", "Minor"}
    assert set(overall["by_category"]) == {"Error", "Omission"}
    # an omission covers no character, so no token is inside one
    omission = overall["by_category"]["Omission"]
    assert omission["matched_in_error"] == omission["unmatched_in_error"] == 0
    assert overall["matched_in_error"] + overall["unmatched_in_error"] > 0


def test_bad_esa_row_is_exit_code_2(tmp_path: Path, capsys) -> None:
    import shutil

    release = tmp_path / "release"
    shutil.copytree(MINI, release)
    with (release / "humeval" / "esa_mini.csv").open("a", encoding="utf-8") as f:
        f.write("r9,sysA,1,TGT,eng,jpn,150,d,False,[],1,2\n")
    assert main(["study", str(release), "--pair", "en-ja"]) == 2
    assert "line 19, column score: score 150 is outside ESA's 0-100" in capsys.readouterr().err


@pytest.mark.skipif(not REAL.is_dir(), reason="the WMT24 release is not in shared/data")
def test_real_en_ja_study_numbers(capsys) -> None:
    summary = _json(["study", str(REAL), "--pair", "en-ja", "--format", "json"], capsys)
    ref = _lines(REAL, "txt/references/en-ja.refA.txt")
    bleu = {s["name"]: s["bleu"] for s in summary["systems"]}
    for system in ("Claude-3.5", "Team-J"):
        hyp = _lines(REAL, f"txt/system-outputs/en-ja/{system}.txt")
        expected = sacrebleu.corpus_bleu(hyp, [ref], tokenize="ja-mecab").score
        assert bleu[system] == pytest.approx(expected, abs=1e-12)
    study = load_study(REAL, pair="en-ja").study
    assert summary["esa"] == [s.to_dict() for s in esa_system_scores(study)]
    assert any(row["system"] == "ref-A" for row in summary["esa"])


def _release_without_esa(tmp_path: Path) -> tuple[Path, Path]:
    import shutil

    release = tmp_path / "release"
    shutil.copytree(MINI, release)
    rows = (release / "humeval" / "esa_mini.csv").read_text(encoding="utf-8").splitlines()
    shutil.rmtree(release / "humeval")
    given = tmp_path / "esa-en-ja.csv"
    given.write_text("\n".join(r for r in rows if ",eng,jpn," in r) + "\n", encoding="utf-8")
    return release, given


def test_esa_file_given_on_the_command_line(tmp_path: Path, capsys) -> None:
    release, given = _release_without_esa(tmp_path)
    assert main(["spans", str(release), "--pair", "en-ja"]) == 2
    assert "this study has no error spans" in capsys.readouterr().err
    argv = ["study", str(release), "--pair", "en-ja", "--esa", str(given), "--format", "json"]
    with_file = _json(argv, capsys)
    expected = _json(["study", str(MINI), "--pair", "en-ja", "--format", "json"], capsys)
    assert with_file["esa"] == expected["esa"]
    spans = _json(
        ["spans", str(release), "--pair", "en-ja", "--esa", str(given), "--format", "json"], capsys
    )
    assert (
        spans["overall"]
        == _json(["spans", str(MINI), "--pair", "en-ja", "--format", "json"], capsys)["overall"]
    )


def test_esa_file_of_another_pair_is_refused(tmp_path: Path, capsys) -> None:
    release, given = _release_without_esa(tmp_path)
    argv = ["meta", str(release), "--pair", "en-de", "--esa", str(given)]
    assert main(argv) == 2
    assert (
        "line 1, column source language: this row is for eng-jpn (en-ja), but the study is en-de"
        in (capsys.readouterr().err)
    )
