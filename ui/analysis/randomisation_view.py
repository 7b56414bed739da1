"""The Significance page's "Approximate randomisation" section (sacrebleu's ``--paired-ar``): every pair
of systems tested by shuffling their segments' statistics, as a verdict matrix and a table. A large study
asks before it starts (more than :data:`ui.app.analysis_cache.AR_ON_DEMAND_WORK` pair × trial × segment
steps)."""

from __future__ import annotations

import streamlit as st

from bleu_core.evaluation.metric_statistics import MetricStatistics
from ui.analysis.significance_data import randomization_of
from ui.analysis.stats_charts import verdict_matrix
from ui.analysis.stats_frames import comparisons_frame, matrix_frame
from ui.app import analysis_cache
from ui.app import state as K
from ui.app.background import Steps
from ui.app.context import Scores, show_chart, table_downloads
from ui.app.limits import resamples_input
from ui.app.numbers import tidy_frame


def show_randomisation(
    scores: Scores,
    key: str,
    stats: MetricStatistics,
    names: list[str],
    seed: int,
    alpha: float,
    metric: str,
    named: str,
) -> None:
    """The section for ``metric`` (its statistics ``stats`` under the cache key ``key``) on the systems
    ``names``: the trials box, then every pair's p-value at ``alpha``, drawn with ``seed``; ``named``
    starts the run note (the page's: empty for BLEU, else ``"<metric> · "``)."""
    st.subheader("Approximate randomisation")
    trials = resamples_input("Trials", key=K.SIG_TRIALS, min_value=100, step=1000)
    n_pairs = len(names) * (len(names) - 1) // 2
    n_segments = scores.study.n_segments
    # read when the section runs, so that a test's patch of the threshold is seen
    if n_pairs * trials * n_segments > analysis_cache.AR_ON_DEMAND_WORK and not st.toggle(
        f"Run it: {n_pairs:,} pairs × {trials:,} trials × {n_segments:,} segments (a minute or more)",
        key=K.SIG_AR_ON,
    ):
        return
    bar = Steps(1, "Significance")
    bar.step(
        f"approximate randomisation of every pair of {len(names)} systems ({metric}), {trials} trials"
    )
    ar = randomization_of(scores, key, stats, names, trials, seed, alpha)
    bar.done()
    ar_note = f"{named}seed {seed} · {trials} trials"
    st.caption(f"Approximate randomisation: {ar_note}.")
    show_chart(
        verdict_matrix(matrix_frame(ar), title="Approximate randomisation", subtitle=ar_note),
        "randomisation matrix",
        stable=True,
    )
    with st.expander("All pairs as a table"):
        ar_frame = comparisons_frame(ar).drop(columns=["CI low", "CI high", "p (sacrebleu)"])
        st.dataframe(tidy_frame(ar_frame), hide_index=True, width="stretch")
        table_downloads(
            ar_frame, "approximate randomisation", caption=f"Approximate randomisation ({ar_note})"
        )
