"""Names from the study (systems, metrics, criteria, load warnings naming systems and files) are shown as
text: Markdown signs in them (``*bold*``, ``_x_``, a ``[link](y)``) are escaped where the pages write them
into Markdown (a warning, a caption, a subheader)."""

from __future__ import annotations

import dataclasses

import numpy as np
from app_runs import page_alone
from streamlit.testing.v1 import AppTest

from bleu_core.study.demo import load_demo
from bleu_core.study.metric_scores import (
    attach_metric_scores,
    merge_metric_scores,
    parse_metric_scores,
)
from ui.app import state as K
from ui.app.markup import md_escape
from ui.app.metric_tables import metric_scores_digest, study_key_with_metric_scores

NAME = "sys_*bold*_[x](y)"


def _slice(n_systems: int = 3, n_segments: int = 12):
    full = load_demo("ted-en-de")
    return full.subset(list(full.systems)[:n_systems], n_segments)


def test_a_load_warning_naming_a_system_is_shown_escaped_on_the_study_page():
    study = _slice()
    warning = f"system {NAME} has 2 empty lines in {NAME}.txt"
    at = page_alone(
        "study.py", {K.STUDY: study, K.STUDY_KEY: "test:md-warning", K.STUDY_WARNINGS: [warning]}
    )
    shown = [w.value for w in at.warning]
    assert md_escape(warning) in shown and warning not in shown, shown


def test_metric_names_are_escaped_on_the_significance_page():
    study = _slice(4, 20)
    only = "".join(f"{system}\t{0.5 + 0.01 * k}\n" for k, system in enumerate(study.systems))
    noise = np.random.default_rng(3).normal(0, 0.05, size=(len(study.systems), study.n_segments))
    seg = "".join(
        f"{system}\t{0.5 + 0.01 * k + noise[k, j]:.5f}\n"
        for k, system in enumerate(study.systems)
        for j in range(study.n_segments)
    )
    parsed = parse_metric_scores(only, f"{NAME}.sys.score", study)
    parsed += parse_metric_scores(seg, "seg_*x*.seg.score", study)
    study = attach_metric_scores(study, list(merge_metric_scores(parsed).values()))
    system_only, with_segments = sorted(study.metric_scores, key=lambda m: m.startswith("seg"))
    assert "*bold*" in system_only and "*x*" in with_segments
    key = study_key_with_metric_scores("test:md-sig", metric_scores_digest(study))
    state = {K.STUDY: study, K.STUDY_KEY: key, K.N_RESAMPLES: 20, K.SIG_TRIALS: 100}
    at = page_alone("significance.py", {**state, K.SIG_BLOCKS: 2, K.SIG_METRIC: with_segments})
    said = [c.value for c in at.caption if c.value.startswith("Not testable:")]
    assert said == [f"Not testable: **{md_escape(system_only)}** (" + said[0].split("** (", 1)[1]]
    assert any(
        c.value.startswith(f"**{md_escape(with_segments)}**: a system's corpus score")
        for c in at.caption
    ), [c.value for c in at.caption]


def test_the_criterion_is_escaped_in_the_correlation_subheader():
    study = _slice(4, 20)
    ratings = tuple(
        dataclasses.replace(r, criterion=NAME) for r in study.ratings if r.criterion == "mqm"
    )
    criteria = {NAME: dataclasses.replace(study.criteria["mqm"], name=NAME)}
    study = dataclasses.replace(study, ratings=ratings, criteria=criteria)
    state = {
        K.STUDY: study,
        K.STUDY_KEY: "test:md-corr",
        K.N_RESAMPLES: 20,
        K.CORR_CRITERION: NAME,
    }
    at = page_alone("correlation.py", state)
    heads = [h.value for h in at.subheader]
    assert f"BLEU vs {md_escape(NAME)}" in heads and f"BLEU vs {NAME}" not in heads, heads


def _preview(bleu: dict, humans: tuple) -> None:
    import types

    from ui.campaigns.lesson_form import systems_preview

    systems_preview(types.SimpleNamespace(human_systems=humans), bleu, 3)


def test_the_lesson_form_names_its_systems_escaped():
    bleu = {NAME: 20.0, "B": 30.0, "C": 40.0}
    at = AppTest.from_function(_preview, args=(bleu, ("C",)), default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (caption,) = [c.value for c in at.caption if c.value.startswith("Systems (BLEU):")]
    assert caption.startswith(f"Systems (BLEU): {md_escape(NAME)} (20.0), ") and NAME not in caption
