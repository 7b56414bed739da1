"""AppTests of the Published tables page: the bundled Babych & Hartley (2004) Table 1, uploads, criteria choice."""

from __future__ import annotations

import glob
import importlib.util
import json
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from app_runs import page_alone
from scipy import stats as sps
from streamlit.testing.v1 import AppTest

from bleu_core.evaluation.system_table import parse_system_table
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "pages" / "published.py"
EXAMPLE = ROOT / "bleu_core" / "demos" / "examples" / "babych2004-table1.csv"
SEED_002 = glob.glob("/work/shared/seeds/002_*.txt")


def run_page() -> AppTest:
    return page_alone(PAGE, {}, check=False, timeout=60)


def upload(at: AppTest, name: str, text: str) -> AppTest:
    at.radio(key=K.PUB_SOURCE).set_value("Upload a file").run()
    at.file_uploader(key=K.PUB_UPLOAD).set_value((name, text.encode("utf-8"), "text/csv"))
    return at.run()


def correlations(at: AppTest):
    frame = next(d.value for d in at.dataframe if "criterion" in d.value.columns)
    return frame.set_index(["metric", "criterion", "method"])


def shown(text: str) -> str:
    """What a markdown element displays: backslash escapes (ui.app.markup.md_escape) removed."""
    return re.sub(r"\\(.)", r"\1", text)


@pytest.mark.skipif(not SEED_002, reason="seed 002 (Babych & Hartley 2004) not available")
def test_bundled_table_is_the_papers_table_1():
    # The statistics tests read Table 1 from the seed's text; reuse that reader (tests/stats/test_stats_meta.py).
    spec = importlib.util.spec_from_file_location(
        "_meta_tests", ROOT / "tests" / "stats" / "test_stats_meta.py"
    )
    meta_tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(meta_tests)
    seed = parse_system_table(meta_tests.babych_table1(), "seed")
    bundled = parse_system_table(EXAMPLE.read_text(encoding="utf-8"), EXAMPLE.name)
    assert bundled.systems == seed.systems and bundled.columns == seed.columns
    np.testing.assert_array_equal(bundled.values, seed.values)  # NaN (REVERSO's NA) compare equal


def test_page_reproduces_babych_table_1():
    at = run_page()
    assert not at.exception, at.exception
    assert at.title[0].value == "Published tables"
    table = at.dataframe[0].value
    assert list(table["system"]) == ["CANDIDE", "GLOBALINK", "MS", "REVERSO", "SYSTRAN"]
    # default criteria by the command line's rule: adequacy and fluency; BLEU is the metric
    assert at.multiselect[0].value == ["adequacy", "fluency"]
    frame = correlations(at)
    ade = frame.loc[("BLEU", "adequacy", "pearson")]
    flu = frame.loc[("BLEU", "fluency", "pearson")]
    # Babych & Hartley (2004) Table 1 prints r(2) = 0.5918 (BLEU-adequacy) and 0.9807 (BLEU-fluency); the
    # printed inputs are rounded, so the recomputed r agree to two decimals (and ±0.002).
    assert round(ade["r"], 2) == 0.59 and round(flu["r"], 2) == 0.98
    assert ade["r"] == pytest.approx(0.5918, abs=0.002)
    assert flu["r"] == pytest.approx(0.9807, abs=0.002)
    assert ade["n"] == flu["n"] == 4  # REVERSO has NA: skipped
    assert ade["p"] > 0.05 > flu["p"]  # the paper: adequacy p > 0.05, fluency p < 0.05
    assert {m for _, _, m in frame.index} == {"pearson", "spearman", "kendall"}
    # one scatter per (metric, criterion), each with the pair's r and n and only the 4 rated systems
    elements = at.get("vega_lite_chart")
    charts = [json.loads(c.proto.spec) for c in elements]
    assert [c["title"]["text"] for c in charts] == ["BLEU vs adequacy", "BLEU vs fluency"]
    assert charts[0]["title"]["subtitle"].startswith(
        f"r = {ade['r']:.3f} · R² = {ade['r'] ** 2:.3f}"
    )
    assert "n = 4" in charts[1]["title"]["subtitle"]
    points = pa.ipc.open_stream(elements[0].proto.datasets[0].data.data).read_pandas()
    assert sorted(points["system"]) == ["CANDIDE", "GLOBALINK", "MS", "SYSTRAN"]
    keys = {b.key for b in at.get("download_button")}
    assert "dl-csv-published-babych2004-table1-correlations" in keys


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "system,adequacy,BLEU\nA,1,0.2\nB,2,<b>x</b>\nC,3,0.4\n",
            "broken.csv, line 3, column BLEU: '<b>x</b>' is not a number",
        ),
        (
            "system,adequacy,BLEU\nA,1,0.2\nB,2\nC,3,0.4\n",
            "broken.csv, line 3: 2 cells but the header has 3 columns",
        ),
        (
            "system,adequacy,BLEU\nA,1,0.2\nB,2,0.3\n",
            "broken.csv: 2 system row(s); a correlation needs at least 3 systems",
        ),
        ("system,BLEU\nA,0.2\nB,0.3\nC,0.1\n", "broken.csv, line 1: the header has 2 column(s)"),
    ],
)
def test_broken_upload_shows_a_clear_error(text, message):
    at = upload(run_page(), "broken.csv", text)
    assert not at.exception, at.exception
    assert len(at.error) == 1 and message in shown(at.error[0].value)
    assert "<b>" not in at.error[0].value  # user text is escaped, never markup
    assert not at.dataframe and not at.get("vega_lite_chart")


def test_changing_the_criteria_columns():
    text = "system;DA z;fluency;BLEU;chrF\nA;0.1;3.0;20.5;50\nB;0.3;3.4;22.0;49\nC;-0.2;2.9;19.0;47\nD;0.5;NA;25.1;55\n"
    at = upload(run_page(), "wmt.csv", text)
    assert not at.exception, at.exception
    criteria = at.multiselect[0]
    assert criteria.value == ["DA z", "fluency"]
    assert len(correlations(at)) == 2 * 2 * 3  # 2 metrics × 2 criteria × 3 methods
    criteria.set_value(["DA z"]).run()  # fluency becomes a metric
    assert not at.exception, at.exception
    frame = correlations(at).reset_index()
    assert set(frame["criterion"]) == {"DA z"}
    assert list(dict.fromkeys(frame["metric"])) == ["fluency", "BLEU", "chrF"]
    flu = frame[(frame["metric"] == "fluency") & (frame["method"] == "pearson")].iloc[0]
    assert flu["n"] == 3  # D has no fluency
    assert flu["r"] == pytest.approx(sps.pearsonr([3.0, 3.4, 2.9], [0.1, 0.3, -0.2]).statistic)
    assert len(at.get("vega_lite_chart")) == 3
    criteria.set_value([]).run()
    assert not at.exception
    assert "Choose at least one human criterion column" in at.warning[0].value
    assert not at.get("vega_lite_chart")


def test_every_column_a_criterion_is_explained():
    at = upload(run_page(), "t.csv", "system,adequacy,fluency\nA,1,2\nB,2,3\nC,3,1\n")
    assert not at.exception, at.exception
    assert "every column is a human criterion" in shown(at.error[0].value)


def test_a_wmt_scores_table_of_several_pairs_asks_for_the_pair():
    """A release's ``scores/automatic-scores.tsv`` (long form, several pairs) is read one pair at a time:
    the page offers the pairs instead of refusing the file (invented scores, the release's shape)."""
    rows = ["pair\tsystem\tmetric\tscore"]
    for pair, systems in [("en-de", "ABC"), ("zh-en", "XYZW")]:
        for k, system in enumerate(systems):
            rows += [f"{pair}\t{system}\tBLEU\t{20 + k}", f"{pair}\t{system}\tDA\t{0.1 * k}"]
    at = upload(run_page(), "automatic-scores.tsv", "\n".join(rows) + "\n")
    assert not at.exception, at.exception
    pair = at.selectbox(key=K.PUB_LANGUAGE_PAIR)
    assert pair.options == ["en-de", "zh-en"]
    assert pair.value == "en-de"
    pair.set_value("zh-en").run()
    assert not at.exception, at.exception
    table = next(d.value for d in at.dataframe if "system" in d.value.columns)
    assert list(table["system"]) == ["X", "Y", "Z", "W"]
