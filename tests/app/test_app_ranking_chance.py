"""The Metric ranking page shows every statistic's chance line beside its value:
Pearson, Spearman and WMT's tau-like on the TED en-de demo (Apache-2.0, Google's MQM), with the
random and the constant metric beside each value, on the chart, in the LaTeX, and the tau-like's
threshold for MQM said beside its number."""

from __future__ import annotations

import math

import pytest
from app_runs import start_app as start

from bleu_core.evaluation.clusters import study_rankings
from bleu_core.metrics.study_scores import study_metric_scores
from ui.analysis.ranking import findings_latex
from ui.app import state as K

STATISTICS = ["pearson", "spearman", "kendall-wmt"]


@pytest.fixture(scope="module")
def chance_page():
    return start(
        "metric_ranking",
        **{
            K.RANK_METRICS: ["chrF", "NIST"],
            K.RANK_STATISTICS: STATISTICS,
            K.RANK_CRITERIA: ["mqm"],
            K.N_RESAMPLES: 40,
        },
    )


@pytest.fixture(scope="module")
def expected(ted_en_de, chance_page):
    seed = int(chance_page.session_state[K.SEED])
    tables = study_metric_scores(ted_en_de, ["chrF", "NIST"], systems=ted_en_de.machine_systems)
    return seed, {
        r.statistic: r
        for r in study_rankings(
            ted_en_de, tables, criteria=["mqm"], statistics=STATISTICS, n_resamples=0, seed=seed
        )
    }


def test_the_findings_table_shows_the_chance_line_beside_each_value(chance_page, expected):
    _, rankings = expected
    frame = next(d.value for d in chance_page.dataframe if "metric" in d.value.columns and any(
        c.endswith("random / constant") for c in d.value.columns))  # fmt: skip
    for statistic, label in (("pearson", "Pearson"), ("spearman", "Spearman"),
                             ("kendall-wmt", "WMT tau-like")):  # fmt: skip
        column = f"mqm · {'segment' if statistic == 'kendall-wmt' else 'system'} · {label}"
        cells = frame.set_index("metric")[f"{column} · random / constant"]
        line = rankings[statistic].extra["chance"]["chrF"]
        constant = "n/a" if line["constant"] is None else f"{line['constant']:.3f}"
        assert cells["chrF"] == f"{line['random']:.3f} / {constant}"
        values = list(frame.columns)  # beside the value and its interval
        assert (
            values.index(f"{column} · random / constant") == values.index(f"{column} [95% CI]") + 1
        )


def test_each_ranking_says_its_chance_line_its_seed_and_the_tau_like_rule(chance_page, expected):
    seed, rankings = expected
    assert not chance_page.exception, [e.value for e in chance_page.exception]
    frames = [d.value for d in chance_page.dataframe if "above chance" in d.value.columns]
    assert len(frames) == 3  # one chance table per ranking
    rows = [
        d.value
        for d in chance_page.dataframe
        if "rank" in d.value.columns and "random low" in d.value.columns
    ]
    assert len(rows) == 3  # and the chance line in each ranking's rows
    randoms = sorted(round(f.set_index("metric").loc["chrF", "random metric"], 9) for f in frames)
    want = sorted(round(r.extra["chance"]["chrF"]["random"], 9) for r in rankings.values())
    assert randoms == pytest.approx(want)
    constants = [f.set_index("metric").loc["chrF", "constant metric"] for f in frames]
    assert sum(c == -1.0 for c in constants) == 1  # the tau-like's constant metric
    assert sum(math.isnan(c) for c in constants) == 2  # correlations: undefined for a constant
    captions = " ".join(c.value for c in chance_page.caption)
    assert f"seed {seed}" in captions and "1000 permutations" in captions
    assert "WMT tau-like: pairs with \\|Δmqm\\| ≥ 1 MQM point \\(one minor error" in captions
    specs = [c.proto.spec for c in chance_page.get("vega_lite_chart")]
    drawn = [s for s in specs if "against chance" in s]
    assert len(drawn) == 3  # each ranking's chart draws the random metric's mean as a tick
    assert all('"tick"' in s and "random metric" in s for s in drawn)


def test_the_latex_has_the_baseline_rows_and_says_how_they_were_drawn(expected):
    seed, rankings = expected
    tex = findings_latex(list(rankings.values()))
    assert (
        "\\textit{random metric}" in tex and "\\textit{constant metric} & -- & -- & -1.000" in tex
    )
    assert f"seed {seed}" in tex and "1000 permutations within systems" in tex
    assert "WMT tau-like (mqm): pairs with |Δmqm| ≥ 1 MQM point" in tex
