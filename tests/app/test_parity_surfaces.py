"""One truth per number: every number a page shows (AppTest) and a command prints (JSON) is the same number
under the same settings: corpus BLEU, the segment-level r, the system-level r with its interval, the paired
test's p-values and verdicts, the metric rankings' values and clusters, the signatures, Explore's sentence
BLEU against ``score --sentence-level``, and the Metrics page's segment-level rows against ``meta``'s.

Two studies: the bundled TED en-de demo (Apache-2.0, Google MQM) and WMT21 newstest zh-en read in place from
``shared/data`` beside the repository (research use only, never copied; skipped when absent). Settings on
both sides: the defaults (13a, exp smoothing), 100 resamples, seed 3, machine systems only, criterion MQM
(TED) and DA z (WMT21, the headline criterion WMT ranks by).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path

import pandas as pd
import pytest
from app_runs import page_alone

from bleu_core.cli import main
from bleu_core.study import load_study
from bleu_core.study.demo import load_demo
from ui.app import state as K
from ui.app.numbers import format_p

WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"
RESAMPLES, SEED = 100, 3
CASES = {
    "ted-en-de": ("demo:ted-en-de", None, "mqm", ("pairwise-accuracy", "acc-eq")),
    "wmt21-zh-en": (str(WMT21), "zh-en", "da_z", ("pairwise-accuracy",)),
}


def command(*argv: str) -> dict:
    """``python -m bleu_core ARGV --format json`` in this process: its JSON output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main([*argv, "--format", "json"]) == 0
    return json.loads(out.getvalue())


class Surfaces:
    """Every page of one study run once under the shared settings, and the commands' JSON."""

    def __init__(self, name: str) -> None:
        path, pair, criterion, statistics = CASES[name]
        if name == "ted-en-de":
            study = load_demo("ted-en-de")
        else:
            if not WMT21.is_dir():
                pytest.skip(f"WMT21 release not found at {WMT21} (research use only, not bundled)")
            study = load_study(path, pair=pair).study
        self.study, self.criterion = study, criterion
        state = {
            K.STUDY: study,
            K.STUDY_KEY: f"test:parity-{name}",
            K.N_RESAMPLES: RESAMPLES,
            K.SEED: SEED,
            K.CRITERION: criterion,
            K.INCLUDE_HUMANS: False,
            K.CORR_DRAWS: 2,
            K.RANK_METRICS: ["BLEU", "chrF"],
            K.RANK_STATISTICS: list(statistics),
            K.RANK_CRITERIA: [criterion],
            K.MET_METRICS: ["BLEU"],
        }
        self.pages = {
            page: page_alone(f"{page}.py", state, timeout=600)
            for page in (
                "corpus",
                "correlation",
                "bleu_vs_human",
                "significance",
                "metric_ranking",
                "metrics",
            )
        }
        self.pages["export"] = page_alone("export.py", state, timeout=600)
        where = [path] + (["--pair", pair] if pair else [])
        common = ["--n-resamples", str(RESAMPLES), "--seed", str(SEED)]
        self.meta = command(
            "meta", *where, *common, "--criteria", criterion, "--metrics", "BLEU,chrF",
            "--statistics", ",".join(statistics),
        )  # fmt: skip
        self.significance = command("significance", *where, *common)  # every pair, as the page

    def table(self, page: str, *columns: str) -> pd.DataFrame:
        """The first table of ``page`` that has every one of ``columns``."""
        for element in self.pages[page].dataframe:
            if all(c in element.value.columns for c in columns):
                return element.value
        raise AssertionError(f"no table with columns {columns} on {page}")

    def correlation(self, level: str, method: str, grouping: str | None = None) -> dict:
        [row] = [
            c
            for c in self.meta["correlations"]
            if c["level"] == level and c["method"] == method and c["grouping"] == grouping
        ]
        return row


@pytest.fixture(scope="module", params=list(CASES))
def surfaces(request: pytest.FixtureRequest) -> Surfaces:
    return Surfaces(request.param)


def test_corpus_bleu_is_one_number(surfaces: Surfaces) -> None:
    page = surfaces.table("corpus", "system", "BLEU").set_index("system")["BLEU"]
    cli = {s["system"]: s["score"] for s in surfaces.significance["bootstrap"]["systems"]}
    assert set(page.index) == set(cli) == set(surfaces.meta["systems"])
    for system, score in cli.items():
        assert page[system] == pytest.approx(score, abs=1e-9), system


def test_system_r_and_its_interval_are_one_number(surfaces: Surfaces) -> None:
    table = surfaces.table("correlation", "level", "method", "CI low")
    for method in ("pearson", "spearman", "kendall"):
        row = table[(table["level"] == "system") & (table["method"] == method)].iloc[0]
        cli = surfaces.correlation("system", method)
        assert cli["interval_method"] == "bootstrap percentile", cli["note"]  # segments exist
        assert row["r"] == pytest.approx(cli["statistic"], abs=1e-12)
        assert (row["CI low"], row["CI high"]) == pytest.approx(
            cli["confidence_interval"], abs=1e-12
        )
        assert row["p"] == format_p(cli["pvalue"])
    # the Metrics page and BLEU vs human show the same r with the same interval
    metrics = surfaces.table("metrics", "oriented r", "low")
    pick = (metrics["metric"] == "BLEU") & (metrics["criterion"] == surfaces.criterion)
    row = metrics[pick & (metrics["level"] == "system") & (metrics["method"] == "pearson")].iloc[0]
    pearson = surfaces.correlation("system", "pearson")
    assert row["r"] == pytest.approx(pearson["statistic"], abs=1e-12)
    assert (row["low"], row["high"]) == pytest.approx(pearson["confidence_interval"], abs=1e-12)
    fits = surfaces.table("bleu_vs_human", "series", "CI low").iloc[0]
    assert fits["r"] == pytest.approx(pearson["statistic"], abs=1e-9)
    assert (fits["CI low"], fits["CI high"]) == pytest.approx(pearson["confidence_interval"])


def test_segment_r_is_one_number(surfaces: Surfaces) -> None:
    table = surfaces.table("correlation", "level", "method", "CI low")
    row = table[(table["level"] == "segment") & (table["method"] == "pearson")].iloc[0]
    cli = surfaces.correlation("segment", "pearson", "none")
    assert row["r"] == pytest.approx(cli["statistic"], abs=1e-12)
    assert (row["CI low"], row["CI high"]) == pytest.approx(cli["confidence_interval"], abs=1e-12)
    assert row["n"] == cli["n"] and row["p"] == format_p(cli["pvalue"])
    granularity = surfaces.table("bleu_vs_human", "granularity", "Pearson r").set_index(
        "granularity"
    )
    assert granularity.loc["sentence", "Pearson r"] == pytest.approx(cli["statistic"], abs=1e-12)
    assert granularity.loc["sentence", "units"] == cli["n"]


def test_p_values_and_verdicts_are_one_number(surfaces: Surfaces) -> None:
    page = surfaces.table("significance", "baseline", "CI low").set_index(["system", "baseline"])
    [test] = surfaces.significance["tests"]
    k = len(surfaces.meta["systems"])
    assert len(page) == len(test["comparisons"]) == k * (k - 1) // 2  # every pair once
    for c in test["comparisons"]:
        row = page.loc[(c["system"], c["baseline"])]
        assert row["difference"] == pytest.approx(c["statistic"], abs=1e-12)
        # a p of 0 (no resample crossed 0) reads "< 1/M", as the command line prints it
        shown = f"< {1 / RESAMPLES:.2g}" if c["pvalue"] == 0 else format_p(c["pvalue"])
        assert row["p"] == shown
        assert (row["CI low"], row["CI high"]) == pytest.approx(c["confidence_interval"], abs=1e-12)
        assert row["verdict"] == c["verdict"]
        assert row["p (sacrebleu)"] == format_p(c["sacrebleu_pvalue"])
        # the verdict is its interval's (excludes 0 or not), and p < 0.05 exactly then (issue 39)
        low, high = c["confidence_interval"]
        assert c["verdict"] == (">" if low > 0 else "<" if high < 0 else "~")
        assert c["verdict"] == ("~" if c["pvalue"] >= 0.05 else ">" if c["statistic"] > 0 else "<")


def test_ranking_values_and_clusters_are_one_number(surfaces: Surfaces) -> None:
    shown = [
        e.value for e in surfaces.pages["metric_ranking"].dataframe if "CI low" in e.value.columns
    ]
    assert len(shown) == len(surfaces.meta["rankings"])
    ranked_on = surfaces.meta["ranking_systems"]["systems"]
    said = surfaces.pages["metric_ranking"].markdown
    assert any(f"{len(ranked_on)} systems" in m.value for m in said)
    for frame, ranking in zip(shown, surfaces.meta["rankings"], strict=True):
        assert ranking["systems"] == ranked_on
        page = frame.set_index("metric")
        for m in ranking["metrics"]:
            row = page.loc[m["metric"]]
            assert row["value"] == pytest.approx(m["statistic"], abs=1e-12), ranking["statistic"]
            low, high = m["confidence_interval"]
            assert (row["CI low"], row["CI high"]) == pytest.approx((low, high), abs=1e-12)
            assert row["rank"] == m["rank"]


def test_signatures_and_criterion_are_one_label(surfaces: Surfaces) -> None:
    settings = json.loads(surfaces.pages["export"].code[0].value)
    assert settings["signature"] == surfaces.meta["bleu_signature"]
    assert settings["segment_level"]["signature"] == surfaces.meta["segment_bleu_signature"]
    assert "|refs:" in settings["signature"] and "eff:yes" in settings["segment_level"]["signature"]
    assert settings["criterion"] == surfaces.criterion
    # the system-level r's full signature: systems, humans, criterion, interval method, resamples, seed
    shown = [c.value for c in surfaces.pages["correlation"].caption]
    said = next(c for c in shown if c.startswith("System-level signature: "))
    cli = surfaces.correlation("system", "pearson")["signature"]
    assert said == f"System-level signature: `{cli}`"
    assert f"|criterion:{surfaces.criterion}|ci:bootstrap-segments:{RESAMPLES}:seed{SEED}" in cli
    # the headline criterion: the standardised one first where the study has it
    assert surfaces.meta["correlations"][0]["statistic"] is not None
    if "da_z" in surfaces.study.criteria:
        order = [c["criterion"] for c in command_criteria(surfaces)]
        assert order[0] == "da_z"


def command_criteria(surfaces: Surfaces) -> list[dict]:
    """The criteria ``meta`` reports first to last when none is named (system-level Pearson rows)."""
    path, pair, _, _ = CASES["wmt21-zh-en"]
    data = command("meta", path, "--pair", pair, "--n-resamples", "10", "--statistics", "none")
    return [c for c in data["correlations"] if c["level"] == "system" and c["method"] == "pearson"]


EXPLORE_VIEWS = [("position", False), ("hyp_len", False), ("BLEU", True), ("BLEU", False)]
"""Explore's browser orders whose first page is compared: segment order, the shortest hypotheses (where
effective order matters), the highest and the lowest sentence BLEU (smoothing at the zero end)."""


def scored_systems(surfaces: Surfaces) -> list[str]:
    """The first and last machine system with every output present (the command scores whole files)."""
    whole = [s for s in surfaces.meta["systems"] if None not in surfaces.study.systems[s]]
    assert whole, "no system with every output"
    return sorted({whole[0], whole[-1]}, key=whole.index)


def test_explore_sentence_bleu_is_the_command_lines(surfaces: Surfaces, tmp_path: Path) -> None:
    study = surfaces.study
    refs = list(study.references)
    assert all(None not in study.references[r] for r in refs), "a reference with a missing segment"
    ref_files = []
    for r in refs:
        ref_files.append(tmp_path / f"ref-{len(ref_files)}.txt")
        ref_files[-1].write_text("\n".join(study.references[r]) + "\n", encoding="utf-8")
    for system in scored_systems(surfaces):
        hyp = tmp_path / "hyp.txt"
        hyp.write_text("\n".join(study.systems[system]) + "\n", encoding="utf-8")
        rows = command("score", "-r", *map(str, ref_files), "-i", str(hyp), "--sentence-level")
        assert [r["segment"] for r in rows] == list(range(1, study.n_segments + 1))
        cli = [r["score"] for r in rows]
        # the same settings: the page's segment signature, but for the references' names (files here)
        named = surfaces.meta["segment_bleu_signature"].split("|")
        assert rows[0]["signature"].split("|") == [p for p in named if not p.startswith("refs:")]
        at = page_alone(
            "explore.py",
            {
                K.STUDY: study,
                K.STUDY_KEY: f"test:parity-explore-{study.name}",
                K.INCLUDE_HUMANS: False,
                K.EXPLORE_SYSTEMS: [system],
                K.EXPLORE_SORT: "position",
                K.EXPLORE_DESCENDING: False,
            },
            timeout=600,
        )
        for sort, descending in EXPLORE_VIEWS:
            at.session_state[K.EXPLORE_SORT] = sort
            at.session_state[K.EXPLORE_DESCENDING] = descending
            at.run()
            assert not at.exception, [e.value for e in at.exception]
            [table] = [e.value for e in at.dataframe if "BLEU" in e.value.columns]
            assert len(table) == min(25, study.n_segments) and set(table["system"]) == {system}
            for segment, bleu in zip(table["segment"], table["BLEU"], strict=True):
                i = study.segment_index(str(segment))
                assert bleu == pytest.approx(cli[i], abs=1e-9), (system, segment, sort)
            if sort == "position":
                assert [study.segment_index(str(s)) for s in table["segment"]] == list(range(25))


def test_metrics_segment_rows_are_meta_rows(surfaces: Surfaces) -> None:
    table = surfaces.table("metrics", "oriented r", "low")
    pick = (table["metric"] == "BLEU") & (table["criterion"] == surfaces.criterion)
    shown = table[pick & (table["level"] == "segment")]
    assert set(shown["method"]) == {"pearson", "kendall-wmt"}
    for method, grouping in (("pearson", "none"), ("kendall-wmt", "item")):
        [row] = [r for _, r in shown.iterrows() if r["method"] == method]
        cli = surfaces.correlation("segment", method, grouping)
        assert cli["metric"] == "BLEU" and cli["criterion"] == surfaces.criterion
        assert row["n"] == cli["n"], method
        # the page's note is meta's, which adds the kendall-wmt baselines (random and constant metric)
        assert cli["note"].startswith(row["note"]), method
        assert row["p"] == format_p(cli["pvalue"]), method  # "—" where there is none
        if math.isnan(cli["statistic"]):  # undefined on both sides (WMT21 DA z: no pair 25 apart)
            assert math.isnan(row["r"]) and cli["confidence_interval"] is None, (
                method,
                cli["note"],
            )
            assert math.isnan(row["low"]) and math.isnan(row["high"]), method
            continue
        assert row["r"] == pytest.approx(cli["statistic"], abs=1e-12), method
        interval = cli["confidence_interval"]
        assert interval is not None, cli["note"]
        assert (row["low"], row["high"]) == pytest.approx(interval, abs=1e-12), method


NOT_CHECKED = {"human ceiling"}
"""Columns of tables outside this test's numbers (the Metric ranking page's chance-and-ceiling table)."""


def test_no_cell_is_a_python_none(surfaces: Surfaces) -> None:
    for name, at in surfaces.pages.items():
        for element in at.dataframe:
            frame = element.value
            if NOT_CHECKED & set(frame.columns):
                continue
            for column in frame.columns:
                values = frame[column].tolist()
                assert not any(v is None for v in values), (name, column)
                assert not any(isinstance(v, float) and math.isinf(v) for v in values), (
                    name,
                    column,
                )
