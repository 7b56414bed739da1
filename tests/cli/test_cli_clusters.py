"""``significance PATH`` prints the significance clusters: BLEU's (from its paired bootstrap of every pair),
each criterion's as WMT25 computes them (one-sided Wilcoxon, :mod:`bleu_core.evaluation.system_clusters`) and a
release's own ``clusters.csv`` (WMT21, read in place from ``shared/data`` when present)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_core.cli import main
from bleu_core.engine.options import BleuOptions
from bleu_core.evaluation.bootstrap import bootstrap
from bleu_core.evaluation.cluster_report import study_human_clusters
from bleu_core.evaluation.study_meta import choose_systems, study_statistics
from bleu_core.evaluation.system_clusters import bleu_clusters
from bleu_core.study import load_study
from bleu_core.study.demo import load_demo
from bleu_core.study.output_rows import counted_statistics
from bleu_core.tokenize.tokenizers import tokenizer_for_language

WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"
ARGS = ["--n-resamples", "50", "--seed", "4"]


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_significance_of_a_study_gives_bleu_and_human_clusters(capsys) -> None:
    data = _json(["significance", "demo:ted-en-de", *ARGS], capsys)
    by_name = {c["name"]: c for c in data["clusters"]}
    study = load_demo("ted-en-de")
    assert set(by_name) == {"BLEU", *study.criteria}
    names = choose_systems(study, None, False)
    options = BleuOptions(tokenize=tokenizer_for_language(study.target_lang))
    stats = counted_statistics(study, study_statistics(study, options, names, None))
    expected = bleu_clusters(bootstrap(stats, options, n_resamples=50, seed=4).paired(alpha=0.05))
    assert by_name["BLEU"] == json.loads(json.dumps(expected.to_dict()))
    human = study_human_clusters(study, "mqm", names)
    assert by_name["mqm"]["rows"] == json.loads(json.dumps(human.to_dict()))["rows"]
    assert "Wilcoxon" in by_name["mqm"]["method"] and "wmt25-general-mt" in by_name["mqm"]["method"]


def test_the_text_output_prints_each_ranking_with_its_method(capsys) -> None:
    assert main(["significance", "demo:ted-en-de", *ARGS]) == 0
    out = capsys.readouterr().out
    assert "clusters · BLEU: paired-bootstrap" in out
    assert "clusters · mqm: one-sided Wilcoxon signed-rank" in out


def test_files_without_a_study_have_no_clusters(tmp_path, capsys) -> None:
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("the cat sat on the mat\na dog ran\n", encoding="utf-8")
    a.write_text("the cat sat on the mat\na dog ran\n", encoding="utf-8")
    b.write_text("a cat sat on a mat\nthe dog ran\n", encoding="utf-8")
    data = _json(["significance", "-r", str(ref), "-i", str(a), str(b), *ARGS], capsys)
    assert "clusters" not in data


def test_a_release_with_its_own_clusters_shows_them(capsys) -> None:
    if not WMT21.is_dir():
        pytest.skip(f"WMT21 release not found at {WMT21} (research use only, not bundled)")
    data = _json(["significance", str(WMT21), "--pair", "de-en", *ARGS], capsys)
    shipped = data["clusters"][-1]
    assert shipped["name"] == "release" and "clusters.csv" in shipped["method"]
    study = load_study(WMT21, pair="de-en").study
    file = next(WMT21.rglob("clusters.csv")).read_text(encoding="utf-8").splitlines()
    de_en = [line.split() for line in file[1:] if line.split()[:2] == ["de", "en"]]
    assert [r["rank_start"] for r in shipped["rows"]] == [int(c[4]) for c in de_en]
    assert shipped["rows"][0]["system"] in study.systems  # Borderline.4 read as Borderline
