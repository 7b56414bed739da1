"""Metric ranking's error-free detection section (WMT26 subtask 3) under AppTest on the TED en-de demo
(Apache-2.0, Google's MQM: error-free = MQM score 0): the table equals
:func:`bleu_core.evaluation.error_free.error_free_detection` on the same metric scores, the PR chart is drawn,
and a study without ESA or MQM says what is missing."""

from __future__ import annotations

import pytest
from app_runs import start_app as start

from bleu_core.evaluation.error_free import error_free_detection
from bleu_core.metrics.study_scores import study_metric_scores
from bleu_core.study.model import Criterion, Rating, Segment, Study
from ui.app import state as K


def _section(at):
    return next(d.value for d in at.dataframe if "average precision" in d.value.columns)


def test_the_section_equals_the_library(ted_en_de) -> None:
    at = start(
        "metric_ranking",
        **{K.RANK_METRICS: ["chrF", "NIST"], K.RANK_STATISTICS: ["pearson"], K.N_RESAMPLES: 20},
    )
    frame = _section(at).set_index("metric")
    tables = study_metric_scores(ted_en_de, ["chrF", "NIST"], systems=ted_en_de.machine_systems)
    _, rows, _ = error_free_detection(ted_en_de, tables, ted_en_de.machine_systems)
    for row in rows:
        assert frame.loc[row.metric, "average precision"] == pytest.approx(
            row.curve.average_precision, abs=1e-12
        )
        assert frame.loc[row.metric, "chance"] == pytest.approx(row.curve.chance, abs=1e-12)
    assert any("Metrics as error-free detectors" in c.proto.spec for c in at.get("vega_lite_chart"))
    assert at.selectbox(key=K.RANK_ERROR_FREE_GROUP).value == "all"


def test_a_study_without_esa_or_mqm_says_so() -> None:
    segments = tuple(Segment(str(i)) for i in range(4))
    texts = {s: [f"a b {s} {i}" for i in range(4)] for s in ("A", "B", "C")}
    ratings = tuple(
        Rating(s, str(i), "r", None, "da", float(10 * k + i))
        for k, s in enumerate(texts)
        for i in range(4)
    )
    study = Study("da-only", segments, {"ref": ["a b c d"] * 4}, texts,
                  criteria={"da": Criterion("da")}, ratings=ratings)  # fmt: skip
    at = start(
        "metric_ranking",
        study,
        **{K.RANK_METRICS: ["chrF", "NIST"], K.RANK_STATISTICS: ["pearson"]},
    )
    assert any("Error-free detection needs ESA or MQM ratings" in c.value for c in at.caption)
