"""The chance line of a ranking: random and constant metrics, degenerate tie thresholds."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.cli.ranking_command import format_rankings
from bleu_core.evaluation.chance import (
    add_chance,
    chance_line,
    constant_value,
    is_degenerate,
    permute_within_items,
    ranking_chance,
    statistic_value,
)
from bleu_core.evaluation.clusters import rank_metrics, study_rankings
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.pairwise import pairwise_accuracy
from bleu_core.evaluation.ties import tie_calibrated
from bleu_core.metrics.study_scores import MetricTable, study_metric_scores


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_permuting_within_items_keeps_each_items_scores_and_gaps(k, s, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 5, size=(k, s)).astype(float)
    x[rng.random((k, s)) < 0.3] = np.nan
    y = permute_within_items(x, np.random.default_rng(seed + 1))
    assert np.array_equal(np.isnan(x), np.isnan(y))
    for col in range(s):
        assert sorted(x[~np.isnan(x[:, col]), col]) == sorted(y[~np.isnan(y[:, col]), col])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=3, max_size=9))
def test_constant_pairwise_accuracy_is_the_share_of_human_ties(human):
    h = np.array(human, dtype=float)
    i, j = np.triu_indices(h.size, k=1)
    assert constant_value("pairwise-accuracy", h) == pytest.approx(np.mean(h[i] == h[j]))
    # and it is pairwise_accuracy of a metric that scores every system alike
    assert constant_value("pairwise-accuracy", h) == pairwise_accuracy(np.ones(h.size), h).statistic


def test_constant_acc_eq_is_tie_calibration_of_a_constant_metric():
    rng = np.random.default_rng(2)
    human = rng.integers(0, 3, size=(5, 20)).astype(float)
    human[0, :4] = np.nan
    expected = tie_calibrated(np.where(np.isnan(human), np.nan, 7.0), human, "acc23").statistic
    assert constant_value("acc-eq", human) == expected
    assert np.isnan(constant_value("pearson", human[:, 0]))


def test_random_metric_sits_near_a_coin_and_below_a_good_metric():
    rng = np.random.default_rng(7)
    human = rng.normal(size=(6, 50)) + np.arange(6)[:, None]
    good = human + rng.normal(0, 0.3, size=human.shape)
    for stat, m, h in (
        ("pairwise-accuracy", good.mean(1), human.mean(1)),
        ("acc-eq", good, human),
        ("soft-pairwise-accuracy", good, human),
    ):
        line = chance_line(stat, m, h, n_permutations=10, seed=5)
        low, high = line.random_range
        assert low <= line.random <= high and line.seed == 5 and line.n_permutations == 10
        if stat == "pairwise-accuracy":
            own = pairwise_accuracy(m, h).statistic
        elif stat == "acc-eq":
            own = tie_calibrated(m, h, "acc23").statistic
        else:
            from bleu_core.evaluation.pairwise import soft_pairwise_accuracy

            own = soft_pairwise_accuracy(m, h).statistic
        assert line.random < own
    # the seed reproduces the line
    again = chance_line("acc-eq", good, human, n_permutations=10, seed=5)
    assert again == chance_line("acc-eq", good, human, n_permutations=10, seed=5)


def test_chance_line_errors():
    with pytest.raises(StatsInputError, match=r"no chance line for 'bleu'; choose from: "):
        chance_line("bleu", [1.0, 2], [1.0, 2])
    with pytest.raises(StatsInputError, match=r"same shape, got \(2,\) and \(3,\)"):
        chance_line("pearson", [1.0, 2], [1.0, 2, 3])
    with pytest.raises(StatsInputError, match=r"needs 1 or more permutations, got 0"):
        chance_line("pearson", [1.0, 2, 3], [1.0, 2, 3], n_permutations=0)
    with pytest.raises(StatsInputError, match=r"no chance line for 'x'"):
        constant_value("x", [1.0])
    with pytest.raises(StatsInputError, match=r"acc-eq needs human segment scores"):
        ranking_chance({}, [1.0, 2, 3], None, "acc-eq")


def test_degenerate_threshold_is_flagged():
    m = np.array([[0.0, 10.0], [5.0, 12.0], [9.0, 30.0]])
    h = np.array([[1.0, 2.0], [2.0, 2.0], [3.0, 1.0]])
    biggest = 30.0 - 10.0
    assert is_degenerate(m, h, biggest) and not is_degenerate(m, h, biggest - 0.5)


@pytest.fixture(scope="module")
def ted_scored(ted_en_de):
    """The TED en-de demo (tests/conftest.py) and its BLEU, chrF and NIST tables of the MT systems."""
    study = ted_en_de
    tables = study_metric_scores(study, ["BLEU", "chrF", "NIST"], systems=study.machine_systems)
    return study, tables


def test_ted_demo_acc_eq_is_degenerate_for_bleu_chrf_nist(ted_scored):
    # the bundled TED en-de demo (Apache-2.0 MQM): every metric's calibrated ε makes every pair a tie
    study, tables = ted_scored
    (ranking,) = study_rankings(
        study, tables, criteria=["mqm"], statistics=["acc-eq"], n_resamples=0, seed=3
    )
    assert sorted(ranking.extra["degenerate"]) == ["BLEU", "NIST", "chrF"]
    chance = ranking.extra["chance"]
    for row in ranking.rows:
        assert "degenerate tie threshold" in row.note
        assert row.statistic == pytest.approx(chance[row.metric]["constant"])
    text = format_rankings([ranking])
    assert "random [95%] / constant" in text and "permuted within each item's systems" in text
    assert "seed 3" in text
    assert "human ceiling: n/a (every item has a single mqm rating" in text
    data = json.loads(json.dumps(ranking.to_dict()))
    assert data["chance"]["BLEU"]["seed"] == 3 and data["degenerate"]


def test_ted_demo_pairwise_accuracy_has_a_chance_line_and_no_flag(ted_scored):
    study, tables = ted_scored
    systems = list(next(iter(tables.values())).systems)
    h = np.array([study.system_scores("mqm")[s] for s in systems])
    ranking = rank_metrics(tables, h, None, "pairwise-accuracy", n_resamples=0, seed=1)
    ranked = add_chance(ranking, tables, h, None, n_permutations=200)
    assert ranked.extra["degenerate"] == []
    assert [r.note for r in ranked.rows] == [r.note for r in ranking.rows]
    for row in ranked.rows:
        line = ranked.extra["chance"][row.metric]
        assert line["random_range"][0] < line["random"] < row.statistic
        assert line["n_permutations"] == 200 and line["grouping"] == "systems"


def test_tables_without_segment_scores_get_no_item_chance_line():
    names = ("a", "b", "c")
    tables = {"sys-only": MetricTable("sys-only", names, np.array([1.0, 2, 3]), None, True, "x")}
    human = np.array([[1.0, 2], [2, 3], [3, 4]])
    assert ranking_chance(tables, human.mean(1), human, "acc-eq", seed=1) == {}


def test_tau_like_chance_line_counts_metric_ties_against_a_random_metric():
    from bleu_core.evaluation.correlation import kendall_wmt

    rng = np.random.default_rng(4)
    human = rng.integers(0, 101, size=(6, 40)).astype(float)  # DA-like 0-100
    metric = np.round(human / 20) + rng.normal(0, 0.1, human.shape)  # close to the humans
    tied = np.round(
        human / 50
    )  # few distinct scores: many metric ties, which WMT counts against it
    result = kendall_wmt(metric, human)
    assert statistic_value("kendall-wmt", metric, human) == pytest.approx(result.statistic)
    good, ties = (chance_line("kendall-wmt", m, human, seed=3) for m in (metric, tied))
    assert good.random < result.statistic and good.constant == -1.0
    assert good.n_permutations == 200 and good.grouping == "each item's systems"
    assert ties.random < good.random  # ties pull a random metric's tau-like below 0
    # no pair counted (every human difference below 25): no value, no constant
    empty = chance_line("kendall-wmt", metric, human / 100, seed=3)
    assert math.isnan(empty.random) and math.isnan(empty.constant)
