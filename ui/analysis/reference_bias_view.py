"""Corpus page: reference bias, one glance away (a study with two or more human translations).

The numbers are :func:`bleu_core.study.reference_bias.reference_bias` (definitions there) under the
sidebar's BLEU options: every machine system's BLEU and rank under each reference alone with the rank change
from the baseline reference, and per reference the system it is closest to, flagged as the one it may
favour when the reference is post-edited or of unknown kind ("post-edited from X" where the release says).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from bleu_core.errors import StudyError
from bleu_core.study.reference_bias import ReferenceBias, reference_bias, reference_kind_label
from bleu_core.study.reference_choice import reference_names
from ui.app.context import table_downloads
from ui.app.markup import md_escape

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.study.model import Study
    from ui.app.context import Scores


def bias_frame(bias: ReferenceBias) -> pd.DataFrame:
    """One row per system: BLEU, rank and rank change (Δ) under each reference, best under the baseline first."""
    changes = bias.rank_changes()
    rows = []
    for k, system in enumerate(bias.systems):
        row: dict[str, object] = {"system": system}
        for r, ref in enumerate(bias.references):
            row[f"BLEU · {ref}"] = float(bias.scores[k, r])
            row[f"rank · {ref}"] = int(bias.ranks[k, r])
            if ref != bias.baseline:
                row[f"Δ rank · {ref}"] = int(changes[k, r])
        rows.append(row)
    frame = pd.DataFrame(rows)
    return frame.sort_values(f"rank · {bias.baseline}", kind="stable").reset_index(drop=True)


def reference_frame(bias: ReferenceBias) -> pd.DataFrame:
    """One row per reference: its kind, the documented source, the measured closest system and the flag."""
    return pd.DataFrame(
        [
            {
                "reference": row["reference"],
                "kind": reference_kind_label(row["kind"]),
                "post-edited from (release)": ", ".join(row["post_edited_from"]) or "—",
                "closest system (measured)": row["closest_system"],
                "closeness (BLEU)": row["closeness"],
                "ahead of next": row["margin"],
                "may favour": row["may_favour"] or "—",
            }
            for row in bias.reference_rows()
        ]
    )


@st.cache_data(max_entries=8, show_spinner="Scoring every system against each reference alone…")
def cached_bias(study_key: str, _study: Study, options: BleuOptions) -> ReferenceBias:
    """:func:`reference_bias`, once per study (``study_key``) and BLEU options."""
    return reference_bias(_study, options)


def render_reference_bias(scores: Scores) -> None:
    """The section: nothing unless the study has two or more human translations and two systems."""
    study = scores.study
    references = reference_names(study)
    if len(references) < 2 or len([s for s in study.machine_systems if s not in references]) < 2:
        return
    st.subheader("Reference bias: the ranking under each reference")
    try:
        bias = cached_bias(scores.key, study, scores.options)
    except StudyError as exc:  # no segment that every reference covers
        st.caption(f"Not measured: {md_escape(str(exc))}")
        return
    st.caption(
        f"Each system's corpus BLEU and rank under each reference alone ({bias.n_segments} of "
        f"{bias.segments_total} segments: those every reference covers); Δ rank is the change from "
        f"{md_escape(bias.baseline)} (negative: the system moves up)."
    )
    frame = bias_frame(bias)
    config = {c: st.column_config.NumberColumn(c, format="%.2f") for c in frame if "BLEU" in c}
    st.dataframe(frame, hide_index=True, column_config=config, width="stretch")
    st.caption(
        "Closest system: the BLEU of the reference, taken as the hypothesis, against each system's "
        "output. A post-edited reference (or one of unknown kind) is flagged as possibly favouring it."
    )
    refs = reference_frame(bias)
    st.dataframe(refs, hide_index=True, width="stretch")
    for row in bias.reference_rows():
        if row["may_favour"]:
            source = row["post_edited_from"]
            said = f" (post-edited from {md_escape(', '.join(source))})" if source else ""
            st.markdown(
                f"**{md_escape(row['reference'])}**{said} may favour "
                f"**{md_escape(row['closest_system'])}**."
            )
    table_downloads(frame, "reference bias", caption=f"Reference bias ({bias.signature})")
