"""The Correlation and Metrics pages show, beside every correlation, its chance line: what a random metric
(the metric's own scores shuffled, from the page's seed) and a constant metric get for that same
correlation. The numbers are those of :func:`bleu_core.evaluation.correlation_chance.correlation_chance` on the
same inputs (the Correlation page's equal ``bleu-study meta``'s chance column, which calls it), said in
words with the seed and the permutations, and drawn as a labelled tick on each chart.

Data: 4 MT systems × 40 segments of the TED en-de demo with Google's MQM ratings (Apache-2.0).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from app_runs import page_alone

from bleu_core.evaluation.chance import ChanceLine
from bleu_core.evaluation.correlation_chance import correlation_chance
from bleu_core.evaluation.meta import human_source
from bleu_core.evaluation.study_meta import meta_evaluate
from bleu_core.evaluation.tau_like import study_tau_like
from bleu_core.maths.correlation import CorrelationResult
from bleu_core.metrics.registry import score_study
from bleu_core.study import Study
from ui.analysis.correlation_lines import (
    CHANCE_COLUMNS,
    chance_said,
    line_numbers,
    with_chance,
)
from ui.analysis.correlation_table import correlation_chart, correlation_frame
from ui.app import state as K
from ui.metrics.panels import correlation_notes

SEED = 7
SEGMENT_METHODS = (  # the Correlation page's segment-level rows
    ("pearson", "none"),
    ("kendall", "none"),
    ("pearson", "item"),
    ("kendall", "item"),
    ("kendall-wmt", "item"),
)
STATE = {K.N_RESAMPLES: 20, K.SEED: SEED}


def captions(at) -> str:  # noqa: ANN001 - an AppTest
    return " ".join(c.value for c in at.caption)


def specs(at) -> list[str]:  # noqa: ANN001 - an AppTest
    return [c.proto.spec for c in at.get("vega_lite_chart")]


@pytest.fixture(scope="module")
def correlation_page(ted_four_systems: Study):
    state = {K.STUDY: ted_four_systems, K.STUDY_KEY: "test:ted-chance", **STATE}
    return page_alone("correlation.py", {**state, K.CORR_CRITERION: "mqm"})


@pytest.fixture(scope="module")
def metrics_page(ted_four_systems: Study):
    state = {K.STUDY: ted_four_systems, K.STUDY_KEY: "test:ted-chance", **STATE}
    return page_alone("metrics.py", {**state, K.MET_METRICS: ["BLEU", "chrF"]})


def test_the_correlation_page_shows_meta_s_chance_line_beside_every_row(
    correlation_page, ted_four_systems
):
    frame = correlation_page.dataframe[0].value
    columns = list(frame.columns)
    assert columns[columns.index("CI high") + 1 : columns.index("CI high") + 5] == list(
        CHANCE_COLUMNS
    )
    meta = meta_evaluate(
        ted_four_systems,
        criteria=["mqm"],
        segment_methods=SEGMENT_METHODS,
        n_resamples=0,
        seed=SEED,
    )
    # the Correlation page's levels (meta adds the document level, BLEU vs human's granularity table)
    rows = [r for r in meta.rows if r.result.level in ("system", "segment")]
    assert len(rows) == len(frame) == 8  # 3 system-level rows, 5 segment-level
    for (_, row), want in zip(frame.iterrows(), rows, strict=True):
        assert row["level"] == want.result.level
        line = want.chance
        assert row["random metric"] == pytest.approx(line["random"], abs=1e-12)
        assert [row["random low"], row["random high"]] == pytest.approx(line["random_range"])
        constant = math.nan if line["constant"] is None else line["constant"]
        assert row["constant metric"] == pytest.approx(constant, nan_ok=True)
    wmt = frame[frame["method"] == "kendall-wmt (by item)"].iloc[0]
    assert (
        wmt["constant metric"] == -1.0
    )  # WMT's tau-like: a constant metric's pairs all discordant
    said = captions(correlation_page)
    assert "1000 permutations within systems" in said and f"seed {SEED}" in said
    assert "100 permutations within all scored translations" in said
    assert "100 permutations within each segment's systems" in said
    assert "says as little as shuffled scores" in said
    drawn = [s for s in specs(correlation_page) if "bootstrap intervals" in s]
    assert drawn and '"tick"' in drawn[0] and "red tick: a random metric" in drawn[0]


def test_a_system_row_equals_correlation_chance_on_the_page_s_inputs(
    correlation_page, ted_four_systems
):
    """The Pearson row against corpus BLEU and the official MQM system scores, computed here."""
    from bleu_core import corpus_bleu

    study = ted_four_systems
    names = tuple(study.machine_systems)
    refs = list(study.references.values())
    bleu = [corpus_bleu(study.systems[s], refs).score for s in names]
    rows = [list(study.systems).index(s) for s in names]
    seg = study.segment_scores("mqm")[rows]
    official = study.system_scores("mqm")
    human = human_source(names, seg, [official.get(s, math.nan) for s in names]).observed()
    result = CorrelationResult("pearson", 0.5, None, len(names), level="system")
    line = correlation_chance(result, bleu, human, seed=SEED)
    frame = correlation_page.dataframe[0].value
    row = frame[(frame["level"] == "system") & (frame["method"] == "pearson")].iloc[0]
    assert row["random metric"] == pytest.approx(line.random, abs=1e-9)
    assert line.n_permutations == 1000 and line.seed == SEED


def test_the_metrics_page_shows_the_oriented_chance_line_of_every_row(
    metrics_page, ted_four_systems
):
    assert not metrics_page.exception, [e.value for e in metrics_page.exception]
    frame = next(d.value for d in metrics_page.dataframe if "oriented r" in d.value.columns)
    assert set(CHANCE_COLUMNS) <= set(frame.columns)
    study = ted_four_systems
    names = tuple(study.machine_systems)
    keep = [list(study.systems).index(s) for s in names]
    chrf = score_study(study, ["chrF"], systems=names)["chrF"]
    for criterion, crit in study.criteria.items():
        orient = (1 if chrf.higher_is_better else -1) * (1 if crit.higher_is_better else -1)
        seg = study.segment_scores(criterion)[keep]
        official = study.system_scores(criterion)
        human = human_source(names, seg, [official.get(s, math.nan) for s in names])
        rows = frame[(frame["metric"] == "chrF") & (frame["criterion"] == criterion)]
        for _, row in rows.iterrows():
            result = CorrelationResult(
                row["method"],
                row["oriented r"],
                None,
                row["n"],
                level=row["level"],
                grouping="item" if row["method"] == "kendall-wmt" else "none",
            )
            if row["level"] == "system":
                line = correlation_chance(
                    result, orient * chrf.observed(), human.observed(), seed=SEED
                )
            else:
                tau = study_tau_like(study, criterion, keep)
                line = correlation_chance(result, orient * chrf.segment, seg, seed=SEED, **tau)
            assert row["random metric"] == pytest.approx(line.random, abs=1e-12), row.to_dict()
            assert row["constant metric"] == pytest.approx(line.constant, nan_ok=True)
            assert row["shuffled within"] == line.grouping
    said = captions(metrics_page)
    assert "each metric's own oriented scores shuffled (1000 permutations within systems" in said
    assert f"seed {SEED}" in said and "says as little as shuffled scores" in said
    drawn = [s for s in specs(metrics_page) if "Metrics vs" in s]
    assert drawn and '"tick"' in drawn[0] and "red tick: a random metric" in drawn[0]


# -- the functions behind them ---------------------------------------------------------------------


LINE = ChanceLine("pearson", 0.01, (-0.6, 0.7), math.nan, 1000, 3, "systems")


def test_chance_columns_come_after_the_interval_and_are_empty_until_computed() -> None:
    rows = [{"level": "system", "r": 0.9, "CI low": 0.5, "CI high": 0.99, "note": ""}]
    (done,) = with_chance(rows, [LINE])
    assert list(done) == ["level", "r", "CI low", "CI high", *CHANCE_COLUMNS, "note"]
    assert (done["random metric"], done["random low"], done["random high"]) == (0.01, -0.6, 0.7)
    (waiting,) = with_chance(rows, None)
    assert all(math.isnan(waiting[c]) for c in CHANCE_COLUMNS)
    assert math.isnan(line_numbers(None)["constant metric"])


def test_chance_said_names_the_permutations_and_the_seed_once() -> None:
    seg = ChanceLine("kendall-wmt", -0.01, (-0.05, 0.03), -1.0, 100, 3, "each segment's systems")
    said = chance_said([LINE, LINE, None, seg])
    assert said.startswith(
        "Chance line: a random metric is BLEU's own scores shuffled (1000 permutations within "
        "systems; 100 permutations within each segment's systems, seed 3)"
    )
    assert chance_said([None]) == ""


def test_the_correlation_chart_draws_a_tick_only_where_there_is_a_line() -> None:
    res = CorrelationResult("pearson", 0.8, 0.1, 4, confidence_interval=(0.2, 0.95), level="system")
    frame = correlation_frame([res], [], [LINE], None)
    spec = correlation_chart(frame, criterion="mqm", run_note="seed 3", seed=3).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks.count("tick") == 1 and "red tick: a random metric" in str(spec["title"])


def test_the_metrics_notes_say_the_chance_line_only_with_rows() -> None:
    from bleu_core.engine.options import BleuOptions

    frame = pd.DataFrame(
        {"level": ["system", "segment"], "shuffled within": ["systems", "all scored translations"]}
    )
    said = correlation_notes(frame, BleuOptions(), 5)
    how = "(1000 permutations within systems; 100 permutations within all scored translations, seed 5)"
    assert how in said
    assert "Chance line" not in correlation_notes(pd.DataFrame(), BleuOptions(), 5)
    assert np.isnan(line_numbers(None)["random low"])
