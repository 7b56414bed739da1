"""The Judges page's results, cached: they depend on the ratings only, never on the sidebar's BLEU settings,
so a tokenizer change (or any re-run) redraws instead of pairing every rating again (seconds at 500,000
ratings). Hashable inputs, the study with a leading underscore next to its key, no ``st.*`` inside."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import streamlit as st

from bleu_core.evaluation import judge_comparisons

if TYPE_CHECKING:
    from bleu_core.study.model import Study


@st.cache_data(max_entries=16, show_spinner=False)
def criterion_raters(study_key: str, _study: Study, criterion: str) -> frozenset[str | None]:
    """The raters of the segment-level ``criterion`` ratings (None: ratings without a rater id)."""
    return frozenset(
        r.rater for r in _study.ratings if r.criterion == criterion and r.segment_id is not None
    )


@st.cache_data(max_entries=16, show_spinner=False)
def comparisons(
    study_key: str,
    _study: Study,
    criterion: str,
    groups: tuple[str, ...],
    systems: tuple[str, ...],
    confidence: float,
) -> Any:
    """:func:`bleu_core.evaluation.judge_comparisons` (errors are raised, not cached)."""
    return judge_comparisons(
        _study, criterion, groups=list(groups) or None, systems=list(systems), confidence=confidence
    )
