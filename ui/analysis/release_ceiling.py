"""Metric ranking, release view: the human ceiling of every column (language pair × statistic).

Each column's ceiling is the same statistic with one human score set against another
(:mod:`bleu_core.stats.ceiling`: two raters of the criterion — on WMT24 the second raters of the
``#incomplete`` documents — or a second criterion), carried by the multi-pair result
(:meth:`bleu_core.stats.multi_pair.MultiPairResult.ceiling`). The table says on how many items and
systems each rests, beside the metrics' values of the release table above it.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import streamlit as st

from bleu_core.stats.multi_pair import MultiPairResult
from ui.app.markup import md_escape


def release_ceiling_frame(result: MultiPairResult) -> pd.DataFrame:
    """One row per column with a ceiling: the column, the ceiling (None: not available), its items,
    systems and what it compares."""
    rows: list[dict[str, Any]] = []
    for i, (task, statistic) in enumerate(result.columns):
        ceiling = result.ceiling(i)
        if ceiling is None:
            continue
        rows.append(
            {
                "column": f"{task} {statistic}",
                "human ceiling": ceiling["statistic"],
                "items": ceiling["n_items"],
                "systems": ceiling.get("n_systems", 0),
                "rests on": ceiling["note"],
            }
        )
    return pd.DataFrame(rows)


def show_release_ceilings(result: MultiPairResult) -> None:
    """The columns' human ceilings under the release table (nothing when no task knows its study)."""
    frame = release_ceiling_frame(result)
    if frame.empty:
        return
    st.dataframe(frame, hide_index=True, width="stretch")
    overall = result.global_ceiling()
    said = "n/a (not every column has one)" if math.isnan(overall) else f"{overall:.3f}"
    st.caption(
        "Human ceiling of each column: the same statistic, one rater against another (seed "
        f"{md_escape(str(result.seed))}); its weighted average over the columns: {said}. It rests on "
        "its own items, often few: a reading aid, not an upper bound."
    )
