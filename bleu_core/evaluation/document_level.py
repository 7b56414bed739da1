"""Document-level correlation of BLEU with a human criterion, for ``meta`` and the app alike.

A document's BLEU is its segments' statistics summed and scored once; its human score the mean over its
rated segments; the pairs are every (system, document) with both
(:func:`bleu_core.evaluation.domains.bleu_human_pairs`, ``level="document"``: the computation the BLEU vs human
page's "Sentence, document, corpus" table shows). :func:`document_correlations` gives ``meta`` the same
Pearson r and Kendall tau-b, with scipy's p-values and no interval (documents are not resampled).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .correlation import CorrelationResult
from .domains import bleu_human_pairs

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.study.model import Study

#: The methods of the document level (the BLEU vs human page's table: Pearson r and Kendall tau-b).
DOCUMENT_METHODS = ("pearson", "kendall")


def document_correlations(
    study: Study,
    stats: Mapping[str, Any],
    options: BleuOptions,
    criterion: str,
    systems: Sequence[str],
) -> list[CorrelationResult]:
    """Pearson and Kendall of document BLEU against ``criterion`` over the (system, document) pairs of
    ``systems`` (``stats``: ``{system: SegmentStatistics}`` of at least those systems); ``[]`` when no
    segment names a document. ``n`` is the number of (system, document) pairs with both scores."""
    if not any(s.doc_id is not None for s in study.segments):
        return []
    first = next(iter(stats.values())).array
    array = np.zeros((len(study.systems), *first.shape))
    for row, name in enumerate(study.systems):
        if name in systems:
            array[row] = stats[name].array
    pairs = bleu_human_pairs(study, array, options, criterion, level="document", systems=systems)
    note = "(system, document) pairs; no interval: documents are not resampled"
    return [
        replace(pairs.correlation(method), level="document", note=note)
        for method in DOCUMENT_METHODS
    ]
