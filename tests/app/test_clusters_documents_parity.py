"""Issue 39 on WMT24 en-ja: page = command = export for the significance clusters and the document-level
correlation, and the Export zip's README commands rebuild the zip's numbers from the release as given.

Real data read in place from ``shared/data/wmt24-general-esa`` beside the repository (research use only,
never copied; skipped when absent). Settings: ja-mecab (the target language's tokenizer), 100 resamples,
seed 3, machine systems only, alpha 0.05.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import shlex
import subprocess
import sys
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from app_runs import page_alone

from bleu_core.cli import main
from bleu_core.engine.options import BleuOptions
from bleu_core.study import load_study
from bleu_core.study.output_rows import output_mask, study_corpus_bleu
from ui.analysis.export_zip import export_contents
from ui.app import shared_cache
from ui.app import state as K
from ui.app.context import STATISTICS_ORDER, Scores, truncate_order

WMT24 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"
RESAMPLES, SEED, TOKENIZE = 100, 3, "ja-mecab"
SETTINGS = ["--pair", "en-ja", "--n-resamples", str(RESAMPLES), "--seed", str(SEED)]


def need() -> None:
    if not WMT24.is_dir():
        pytest.skip(
            f"{WMT24.name} not found beside the repository (research use only, not bundled)"
        )


def command(*argv: str) -> dict[str, Any]:
    """``python -m bleu_core ARGV --format json`` in this process: its JSON output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main([*argv, "--format", "json"]) == 0
    return json.loads(out.getvalue())


@cache
def study() -> Any:
    need()
    return load_study(WMT24, pair="en-ja").study


@cache
def significance() -> dict[str, Any]:
    need()
    return command("significance", str(WMT24), *SETTINGS)


@cache
def meta() -> dict[str, Any]:
    need()
    return command(
        "meta", str(WMT24), *SETTINGS, "--metrics", "BLEU", "--statistics", "pairwise-accuracy"
    )


def state(**extra: object) -> dict[str, object]:
    return {
        K.STUDY: study(),
        K.STUDY_KEY: "test:wmt24-en-ja-clusters",
        K.N_RESAMPLES: RESAMPLES,
        K.SEED: SEED,
        K.CRITERION: "esa",
        K.OPT_TOKENIZE_LANGUAGE: "ja",
        K.OPT_TOKENIZE: TOKENIZE,
        **extra,
    }


def test_significance_clusters_page_command_and_export_agree() -> None:
    cli = {c["name"]: c for c in significance()["clusters"]}
    at = page_alone(
        "significance.py", state(**{K.SIG_AR_ON: False, K.SIG_TRIALS: 100}), timeout=900
    )
    wide = next(d.value for d in at.dataframe if "cluster · esa" in d.value.columns)
    for name in ("BLEU", "esa"):
        on_page = {
            s: c for s, c in zip(wide["system"], wide[f"cluster · {name}"], strict=True) if c == c
        }
        assert on_page == {r["system"]: r["cluster"] for r in cli[name]["rows"]}, name
    # the zip takes the page's table as registered (Export: "tables and charts viewed on other pages")
    frame, _ = at.session_state[K.EXPORT_REGISTRY][("table", "significance-clusters")]
    esa = frame[frame["ranking"] == "esa"]
    assert list(esa["system"]) == [r["system"] for r in cli["esa"]["rows"]]
    assert list(esa["score"]) == pytest.approx([r["score"] for r in cli["esa"]["rows"]], abs=1e-12)
    assert list(esa["p vs next"].fillna(-1)) == pytest.approx(
        [-1 if r["pvalue_below"] is None else r["pvalue_below"] for r in cli["esa"]["rows"]]
    )
    assert len(cli["esa"]["rows"]) == 12  # WMT24 en-ja: ESA rated 12 of the 23 systems


def test_document_level_correlation_page_is_metas() -> None:
    rows = [
        r for r in meta()["correlations"] if r["level"] == "document" and r["criterion"] == "esa"
    ]
    assert {r["method"] for r in rows} == {"pearson", "kendall"}
    at = page_alone("bleu_vs_human.py", state(**{K.BVH_CRITERION: "esa"}), timeout=900)
    table = next(d.value for d in at.dataframe if "granularity" in d.value.columns)
    doc = table[table["granularity"] == "document"].iloc[0]
    by_method = {r["method"]: r for r in rows}
    assert doc["Pearson r"] == pytest.approx(by_method["pearson"]["statistic"], abs=1e-12)
    assert doc["Kendall tau"] == pytest.approx(by_method["kendall"]["statistic"], abs=1e-12)
    assert int(doc["units"]) == by_method["pearson"]["n"]
    assert "|systems:12|" in by_method["pearson"]["signature"]


def wmt24_scores() -> Scores:
    found = study()
    refs, options = tuple(found.references), BleuOptions(tokenize=TOKENIZE)
    key = "test:wmt24-en-ja-export"
    shared = shared_cache.system_statistics(key, found, refs, TOKENIZE, False, STATISTICS_ORDER)
    array = truncate_order(shared.array, STATISTICS_ORDER, options.statistics_order)
    return Scores(
        study=found,
        key=key,
        options=options,
        signature="sig",
        references=refs,
        systems=tuple(found.systems),
        stats=array,
        corpus=study_corpus_bleu(array, output_mask(found), options),
        store_key=(key, refs, options),
    )


def readme_commands(readme: str) -> list[str]:
    """The README's command lines (``python -m bleu_core …``, and the plain-file one after ``tail``)."""
    lines = [line.strip() for line in readme.splitlines()]
    return [line for line in lines if line.startswith(("python -m bleu_core", "tail -n +2"))]


def test_the_export_readme_commands_rebuild_its_numbers(tmp_path: Path) -> None:
    need()
    session = {
        K.SEED: SEED,
        K.N_RESAMPLES: RESAMPLES,
        K.STUDY_LABEL: str(WMT24),
        K.INCLUDE_HUMANS: False,
    }
    contents = export_contents(wmt24_scores(), session)
    data = contents.zip(lambda spec: b"", lambda spec: "")
    members = zipfile.ZipFile(io.BytesIO(data))
    readme = members.read("README.txt").decode()
    corpus = list(csv.DictReader(io.StringIO(members.read("tables/corpus-bleu.csv").decode())))
    fits = list(csv.DictReader(io.StringIO(members.read("tables/system-level-fits.csv").decode())))
    significance_cmd, meta_cmd, score_cmd = readme_commands(readme)
    argv = [w.replace("STUDY", str(WMT24)) for w in shlex.split(significance_cmd)[3:]]
    rebuilt = command(*[w for w in argv if w not in ("--format", "json")])
    bleu = {s["system"]: s["score"] for s in rebuilt["bootstrap"]["systems"]}
    for row in corpus:
        assert float(row["BLEU"]) == pytest.approx(bleu[row["system"]], abs=1e-9), row["system"]
    argv = [w.replace("STUDY", str(WMT24)) for w in shlex.split(meta_cmd)[3:]]
    rebuilt_meta = command(*[w for w in argv if w not in ("--format", "json")])
    pearson = next(
        r
        for r in rebuilt_meta["correlations"]
        if (r["level"], r["method"], r["criterion"]) == ("system", "pearson", "esa")
    )
    esa_fit = next(f for f in fits if f["criterion"] == "esa")
    assert float(esa_fit["r"]) == pytest.approx(pearson["statistic"], abs=1e-9)
    assert int(esa_fit["n"]) == pearson["n"]
    # the plain-file command, canary line left out as the README says: the zip's BLEU of one system
    assert "tail -n +2" in score_cmd
    system = "Claude-3.5"
    ref = WMT24 / "txt" / "references" / "en-ja.refA.txt"
    hyp = WMT24 / "txt" / "system-outputs" / "en-ja" / f"{system}.txt"
    line = score_cmd.replace("REF", shlex.quote(str(ref))).replace("HYP", shlex.quote(str(hyp)))
    line = line.replace("python -m bleu_core", f"{shlex.quote(sys.executable)} -m bleu_core")
    out = subprocess.run(
        ["bash", "-c", line + " --format json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    score = json.loads(out.stdout)
    got = score[0]["score"] if isinstance(score, list) else score["score"]
    expected = next(float(r["BLEU"]) for r in corpus if r["system"] == system)
    assert got == pytest.approx(expected, abs=1e-9)
