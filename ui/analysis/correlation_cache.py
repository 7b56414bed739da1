"""The Correlation page's results, cached: a re-run (another criterion and back, another page and back, a
setting that does not change BLEU) redraws instead of bootstrapping again.

Same convention as :mod:`ui.app.cache`: hashable inputs (the statistics' key, the systems, the options'
``repr``, the resampling settings), unhashable ones with a leading underscore, no ``st.*`` inside.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from bleu_core.stats.meta import (
    BleuSource,
    SegmentMeanSource,
    segment_correlations,
    system_correlations,
)
from bleu_core.stats.systems import stack_systems


@st.cache_data(max_entries=16, show_spinner=False)
def system_level(
    stats_key: str,
    names: tuple[str, ...],
    criterion: str,
    options_key: str,
    n_resamples: int,
    seed: int,
    _stats: dict[str, Any],
    _options: Any,
    _human_seg: np.ndarray | None,
    _human_sys: np.ndarray,
) -> dict[str, Any]:
    """System-level correlations of BLEU with ``criterion`` (bootstrap over segments, both re-scored)."""
    bleu = BleuSource(stack_systems(_stats), _options)
    human = None if _human_seg is None else SegmentMeanSource(names, _human_seg)
    return system_correlations(
        bleu, human, human_scores=_human_sys, n_resamples=n_resamples, seed=seed
    )


@st.cache_data(max_entries=16, show_spinner=False)
def segment_level(
    stats_key: str,
    names: tuple[str, ...],
    criterion: str,
    options_key: str,
    methods: tuple[tuple[str, str], ...],
    n_resamples: int,
    seed: int,
    _sentence: np.ndarray,
    _human_seg: np.ndarray,
) -> Any:
    """Segment-level correlations of sentence BLEU with ``criterion`` for each of ``methods``."""
    return segment_correlations(
        _sentence, _human_seg, methods=methods, n_resamples=n_resamples, seed=seed
    )
