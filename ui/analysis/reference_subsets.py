"""The Correlation page's "How many references do we need?" section (paper §3): BLEU with every subset of
the references (:func:`ui.analysis.correlation_cache.reference_analysis`), and how often one random
reference per document ranks the systems as all references do."""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.analysis import correlation_cache as corr_cache
from ui.analysis.stats_charts import subset_chart
from ui.analysis.stats_frames import subset_frames
from ui.app import context
from ui.app import state as K
from ui.app.background import result, show_pending
from ui.app.context import Scores, show_chart, table_downloads
from ui.app.numbers import tidy_frame


def show_reference_subsets(
    scores: Scores, names: tuple[str, ...], rows_idx: list[int], seed: int
) -> None:
    """The section for the systems ``names`` (rows ``rows_idx`` of ``scores``), draws seeded by ``seed``;
    a note instead when the study has one reference stream. Minutes at 50 systems × 10,000 segments:
    counted in the background, shown when done."""
    study = scores.study
    st.subheader("How many references do we need? (paper §3)")
    if len(study.references) < 2:
        st.info("This study has one reference stream; reference subsets need at least two.")
        return
    draws = int(
        st.number_input(
            "Random single-reference draws", min_value=1, max_value=1000, step=10, key=K.CORR_DRAWS
        )
    )
    waiting: list | None = None if context.under_app_test() else []
    found = result(
        ("reference subsets", scores.key, names, repr(scores.options), draws, seed),
        lambda p: corr_cache.reference_analysis(
            study,
            names,
            scores.options,
            draws,
            seed,
            p,
            (scores.references, scores.stats[rows_idx]),
        ),
        "reference subsets",
        waiting,
    )
    show_pending(waiting or [])
    if found is None:
        return
    subsets, single = found
    sub_frame, sizes = subset_frames(subsets)
    show_chart(
        subset_chart(sub_frame, title="BLEU with every subset of the references"),
        "reference subsets",
    )
    st.dataframe(tidy_frame(sizes), hide_index=True, width="stretch")
    table_downloads(sub_frame, "reference subsets", caption="BLEU per reference subset")
    st.write(
        f"One random reference per document ({single.units}, {draws} draws, seed {single.seed}): "
        f"the ranking is exactly that of all references in {single.same_order_share:.0%} of the draws; "
        f"mean Kendall tau {np.nanmean(single.kendall):.3f}."
    )
