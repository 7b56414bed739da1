"""Metric ranking's error-free detection per system set under AppTest: with the human translations
included, the table gives each metric's rows for the machine translations alone and with the human
translation, each equal to :func:`bleu_core.evaluation.error_free.error_free_by_system_set` on the page's
metric scores."""

from __future__ import annotations

import pytest
from app_runs import start_app as start

from bleu_core.evaluation.error_free import error_free_by_system_set, set_label
from bleu_core.metrics.study_scores import study_metric_scores
from bleu_core.study.model import Criterion, Rating, Segment, Study
from ui.app import state as K


def _study() -> Study:
    segments = tuple(Segment(str(i)) for i in range(6))
    names = ("A", "B", "C", "H")
    texts = {s: [f"the cat {s} sat on mat {i}" for i in range(6)] for s in names}
    # MQM 0 = error-free: H (the human translation) on every segment, the systems on some
    ratings = tuple(
        Rating(s, str(i), "r", None, "mqm", 0.0 if (s == "H" or (i + k) % 3 == 0) else -1.0 - i)
        for k, s in enumerate(names)
        for i in range(6)
    )
    return Study("humans", segments, {"ref": [f"the cat sat on the mat {i}" for i in range(6)]},
                 texts, criteria={"mqm": Criterion("mqm", scale=(-25, 0))}, ratings=ratings,
                 human_systems=frozenset({"H"}))  # fmt: skip


def test_each_system_set_has_its_rows() -> None:
    study = _study()
    metrics = {K.RANK_METRICS: ["chrF", "NIST"], K.RANK_STATISTICS: ["pearson"], K.N_RESAMPLES: 20}
    at = start("metric_ranking", study, **metrics, **{K.INCLUDE_HUMANS: True})
    frame = next(d.value for d in at.dataframe if "average precision" in d.value.columns)
    tables = study_metric_scores(study, ["chrF", "NIST"], systems=list(study.systems))
    _, by_set, _ = error_free_by_system_set(study, tables, list(study.systems))
    labels = [set_label(found) for found, _ in by_set]
    assert labels == ["3 systems, human translations out", "4 systems, human translations in"]
    assert list(frame["systems"]) == labels * 2  # chrF's two rows, then NIST's
    for found, rows in by_set:
        for row in rows:
            shown = frame[(frame["metric"] == row.metric) & (frame["systems"] == set_label(found))]
            assert shown["average precision"].item() == pytest.approx(
                row.curve.average_precision, abs=1e-12
            )
            assert shown["translations"].item() == row.curve.n
