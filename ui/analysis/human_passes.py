"""Two human passes (WMT25's human1/human2, two annotators of an item): the human ceiling of every
statistic and the items the raters disagree on by more than 50 points, for the Correlation page and the
Export zip. The numbers come from :func:`bleu_core.evaluation.human_passes.human_passes` (one computation)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from bleu_core.evaluation.human_passes import human_passes
from bleu_core.maths.resampling import DEFAULT_SEED
from ui.app.markup import md_escape

if TYPE_CHECKING:
    from bleu_core.study.model import Study


def human_passes_frames(
    study: Study, seed: int = DEFAULT_SEED
) -> dict[str, tuple[pd.DataFrame, str]]:
    """Per criterion with two raters: ``human-ceiling-C`` (statistic, value, items, systems) and
    ``human-disagreements-C`` (system, segment, raters' scores, gap), with captions."""
    tables: dict[str, tuple[pd.DataFrame, str]] = {}
    for criterion, found in human_passes(study, seed=seed).items():
        ceilings = pd.DataFrame(
            [
                {
                    "statistic": c["statistic_name"],
                    "human vs human": c["statistic"],
                    "n": c["n"],
                    "items": c["n_items"],
                    "systems": c["n_systems"],
                }
                for c in found["ceilings"]
            ]
        )
        tables[f"human-ceiling-{criterion}"] = (
            ceilings,
            f"{criterion}: one rater against another on the items with two (seed {seed})",
        )
        rows = [
            {
                "system": d["system"],
                "segment": d["segment_id"],
                "raters": ", ".join(f"{s['rater']} {s['score']:g}" for s in d["scores"]),
                "gap": d["gap"],
            }
            for d in found["disagreements"]
        ]
        columns = ["system", "segment", "raters", "gap"]
        tables[f"human-disagreements-{criterion}"] = (
            pd.DataFrame(rows, columns=columns),
            f"{criterion}: items whose raters differ by more than {found['threshold']:g} points",
        )
    return tables


@st.cache_data(max_entries=16, show_spinner="Comparing the raters of items rated twice…")
def cached_frames(study_key: str, _study: Study, seed: int) -> dict[str, tuple[pd.DataFrame, str]]:
    """:func:`human_passes_frames`, once per study (``study_key``, the domain cut included) and seed."""
    return human_passes_frames(_study, seed)


def show_human_passes(study: Study, study_key: str, criterion: str, seed: int) -> None:
    """The small section: nothing unless ``criterion`` has items with two raters."""
    tables = cached_frames(study_key, study, seed)
    ceiling = tables.get(f"human-ceiling-{criterion}")
    if ceiling is None:
        return
    disagree, said = tables[f"human-disagreements-{criterion}"]
    st.subheader("Human vs human: two raters of the same items")
    st.caption(
        f"Each statistic with one rater of {md_escape(criterion)} against the other (pass 1 against "
        f"pass 2 where the release has passes; else drawn with seed {seed}), on the items that have "
        "two: read each metric's value beside it."
    )
    st.dataframe(ceiling[0], hide_index=True, width="stretch")
    st.caption(f"{len(disagree)} {md_escape(said)}.")
    if len(disagree):
        st.dataframe(disagree, hide_index=True, width="stretch")
