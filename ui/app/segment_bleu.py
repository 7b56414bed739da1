"""Segment-level BLEU: one definition for every page (BLEU vs human, Correlation, Metrics, Explore).

A segment's BLEU is :func:`bleu_core.engine.segment_level.segment_bleu`: sentence BLEU as sacrebleu's
``sentence_bleu`` computes it, with the sidebar's tokenizer and smoothing and **effective order** (the
segment signature says ``eff:yes``), the same numbers the ``meta`` command correlates. Every page calls
:func:`segment_bleu`, and a translation the study does not have (``None``: the release lacks that
system's output for the segment) is NaN here: not scored, not paired with a human score, not counted.

>>> import numpy as np
>>> mask = missing_translations({"A": ["x", None], "B": ["y", "z"]}, ["B", "A"])
>>> mask.tolist()
[[False, False], [False, True]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.engine.segment_level import SEGMENT_RULE

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions

NOT_IN_RELEASE = "not in the release"
"""How a missing translation is shown (the release has no output of that system for that segment)."""


def missing_translations(
    texts: Mapping[str, Sequence[str | None]], systems: Sequence[str]
) -> np.ndarray:
    """Boolean (systems × segments): True where ``texts[system][segment]`` is missing (``None``)."""
    return np.array([[t is None for t in texts[s]] for s in systems], dtype=bool).reshape(
        len(systems), -1
    )


def segment_bleu(scores: Any, systems: Sequence[str] | None = None) -> np.ndarray:
    """Segment BLEU (0-100) of ``systems`` (default: all) × segments under the sidebar's settings.

    ``scores`` is :class:`ui.app.context.Scores`. NaN where the study has no translation.
    """
    names = list(systems) if systems is not None else list(scores.systems)
    rows = [scores.system_index(s) for s in names]
    out = np.array(np.asarray(scores.sentence.score, dtype=float)[rows], dtype=float)
    out[missing_translations(scores.study.systems, names)] = np.nan
    return out


def segment_note(options: BleuOptions) -> str:
    """A caption saying which sentence BLEU the segment level uses (the same on every page).

    >>> from bleu_core.engine.options import BleuOptions
    >>> segment_note(BleuOptions())
    "Segment level: sentence BLEU as sacrebleu's sentence_bleu (effective order), smoothing `exp`; see the segment signature."
    """
    return (
        f"Segment level: {SEGMENT_RULE}, smoothing `{options.smooth}`; see the segment signature."
    )


def with_segment_bleu(metric: Any, matrix: np.ndarray, systems: Sequence[str]) -> Any:
    """A :class:`bleu_core.metrics.registry.MetricScores` of BLEU whose segment scores are ``matrix``
    (rows in ``systems`` order, from :func:`segment_bleu`), so Metrics correlates the same numbers."""
    from dataclasses import replace

    segment = np.full_like(np.asarray(metric.segment, dtype=float), np.nan)
    index = {s: k for k, s in enumerate(systems)}
    for k, name in enumerate(metric.names):
        if name in index:
            segment[k] = matrix[index[name]]
    return replace(metric, segment=segment)
