"""Counting clipped n-gram matches for many segments at once."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def statistics_array(
    hyp_tokens: Sequence[Sequence[str]],
    refs_tokens: Sequence[Sequence[Sequence[str]]],
    max_order: int,
) -> np.ndarray:
    """Rows of :mod:`bleu_core.statistics` for tokenised segments (simple per-segment loop)."""
    from ..statistics import n_columns, segment_row

    out = np.empty((len(hyp_tokens), n_columns(max_order)), dtype=np.float64)
    for i, (hyp, refs) in enumerate(zip(hyp_tokens, refs_tokens, strict=True)):
        out[i] = segment_row(hyp, refs, max_order)
    return out
