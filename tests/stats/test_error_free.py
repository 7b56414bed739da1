"""Metrics as error-free detectors (WMT26 subtask 3): the gold labels (ESA ≥ 85 and no span; MQM 0),
the PR curve and average precision (against scikit-learn's, and by hand), the best-F1 threshold, the
chance line, groups by domain, and ``meta``'s text, JSON and LaTeX."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.cli import main
from bleu_core.evaluation.error_free import (
    ESA_ERROR_FREE,
    error_free_detection,
    error_free_labels,
    pr_curve,
)
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.study.model import Criterion, Rating, Segment, Study
from bleu_core.study.spans import ErrorSpan


def _esa_study() -> Study:
    segments = (
        Segment("1", domain="news"),
        Segment("2", domain="news"),
        Segment("3", domain="speech"),
    )
    texts = {"A": ["a b", "c d", "e f"], "B": ["a x", "c d", "e g"]}
    scores = {("A", "1"): 90, ("A", "2"): 85, ("A", "3"): 84, ("B", "1"): 100, ("B", "2"): 95}
    ratings = tuple(Rating(s, seg, "r1", None, "esa", v) for (s, seg), v in scores.items())
    # B's segment 1 scores 100 but has a span; missing spans count too (A's segment 2 is clean)
    spans = (ErrorSpan("B", "1", "r1", "target", 2, 3, "Error", "Minor"),)
    return Study("toy", segments, {"ref": ["a b", "c d", "e f"]}, texts,
                 criteria={"esa": Criterion("esa", scale=(0, 100))}, ratings=ratings,
                 error_spans=spans)  # fmt: skip


def test_esa_labels_need_85_and_no_span() -> None:
    gold = error_free_labels(_esa_study(), ["A", "B"])
    # A: 90 → 1, 85 → 1 (≥ 85), 84 → 0; B: 100 with a span → 0, 95 → 1, segment 3 unrated → NaN
    assert np.array_equal(gold.labels, np.array([[1, 1, 0], [0, 1, np.nan]]), equal_nan=True)
    assert gold.rule == f"ESA ≥ {ESA_ERROR_FREE:g} and no error span"


def test_mqm_labels_are_score_zero(ted_en_de) -> None:
    gold = error_free_labels(ted_en_de, ted_en_de.machine_systems)
    scores = ted_en_de.segment_scores("mqm")[: len(ted_en_de.machine_systems)]
    rated = ~np.isnan(scores)
    assert np.array_equal(gold.labels[rated] == 1, scores[rated] == 0)


def test_a_study_without_esa_or_mqm_is_refused() -> None:
    study = Study("x", (Segment("1"),), {"ref": ["a"]}, {"A": ["a"]})
    with pytest.raises(StatsInputError, match="error-free detection needs ESA or MQM ratings"):
        error_free_labels(study, ["A"])


def test_pr_curve_by_hand_with_ties() -> None:
    # scores 3, 2, 2, 1 with labels 1, 1, 0, 0: thresholds 3 (P 1, R 1/2), 2 (P 2/3, R 1), 1 (P 1/2, R 1)
    curve = pr_curve(np.array([2.0, 3.0, 1.0, 2.0]), np.array([0, 1, 0, 1]))
    assert curve.thresholds.tolist() == [3.0, 2.0, 1.0]
    assert curve.precision.tolist() == [1.0, 2 / 3, 0.5]
    # AP = 1/2 · 1 + 1/2 · 2/3 = 5/6; F1 at 2: 2·(2/3)/(5/3) = 0.8 beats 2/3 at 3
    assert curve.average_precision == pytest.approx(5 / 6, abs=1e-15)
    assert (curve.best_threshold, curve.best_f1) == (2.0, pytest.approx(0.8, abs=1e-15))
    assert curve.chance == 0.5 and (curve.n, curve.n_error_free) == (4, 2)


def test_no_error_free_translation_leaves_the_summaries_undefined() -> None:
    curve = pr_curve(np.array([1.0, 2.0]), np.array([0, 0]))
    assert np.isnan(curve.average_precision) and curve.chance == 0.0
    with pytest.raises(StatsInputError, match="two 1-D arrays of the same length"):
        pr_curve(np.array([1.0]), np.array([0, 1]))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=40))
def test_average_precision_is_scikit_learns(pairs) -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    scores = np.array([s for s, _ in pairs], dtype=float)
    labels = np.array([int(b) for _, b in pairs])
    curve = pr_curve(scores, labels)
    if labels.sum() == 0:
        assert np.isnan(curve.average_precision)
        return
    assert curve.average_precision == pytest.approx(
        metrics.average_precision_score(labels, scores), abs=1e-12
    )
    precision, recall, thresholds = metrics.precision_recall_curve(labels, scores)
    # scikit-learn lists thresholds from the lowest; its last point is (P 1, R 0)
    assert curve.thresholds.tolist() == thresholds[::-1].tolist()
    assert curve.precision == pytest.approx(precision[:-1][::-1], abs=1e-12)
    assert curve.recall == pytest.approx(recall[:-1][::-1], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=30))
def test_best_threshold_maximises_f1_of_score_at_least_threshold(pairs) -> None:
    scores = np.array([s for s, _ in pairs], dtype=float)
    labels = np.array([int(b) for _, b in pairs])
    curve = pr_curve(scores, labels)
    if labels.sum() == 0:
        return

    def f1(t: float) -> float:
        tp = float(((scores >= t) & (labels == 1)).sum())
        predicted = float((scores >= t).sum())
        p, r = tp / predicted, tp / labels.sum()
        return 2 * p * r / (p + r) if p + r else 0.0

    assert curve.best_f1 == pytest.approx(max(f1(t) for t in set(scores.tolist())), abs=1e-12)
    assert f1(curve.best_threshold) == pytest.approx(curve.best_f1, abs=1e-12)
    assert 0.0 <= curve.average_precision <= 1.0 and curve.average_precision >= 0.0


class _Table:
    def __init__(self, name: str, segment: np.ndarray | None, higher: bool = True) -> None:
        self.name, self.systems, self._segment, self._higher = name, ("A", "B"), segment, higher

    def oriented_segment(self) -> np.ndarray | None:
        if self._segment is None:
            return None
        return self._segment if self._higher else -self._segment


def test_detection_per_domain_and_orientation() -> None:
    study = _esa_study()
    good = np.array([[3.0, 3.0, 0.0], [0.0, 3.0, 9.0]])  # ranks every error-free item first
    tables = {
        "M": _Table("M", good),
        "TER": _Table("TER", -good, higher=False),
        "S": _Table("S", None),
    }
    _, rows, notes = error_free_detection(study, tables, ["A", "B"])
    by = {(r.metric, r.group): r.curve for r in rows}
    assert by["M", "all"].average_precision == 1.0 and by["M", "all"].n == 5
    assert by["TER", "all"].average_precision == 1.0  # negated: lower is better
    assert by["M", "domain news"].n == 4 and by["M", "domain speech"].n == 1
    assert by["M", "domain news"].chance == 0.75
    assert notes == ["S: no segment scores, not a detector"]


def test_meta_prints_the_section_in_text_json_and_latex(capsys) -> None:
    base = ["meta", "demo:ted-en-de", "--n-resamples", "20", "--statistics", "none"]
    assert main([*base, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)["error_free"]
    assert data["rule"] == "MQM score 0 (no error)"
    rows = {(r["metric"], r["group"]): r for r in data["rows"]}
    assert set(rows) == {("BLEU", "all"), ("chrF", "all")}
    curve = rows["chrF", "all"]["curve"]
    assert len(curve["threshold"]) == len(curve["precision"]) == len(curve["recall"])
    assert 0 < rows["BLEU", "all"]["chance"] < 1
    assert main(base) == 0
    assert (
        "error-free detection (WMT26 subtask 3; error-free: MQM score 0" in capsys.readouterr().out
    )
    latex = ["meta", "demo:ted-en-de", "--n-resamples", "20", "--statistics", "pearson", "--latex"]
    assert main(latex) == 0
    assert "Metrics as error-free detectors" in capsys.readouterr().out
