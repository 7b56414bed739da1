"""rank_metrics dispatches to one strategy per kind of statistic; a new statistic is one class."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.evaluation import ranking_strategies as rs
from bleu_core.evaluation.clusters import (
    SEGMENT_STATISTICS,
    STATISTICS,
    SYSTEM_STATISTICS,
    rank_metrics,
)
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.metrics.study_scores import MetricTable


class MeanScore(rs.RankingStatistic):
    """A toy statistic: a metric's mean oriented system score; "a beats b" is significant (p = 0.01)
    when a's mean is higher by more than 1, else p = 0.5."""

    level = "system"
    test = "toy rule"

    def score(self, inputs: rs.RankingInputs) -> rs.Scored:
        values = {t.name: float(np.mean(t.oriented_system())) for t in inputs.items}
        info = {name: {"n": len(inputs.items[0].systems)} for name in values}
        return rs.Scored(values, info, partial(self._pvalue, values))

    @staticmethod
    def _pvalue(values: dict[str, float], a: str, b: str) -> float:
        return 0.01 if values[a] - values[b] > 1 else 0.5


def _tables(means: dict[str, float]) -> dict[str, Any]:
    names = ("A", "B", "C")
    return {
        n: MetricTable(n, names, np.array([m - 1, m, m + 1]), None, True, "computed")
        for n, m in means.items()
    }


def test_a_new_statistic_is_one_class(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rs.STRATEGIES, "mean-score", MeanScore("mean-score"))
    tables = _tables({"low": 1.0, "high": 5.0, "close": 4.5})
    r = rank_metrics(tables, np.ones(3), None, "mean-score", n_resamples=10, seed=2)
    assert [row.metric for row in r.rows] == ["high", "close", "low"]
    assert [row.rank for row in r.rows] == [1, 1, 2]  # high vs close: p = 0.5; close vs low: 0.01
    assert (r.level, r.test, r.interval) == ("system", "toy rule", "")  # no intervals computed
    assert [row.n for row in r.rows] == [3, 3, 3]


def test_the_statistics_are_the_strategies() -> None:
    assert STATISTICS == tuple(rs.STRATEGIES)
    assert set(SYSTEM_STATISTICS) | set(SEGMENT_STATISTICS) == set(STATISTICS)
    assert {type(rs.strategy(n)).__name__ for n in STATISTICS} == {
        "SystemScoreStatistic",
        "SoftPairwiseStatistic",
        "TieCalibratedStatistic",
        "TauLikeStatistic",
    }
    with pytest.raises(StatsInputError, match=r"unknown statistic 'spa'; choose from: pairwise"):
        rs.strategy("spa")


def test_segment_statistics_say_they_need_segment_scores() -> None:
    tables = _tables({"a": 1.0, "b": 2.0})
    with pytest.raises(StatsInputError, match="acc-eq needs human segment scores"):
        rank_metrics(tables, np.ones(3), None, "acc-eq")
    with pytest.raises(StatsInputError, match="kendall-wmt needs human segment scores"):
        rank_metrics(tables, np.ones(3), None, "kendall-wmt")
    with pytest.raises(StatsInputError, match="soft pairwise accuracy needs human segment scores"):
        rank_metrics(tables, np.ones(3), None, "soft-pairwise-accuracy")
    with pytest.raises(StatsInputError, match="only 2 systems have a human score; need 3"):
        rank_metrics(tables, np.array([1.0, np.nan, 2.0]), None, "pearson")


@settings(max_examples=15, deadline=None)
@given(
    st.permutations(["a", "b", "c", "d"]),
    st.sampled_from(["pairwise-accuracy", "kendall", "acc-eq", "soft-pairwise-accuracy"]),
)
def test_the_ranking_does_not_depend_on_the_order_of_the_tables(
    order: list[str], statistic: str
) -> None:
    rng = np.random.default_rng(7)
    human = rng.normal(size=(5, 12)) + np.arange(5)[:, None]
    names = tuple(f"s{i}" for i in range(5))
    noise = {"a": 0.1, "b": 0.5, "c": 1.0, "d": 3.0}
    segments = {n: human + rng.normal(0, noise[n], human.shape) for n in noise}
    tables = {
        n: MetricTable(n, names, segments[n].mean(1), segments[n], True, "computed") for n in order
    }
    r = rank_metrics(tables, human.mean(1), human, statistic, n_resamples=20, seed=4)
    sorted_tables = {n: tables[n] for n in sorted(tables)}
    again = rank_metrics(sorted_tables, human.mean(1), human, statistic, n_resamples=20, seed=4)
    assert r.rows == again.rows
    np.testing.assert_array_equal(r.pvalues, again.pvalues)
