"""The Significance page with metrics other than BLEU: an attached metric with segment scores
is resampled like BLEU (its corpus score is the mean of its segment scores), one with system scores only
is listed as not testable, and chrF computed here can be chosen.

The scores are generated here for a slice of the TED en-de demo (4 systems × 40 segments, Apache-2.0):
an MTME-layout ``seg`` file (``None`` where a system has no translation) and a ``sys`` file whose scores
are deliberately *not* the segment means (so the test sees which one is resampled), and a ``sys``-only
metric. The p-values on the page are checked against a direct numpy computation of sacrebleu's recipes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from app_runs import page_alone
from streamlit.testing.v1 import AppTest

from bleu_core.study import Study
from bleu_core.study.demo import load_demo
from bleu_core.study.metric_scores import (
    attach_metric_scores,
    merge_metric_scores,
    parse_metric_scores,
)
from ui.app import state as K
from ui.app.metric_tables import metric_scores_digest, study_key_with_metric_scores
from ui.app.numbers import format_p

PAGE = Path(__file__).resolve().parents[2] / "pages" / "significance.py"
METRIC = "COMET-20-refA"
SYSTEM_ONLY = "BLEURT-sys"
N_SEGMENTS, SEED, RESAMPLES, TRIALS = 40, 3, 60, 300


def with_scores(study: Study) -> tuple[Study, np.ndarray]:
    """The study with the generated metrics attached, and the segment scores (systems × segments)."""
    rng = np.random.default_rng(17)
    seg_lines, sys_lines, only_lines = [], [], []
    matrix = np.full((len(study.systems), study.n_segments), np.nan)
    for k, system in enumerate(study.systems):
        for j, text in enumerate(study.systems[system]):
            if text is None:
                seg_lines.append(f"{system}\tNone")
                continue
            matrix[k, j] = round(0.7 + 0.03 * k + float(rng.normal(0, 0.05)), 5)
            seg_lines.append(f"{system}\t{matrix[k, j]}")
        sys_lines.append(f"{system}\t{np.nanmean(matrix[k]) + 1.0:.6f}")  # not the segment mean
        only_lines.append(f"{system}\t{0.5 + 0.01 * k}")
    files = {
        f"{METRIC}.seg.score": seg_lines,
        f"{METRIC}.sys.score": sys_lines,
        f"{SYSTEM_ONLY}.sys.score": only_lines,
    }
    parsed = [
        item
        for name, lines in files.items()
        for item in parse_metric_scores("\n".join(lines) + "\n", name, study)
    ]
    return attach_metric_scores(study, list(merge_metric_scores(parsed).values())), matrix


@pytest.fixture(scope="module")
def scored() -> tuple[Study, np.ndarray]:
    full = load_demo("ted-en-de")
    return with_scores(full.subset(list(full.systems)[:4], N_SEGMENTS))


def run(study: Study, metric: str) -> AppTest:
    key = study_key_with_metric_scores("test:ted-slice-sig", metric_scores_digest(study))
    state = {
        K.STUDY: study,
        K.STUDY_KEY: key,
        K.N_RESAMPLES: RESAMPLES,
        K.SEED: SEED,
        K.SIG_TRIALS: TRIALS,
        K.SIG_BLOCKS: 4,
        K.SIG_METRIC: metric,
    }
    return page_alone(PAGE, state)


def frame_with(at: AppTest, *columns: str, without: str | None = None):
    for df in at.dataframe:
        value = df.value
        if set(columns) <= set(value.columns) and (without is None or without not in value.columns):
            return value
    raise AssertionError(f"no table with columns {columns}")


def chart_data(at: AppTest, title: str):
    """The data of the chart titled ``title`` (exact numbers: the tables on screen round p-values)."""
    import pyarrow as pa

    for chart in at.get("vega_lite_chart"):
        if json.loads(chart.proto.spec).get("title", {}).get("text") == title:
            return pa.ipc.open_stream(chart.proto.datasets[0].data.data).read_pandas()
    raise AssertionError(f"no chart titled {title!r}")


def test_an_attached_metric_is_resampled_as_the_mean_of_its_segment_scores(scored):
    study, matrix = scored
    at = run(study, METRIC)
    names = list(study.systems)
    assert METRIC in at.selectbox(key=K.SIG_METRIC).options
    assert SYSTEM_ONLY not in at.selectbox(key=K.SIG_METRIC).options
    captions = [c.value for c in at.caption]
    assert any(  # the name is shown Markdown-escaped
        c.replace("\\", "").startswith(f"Not testable: **{SYSTEM_ONLY}** (system-level scores only")
        for c in captions
    )
    assert any("the mean of its segment scores (MTME's convention" in c for c in captions)
    assert f"Bootstrap: {METRIC} · seed {SEED} · {RESAMPLES} resamples." in captions
    assert f"Approximate randomisation: {METRIC} · seed {SEED} · {TRIALS} trials." in captions

    # corpus score = mean of the segment scores (not the sys file's value, which is 1.0 higher)
    intervals = frame_with(at, "system", METRIC).set_index("system")
    for k, name in enumerate(names):
        assert intervals.loc[name, METRIC] == pytest.approx(np.nanmean(matrix[k]), abs=1e-12)

    # paired bootstrap p-values: sacrebleu's recipe on the resampled means, written out with numpy
    draws = np.random.default_rng(SEED).choice(N_SEGMENTS, size=(RESAMPLES, N_SEGMENTS))
    means = np.array([np.nanmean(row[draws], axis=1) for row in matrix])
    table = frame_with(at, "baseline", "CI low")
    assert len(table) == 6  # the table of every pair
    sacrebleu_p = table["p (sacrebleu)"]
    for system, baseline, shown in zip(
        table["system"], table["baseline"], sacrebleu_p, strict=True
    ):
        i, j = names.index(system), names.index(baseline)
        observed = np.nanmean(matrix[i]) - np.nanmean(matrix[j])
        magnitude = np.abs(means[i] - means[j])
        p = (np.sum(magnitude - magnitude.mean() > abs(observed)) + 1) / (RESAMPLES + 1)
        assert shown == format_p(p)  # sacrebleu's, beside the verdict's own p
    paired = chart_data(at, f"Paired bootstrap ({METRIC})")
    assert len(paired) == 12  # every ordered pair
    for row in paired.itertuples():
        i, j = names.index(row.row), names.index(row.column)
        observed = np.nanmean(matrix[i]) - np.nanmean(matrix[j])
        low, high = np.quantile(means[i] - means[j], [0.025, 0.975])
        assert row.difference == pytest.approx(observed, abs=1e-12)
        # the verdict is the 95 % interval's, and its own p says the same (issue 39)
        assert row.verdict == (">" if low > 0 else "<" if high < 0 else "~")
        assert (row.p < 0.05) == (row.verdict != "~")

    # approximate randomisation: every segment's two scores swapped with probability 1/2
    swaps = np.random.default_rng(SEED).integers(2, size=(TRIALS, N_SEGMENTS), dtype=bool)
    assert len(frame_with(at, "baseline", "verdict", without="CI low")) == 6
    ar = chart_data(at, "Approximate randomisation")
    assert len(ar) == 12
    for row in ar.itertuples():
        a, b = matrix[names.index(row.row)], matrix[names.index(row.column)]
        observed = np.nanmean(a) - np.nanmean(b)
        null = np.nanmean(np.where(swaps, a, b), axis=1) - np.nanmean(np.where(swaps, b, a), axis=1)
        p = (np.sum(np.abs(null) > abs(observed)) + 1) / (TRIALS + 1)
        assert row.difference == pytest.approx(observed, abs=1e-12)
        assert row.p == pytest.approx(p, abs=1e-12)
        # the verdict is read from that p-value at the page's alpha (0.05), never from an interval
        assert row.verdict == ("~" if p >= 0.05 else ">" if observed > 0 else "<")


def test_a_metric_computed_here_and_back_to_bleu(scored):
    study, _ = scored
    at = run(study, "chrF")
    assert "chrF" in frame_with(at, "system", "chrF").columns
    assert any(c.startswith("Bootstrap: chrF · seed 3") for c in (c.value for c in at.caption))
    at.selectbox(key=K.SIG_METRIC).set_value("BLEU").run()
    assert not at.exception, [e.value for e in at.exception]
    assert f"Bootstrap: seed {SEED} · {RESAMPLES} resamples." in [c.value for c in at.caption]


def test_a_stale_metric_choice_falls_back_to_bleu(scored):
    study, _ = scored
    at = run(study, "a metric of another study")
    assert at.selectbox(key=K.SIG_METRIC).value == "BLEU"
