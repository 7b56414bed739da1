"""The Metric ranking page's context: chance lines, degenerate thresholds said, the human
ceiling, explainers with the ε slider, and the two-pair release view — under AppTest on the TED en-de
demo (Apache-2.0, Google's MQM)."""

from __future__ import annotations

import numpy as np
import pytest
from app_runs import start_app as start

from bleu_core.evaluation.clusters import study_rankings
from bleu_core.metrics.study_scores import study_metric_scores
from ui.app import state as K


@pytest.fixture(scope="module")
def page():
    at = start(
        "metric_ranking",
        **{
            K.RANK_METRICS: ["BLEU", "chrF", "NIST"],
            K.RANK_CRITERIA: ["mqm"],
            K.N_RESAMPLES: 50,
        },
    )
    return at


def test_degenerate_acc_eq_is_said_and_chance_lines_are_shown(page, ted_en_de):
    warnings = " ".join(w.value for w in page.warning)
    assert "makes every pair a tie" in warnings and "BLEU" in warnings
    seed = int(page.session_state[K.SEED])
    tables = study_metric_scores(
        ted_en_de, ["BLEU", "chrF", "NIST"], systems=ted_en_de.machine_systems
    )
    (expected,) = study_rankings(
        ted_en_de, tables, criteria=["mqm"], statistics=["acc-eq"], n_resamples=0, seed=seed
    )
    frames = [d.value for d in page.dataframe if "above chance" in d.value.columns]
    assert len(frames) == 2  # pairwise accuracy and acc*_eq
    acc = next(f for f in frames if np.allclose(f["value"], f["constant metric"]))
    row = acc.set_index("metric").loc[
        "chrF"
    ]  # BLEU's segment scores are the sidebar's sentence BLEU
    assert row["random metric"] == pytest.approx(expected.extra["chance"]["chrF"]["random"])
    assert not acc["above chance"].any()
    captions = " ".join(c.value for c in page.caption).replace("\\", "")  # shown md-escaped
    assert "Human ceiling: n/a" in captions and "single mqm rating" in captions
    assert f"seed {seed}" in captions


def test_explainers_and_the_epsilon_slider(page):
    text = " ".join(m.value for m in page.markdown)
    assert "Pairwise accuracy** counts" in text and "Soft pairwise accuracy** does not ask" in text
    assert "**A cluster**" in text
    captions = " ".join(c.value for c in page.caption)
    assert "the humans' p-value that" in captions and "Pairwise accuracy would count it" in captions
    slider = page.select_slider(key=K.RANK_EPSILON)
    slider.set_value(slider.options[-1]).run()
    assert not page.exception
    caption = next(c.value for c in page.caption if c.value.startswith("At ε = "))
    assert "by both" in caption and "the constant metric's" in caption
    assert "pairs concordant 0, discordant 0," in caption  # the largest ε: every pair a BLEU tie


def test_release_view_on_both_demos(page):
    page.toggle(key=K.RANK_RELEASE).set_value(True).run()
    assert not page.exception, [e.value for e in page.exception]
    frame = next(d.value for d in page.dataframe if "global" in d.value.columns)
    assert set(frame["metric"]) == {"BLEU", "chrF"}
    assert any(c.startswith("en-de ") for c in frame.columns)
    assert any(c.startswith("zh-en ") for c in frame.columns)


def test_the_release_of_the_open_study_is_offered_when_it_is_on_disk(ted_en_de):
    from pathlib import Path

    from bleu_core.study import load_study
    from ui.analysis.ranking_extras import release_of

    assert release_of(ted_en_de) is None  # a demo: one pair, no release on disk
    wmt24 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"
    if not wmt24.exists():
        pytest.skip("the WMT24 release is not beside the repository")
    study = load_study(wmt24, pair="en-ja").study
    assert release_of(study) == (str(wmt24), ["en-hi", "en-ja"])


def test_a_second_criterion_gives_a_human_ceiling(page, ted_en_de):
    from bleu_core.evaluation.ceiling import human_ceiling

    page.selectbox(key=K.RANK_CEILING_OTHER).set_value("mqm_fluency").run()
    assert not page.exception, [e.value for e in page.exception]
    frame = next(
        d.value
        for d in page.dataframe
        if "human ceiling" in d.value.columns and "ranking" in d.value.columns
    )
    row = frame.set_index("ranking").loc["mqm · pairwise accuracy"]
    systems = tuple(s for s in ted_en_de.machine_systems)
    expected = human_ceiling(
        ted_en_de, "mqm", "pairwise-accuracy", systems=systems, other="mqm_fluency"
    )
    assert row["human ceiling"] == pytest.approx(expected.statistic)
    assert "mqm_fluency against mqm" in row["note"]
