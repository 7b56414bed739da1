"""Metrics page: which metric tracks which human criterion, "same data, many BLEUs", the parameter explorer,
and Babych & Hartley's weighted n-gram tables."""

from __future__ import annotations

import streamlit as st

from bleu_core.metrics.registry import DEFAULT_METRICS, METRICS
from bleu_core.metrics.variants import variants_for
from ui.app import state as K
from ui.app.analysis_cache import PAGE_DEFAULT_METRICS, score_keys
from ui.app.background import Steps, result, show_pending
from ui.app.context import (
    analysis_caption,
    current_key,
    current_options,
    current_scores,
    require_study,
    show_chart,
    table_downloads,
    under_app_test,
)
from ui.app.criterion import criterion_box
from ui.app.limits import session_resampling
from ui.app.markup import md_escape
from ui.app.metric_tables import metric_choices
from ui.app.numbers import tidy_frame
from ui.app.segment_bleu import segment_bleu, with_segment_bleu
from ui.metrics import charts as cm
from ui.metrics.panels import (
    correlation_notes,
    explorer_grid,
    show_babych_tables,
    system_scores_table,
    williams_table,
)

st.title("Metrics compared")
st.write(
    "BLEU is one metric among many. Here every metric is correlated with every human criterion, at system "
    "level (one point per system) and segment level (one point per translated segment), with 95 % bootstrap "
    "intervals over segments; the Williams test says whether two metrics' correlations really differ."
)
study = require_study()
key = current_key()  # the open study, restricted to the sidebar's domain
options = current_options()
seed, n_resamples = session_resampling()

c1, c2 = st.columns([3, 1])
chosen = c1.multiselect(
    "Metrics",
    metric_choices(study),  # the registry's, then the study's attached ones (COMET…)
    default=list(PAGE_DEFAULT_METRICS),
    key=K.MET_METRICS,
    help="Each metric is scored once and cached. TER (phrase shifts) and the weighted metrics (one pass "
    "for all nine) take several seconds on a large study. "
    + " · ".join(f"{n}: {s.description}" for n, s in METRICS.items() if n in DEFAULT_METRICS),
)
include_humans = c2.toggle(
    "Include human translations", key=K.INCLUDE_HUMANS, disabled=not study.human_systems
)
if not chosen:
    st.info("Pick at least one metric.")
    st.stop()
systems = tuple(s for s in study.systems if include_humans or s not in study.human_systems)
steps = Steps(3, "Metrics")  # each part is cached: only a first visit waits
steps.step(f"scoring every system with {', '.join(chosen)}")
pending: list = []  # TER: scored once in the background for every session, shown when done
scores = cm.metric_scores(
    key, study, tuple(chosen), options.tokenize, options.lowercase, pending=pending
)
show_pending(pending)
metrics = tuple(m for m in chosen if m in scores)
if not metrics:  # only TER chosen, still being scored: the page re-runs when it is done
    steps.done()
    st.stop()
if "BLEU" in scores:  # segment level: the sidebar's sentence BLEU, the same as on every page
    bleu = current_scores()
    scores["BLEU"] = with_segment_bleu(scores["BLEU"], segment_bleu(bleu), bleu.systems)
st.caption(
    f"Word-based metrics use the sidebar's tokenizer ({options.tokenize}, "
    f"{'lower-cased' if options.lowercase else 'case kept'}); chrF/TER use sacrebleu's own processing. "
    f"Bootstrap: {n_resamples} resamples, seed {seed}."
)

steps.step(
    f"bootstrapping every metric's correlation with the human scores ({n_resamples} resamples)"
)
if study.criteria:
    st.subheader("Correlation with human judgment")
    frame = cm.correlation_frame(
        key,
        study,
        scores,
        metrics,
        systems,
        n_resamples,
        seed,
        score_keys(study, metrics, options),
        corr_wait := (None if under_app_test() else []),  # at WMT scale: in the background
    )
    show_pending(corr_wait or [])
    criterion = criterion_box(
        st, "Criterion for the chart and the Williams test", study, K.MET_CRITERION
    )
    if not frame.empty:
        show_chart(
            cm.correlation_chart(frame, criterion=criterion, seed=seed), f"metrics vs {criterion}"
        )
        st.dataframe(
            tidy_frame(frame),
            hide_index=True,
            width="stretch",
            column_config=cm.CORRELATION_COLUMNS,
        )
        table_downloads(frame, "metric correlations", caption="Metric vs human correlations")
    st.caption(correlation_notes(frame, options, seed))
    analysis_caption(
        current_scores(), systems, criterion=criterion, ci=("bootstrap", n_resamples, seed)
    )
    if len(metrics) >= 2:
        pair = st.multiselect(
            "Williams test: compare two metrics",
            metrics,
            default=list(metrics[:2]),
            max_selections=2,
            key=K.MET_WILLIAMS,
        )
        if len(pair) == 2:
            williams = williams_table(study, scores, pair, systems, criterion)
            st.dataframe(tidy_frame(williams), hide_index=True)
            st.caption(
                f"H0: {pair[0]} and {pair[1]} correlate equally (Pearson) with {criterion}; two-sided Williams "
                "test, which accounts for the two metrics being correlated with each other."
            )
else:
    st.info("This study has no human ratings: the system scores are shown without correlations.")
st.dataframe(system_scores_table(scores, metrics, systems), hide_index=True)

st.subheader("Same data, many BLEUs")
st.write(
    "The same outputs and references, scored as four popular implementations define BLEU. The differences "
    f"come only from tokenisation, the reference length in the brevity penalty, and smoothing. sacrebleu "
    f"and Hugging Face tokenize with the sidebar's tokenizer (`{options.tokenize}`); NLTK and the paper "
    "keep their own word rules."
)
VARIANTS = variants_for(options.tokenize)
st.table(
    {
        "implementation": [v.label for v in VARIANTS],
        "what differs": [v.explanation for v in VARIANTS],
        "call": [v.call for v in VARIANTS],
    }
)
steps.step("scoring with every BLEU implementation")
waiting: list | None = None if under_app_test() else []  # seconds at WMT scale: in the background
variants = result(
    ("many BLEUs", key, systems, options.tokenize),
    lambda p: cm.many_bleus_frame(study, systems, p, tokenize=options.tokenize),
    "many BLEUs",
    waiting,
)
steps.done()
show_pending(waiting or [])
if variants is not None:
    pivot = variants.pivot_table(index="system", columns="variant", values="BLEU", sort=False)
    st.dataframe(pivot, width="stretch")
    table_downloads(
        variants,
        "many bleus",
        caption="The same data scored as sacrebleu, NLTK, HF evaluate and the paper",
    )

st.subheader("Parameter explorer")
st.write(
    "Tick option values: every combination is scored, with its signature and its difference from the "
    "default. With a criterion, each variant's sentence BLEU is correlated with the human segment scores."
)
system = st.selectbox("System", list(systems), key=K.MET_EXPLORER_SYSTEM)
grid, exp_criterion = explorer_grid(study, options.tokenize)
try:
    result = cm.explorer_result(key, study, system, grid, exp_criterion, options)
except ValueError as err:  # BleuOptionError: an empty tick list or too many combinations
    st.error(md_escape(str(err)))
else:
    ex = cm.explorer_frame(result)
    show_chart(cm.explorer_chart(ex), f"explorer {system}")
    st.dataframe(ex, hide_index=True, width="stretch")
    table_downloads(ex, f"explorer {system}", caption=f"BLEU variants for {system}")
    st.caption(
        f"Default (the sidebar's settings): {result.default_score:.2f} · "
        f"`{result.default_signature}`"
    )
    if result.best is not None:
        st.success(
            f"Best segment-level agreement with {exp_criterion} ({result.best_by} = "
            f"{getattr(result.best, result.best_by):.3f}): {'; '.join(result.best.changed) or 'the default'}"
        )

show_babych_tables(key, study, options)
