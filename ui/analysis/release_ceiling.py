"""Metric ranking, release view: the human ceiling of every column (language pair × statistic).

Each column's ceiling is the same statistic with one human score set against another
(:mod:`bleu_core.evaluation.ceiling`: two raters of the criterion — on WMT24 the second raters of the
``#incomplete`` documents — or a second criterion), carried by the multi-pair result
(:meth:`bleu_core.evaluation.multi_pair.MultiPairResult.ceiling`). The table says on how many items and
systems each rests, beside the metrics' values of the release table above it.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import streamlit as st

from bleu_core.evaluation.ceiling_flags import FLAG_RULE, ceiling_flags
from bleu_core.evaluation.multi_pair import MultiPairResult
from bleu_core.evaluation.statistic_names import statistic_name
from ui.app.markup import md_escape


def release_ceiling_frame(result: MultiPairResult) -> pd.DataFrame:
    """One row per column with a ceiling: the column, the ceiling (NaN: not available) with its 95 %
    interval, its items, segments and systems, its flags (below chance, few items:
    :func:`bleu_core.evaluation.ceiling_flags.ceiling_flags`, ``—`` for none) and what it compares."""
    rows: list[dict[str, Any]] = []
    for i, (task, statistic) in enumerate(result.columns):
        ceiling = result.ceiling(i)
        if ceiling is None:
            continue
        ci = ceiling.get("confidence_interval") or (math.nan, math.nan)
        flags = ceiling.get("flags")
        rows.append(
            {
                "column": f"{task} {statistic_name(statistic)}",
                "human ceiling": math.nan if ceiling["statistic"] is None else ceiling["statistic"],
                "CI low": ci[0],
                "CI high": ci[1],
                "items": ceiling["n_items"],
                "segments": ceiling.get("n_segments", 0),
                "systems": ceiling.get("n_systems", 0),
                "flagged": "; ".join(flags if flags is not None else ceiling_flags(ceiling)) or "—",
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
        f"its own items, often few: a reading aid, not an upper bound. {md_escape(FLAG_RULE)}."
    )
