"""Chance lines of every statistic: a random metric's expected value and the
constant metric's, for the correlation rows of ``meta`` and for every ranking statistic.

The random metric's mean is checked two ways: against the exact mean over *every* permutation on
tiny data (a direct computation), and against the known expectation (Pearson, Spearman, Kendall:
0; pairwise accuracy without ties: 0.5) with a tolerance of 4 standard errors of a mean of
``n`` permutations, from the statistic's exact permutation variance.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from bleu_core.evaluation.chance import chance_line, statistic_value
from bleu_core.evaluation.correlation_chance import correlation_chance, tau_like_value
from bleu_core.evaluation.ranking_strategies import STRATEGIES
from bleu_core.evaluation.tau_like import tau_like_rule
from bleu_core.maths.correlation import CorrelationResult, correlation


def system_result(method: str) -> CorrelationResult:
    return CorrelationResult(method, 0.5, None, 6, level="system")


def permutation_sd(statistic: str, k: int) -> float:
    """The exact standard deviation of a statistic of a uniformly random permutation of ``k`` distinct
    scores against ``k`` distinct human scores: Var(r) = Var(rho) = 1/(k-1) (Pearson, Spearman),
    Var(tau) = 2(2k+5) / (9k(k-1)) (Kendall), and pairwise accuracy = (1 + tau) / 2."""
    if statistic in ("pearson", "spearman"):
        return math.sqrt(1 / (k - 1))
    tau = math.sqrt(2 * (2 * k + 5) / (9 * k * (k - 1)))
    return tau / 2 if statistic == "pairwise-accuracy" else tau


@pytest.mark.parametrize(
    ("statistic", "expected"),
    [("pearson", 0.0), ("spearman", 0.0), ("kendall", 0.0), ("pairwise-accuracy", 0.5)],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_metric_expects_zero_correlation_and_a_coin(statistic, expected, seed):
    rng = np.random.default_rng(seed)
    k, n = 12, 1000
    human = rng.normal(size=k)
    metric = human + rng.normal(0, 0.3, k)  # a good metric: far above its chance line
    line = chance_line(statistic, metric, human, n_permutations=n, seed=seed)
    tolerance = 4 * permutation_sd(statistic, k) / math.sqrt(n)
    assert abs(line.random - expected) <= tolerance
    assert line.seed == seed and line.n_permutations == n
    assert line.random_range[1] < statistic_value(statistic, metric, human)


def exact_random_mean(statistic, metric, human) -> tuple[float, float]:
    """Mean and SD of ``statistic`` over every permutation of ``metric`` (a direct computation)."""
    values = [
        statistic_value(statistic, np.array(p), human) for p in itertools.permutations(metric)
    ]
    return float(np.mean(values)), float(np.std(values))


@pytest.mark.parametrize("statistic", ["pearson", "spearman", "kendall", "pairwise-accuracy"])
def test_the_random_mean_is_the_mean_over_every_permutation(statistic):
    human = np.array([1.0, 2.0, 2.0, 4.0, 7.0])  # a human tie: pairwise accuracy's mean is not 0.5
    metric = np.array([3.0, 1.0, 1.0, 5.0, 2.0])  # a metric tie too
    exact, sd = exact_random_mean(statistic, metric, human)
    n = 2000
    line = chance_line(statistic, metric, human, n_permutations=n, seed=11)
    assert line.random == pytest.approx(exact, abs=4 * sd / math.sqrt(n) + 1e-12)


def within_item_permutations(metric: np.ndarray):
    """Every way to permute each column (item) of ``metric`` among its systems."""
    columns = [list(itertools.permutations(metric[:, j])) for j in range(metric.shape[1])]
    for choice in itertools.product(*columns):
        yield np.array(choice).T


@pytest.mark.parametrize("statistic", ["acc-eq", "tau-eq", "soft-pairwise-accuracy"])
def test_item_statistics_random_mean_is_the_mean_over_within_item_permutations(statistic):
    human = np.array([[1.0, 3.0, 2.0], [2.0, 3.0, 1.0], [3.0, 1.0, 2.0]])
    metric = np.array([[0.2, 0.9, 0.5], [0.4, 0.1, 0.3], [0.7, 0.6, 0.8]])
    values = [statistic_value(statistic, m, human) for m in within_item_permutations(metric)]
    exact, sd = float(np.mean(values)), float(np.std(values))
    n = 30 if statistic == "soft-pairwise-accuracy" else 300
    line = chance_line(statistic, metric, human, n_permutations=n, seed=5)
    assert line.random == pytest.approx(exact, abs=4 * sd / math.sqrt(n) + 1e-12)


def test_tau_like_random_and_constant_are_direct_computations():
    human = np.array([[10.0, 90.0], [40.0, 60.0], [80.0, 20.0]])
    metric = np.array([[0.1, 0.9], [0.2, 0.9], [0.3, 0.1]])
    rule = tau_like_rule("da", (0.0, 100.0))
    result = CorrelationResult("kendall-wmt", 0.6, None, 5, level="segment", grouping="item")
    values = [tau_like_value(m, human, rule) for m in within_item_permutations(metric)]
    exact, sd = float(np.mean(values)), float(np.std(values))
    n = 400
    line = correlation_chance(result, metric, human, seed=3, rule=rule, n_permutations=n)
    assert line.random == pytest.approx(exact, abs=4 * sd / math.sqrt(n))
    assert line.constant == -1.0  # every counted pair a metric tie: discordant
    assert line.grouping == "each segment's systems" and line.seed == 3


@pytest.mark.parametrize("grouping", ["none", "item"])
@pytest.mark.parametrize("method", ["pearson", "kendall"])
def test_segment_correlation_chance_is_near_zero_and_undefined_for_a_constant(method, grouping):
    rng = np.random.default_rng(4)
    human = rng.normal(size=(6, 40))
    metric = human + rng.normal(0, 0.5, human.shape)
    human[0, :5] = np.nan
    result = CorrelationResult(method, 0.8, None, 235, level="segment", grouping=grouping)
    n = 40
    line = correlation_chance(result, metric, human, seed=9, n_permutations=n)
    # Var(r) of a random order of N pairs is 1/(N-1) (Kendall's is smaller): none, N = 235 scored
    # translations; by item, a mean over 40 items of 6 systems (5 on the first 5): N - 1 >= 4
    variance = 1 / 234 if grouping == "none" else 1 / (4 * 40)
    assert abs(line.random) <= 4 * math.sqrt(variance / n)
    assert math.isnan(line.constant) and line.note == "a constant metric has no correlation"
    assert line.grouping == (
        "each segment's systems" if grouping == "item" else "all scored translations"
    )


def test_system_correlation_chance_matches_chance_line_and_skips_undefined():
    metric, human = np.array([1.0, 2, 3, 4, 5, 6]), np.array([1.0, 3, 2, 4, 6, 5])
    for method in ("pearson", "spearman", "kendall"):
        line = correlation_chance(system_result(method), metric, human, seed=7)
        assert line == chance_line(method, metric, human, n_permutations=1000, seed=7)
    undefined = CorrelationResult("pearson", math.nan, None, 6, level="system")
    assert correlation_chance(undefined, metric, human, seed=7) is None


def test_every_ranking_statistic_has_a_chance_line():
    from bleu_core.evaluation.chance import CHANCE_STATISTICS, SYSTEM_LEVEL

    assert set(STRATEGIES) <= set(CHANCE_STATISTICS)
    assert "spearman" in SYSTEM_LEVEL
    direct = correlation([1.0, 2, 3, 4], [1.0, 3, 2, 4], "spearman").statistic
    assert statistic_value("spearman", [1.0, 2, 3, 4], [1.0, 3, 2, 4]) == pytest.approx(direct)
