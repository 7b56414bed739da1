"""Cached adapters between the pages and :mod:`bleu_core`: match provenance and human scores.

Every function here is a plain function wrapped in ``st.cache_data``: inputs are hashable, nothing inside
calls ``st.*``. A study is passed twice: as a short hashable ``study_key`` (``"demo:ted-en-de"``,
``"upload:<sha256>"``) that Streamlit hashes, and as ``_study`` (leading underscore: not hashed) that the
function reads.

What is cached elsewhere: the statistics and the scores derived from them in
:mod:`ui.app.shared_cache` (shared by all sessions, counted ahead), uploaded studies in
:mod:`ui.app.uploads`, the demo studies in :mod:`ui.app.demos`, chart images in :mod:`ui.app.chart_images`,
metric scores in :mod:`ui.app.analysis_cache`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from bleu_core.engine.matches import match_provenance
from bleu_core.study import Study
from ui.app.frames import rater_groups, system_human_scores


@st.cache_data(max_entries=512, show_spinner=False)
def segment_matches(
    hypothesis: str,
    references: tuple[str, ...],
    max_order: int,
    tokenize: str,
    lowercase: bool,
):
    """Match provenance of one hypothesis against its references (see :mod:`bleu_core.engine.matches`)."""
    return match_provenance(
        hypothesis, list(references), max_order=max_order, tokenize=tokenize, lowercase=lowercase
    )


@st.cache_data(max_entries=64, show_spinner=False)
def segment_scores(study_key: str, _study: Study, criterion: str) -> np.ndarray:
    """Human segment scores (systems × segments, nan where unrated) for one criterion."""
    return np.asarray(_study.segment_scores(criterion), dtype=float)


@st.cache_data(max_entries=256, show_spinner=False)
def segment_matches_of_systems(
    study_key: str,
    _study: Study,
    index: int,
    systems: tuple[str, ...],
    references: tuple[str, ...],
    max_order: int,
    tokenize: str,
    lowercase: bool,
) -> dict[str, Any]:
    """Match provenance of segment ``index`` of each of ``systems`` against ``references`` (stream names).

    One cache look-up for the Explore page's comparison table instead of one per system (each look-up
    hashes its arguments: ~0.5 ms apiece on every re-run).
    """
    refs = [_study.references[r][index] for r in references]
    refs = [r for r in refs if r is not None]
    return {
        name: match_provenance(
            _study.systems[name][index] or "",
            refs,
            max_order=max_order,
            tokenize=tokenize,
            lowercase=lowercase,
        )
        for name in systems
    }


@st.cache_data(max_entries=64, show_spinner=False)
def cached_system_human_scores(
    study_key: str, _study: Study, criterion: str, group: str | None = None
) -> dict[str, float]:
    """One human score per system (:func:`ui.app.frames.system_human_scores`; ~15 ms over 20k ratings)."""
    return system_human_scores(_study, criterion, group)


@st.cache_data(max_entries=64, show_spinner=False)
def cached_rater_groups(study_key: str, _study: Study, criterion: str) -> list[str]:
    """Distinct rater groups of ``criterion`` (:func:`ui.app.frames.rater_groups`)."""
    return rater_groups(_study, criterion)
