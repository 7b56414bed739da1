"""Metrics ranked by WMT's tau-like (``kendall-wmt``) and by Spearman: the values
are the direct computations, the criterion's rule travels with the ranking (text, JSON), and both
get a chance line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bleu_core.cli.ranking_command import format_rankings
from bleu_core.evaluation.clusters import rank_metrics, study_rankings
from bleu_core.evaluation.correlation import kendall_wmt
from bleu_core.evaluation.tau_like import tau_like_counts, tau_like_rule
from bleu_core.maths.correlation import correlation
from bleu_core.metrics.study_scores import MetricTable
from bleu_core.study import Criterion, Rating, Segment, Study


def scored(seed: int = 3, k: int = 6, s: int = 30):
    """Human DA-like scores and three metrics: close to them, noisy, and one with many ties."""
    rng = np.random.default_rng(seed)
    human = rng.integers(0, 101, size=(k, s)).astype(float)
    metrics = {
        "good": human + rng.normal(0, 10, human.shape),
        "noisy": human + rng.normal(0, 60, human.shape),
        "ties": np.round(human / 50),
    }
    names = tuple(f"S{i}" for i in range(k))
    tables = {
        n: MetricTable(n, names, m.mean(axis=1), m, True, "computed") for n, m in metrics.items()
    }
    return human, metrics, tables


def test_kendall_wmt_ranking_values_are_wmts_tau_like():
    human, metrics, tables = scored()
    r = rank_metrics(tables, human.mean(1), human, "kendall-wmt", n_resamples=100, seed=4)
    values = {row.metric: row for row in r.rows}
    for name, m in metrics.items():
        direct = kendall_wmt(m, human, 25.0)  # WMT's 25 points without a stated rule
        assert values[name].statistic == pytest.approx(direct.statistic)
        assert values[name].n == direct.n
        low, high = values[name].confidence_interval
        assert low <= values[name].statistic <= high
    assert r.rows[0].metric == "good" and r.level == "segment"
    assert r.rows[0].rank == 1 and r.rows[-1].rank > 1  # the good metric is separated


def test_kendall_wmt_ranking_uses_the_rule_and_selecting_scores_given():
    human, metrics, tables = scored(seed=8)
    z = (human - 50) / 30 + np.random.default_rng(1).normal(0, 0.5, human.shape)
    rule = tau_like_rule("da_z", None, raw_da="da")
    r = rank_metrics(
        tables, z.mean(1), z, "kendall-wmt", n_resamples=0, tau_like=rule, select=human
    )
    for row in r.rows:
        c, d, _ = tau_like_counts(metrics[row.metric], z, 25.0, human)
        assert row.statistic == pytest.approx((c.sum() - d.sum()) / (c.sum() + d.sum()))
    assert r.extra["tau_like"]["select"] == "da"
    assert "ordered by da_z where it agrees" in r.extra["tau_like"]["said"]


def toy_study(criterion: Criterion, human: np.ndarray) -> Study:
    k, s = human.shape
    return Study(
        name="toy",
        segments=tuple(Segment(str(i)) for i in range(s)),
        references={"ref": ["a b c"] * s},
        systems={f"S{i}": ["a b"] * s for i in range(k)},
        criteria={criterion.name: criterion},
        ratings=tuple(
            Rating(f"S{i}", str(j), None, None, criterion.name, float(human[i, j]))
            for i in range(k)
            for j in range(s)
        ),
    )


def test_study_rankings_say_the_criterions_rule_with_a_chance_line():
    human, _, tables = scored(seed=5)
    mqm = -np.round(human / 20)  # MQM-like: 0 to -5
    study = toy_study(Criterion("mqm"), mqm)
    (r,) = study_rankings(study, tables, statistics=["kendall-wmt"], n_resamples=50, seed=6)
    assert r.extra["tau_like"]["threshold"] == 1.0 and r.extra["tau_like"]["units"] == "MQM point"
    chance = r.extra["chance"]["good"]
    assert chance["constant"] == -1.0 and chance["seed"] == 6
    assert chance["n_permutations"] == 200
    out = r.to_dict()
    assert out["tau_like"]["threshold"] == 1.0 and "tau_like_select" not in out
    json.dumps(out, allow_nan=False)  # strict JSON
    text = format_rankings([r])
    assert "pairs with |Δmqm| ≥ 1 MQM point (one minor error" in text
    assert "200 permutations, seed 6" in text


def test_spearman_ranks_by_the_system_scores_rank_correlation():
    human, metrics, tables = scored(seed=2, k=8)
    r = rank_metrics(tables, human.mean(1), None, "spearman", n_resamples=50, seed=2)
    for row in r.rows:
        direct = correlation(metrics[row.metric].mean(1), human.mean(1), "spearman")
        assert row.statistic == pytest.approx(direct.statistic)
        assert row.confidence_interval is not None


def test_meta_latex_prints_the_rankings_with_their_baselines(capsys):
    from bleu_core.cli import main

    argv = ["meta", "demo:ted-en-de", "--criteria", "mqm", "--metrics", "BLEU,chrF"]
    assert (
        main([*argv, "--statistics", "spearman,kendall-wmt", "--n-resamples", "20", "--latex"]) == 0
    )
    tex = capsys.readouterr().out
    assert tex.startswith("\\begin{table}") and "mqm Spearman & mqm WMT tau-like" in tex
    assert "\\textit{constant metric} & -- & -1.000" in tex
    assert "pairs with |Δmqm| ≥ 1 MQM point" in tex and "seed 12345" in tex


def test_meta_latex_needs_rankings():
    from bleu_core.cli.ranking_command import print_latex
    from bleu_core.evaluation import StatsInputError

    with pytest.raises(StatsInputError, match=r"--latex prints the rankings: give --statistics"):
        print_latex([], "toy")
