"""One name per statistic (:mod:`bleu_core.evaluation.statistic_names`): every ranking statistic has an
identifier and a shown name, the older spellings reach the same identifier on the command line, and the
text, LaTeX and multi-pair tables show the shown name."""

from __future__ import annotations

import numpy as np
import pytest

from bleu_core.cli.ranking_command import format_rankings, parse_statistics
from bleu_core.errors import StatsInputError
from bleu_core.evaluation.clusters import STATISTICS, rank_metrics
from bleu_core.evaluation.ranking_latex import findings_latex
from bleu_core.evaluation.ranking_strategies import STRATEGIES
from bleu_core.evaluation.statistic_names import (
    ALIASES,
    STATISTIC_NAMES,
    TIE_VARIANTS,
    statistic_identifier,
    statistic_name,
)
from bleu_core.evaluation.ties import VARIANTS
from bleu_core.metrics.study_scores import MetricTable


def test_every_ranking_statistic_has_one_shown_name() -> None:
    assert set(STATISTIC_NAMES) == set(STRATEGIES)
    shown = list(STATISTIC_NAMES.values())
    assert len(set(shown)) == len(shown)  # no two statistics shown alike
    assert set(ALIASES.values()) <= set(STATISTIC_NAMES)
    assert set(TIE_VARIANTS) == {n for n, s in STRATEGIES.items() if hasattr(s, "variants")}
    assert set(TIE_VARIANTS.values()) <= set(VARIANTS)


@pytest.mark.parametrize(
    ("spelling", "identifier"),
    [
        ("acc23", "acc-eq"),
        ("acc*_eq", "acc-eq"),
        ("ACC_EQ", "acc-eq"),
        ("tau23", "tau-eq"),
        ("tau*_eq", "tau-eq"),
        ("SPA", "soft-pairwise-accuracy"),
        ("soft-pairwise-accuracy", "soft-pairwise-accuracy"),
        ("WMT tau-like", "kendall-wmt"),
        ("tau-like", "kendall-wmt"),
        ("Kendall tau-b", "kendall"),
    ],
)
def test_older_spellings_and_shown_names_mean_the_identifier(
    spelling: str, identifier: str
) -> None:
    assert statistic_identifier(spelling) == identifier
    assert parse_statistics(f"pearson, {spelling}") == ["pearson", identifier]


def test_an_unknown_statistic_is_refused_with_the_choices() -> None:
    with pytest.raises(StatsInputError, match=r"unknown statistic 'acc'; choose from: pairwise"):
        statistic_identifier("acc")
    with pytest.raises(
        StatsInputError,
        match=r"unknown statistic\(s\) 'bleu'; choose from: .* \(or none; also accepted: acc23,",
    ):
        parse_statistics("pearson,bleu")


def test_tables_show_the_shown_name_and_json_keeps_the_identifier() -> None:
    rng = np.random.default_rng(3)
    human = rng.normal(size=(6, 20))
    segment = {n: human + rng.normal(0, s, human.shape) for n, s in (("good", 0.1), ("noisy", 2.0))}
    tables = {
        n: MetricTable(n, tuple("ABCDEF"), m.mean(1), m, True, "attached")
        for n, m in segment.items()
    }
    ranking = rank_metrics(tables, human.mean(1), human, "acc-eq", n_resamples=0, seed=1)
    text = format_rankings([ranking])
    assert text.startswith("acc*_eq (segment level)") and "acc-eq" not in text
    assert "acc*_eq" in findings_latex([ranking]).replace("\\", "")
    assert ranking.to_dict()["statistic"] == "acc-eq"
    assert statistic_name("acc-eq") == "acc*_eq" and "acc-eq" in STATISTICS
