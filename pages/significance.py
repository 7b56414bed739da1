"""Significance page: blocks (paper §3, Table 2), bootstrap intervals, paired tests (Zhang & Vogel 2004)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleu_core.errors import BleuStudyError
from bleu_core.stats import approximate_randomization
from ui import current_scores, show_chart, signature_caption, table_downloads
from ui.analysis.stats_charts import block_chart, histogram, interval_chart, verdict_matrix
from ui.analysis.stats_frames import block_frames, comparisons_frame, intervals_frame, matrix_frame
from ui.app import state as K
from ui.app.analysis_cache import AR_ON_DEMAND_WORK, cached_blocks, cached_bootstrap
from ui.app.background import Steps
from ui.app.limits import resamples_input
from ui.app.numbers import tidy_frame


@st.cache_data(max_entries=8, show_spinner="Randomising…")
def cached_randomization(
    key: str,
    names: tuple[str, ...],
    _systems,
    _options,
    options_key: str,
    trials: int,
    seed: int,
    alpha: float,
):
    """Approximate randomisation of every pair (cached: it is the slowest part of the page)."""
    return approximate_randomization(_systems, _options, n_trials=trials, seed=seed, alpha=alpha)


st.title("How sure are we?")
st.write(
    "A BLEU difference means little without its uncertainty. Below: the paper's block experiment (§3), "
    "bootstrap confidence intervals and paired tests (Zhang & Vogel 2004), and approximate randomisation "
    "(sacrebleu's `--paired-ar`). Everything resamples the per-segment statistics: nothing is re-tokenised."
)
scores = current_scores()
study = scores.study
c1, c2, c3, c4 = st.columns(4)
seed = int(c1.number_input("Seed", min_value=0, step=1, key=K.SEED))
n_resamples = resamples_input("Bootstrap resamples", key=K.N_RESAMPLES, min_value=10, where=c2)
alpha = float(c3.selectbox("Significance level", [0.05, 0.01, 0.1], key=K.SIG_ALPHA))
include_humans = c4.toggle(
    "Include human translations", key=K.INCLUDE_HUMANS, disabled=not study.human_systems
)
names = [s for s in scores.systems if include_humans or s not in study.human_systems]
if len(names) < 2:
    st.info("At least two systems are needed.")
    st.stop()
systems = {s: scores.stats[scores.system_index(s)] for s in names}
run_note = f"seed {seed} · {n_resamples} resamples"
options_key = repr((scores.options, scores.references))  # identifies the statistics with scores.key

# ------------------------------------------------------------------------------------------ blocks
st.subheader("Blocks of consecutive segments (paper §3, Table 2)")
st.caption(
    "The test set is cut into blocks; every system is scored on every block. Mean and standard deviation "
    "of the block scores, and the paired t-statistic of each system against its left neighbour (one-sided: "
    "the paper reads t ≥ 1.7 as 95 % significant with 20 blocks)."
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
    blocks = cached_blocks(
        scores.key, tuple(names), systems, scores.options, options_key, n_blocks, size or None
    )
except BleuStudyError as err:
    st.error(str(err))
else:
    for warning in blocks.warnings:
        st.warning(warning)
    layout, tests, long = block_frames(blocks)
    st.dataframe(layout, width="stretch")
    st.dataframe(tidy_frame(tests), hide_index=True, width="stretch")
    st.caption(
        f"{blocks.layout} · BLEU on the 0-100 scale (the paper's Table 2 prints the 0-1 scale: "
        "divide by 100 to compare)."
    )
    table_downloads(tests, "block t-tests", caption=blocks.layout)
    show_chart(block_chart(long, title="BLEU per block", subtitle=blocks.layout), "block bleu")

# ------------------------------------------------------------------------------------------ bootstrap
st.subheader("Bootstrap confidence intervals (Zhang & Vogel 2004)")
bar = Steps(1, "Significance")  # cached: only a first visit (or new settings) waits
bar.step(
    f"bootstrapping {len(names)} systems × {study.n_segments:,} segments, {n_resamples} resamples"
)
boot = cached_bootstrap(
    scores.key, tuple(names), systems, scores.options, options_key, n_resamples, 1 - alpha, seed
)
bar.done()
level = f"{1 - alpha:.0%}"
intervals = intervals_frame(boot, level)
st.dataframe(tidy_frame(intervals), hide_index=True, width="stretch")
st.caption(f"Bootstrap: {run_note}.")
table_downloads(
    intervals, "bootstrap intervals", caption=f"Bootstrap {level} intervals ({run_note})"
)
show_chart(
    interval_chart(
        intervals.rename(
            columns={
                "system": "label",
                "BLEU": "value",
                f"{level} CI low": "low",
                f"{level} CI high": "high",
            }
        ),
        x_title="BLEU (0-100)",
        title=f"BLEU with {level} bootstrap intervals",
        subtitle=run_note,
    ),
    "bootstrap intervals",
)
signature_caption(scores.signature)


st.subheader("Paired bootstrap: every pair of systems")
st.caption(
    "Each system pair is scored on the same resampled test sets; the difference is significant (> or <) when "
    f"its {level} interval excludes 0. The p-value is sacrebleu's `--paired-bs` p-value (same resamples for "
    "the same seed)."
)
paired = boot.paired(alpha=alpha)
st.caption(f"Paired bootstrap: {run_note} (the same resampled test sets as above).")
show_chart(
    verdict_matrix(matrix_frame(paired), title="Paired bootstrap", subtitle=run_note),
    "paired bootstrap matrix",
)
with st.expander("All pairs as a table"):
    pairs = comparisons_frame(paired)
    st.dataframe(tidy_frame(pairs), hide_index=True, width="stretch")
    table_downloads(pairs, "paired bootstrap", caption=f"Paired bootstrap ({run_note})")
if not set(st.session_state.get(K.SIG_PAIR) or []) <= set(names):  # a value, never also a default
    st.session_state[K.SIG_PAIR] = names[:2]
st.session_state.setdefault(K.SIG_PAIR, names[:2])
pair = st.multiselect("Pair to inspect", names, max_selections=2, key=K.SIG_PAIR)
if len(pair) == 2:
    i, j = boot.systems.index(pair[0]), boot.systems.index(pair[1])
    diffs = pd.DataFrame({"difference": boot.samples[i] - boot.samples[j]})
    show_chart(
        histogram(
            diffs,
            x="difference",
            x_title=f"BLEU({pair[0]}) − BLEU({pair[1]})",
            title="Resampled differences",
            subtitle=run_note,
        ),
        "bootstrap differences",
    )

st.subheader("Approximate randomisation")
trials = resamples_input("Trials", key=K.SIG_TRIALS, min_value=100, step=1000)
pairs = len(names) * (len(names) - 1) // 2
if pairs * trials * study.n_segments > AR_ON_DEMAND_WORK and not st.toggle(
    f"Run it: {pairs:,} pairs × {trials:,} trials × {study.n_segments:,} segments (a minute or more)",
    key=K.SIG_AR_ON,
):
    st.stop()
bar = Steps(1, "Significance")
bar.step(f"approximate randomisation of every pair of {len(names)} systems, {trials} trials")
ar = cached_randomization(scores.key, tuple(names), systems, scores.options, options_key, trials,
                          seed, alpha)  # fmt: skip
bar.done()
ar_note = f"seed {seed} · {trials} trials"
st.caption(f"Approximate randomisation: {ar_note}.")
show_chart(
    verdict_matrix(matrix_frame(ar), title="Approximate randomisation", subtitle=ar_note),
    "randomisation matrix",
)
with st.expander("All pairs as a table"):
    ar_frame = comparisons_frame(ar).drop(columns=["CI low", "CI high"])
    st.dataframe(tidy_frame(ar_frame), hide_index=True, width="stretch")
    table_downloads(
        ar_frame, "approximate randomisation", caption=f"Approximate randomisation ({ar_note})"
    )
