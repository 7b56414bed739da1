"""Issue 39, one truth second pass: counts that count, verdicts that agree with their intervals, and the
human ceiling with its n, interval and flags, the same on the command line, the pages and the export.

Real data read in place from ``shared/data`` beside the repository (research use only, never copied;
skipped when absent): WMT24 en-ja and en-hi (ESA rates 12 of 23 and some of 19 systems), WMT21 en-de and
zh-en (MQM). Settings: the target language's tokenizer, 100 resamples, seed 3, machine systems only.
"""

from __future__ import annotations

import contextlib
import io
import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from app_runs import captions, page_alone

from bleu_core.cli import main
from bleu_core.evaluation.ceiling_flags import FEW_SEGMENTS, ceiling_flags, chance_of
from bleu_core.study import load_study
from bleu_core.tokenize.tokenizers import tokenizer_for_language
from ui.app import state as K

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
WMT24 = SHARED / "wmt24-general-esa"
WMT21 = SHARED / "wmt21-newstest2021-mqm-da"
RESAMPLES, SEED = 100, 3


def need(path: Path) -> None:
    if not path.is_dir():
        pytest.skip(f"{path.name} not found beside the repository (research use only, not bundled)")


def command(*argv: str) -> dict[str, Any]:
    """``python -m bleu_core ARGV --format json`` in this process: its JSON output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main([*argv, "--format", "json"]) == 0
    return json.loads(out.getvalue())


@cache
def meta(pair: str) -> dict[str, Any]:
    need(WMT24)
    return command(
        "meta", str(WMT24), "--pair", pair, "--n-resamples", str(RESAMPLES), "--seed", str(SEED),
        "--metrics", "BLEU,chrF", "--statistics", "pairwise-accuracy,acc-eq",
    )  # fmt: skip


@cache
def study(pair: str) -> Any:
    need(WMT24)
    return load_study(WMT24, pair=pair).study


@pytest.mark.parametrize("pair", ["en-ja", "en-hi"])
def test_meta_counts_the_systems_that_enter(pair: str) -> None:
    data, found = meta(pair), study(pair)
    rated = sorted(
        s for s, v in found.system_scores("esa").items() if v == v and s in data["systems"]
    )
    aside = sorted(set(data["systems"]) - set(rated))
    assert data["rated_systems"]["esa"] == {"systems": rated, "set_aside": aside}
    assert len(rated) < len(data["systems"])  # WMT24: ESA rated only some systems
    for row in data["correlations"]:
        assert f"|systems:{len(rated)}|" in row["signature"], row["signature"]
        if row["level"] == "system":
            assert row["n"] == len(rated)
    for ranking in data["rankings"]:
        assert sorted(ranking["systems"]) == rated
        assert [s["system"] for s in ranking["set_aside"]] == aside
        assert {s["reason"] for s in ranking["set_aside"]} <= {"no esa rating"}
        if ranking["statistic"] == "pairwise-accuracy":  # every pair of the rated systems
            n = len(rated)
            assert all(m["n"] == n * (n - 1) // 2 for m in ranking["metrics"])


def test_bleu_vs_human_signature_is_metas() -> None:
    data, found = meta("en-ja"), study("en-ja")
    state = {
        K.STUDY: found,
        K.STUDY_KEY: "test:wmt24-en-ja-counts",
        K.N_RESAMPLES: RESAMPLES,
        K.SEED: SEED,
        K.CRITERION: "esa",
        K.OPT_TOKENIZE_LANGUAGE: "ja",
        K.OPT_TOKENIZE: "ja-mecab",
    }
    at = page_alone("bleu_vs_human.py", state, timeout=600)
    [row] = [r for r in data["correlations"] if r["level"] == "system" and r["method"] == "pearson"]
    shown = captions(at).replace("\\", "")
    assert row["signature"] in shown  # systems:12, the rated ones, on the page as in meta
    aside = data["rated_systems"]["esa"]["set_aside"]
    assert f"set aside (no esa rating): {', '.join(aside)}" in shown


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_no_verdict_contradicts_its_interval(pair: str) -> None:
    need(WMT21)
    data = command(
        "significance", str(WMT21), "--pair", pair, "--n-resamples", "200", "--seed", "12345",
        "--test", "bs",
    )  # fmt: skip
    [test] = data["tests"]
    assert len(test["comparisons"]) >= 10
    for c in test["comparisons"]:
        low, high = c["confidence_interval"]
        assert c["verdict"] == (">" if low > 0 else "<" if high < 0 else "~"), c
        assert (c["pvalue"] < test["alpha"]) == (c["verdict"] != "~"), c
        assert 0 < c["sacrebleu_pvalue"] <= 1  # sacrebleu's --paired-bs p, kept beside


def test_the_ceiling_has_its_interval_n_and_flags() -> None:
    data = meta("en-ja")
    [acc] = [r for r in data["rankings"] if r["statistic"] == "acc-eq"]
    ceiling = acc["ceiling"]
    low, high = ceiling["confidence_interval"]
    assert low <= ceiling["statistic"] <= high and ceiling["n_resamples"] == RESAMPLES
    # acc*_eq compares systems within a segment: few segments have 2+ systems rated twice
    assert ceiling["n_segments"] < FEW_SEGMENTS
    assert f"rests on few segments ({ceiling['n_segments']} < {FEW_SEGMENTS})" in ceiling["flags"]
    assert ceiling["flags"] == ceiling_flags(ceiling, chance_of(acc["chance"]))
    # a ceiling under its chance line is flagged
    below = {**ceiling, "statistic": acc["chance"]["BLEU"]["random"] - 0.01}
    assert any(
        f.startswith("below the chance line") for f in ceiling_flags(below, acc["chance"]["BLEU"])
    )


def test_the_findings_table_carries_the_ceiling() -> None:
    from bleu_core.evaluation.clusters import MetricRanking
    from ui.analysis.ranking import CEILING_ROW, findings_frame

    data = meta("en-ja")
    [acc] = [r for r in data["rankings"] if r["statistic"] == "acc-eq"]
    ranking = MetricRanking(
        "acc-eq", "segment", "esa", (), np.zeros((0, 0)), 0.05, RESAMPLES, SEED,
        "t", extra={"ceiling": acc["ceiling"], "chance": acc["chance"]},
    )  # fmt: skip
    frame = findings_frame([ranking]).set_index("metric")
    row = frame.loc[CEILING_ROW]
    assert row["kind"] == "human"
    value = [c for c in frame.columns if c.endswith("acc*_eq") or c.endswith("acc-eq")]
    assert row[value[0]] == pytest.approx(acc["ceiling"]["statistic"])
    assert "rests on few segments" in row["ceiling note"]
    assert f"n = {acc['ceiling']['n_items']} items" in row["ceiling note"]


@pytest.mark.parametrize("pair", ["en-ja", "en-hi"])
def test_corpus_page_is_the_study_command(pair: str) -> None:
    """Corpus BLEU, the plain ESA mean and WMT24's domain-averaged figure beside it, the signature with
    ``refs:``, and the Study page's blank outputs (scored) apart from missing segments: as ``study``."""
    from ui.analysis.frames import WMT_ESA_COLUMN
    from ui.study.overview import study_overview

    found = study(pair)
    cli = command("study", str(WMT24), "--pair", pair)
    assert cli["bleu_signature"] == meta(pair)["bleu_signature"]  # nrefs:1|refs:ref-A|...
    state = {
        K.STUDY: found,
        K.STUDY_KEY: f"test:wmt24-{pair}-corpus",
        K.INCLUDE_HUMANS: True,
        K.OPT_TOKENIZE: tokenizer_for_language(found.target_lang),  # the app's sidebar would
    }
    at = page_alone("corpus.py", state, timeout=600)
    frame = next(d.value for d in at.dataframe if WMT_ESA_COLUMN in d.value.columns)
    frame = frame.set_index("system")
    wmt = {row["system"]: row["wmt"] for row in cli["esa"]}
    for s in cli["systems"]:
        assert frame.loc[s["name"], "BLEU"] == pytest.approx(s["bleu"], abs=1e-9)
        esa = s["human"]["esa"]
        if esa is None:
            assert np.isnan(frame.loc[s["name"], "esa"])
        else:
            assert frame.loc[s["name"], "esa"] == pytest.approx(esa, abs=1e-9)
            assert frame.loc[s["name"], WMT_ESA_COLUMN] == pytest.approx(wmt[s["name"]], abs=1e-9)
    # the reference, rated like a system, is a row of its own: a human translation without BLEU
    ref = frame.loc["HUMAN-A (ref-A)"]
    [esa_ref] = [row for row in cli["esa"] if row["system"] == "ref-A"]
    assert bool(ref["human"]) and np.isnan(ref["BLEU"])
    assert ref[WMT_ESA_COLUMN] == pytest.approx(esa_ref["wmt"], abs=1e-9)
    assert ref["esa"] == pytest.approx(esa_ref["mean"], abs=1e-9)
    assert cli["bleu_signature"] in captions(at).replace("\\", "")
    table = study_overview(found).systems_table
    blank = {row[0]: row[3] for row in table.rows}
    missing = {row[0]: row[2] for row in table.rows}
    assert blank == {s["name"]: s["blank_outputs"] for s in cli["systems"]}
    assert any(blank.values()) and not any(missing.values())  # WMT24: blank lines, none missing


def test_documents_count_as_the_study_command_counts_them() -> None:
    """The Correlation page's random reference per document says how many documents it drew for, the
    number ``study`` prints; a study without document ids says each segment is its own unit."""
    from bleu_core.evaluation.references import random_reference_per_document
    from bleu_core.study import Segment, Study

    need(WMT21)
    found = load_study(WMT21, pair="en-de").study  # WMT21 en-de names no documents
    cli = command("study", str(WMT21), "--pair", "en-de")
    names = list(found.machine_systems)[:3]
    texts = {n: found.systems[n][:40] for n in names}
    refs = {"ref-A": found.references["ref-A"][:40], "ref-C": found.systems["ref-C"][:40]}
    docs = [s.doc_id for s in found.segments[:40]]
    got = random_reference_per_document(texts, refs, docs, n_draws=2, seed=SEED)
    assert cli["documents"] == len(found.doc_ids()) == got.named_documents == 0
    assert got.units == "40 segments (no document ids: each segment is its own unit)"
    named = random_reference_per_document(
        texts, refs, [f"d{i // 10}" for i in range(40)], n_draws=2
    )
    assert named.units == "4 documents"
    plain = Study("t", tuple(Segment(str(i)) for i in range(4)), {"a": ["x y"] * 4, "b": ["x z"] * 4},
                  {"s": ["x y"] * 4, "u": ["z"] * 4})  # fmt: skip
    none = random_reference_per_document(plain.systems, plain.references, None, n_draws=2)
    assert none.units == "4 segments (no document ids: each segment is its own unit)"
    assert plain.doc_ids() == []  # study: "documents: 0"


def test_judges_on_esa_shows_no_none_and_says_what_is_undefined() -> None:
    found = study("en-ja")
    state = {K.STUDY: found, K.STUDY_KEY: "test:wmt24-en-ja-judges", K.OPT_TOKENIZE: "ja-mecab"}
    at = page_alone("judges.py", state, timeout=600)
    [table] = [d.value for d in at.dataframe if "pair" in d.value.columns]
    assert "None" not in table.astype(str).to_numpy()
    undefined = int(table["low"].isna().sum())
    assert undefined > 0  # ESA: most adjacent pairs have under 2 same-judge scores
    assert f"{undefined} of {len(table)} pairs have fewer than 2 paired scores" in captions(at)
    titles = [json.loads(c.proto.spec)["title"] for c in at.get("vega_lite_chart")]
    assert titles[0]["text"] == "esa: same-judge differences"  # fits a phone (390 px)
