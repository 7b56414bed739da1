"""Explore's rated translations: the "rated only" filter and how many translations of each system are rated.

A WMT release rates a sample of the segments (WMT24 en-ja: 634 of 997 for the 12 ESA-rated systems, none
for the others). :func:`rated_only` keeps the browser's rows with a score of the chosen criterion;
:func:`rated_counts` counts each system's rated translations (the items its human score averages).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleu_core.study import Study
from bleu_core.study.system_names import system_label
from ui.app.numbers import tidy_frame


def rated_only(view: pd.DataFrame, on: bool) -> pd.DataFrame:
    """``view`` (the browser's rows) cut to the rows with a human score when ``on``.

    >>> view = pd.DataFrame({"system": ["A", "A", "B"], "human": [1.0, float("nan"), 2.0]})
    >>> rated_only(view, True)["system"].tolist(), len(rated_only(view, False))
    (['A', 'B'], 3)
    """
    if not on or "human" not in view.columns:
        return view
    return view[view["human"].notna()]


def rated_counts(study: Study, frame: pd.DataFrame) -> pd.DataFrame:
    """One row per system of ``frame`` (:func:`ui.explore.browse.segment_table`): its translations, how
    many have a human score, and the share; systems in study order, a human translation by both names.

    >>> frame = pd.DataFrame({"system": ["A", "A", "B"], "human": [1.0, float("nan"), float("nan")]})
    >>> study = Study("toy", (), {}, {"A": [], "B": []})
    >>> rated_counts(study, frame).to_dict("records")
    [{'system': 'A', 'translations': 2, 'rated': 1, 'share rated': 0.5}, {'system': 'B', 'translations': 1, 'rated': 0, 'share rated': 0.0}]
    """
    grouped = frame.groupby("system", sort=False)
    rated = grouped["human"].count() if "human" in frame.columns else grouped.size() * 0
    total = grouped.size()
    names = [s for s in study.systems if s in total.index]
    return pd.DataFrame(
        {
            "system": [system_label(s, study.human_systems) for s in names],
            "translations": [int(total[s]) for s in names],
            "rated": [int(rated[s]) for s in names],
            "share rated": [float(rated[s] / total[s]) if total[s] else 0.0 for s in names],
        }
    )


def render_rated_counts(study: Study, frame: pd.DataFrame, criterion: str | None) -> None:
    """An expander with :func:`rated_counts` (nothing without a criterion)."""
    if not criterion:
        return
    counts = rated_counts(study, frame)
    with st.expander(
        f"Rated translations per system ({criterion}): {counts['rated'].sum():,} in all"
    ):
        st.dataframe(tidy_frame(counts), hide_index=True, width="stretch")
