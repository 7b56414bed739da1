"""Significance page: blocks (paper §3, Table 2), bootstrap intervals, paired tests (Zhang & Vogel 2004)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleu_core.errors import BleuStudyError
from bleu_core.evaluation.results import VERDICT_RULE
from ui.analysis import significance_data as sig
from ui.analysis import stats_charts, stats_frames
from ui.analysis.cluster_view import render_clusters
from ui.analysis.randomisation_view import show_randomisation
from ui.app import context
from ui.app import state as K
from ui.app.background import Steps, show_pending
from ui.app.context import current_scores, show_chart, signature_caption, table_downloads
from ui.app.limits import resamples_input
from ui.app.markup import md_escape
from ui.app.numbers import tidy_frame

st.title("How sure are we?")
st.write(
    "A score difference means little without its uncertainty. Below: the paper's block experiment (§3), "
    "bootstrap confidence intervals and paired tests (Zhang & Vogel 2004), and approximate randomisation "
    "(sacrebleu's `--paired-ar`), for BLEU or any metric with segment scores. Everything resamples the "
    "per-segment statistics: nothing is re-tokenised."
)
scores = current_scores()
study = scores.study
testable, untestable = sig.metric_menu(study)
if st.session_state.get(K.SIG_METRIC) not in testable:  # an attached metric of another study
    st.session_state[K.SIG_METRIC] = "BLEU"
c0, c1, c2, c3, c4 = st.columns(5)
metric = c0.selectbox(
    "Metric",
    testable,
    key=K.SIG_METRIC,
    help="BLEU, another metric computed here, or one attached on the Study page with segment scores.",
)
seed = int(c1.number_input("Seed", min_value=0, step=1, key=K.SEED))
n_resamples = resamples_input("Bootstrap resamples", key=K.N_RESAMPLES, min_value=10, where=c2)
alpha = float(c3.selectbox("Significance level", [0.05, 0.01, 0.1], key=K.SIG_ALPHA))
include_humans = c4.toggle(
    "Include human translations", key=K.INCLUDE_HUMANS, disabled=not study.human_systems
)
for name, why in untestable.items():
    st.caption(f"Not testable: **{md_escape(name)}** ({why}).")
names = [s for s in scores.systems if include_humans or s not in study.human_systems]
if len(names) < 2:
    st.info("At least two systems are needed.")
    st.stop()
pending: list = []  # TER: scored in the background, the page re-runs when it is done
try:
    stats = sig.metric_statistics(scores, metric, pending)
except BleuStudyError as err:
    st.error(md_escape(str(err)))
    st.stop()
show_pending(pending)
if stats is None:
    st.stop()
key = sig.metric_key(scores, metric)
is_bleu = metric == "BLEU"
scale = "0-100" if metric in ("BLEU", "chrF", "chrF++", "TER") else ""
unit = f" ({scale})" if scale else ""
named = "" if is_bleu else f"{metric} · "
run_note = f"{named}seed {seed} · {n_resamples} resamples"
if not is_bleu:
    better = "higher" if stats.higher_is_better else "lower"
    st.caption(
        f"**{md_escape(metric)}**: a system's corpus score is {stats.corpus_rule}; {better} is better. The tests "
        "compare scores: `>` means a higher score"
        + ("." if stats.higher_is_better else " (worse).")
    )

# ------------------------------------------------------------------------------------------ blocks
st.subheader("Blocks of consecutive segments (paper §3, Table 2)")
st.caption(
    f"The test set is cut into blocks; every system is scored ({metric}) on every block. Mean and "
    "standard deviation of the block scores, and the paired t-statistic of each system against its left "
    "neighbour (one-sided: the paper reads t ≥ 1.7 as 95 % significant with 20 blocks)."
)
b1, b2 = st.columns(2)
most_blocks = max(2, study.n_segments // 2)
if st.session_state[K.SIG_BLOCKS] > most_blocks:  # a small study: at least two segments a block
    st.session_state[K.SIG_BLOCKS] = most_blocks
n_blocks = int(
    b1.number_input("Blocks", min_value=2, max_value=most_blocks, step=1, key=K.SIG_BLOCKS)
)
size = int(
    b2.number_input(
        "Segments per block (0 = all segments)",
        min_value=0,
        step=1,
        key=K.SIG_BLOCK_SIZE,
        help="0 uses every segment: the blocks' sizes differ by at most one. The paper: 20 × 25.",
    )
)
try:
    blocks = sig.blocks_of(scores.key, key, tuple(names), stats, n_blocks, size or None)
except BleuStudyError as err:
    st.error(md_escape(str(err)))
else:
    for warning in blocks.warnings:
        st.warning(warning)
    layout, tests, long = stats_frames.block_frames(blocks, metric, scale)
    st.dataframe(layout, width="stretch")
    st.dataframe(tidy_frame(tests), hide_index=True, width="stretch")
    paper = "BLEU on the 0-100 scale (the paper's Table 2 prints the 0-1 scale: divide by 100 to compare)"
    st.caption(f"{blocks.layout} · {paper if is_bleu else metric + unit}.")
    table_downloads(tests, "block t-tests", caption=blocks.layout)
    chart = stats_charts.block_chart(
        long,
        title=f"{metric} per block",
        subtitle=blocks.layout,
        value="score",
        y_title=f"block {metric}{unit}",
    )
    show_chart(chart, "block scores", stable=True)

# ------------------------------------------------------------------------------------------ bootstrap
st.subheader("Bootstrap confidence intervals (Zhang & Vogel 2004)")
bar = Steps(1, "Significance")  # cached: only a first visit (or new settings) waits
bar.step(
    f"bootstrapping {metric} of {len(stats.systems)} systems × {study.n_segments:,} segments, "
    f"{n_resamples} resamples"
)
boot = sig.bootstrap_of(scores, key, stats, names, n_resamples, alpha, seed)
bar.done()
level = f"{1 - alpha:.0%}"
intervals = stats_frames.intervals_frame(boot, level, metric, digits=2 if scale else 4)
st.dataframe(tidy_frame(intervals), hide_index=True, width="stretch")
st.caption(f"Bootstrap: {run_note}.")
table_downloads(
    intervals, "bootstrap intervals", caption=f"Bootstrap {level} intervals ({run_note})"
)
columns = {"system": "label", metric: "value", f"{level} CI low": "low", f"{level} CI high": "high"}
show_chart(
    stats_charts.interval_chart(
        intervals.rename(columns=columns),
        x_title=f"{metric}{unit}",
        title=f"{metric} with {level} bootstrap intervals",
        subtitle=run_note,
    ),
    "bootstrap intervals",
    stable=True,
)
if is_bleu:
    signature_caption(scores.signature)
context.analysis_caption(scores, names, metric=metric, ci=("bootstrap", n_resamples, seed))

st.subheader("Paired bootstrap: every pair of systems")
st.caption(
    "Each system pair is scored on the same resampled test sets. One rule: "
    + md_escape(VERDICT_RULE.format(level=level, alpha=alpha))
    + ". Each cell shows its verdict sign, so the matrix reads without its colours."
)
paired = boot.paired(alpha=alpha)
st.caption(f"Paired bootstrap: {run_note} (the same resampled test sets as above).")
show_chart(
    stats_charts.verdict_matrix(
        stats_frames.matrix_frame(paired), title=f"Paired bootstrap ({metric})", subtitle=run_note
    ),
    "paired bootstrap matrix",
    stable=True,
)
with st.expander("All pairs as a table"):
    pairs = stats_frames.comparisons_frame(paired)
    st.dataframe(stats_frames.pairs_display(pairs, n_resamples), hide_index=True, width="stretch")
    table_downloads(pairs, "paired bootstrap", caption=f"Paired bootstrap ({run_note})")
render_clusters(scores, names, paired, metric)  # beside the human scores' clusters (WMT25)
if not set(st.session_state.get(K.SIG_PAIR) or []) <= set(names):  # a value, never also a default
    st.session_state[K.SIG_PAIR] = names[:2]
st.session_state.setdefault(K.SIG_PAIR, names[:2])
pair = st.multiselect("Pair to inspect", names, max_selections=2, key=K.SIG_PAIR)
if len(pair) == 2:
    i, j = boot.systems.index(pair[0]), boot.systems.index(pair[1])
    diffs = pd.DataFrame({"difference": boot.samples[i] - boot.samples[j]})
    x_title = f"{metric}({pair[0]}) − {metric}({pair[1]})"
    chart = stats_charts.histogram(
        diffs, x="difference", x_title=x_title, title="Resampled differences", subtitle=run_note
    )
    show_chart(chart, "bootstrap differences", stable=True)

show_randomisation(scores, key, stats, names, seed, alpha, metric, named)
