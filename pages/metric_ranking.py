"""Metric ranking: every metric (computed or attached) ranked by WMT's statistics, with clusters."""

from __future__ import annotations

import time

import streamlit as st

from bleu_core.errors import BleuStudyError
from bleu_core.evaluation.clusters import DEFAULT_STATISTICS, STATISTICS
from bleu_core.evaluation.ranking_latex import findings_latex
from bleu_core.evaluation.statistic_names import STATISTIC_NAMES
from bleu_core.evaluation.system_sets import common_systems
from bleu_core.metrics.registry import METRICS
from bleu_core.study.criterion_order import criteria_order
from bleu_core.study.system_names import system_label
from ui.analysis.error_free_view import show_error_free
from ui.analysis.ranking import (
    cached_ranking,
    findings_display,
    findings_frame,
    highlight_bleu,
    ranking_frame,
)
from ui.analysis.ranking_extras import (
    show_ceiling_choice,
    show_each_ranking,
    show_explainers,
    show_release_view,
    warn_degenerate,
)
from ui.app import state as K
from ui.app.analysis_cache import metric_scores
from ui.app.background import show_pending
from ui.app.context import analysis_caption, current_scores, show_chart, table_downloads
from ui.app.limits import session_resampling
from ui.app.markup import md_escape
from ui.app.metric_tables import attached_labels, metric_scores_digest, metric_table
from ui.app.segment_bleu import segment_bleu, with_segment_bleu

TER_LIMIT = 3000
"""TER (sacrebleu's phrase shifts) is ticked at first only up to this many system × segment pairs."""

st.title("Metric ranking")
st.write(
    "Every metric of the study, BLEU among them, ranked by how well it agrees with the human scores, "
    "as the WMT metrics task ranks metrics: system-level pairwise accuracy (Kocmi et al. 2021), "
    "segment-level acc\\*_eq with tie calibration (Deutsch et al. 2023) and others. Metrics in one "
    "**cluster** (rank) are not significantly different (PERM-BOTH permutation tests, Deutsch et al. "
    "2021); rank 1 is the best cluster. Attach COMET or other scores on the Study page."
)
scores = current_scores()
study = scores.study
if not study.criteria:
    st.info("This study has no human ratings: metrics can only be ranked against human scores.")
    st.stop()
seed, n_resamples = session_resampling()
attached = list(attached_labels(study))
small = study.n_segments * len(scores.systems) <= TER_LIMIT
default = [m for m in ("BLEU", "chrF", "NIST") + (("TER",) if small else ()) if m in METRICS]
c1, c2 = st.columns([3, 2])
computed = c1.multiselect(
    "Metrics computed here",
    [m for m in METRICS if not METRICS[m].family.startswith("weighted:")],
    default=default,
    key=K.RANK_METRICS,
    help="Scored here and cached. TER (phrase shifts) takes minutes on a WMT-sized study. "
    "Attached metrics (" + (", ".join(attached) or "none yet") + ") are always ranked.",
)
statistics = c2.multiselect(
    "Statistics",
    list(STATISTICS),
    default=list(DEFAULT_STATISTICS),
    key=K.RANK_STATISTICS,
    format_func=lambda s: STATISTIC_NAMES[s],
)
c3, c4, c5 = st.columns([3, 1, 1])
criteria = c3.multiselect(
    "Human criteria",
    criteria_order(study.criteria),
    key=K.RANK_CRITERIA,
    placeholder="every criterion",
)
alpha = float(c4.selectbox("Significance level", [0.05, 0.01, 0.1], key=K.RANK_ALPHA))
include_humans = c5.toggle(
    "Include human translations", key=K.INCLUDE_HUMANS, disabled=not study.human_systems
)
labels = tuple(computed) + tuple(attached)
if len(labels) < 2 or not statistics:
    st.info("Pick at least two metrics (computed or attached) and one statistic.")
    st.stop()
options = scores.options
pending: list = []  # TER: scored once in the background (every session), ranked when done
found = metric_scores(
    scores.key, study, labels, options.tokenize, options.lowercase, pending=pending
)
show_pending(pending)
if len(found) < 2:  # TER still being scored: the page re-runs when it is done
    st.stop()
if "BLEU" in found:  # segment level: the sidebar's sentence BLEU, as on every page
    found["BLEU"] = with_segment_bleu(found["BLEU"], segment_bleu(scores), scores.systems)
ranked_on = common_systems(  # one set of systems for every metric: those all of them score
    {name: dict(zip(m.names, m.observed().tolist(), strict=True)) for name, m in found.items()},
    scores.systems,
    human=study.human_systems,
    include_human=include_humans,
)
systems = ranked_on.systems
shown = ranked_on.describe(lambda s: system_label(s, study.human_systems))  # HUMAN-B (ref-B)
st.markdown(f"**Every metric scores** {md_escape(shown)}; each ranking counts the rated ones.")
tables = {
    name: metric_table(name, m, systems, "attached" if name in attached else "computed")
    for name, m in found.items()
}
tables_key = (tuple(tables), repr(options), systems, metric_scores_digest(study))

units = [(c, s) for c in (criteria or criteria_order(study.criteria)) for s in statistics]
rankings, errors = [], []
start, bar = time.monotonic(), None
for i, (criterion, statistic) in enumerate(units):
    if bar is None and time.monotonic() - start > 2.0:
        bar = st.progress(0.0)
    if bar is not None:
        bar.progress(
            i / len(units),
            text=f"Ranking {i + 1} of {len(units)}: {criterion}, "
            f"{STATISTIC_NAMES[statistic]} ({n_resamples} resamples per pair of metrics)…",
        )
    try:
        r = cached_ranking(
            scores.key, study, tables, tables_key, criterion, statistic, n_resamples, alpha, seed
        )
    except BleuStudyError as err:
        errors.append(f"{criterion}, {STATISTIC_NAMES[statistic]}: {err}")
        continue
    if r is not None:
        rankings.append(r)
    else:
        errors.append(
            f"{criterion}, {STATISTIC_NAMES[statistic]}: not computed (no segment ratings, or "
            "fewer than 3 rated systems)"
        )
if bar is not None:
    bar.empty()
for message in errors:
    st.caption(md_escape(message))
if not rankings:
    st.warning("No ranking could be computed for these choices.")
    st.stop()

run_note = (
    f"{n_resamples} resamples per pair of metrics, seed {seed}, alpha {alpha} · "
    f"{'; '.join(dict.fromkeys(r.describe_systems() for r in rankings))} · seed and resamples are "
    "set on the Significance page"
)
st.subheader("Findings table")
warn_degenerate(rankings)
wide = findings_frame(rankings)
st.dataframe(highlight_bleu(findings_display(rankings)), hide_index=True, width="stretch")
st.caption(
    "One column per criterion × statistic, metrics in the order of the first: the value and its "
    "95% bootstrap confidence interval, then `rank`, the significance cluster (1 = best). BLEU's "
    f"row is highlighted. {run_note}."
)
analysis_caption(
    scores,
    systems,
    criterion="+".join(dict.fromkeys(r.criterion for r in rankings)),
    ci=f"bootstrap:{n_resamples}:seed{seed}:alpha{alpha:g}",
)
caption = f"Metrics ranked by agreement with human judgment ({study.name})"
table_downloads(wide, "metric ranking findings", caption=caption)
st.download_button(
    "LaTeX (findings style)",
    data=lambda: findings_latex(rankings, caption=caption),
    file_name="metric-ranking-findings.tex",
    mime="application/x-tex",
    on_click="ignore",
    icon=":material/download:",
)

show_each_ranking(rankings, show_chart)
long = ranking_frame(rankings)
table_downloads(long, "metric ranking rows", caption=caption)
st.caption(
    "Pairwise accuracy: the share of system pairs a metric orders as the humans do. acc\\*_eq: the "
    "share of pairs of translations of one segment ordered (or tied) as the humans do, with the "
    "metric's tie threshold tuned (`tie threshold`). Lower-is-better metrics (TER) are negated first. "
    "Intervals resample what each statistic is made of (systems, items or segments), with the "
    "clusters' seed; the clusters say which differences between metrics are significant."
)
show_ceiling_choice(scores.key, study, rankings)
show_explainers(study, tables, rankings, rankings[0].criterion)
show_release_view(study, n_resamples, seed, alpha, highlight_bleu)
show_error_free(study, tables, systems)
