"""In the app: metric scores computed elsewhere uploaded on the Study page, treated as a
metric by BLEU vs human, and ranked with BLEU and chrF on the Metric ranking page.

The score files are generated here for a slice of the TED en-de demo (4 systems × 40 segments): an
MTME-layout ``seg`` file whose scores follow the MQM ratings plus noise (so the metric agrees with the
humans better than BLEU), and its ``sys`` file (the mean of each system's segment scores).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from app_runs import start_app
from streamlit.testing.v1 import AppTest

from bleu_core.study import Study
from bleu_core.study.demo import load_demo
from ui.app import state as K
from ui.app.metric_tables import METRIC_SCORES_KEY_MARK

ROOT = Path(__file__).resolve().parents[2]
METRIC = "COMET-20-refA"


def score_files(study: Study) -> list[tuple[str, bytes]]:
    """``COMET-20-refA.seg.score`` and ``.sys.score`` in MTME's layout (SYSTEM<TAB>SCORE)."""
    rng = np.random.default_rng(17)
    mqm = study.segment_scores("mqm")  # minus the weighted error count: higher is better
    seg_lines, sys_lines = [], []
    for k, system in enumerate(study.systems):
        values = []
        for j, text in enumerate(study.systems[system]):
            if text is None:
                seg_lines.append(f"{system}\tNone")
                continue
            human = 0.0 if np.isnan(mqm[k, j]) else mqm[k, j]
            value = round(0.8 + 0.05 * human + float(rng.normal(0, 0.005)), 5)
            values.append(value)
            seg_lines.append(f"{system}\t{value}")
        sys_lines.append(f"{system}\t{np.mean(values):.6f}")
    return [
        (f"{METRIC}.seg.score", ("\n".join(seg_lines) + "\n").encode()),
        (f"{METRIC}.sys.score", ("\n".join(sys_lines) + "\n").encode()),
    ]


def app_with(study: Study) -> AppTest:
    state = {K.N_RESAMPLES: 60, K.SEED: 3}
    return start_app(study=study, key="test:ted-slice-40", label=None, timeout=180, **state)


def attach(at: AppTest, files: list[tuple[str, bytes]]) -> None:
    nonce = at.session_state[K.METRIC_UPLOAD_NONCE]
    uploader = at.file_uploader(key=K.METRIC_UPLOAD_PREFIX + str(nonce))
    uploader.set_value([(name, data, "text/plain") for name, data in files]).run()
    next(b for b in at.button if b.label == "Attach scores").click().run()
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture(scope="module")
def attached(ted_four_systems: Study) -> AppTest:
    at = app_with(ted_four_systems)
    attach(at, score_files(ted_four_systems))
    return at


def test_upload_attaches_the_metric_to_the_open_study(attached: AppTest) -> None:
    opened = attached.session_state[K.STUDY]
    assert list(opened.metric_scores) == [METRIC]
    assert opened.metric_scores[METRIC].levels == ("sys", "seg")
    # every cache follows: the study key carries the digest of the attached scores
    assert METRIC_SCORES_KEY_MARK in attached.session_state[K.STUDY_KEY]
    assert any(METRIC in s.value.replace("\\", "") for s in attached.success)  # md-escaped
    assert not attached.error
    names = [i["name"] for i in attached.session_state[K.STUDY_INPUTS]]
    assert f"{METRIC}.seg.score" in names  # recorded for the export zip


def test_ranking_page_ranks_the_metric_with_bleu_and_chrf(attached: AppTest) -> None:
    attached.session_state[K.RANK_METRICS] = ["BLEU", "chrF"]
    attached.session_state[K.RANK_CRITERIA] = ["mqm"]
    attached.switch_page("pages/metric_ranking.py").run()
    assert not attached.exception, [e.value for e in attached.exception]
    findings = attached.dataframe[0]
    frame = findings.value
    assert set(frame["metric"]) - {"human ceiling"} == {METRIC, "BLEU", "chrF"}  # + its ceiling row
    # the one set of systems every metric is ranked on is named above the tables
    said = [m.value for m in attached.markdown if m.value.startswith("**Every metric scores**")]
    assert said and "4 systems: Facebook-AI, " in said[0].replace("\\", ""), said  # md-escaped
    ranks = [c for c in frame.columns if c.endswith("· rank")]
    assert len(ranks) == 2  # system-level pairwise accuracy and segment-level acc*_eq
    seg_rank = next(c for c in ranks if "segment" in c)
    by_metric = dict(zip(frame["metric"], frame[seg_rank], strict=True))
    shown = frame[seg_rank.removesuffix(" · rank") + " [95% CI]"]  # "0.812 [0.790, 0.835]"
    assert all(re.fullmatch(r"\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]", v) for v in shown), list(shown)
    values = {m: float(v.split()[0]) for m, v in zip(frame["metric"], shown, strict=True)}
    assert values[METRIC] > max(values["BLEU"], values["chrF"])  # it follows MQM by construction
    assert by_metric[METRIC] == 1
    assert by_metric["BLEU"] > 1  # a cluster of its own: significantly worse than the metric
    # the BLEU row, and only it, is highlighted
    styles = findings.proto.arrow_data.styler.styles
    assert "background-color" in styles
    bleu_row = list(frame["metric"]).index("BLEU")
    assert f"row{bleu_row}" in styles
    other_row = list(frame["metric"]).index(METRIC)
    assert f"row{other_row}_" not in styles.replace(f"row{bleu_row}_", "")


def test_bleu_vs_human_with_the_attached_metric(attached: AppTest) -> None:
    attached.switch_page("pages/bleu_vs_human.py").run()
    attached.selectbox(key=K.BVH_METRIC).set_value(METRIC).run()
    assert not attached.exception, [e.value for e in attached.exception]
    opened = attached.session_state[K.STUDY]
    systems = list(opened.systems)
    metric = opened.metric_scores[METRIC].system_scores(opened)
    human = opened.system_scores("mqm")
    expected = np.corrcoef([metric[s] for s in systems], [human[s] for s in systems])[0, 1]
    shown = next(m for m in attached.metric if m.label.startswith("Pearson r · mqm"))
    assert shown.value == f"{expected:.3f}"  # the system-level fit is the attached metric's
    assert abs(expected - bleu_r(opened)) > 1e-3  # ...and not BLEU's
    subheaders = " ".join(h.value for h in attached.subheader)
    assert "Segment level" in subheaders


def bleu_r(study: Study) -> float:
    from bleu_core.metrics.registry import score_study

    bleu = score_study(study, ["BLEU"])["BLEU"].system_scores()
    human = study.system_scores("mqm")
    return float(np.corrcoef([bleu[s] for s in bleu], [human[s] for s in bleu])[0, 1])


def test_a_bad_score_file_shows_a_clear_error(ted_four_systems: Study) -> None:
    at = app_with(ted_four_systems)
    bad = b"Facebook-AI\t0.5\nNoSuchSystem\t0.4\n"
    attach(at, [("BAD-refA.sys.score", bad)])
    message = " ".join(e.value.replace("\\", "") for e in at.error)  # shown md-escaped
    assert "BAD-refA.sys.score, line 2" in message
    assert "unknown system" in message
    assert not at.session_state[K.STUDY].metric_scores


def test_correlation_compares_any_two_metrics(attached: AppTest) -> None:
    attached.session_state[K.CORR_FIRST_METRIC] = METRIC
    attached.session_state[K.CORR_OTHER_METRIC] = "chrF"
    attached.switch_page("pages/correlation.py").run()
    assert not attached.exception, [e.value for e in attached.exception]
    tests = next(d.value for d in attached.dataframe if f"r {METRIC}" in d.value.columns)
    assert "r chrF" in tests.columns
    segment = tests[tests["level"] == "segment"].iloc[0]
    assert segment[f"r {METRIC}"] > segment["r chrF"]  # the generated metric follows MQM


def test_study_digest_follows_attached_metric_scores():
    """The Export zip's content digest changes with attached metric scores (and only then)."""
    import dataclasses

    from bleu_core.study.metric_scores import AttachedMetricScores
    from ui.app.export import study_digest

    study = load_demo("paper-examples")
    systems = list(study.systems)
    one = AttachedMetricScores("COMET", system={s: 0.5 + i for i, s in enumerate(systems)})
    other = dataclasses.replace(one, system={s: 0.1 for s in systems})
    with_one = dataclasses.replace(study, metric_scores={"COMET": one})
    with_other = dataclasses.replace(study, metric_scores={"COMET": other})
    digests = [study_digest(s) for s in (study, with_one, with_other)]
    assert len(set(digests)) == 3
    assert study_digest(dataclasses.replace(study, metric_scores={"COMET": one})) == digests[1]
    assert study_digest(dataclasses.replace(study, metric_scores={})) == digests[0]


def test_findings_exports_carry_the_intervals() -> None:
    from bleu_core.evaluation.clusters import MetricRanking, RankedMetric
    from ui.analysis.ranking import findings_display, findings_frame, findings_latex

    rows = (
        RankedMetric("COMET", 0.9, 1, confidence_interval=(0.85, 0.95)),
        RankedMetric("BLEU", 0.7, 2, confidence_interval=(0.61, 0.78)),
    )
    r = MetricRanking(
        "pairwise-accuracy", "system", "mqm", rows, np.full((2, 2), np.nan), 0.05, 100, 1,
        "perm-both", interval="bootstrap over the 8 systems",
    )  # fmt: skip
    csv = findings_frame([r])
    column = "mqm · system · pairwise accuracy"
    assert list(csv[f"{column} · CI low"]) == [0.85, 0.61]
    assert list(csv[f"{column} · CI high"]) == [0.95, 0.78]
    shown = findings_display([r])
    assert list(shown[f"{column} [95% CI]"]) == ["0.900 [0.850, 0.950]", "0.700 [0.610, 0.780]"]
    latex = findings_latex([r])
    assert "\\textbf{0.900}$^{1}$ {\\scriptsize [0.850, 0.950]}" in latex
    assert "\\textit{BLEU} & 0.700$^{2}$ {\\scriptsize [0.610, 0.780]}" in latex
