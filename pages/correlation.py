"""Correlation page: BLEU vs human scores at system and segment level with bootstrap intervals, the Williams
and permutation tests against another metric, and how much the references matter (paper §3)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from bleu_core.engine.signature import analysis_signature, interval_field
from bleu_core.evaluation.tau_like import study_tau_like
from ui.analysis import correlation_cache as corr_cache
from ui.analysis.correlation_lines import chance_said
from ui.analysis.correlation_table import correlation_chart, correlation_frame, correlation_notes
from ui.analysis.human_passes import show_human_passes
from ui.analysis.reference_subsets import show_reference_subsets
from ui.app import cache
from ui.app import state as K
from ui.app.analysis_cache import score_keys
from ui.app.background import Steps, show_pending
from ui.app.context import (
    current_scores,
    show_chart,
    signature_caption,
    table_downloads,
    under_app_test,
)
from ui.app.criterion import criterion_box
from ui.app.limits import session_resampling
from ui.app.markup import md_escape
from ui.app.metric_tables import metric_choices
from ui.app.numbers import tidy_frame
from ui.app.segment_bleu import segment_bleu

SEGMENT_METHODS = (
    ("pearson", "none"),
    ("kendall", "none"),
    ("pearson", "item"),
    ("kendall", "item"),
    ("kendall-wmt", "item"),
)


st.title("Correlation with human judgment")
st.write(
    "How closely does BLEU follow the humans, and how sure is that number? Intervals come from resampling "
    "segments and recomputing *both* BLEU and the human system scores on every resample."
)
scores = current_scores()
study = scores.study
seed, n_resamples = session_resampling()
run_note = f"seed {seed} · {n_resamples} resamples (change them on the Significance page)"
c1, c2 = st.columns([2, 1])
include_humans = c2.toggle(
    "Include human translations", key=K.INCLUDE_HUMANS, disabled=not study.human_systems
)
names = tuple(s for s in scores.systems if include_humans or s not in study.human_systems)
rows_idx = [scores.system_index(s) for s in names]

if not study.criteria:
    st.info("This study has no human ratings: only the reference analysis below applies.")
elif len(names) < 3:
    st.info("System-level correlation needs at least 3 systems.")
else:
    criterion = criterion_box(c1, "Criterion", study, K.CORR_CRITERION)
    human_seg = cache.segment_scores(scores.key, study, criterion)[rows_idx]
    bleu_sys = np.asarray(scores.corpus.score, dtype=float)[rows_idx]  # the sidebar's corpus BLEU
    fixed = corr_cache.has_system_level_ratings(scores.key, study, criterion)
    human_by_system = cache.cached_system_human_scores(scores.key, study, criterion)
    human_sys = np.array([human_by_system[s] for s in names])
    steps = Steps(4, "Correlation")  # cached: only a first visit waits for these
    steps.step(f"bootstrapping the system-level correlations ({n_resamples} resamples)")
    opts_key = repr(scores.options)
    counts = (
        corr_cache.bootstrap_counts(study.n_segments, n_resamples, seed) if n_resamples else None
    )
    system = corr_cache.bleu_system_correlations(scores, names, criterion, n_resamples, seed)
    steps.step("sentence BLEU of every segment")
    sentence = segment_bleu(scores, names)  # the sidebar's sentence BLEU, as on every page
    steps.step(f"bootstrapping the segment-level correlations ({n_resamples} resamples)")
    wmt = study_tau_like(study, criterion, rows_idx)  # the pairs meta's tau-like counts
    seg_wait: list | None = None if under_app_test() else []  # at WMT scale: in the background
    segment = (
        corr_cache.segment_level(
            ("segment correlations", scores.key, names, criterion, opts_key, n_resamples, seed),
            lambda p: corr_cache.segment_level_job(
                sentence, human_seg, SEGMENT_METHODS, n_resamples, seed, p, counts, tau_like=wmt
            ),
            seg_wait,
        )
        or []
    )
    sys_lines = corr_cache.bleu_system_chance(scores, names, criterion, seed, system.values())
    seg_lines = (
        corr_cache.segment_level(  # the chance lines: 100 permutations of every row
            ("segment chance", scores.key, names, criterion, opts_key, seed),
            lambda p: corr_cache.segment_chance_job(segment, sentence, human_seg, seed, wmt, p),
            seg_wait,
            "segment-level chance lines",
        )
        if segment
        else None
    )
    steps.done()
    show_pending(seg_wait or [])
    frame = correlation_frame(list(system.values()), segment, sys_lines, seg_lines)
    st.subheader(f"BLEU vs {md_escape(criterion)}")
    st.dataframe(tidy_frame(frame), hide_index=True, width="stretch")
    st.caption(f"Bootstrap intervals: {run_note}.")
    st.caption(chance_said([*sys_lines, *(seg_lines or ())]))
    table_downloads(frame, f"correlation {criterion}", caption=f"BLEU vs {criterion} ({run_note})")
    if frame["CI low"].notna().any():  # no empty chart while the intervals are being computed
        show_chart(
            correlation_chart(frame, criterion=criterion, run_note=run_note, seed=seed),
            f"correlation intervals {criterion}",
        )
    st.caption(correlation_notes(scores.options, wmt["rule"].describe(), fixed))
    signature_caption(scores.signature)
    signature_caption(scores.segment_signature, prefix="Segment BLEU signature")
    pearson = system["pearson"]  # everything that changes the system-level r, as `meta` prints it
    signature_caption(
        analysis_signature(
            scores.signature,
            systems=len(names),
            human_included=bool(set(names) & study.human_systems) if study.human_systems else None,
            criterion=criterion,
            interval=interval_field(pearson.interval_method, pearson.n_resamples, pearson.seed),
        ),
        prefix="System-level signature",
    )
    show_human_passes(study, scores.key, criterion, seed)  # two raters of an item: the ceiling

    st.subheader("Is BLEU's correlation different from another metric's?")
    choices, (c3, c4) = metric_choices(study), st.columns(2)  # attached ones (COMET…) too
    if st.session_state.get(K.CORR_FIRST_METRIC) not in choices:
        st.session_state[K.CORR_FIRST_METRIC] = "BLEU"
    first = c3.selectbox("Metric", choices, key=K.CORR_FIRST_METRIC)
    others = [m for m in choices if m != first]
    if st.session_state.get(K.CORR_OTHER_METRIC) not in others:
        st.session_state[K.CORR_OTHER_METRIC] = others[0]
    other = c4.selectbox("Compare with", others, key=K.CORR_OTHER_METRIC)
    pending: list = []  # TER, chrF, NIST…: scored in the background, shown when done
    sides = corr_cache.metric_sides(
        scores.key, study, (first, other), names, scores.options, (bleu_sys, sentence), pending
    )
    show_pending(pending)
    if sides is not None:  # else: still being scored (progress above)
        tests_frame = corr_cache.metric_tests(
            scores.key,
            names,
            criterion,
            first,
            other,
            tuple(score_keys(study, (first, other), scores.options).values()),
            n_resamples,
            seed,
            sides[first],
            sides[other],
            human_sys,
            human_seg,
        )
        st.dataframe(tidy_frame(tests_frame), hide_index=True, width="stretch")
        table_downloads(
            tests_frame,
            f"williams {first} {other} {criterion}",
            caption=f"{first} vs {other}, {criterion}",
        )
        st.caption(
            "Williams (1959) t-test for two dependent correlations sharing the human scores (Graham & Baldwin 2014); "
            f"the permutation test swaps the two metrics' z-scores per system ({run_note})."
        )

show_reference_subsets(scores, names, rows_idx, seed)
