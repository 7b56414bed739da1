"""Metrics declare themselves: every registry metric is a ``MetricSpec`` of its own module, and the
registry's ``score_study`` works for any spec through the one interface (statistics, stats → score,
resampling by ``counts @ stats``)."""

from __future__ import annotations

import pickle
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.errors import BleuOptionError
from bleu_core.metrics import base, registry
from bleu_core.metrics.base import MetricSpec, MetricStatistics, ScoringContext, assemble
from bleu_core.metrics.registry import METRICS, chrf_options, metric_inputs_key, score_study
from bleu_core.study import Segment, Study

REFS = {"R": ["the storm hit the coast .", "many houses lost roofs .", "stay home ."]}
SYSTEMS = {
    "S1": ["the storm hit the coast .", "houses lost their roofs .", "stay at home ."],
    "S2": ["a storm hit coast", None, "people stay home"],
}


def _study() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(str(i), doc_id="d") for i in range(3)),
        references=REFS,
        systems=SYSTEMS,
    )


@pytest.fixture(scope="module")
def every_metric() -> dict[str, base.MetricScores]:
    return score_study(_study(), list(METRICS))


def test_each_metric_is_declared_beside_its_maths() -> None:
    modules = {spec.name: spec.statistics.__module__ for spec in METRICS.values()}
    assert modules["BLEU"] == "bleu_core.metrics.bleu_metric"
    assert modules["chrF"] == modules["chrF++"] == "bleu_core.metrics.chrf"
    assert modules["TER"] == "bleu_core.metrics.ter"
    assert modules["NIST"] == "bleu_core.metrics.nist"
    assert modules["PER"] == "bleu_core.metrics.per"
    assert {modules[n] for n in METRICS if METRICS[n].family.startswith("weighted:")} == {
        "bleu_core.metrics.weighted"
    }
    assert "registry" not in " ".join(s.from_stats.__module__ for s in METRICS.values())


def test_directions_and_settings_come_from_the_specs() -> None:
    lower = sorted(n for n, s in METRICS.items() if not s.higher_is_better)
    assert lower == ["PER", "TER"]
    # chrF and TER never tokenise words; only the weighted metrics read single_reference
    assert metric_inputs_key("TER", tokenize="intl", lowercase=True) == ("TER", True)
    assert metric_inputs_key("F (S-score)", single_reference="R") == (
        "F (S-score)",
        "13a",
        False,
        "R",
    )
    assert chrf_options("chrF").word_order == 0
    with pytest.raises(BleuOptionError, match="'TER' is not a chrF metric"):
        chrf_options("TER")


def test_scores_pickle_for_the_app_cache(every_metric) -> None:  # noqa: ANN001
    for name, scores in every_metric.items():
        back = pickle.loads(pickle.dumps(scores))
        np.testing.assert_array_equal(back.observed(), scores.observed(), err_msg=name)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=3, max_size=3).filter(any))
def test_resampling_is_the_scores_of_summed_statistics(every_metric, weights) -> None:  # noqa: ANN001
    counts = np.array([weights], dtype=np.float64)
    for name, scores in every_metric.items():
        sums = np.einsum("s,ksf->kf", counts[0], scores.stats)
        expected = np.asarray(scores.from_stats(sums), dtype=np.float64)
        np.testing.assert_array_equal(scores.resampled(counts)[0], expected, err_msg=name)


def _length_statistics(ctx: ScoringContext, spec: MetricSpec) -> MetricStatistics:
    per_system = {}
    for system in ctx.systems:
        idx = ctx.present(system)
        rows = np.array([[len(ctx.study.systems[system][i].split()), 1.0] for i in idx])
        per_system[system] = (idx, rows, rows[:, 0])
    return assemble(ctx, per_system, 2)


def _mean_length(stats: np.ndarray) -> np.ndarray:
    return stats[..., 0] / stats[..., 1]


def _length_from_stats(ctx: ScoringContext, spec: MetricSpec) -> partial[np.ndarray]:
    return partial(_mean_length)


def test_a_new_metric_is_one_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    words = MetricSpec(
        "words", True, "mean words per segment", "words", _length_statistics, _length_from_stats
    )
    monkeypatch.setitem(registry.METRICS, "words", words)
    got = score_study(_study(), ["words"])["words"]
    assert got.system_scores() == {"S1": (6 + 5 + 4) / 3, "S2": (4 + 3) / 2}  # S2 has no segment 2
    assert np.isnan(got.segment[1, 1]) and got.stats[1, 1].tolist() == [0.0, 0.0]
    assert words.inputs_key(tokenize="zh", lowercase=True, single_reference=None) == (
        "words",
        "zh",
        True,
    )
