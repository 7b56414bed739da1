"""The Correlation page's results, cached: a re-run (another criterion and back, another page and back, a
setting that does not change BLEU) redraws instead of bootstrapping again. The slow parts (segment-level
bootstrap, reference subsets) are plain functions the page runs in the shared background thread
(:func:`ui.app.background.result`), which keeps their results by the same kind of key.

Same convention as :mod:`ui.app.cache`: hashable inputs (the statistics' key, the systems, the options'
``repr``, the resampling settings), unhashable ones with a leading underscore, no ``st.*`` inside.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from bleu_core.stats import random_reference_per_document, reference_subsets
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


def reference_analysis(
    study: Any, names: tuple[str, ...], options: Any, draws: int, seed: int, progress: Any = None
) -> tuple[Any, Any]:
    """BLEU with every subset of the references, and one random reference per document ``draws`` times
    (paper §3). Counts the study once per subset: the Correlation page runs it in the shared background
    thread (:func:`ui.app.background.result`). ``progress(done, total, message)``."""
    texts = {s: study.systems[s] for s in names}
    n_subsets = 2 ** len(study.references) - 1
    if progress is not None:
        progress(0, 2, f"Reference subsets: scoring {len(names)} systems with {n_subsets} subsets")
    subsets = reference_subsets(texts, study.references, options)
    if progress is not None:
        progress(1, 2, f"Reference subsets: {draws} draws of one reference per document")
    docs = [seg.doc_id for seg in study.segments]
    single = random_reference_per_document(
        texts, study.references, docs, options, n_draws=draws, seed=seed
    )
    return subsets, single


def segment_level_job(
    sentence: np.ndarray,
    human_seg: np.ndarray,
    methods: tuple[tuple[str, str], ...],
    n_resamples: int,
    seed: int,
    progress: Any = None,
) -> Any:
    """:func:`bleu_core.stats.meta.segment_correlations` in the shared background thread (the Correlation page shows the system
    level meanwhile): seconds of item-level Kendall on a WMT release, minutes at 50 × 10,000."""
    if progress is not None:
        n_systems, n_segments = human_seg.shape
        progress(
            0,
            1,
            f"Segment-level correlations: {n_systems} systems × {n_segments:,} segments, "
            f"{n_resamples} resamples",
        )
    return segment_correlations(
        sentence, human_seg, methods=methods, n_resamples=n_resamples, seed=seed
    )
