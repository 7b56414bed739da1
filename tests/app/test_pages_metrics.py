"""AppTest of the Metrics page on a small slice of the TED en-de demo (MQM ratings, 4 systems, 40 segments)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from app_runs import page_alone
from streamlit.testing.v1 import AppTest

from bleu_core.study import Study
from ui.app import state as K
from ui.app.analysis_cache import PAGE_DEFAULT_METRICS

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "metrics.py")


def run_page(study: Study, **extra: object) -> AppTest:
    state = {K.STUDY: study, K.STUDY_KEY: "test:ted-slice-40", K.N_RESAMPLES: 50, K.SEED: 7}
    return page_alone(PAGE, {**state, **extra}, check=False)


def find_frame(at: AppTest, column: str):  # noqa: ANN201 - a pandas DataFrame
    """The first dataframe element with ``column`` (element order depends on which sections are shown)."""
    for element in at.dataframe:
        if column in element.value.columns:
            return element.value
    raise AssertionError(f"no dataframe with column {column!r}")


def test_page_renders_every_section(ted_four_systems: Study) -> None:
    at = run_page(ted_four_systems)
    assert not at.exception, at.exception
    # the first view: the quick metrics; Babych & Hartley's tables wait for their toggle
    first = find_frame(at, "oriented r")
    assert set(first["metric"]) == set(PAGE_DEFAULT_METRICS) == {"BLEU", "chrF", "NIST", "PER"}
    assert not any("BLEU (all refs)" in e.value.columns for e in at.dataframe)
    # tick the weighted metrics and switch the tables on: everything is computed and shown
    at.multiselect(key=K.MET_METRICS).set_value(
        ["BLEU", "chrF", "NIST", "PER", "recall (tf.idf)", "recall (S-score)", "F (tf.idf)"]
    )
    at.toggle(key=K.MET_BABYCH_ON).set_value(True).run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Metrics compared"
    subheaders = [s.value for s in at.subheader]
    assert subheaders[:2] == ["Correlation with human judgment", "Same data, many BLEUs"]
    assert "Parameter explorer" in subheaders
    frame = find_frame(at, "oriented r")
    assert set(frame["metric"]) == {
        "BLEU",
        "chrF",
        "NIST",
        "PER",
        "recall (tf.idf)",
        "recall (S-score)",
        "F (tf.idf)",
    }
    assert set(frame["criterion"]) == {"mqm", "mqm_accuracy", "mqm_fluency"}
    assert {"system", "segment"} == set(frame["level"])
    system_rows = frame[(frame["level"] == "system") & (frame["method"] == "pearson")]
    assert system_rows["n"].eq(4).all()
    # the many-BLEUs table: one row per system, one column per implementation
    pivot = find_frame(at, "NLTK corpus_bleu")
    assert list(pivot.index) == list(ted_four_systems.systems)
    assert pivot.shape[1] == 4
    assert len(at.error) == 0
    # the system score table and the Babych tables are there too
    assert list(find_frame(at, "PER")["system"]) == list(ted_four_systems.systems)
    babych = find_frame(at, "BLEU (all refs)")
    assert "recall (tf.idf) [ref]" in babych.columns


def test_explorer_reports_best_variant_and_errors(ted_four_systems: Study) -> None:
    at = run_page(ted_four_systems)
    at.multiselect(key=f"{K.MET_EXPLORER_CHOICES}_sm").set_value(["exp", "floor", "add-k"]).run()
    assert not at.exception
    assert any("Best segment-level agreement with mqm" in s.value for s in at.success)
    at.multiselect(key=f"{K.MET_EXPLORER_CHOICES}_sm").set_value([]).run()
    assert any("tick at least one value for smooth" in e.value for e in at.error)


def test_williams_test_and_metric_choice(ted_four_systems: Study) -> None:
    at = run_page(ted_four_systems, **{K.MET_METRICS: ["BLEU", "chrF"]})
    assert not at.exception
    williams = find_frame(at, "r between")
    assert list(williams["level"]) == ["segment", "system"]
    assert williams.loc[0, "n"] > 0
    at.multiselect(key=K.MET_METRICS).set_value([]).run()
    assert any("Pick at least one metric" in i.value for i in at.info)


def test_williams_frame_orients_error_metrics(ted_four_systems: Study) -> None:
    from bleu_core.metrics.registry import score_study
    from ui.metrics.charts import williams_frame

    scores = score_study(ted_four_systems, ["BLEU", "PER"])
    human_seg = ted_four_systems.segment_scores("mqm")
    human_sys = list(ted_four_systems.system_scores("mqm").values())
    frame = williams_frame(scores, "BLEU", "PER", human_seg, human_sys, True)
    seg = frame[frame["level"] == "segment"].iloc[0]
    raw_per = np.corrcoef(*_pairs(scores["PER"].segment, human_seg))[0, 1]
    assert seg["r second"] == pytest.approx(
        -raw_per
    )  # PER is an error rate: negated before the test
    assert seg["r between"] > 0  # oriented BLEU and oriented PER agree with each other


def _pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = ~(np.isnan(a) | np.isnan(b))
    return a[ok], b[ok]
