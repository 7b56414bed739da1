"""Segments a system has no output for, and corpus BLEU: one convention for every surface.

A study may lack a system's output for a segment (``None`` in ``study.systems``: a long table or an MQM
TSV without that row; Explore shows it as "not in the release"). Such a segment is **not counted**: its
statistics row is zeros (neither the hypothesis nor the reference length, no n-gram), so a system's
corpus BLEU is the BLEU of the segments it has output for. That is what sacrebleu's command line scores
for the system's file as released (the segment is not in it), what WMT's tables scored (the submitted
file), and what Explore tells the user (not in the release, not scored, not counted). A *blank* line of a
release file is in the release: it is an empty output, counted like any other line (with its reference
length, so it lowers the brevity penalty).

Every surface turns a study into corpus BLEU through this module: the ``study`` command and its
per-domain table, the app's shared statistics (every page and the Export), ``significance``
(:func:`counted_statistics`), the per-domain and per-document tables, the metric registry (:func:`bleu_core.metrics.registry.bleu_scores_from_statistics`
zeroes the same rows).

>>> from bleu_core.study import Segment, Study
>>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["a b c d", "e f"]}, {"A": ["a b c d", None]})
>>> from bleu_core.engine.options import BleuOptions
>>> stats = study_statistics(study, ["A"], ["ref"], BleuOptions())
>>> stats[0, 1].tolist() == [0.0] * stats.shape[-1]   # segment 2: no output, nothing counted
True
>>> round(float(study_corpus_bleu(stats, output_mask(study, ["A"]), BleuOptions()).score[0]), 2)
100.0
>>> missing_note(study)
"BLEU of A counts 1 of 2 segments: a segment without the system's output is not counted (neither its reference length nor any n-gram)"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.engine.score import BleuArrays
    from bleu_core.study.model import Study

__all__ = [
    "MISSING_OUTPUT_RULE",
    "blank_outputs",
    "counted_statistics",
    "missing_note",
    "missing_outputs",
    "output_mask",
    "study_corpus_bleu",
    "study_statistics",
    "without_missing",
]

MISSING_OUTPUT_RULE = "a segment without the system's output is not counted (neither its reference length nor any n-gram)"
"""How corpus BLEU counts a segment a system has no output for (every label and note says this)."""


def output_mask(study: Study, systems: Sequence[str] | None = None) -> np.ndarray:
    """``systems × segments`` booleans (default: every system), True where the system has an output."""
    names = list(study.systems) if systems is None else list(systems)
    return np.array(
        [[text is not None for text in study.systems[name]] for name in names], dtype=bool
    ).reshape(len(names), study.n_segments)


def without_missing(stats: np.ndarray, present: np.ndarray) -> np.ndarray:
    """``stats`` (``K × S × F``, or ``S × F`` with a 1-D ``present``) with the rows of missing outputs
    zeroed; the array itself when nothing is missing."""
    present = np.asarray(present, dtype=bool)
    if present.all():
        return stats
    return np.where(present[..., None], np.asarray(stats, dtype=np.float64), 0.0)


def study_statistics(
    study: Study,
    systems: Sequence[str],
    references: Sequence[str],
    options: BleuOptions,
    progress: Any = None,
) -> np.ndarray:
    """Statistics (``K × S × F``) of ``systems`` against the reference streams named ``references``,
    counted in one batched pass at ``options.statistics_order``, missing outputs not counted."""
    from bleu_core.engine.bleu import system_statistics_for

    counted = system_statistics_for(
        {name: study.systems[name] for name in systems},
        [study.references[name] for name in references],
        options,
        progress=progress,
    )
    stats = np.stack([counted[name].array for name in systems])
    return without_missing(stats, output_mask(study, systems))


def counted_statistics(study: Study, stats: Mapping[str, Any]) -> dict[str, Any]:
    """``{system: SegmentStatistics}`` (as :func:`bleu_core.engine.statistics.compute_system_statistics` gives
    them) with the rows of the system's missing outputs zeroed."""
    from bleu_core.engine.statistics import SegmentStatistics

    out = {}
    for name, value in stats.items():
        present = output_mask(study, [name])[0]
        array = without_missing(value.array, present)
        out[name] = value if array is value.array else SegmentStatistics(array, value.n_refs)
    return out


def study_corpus_bleu(stats: np.ndarray, present: np.ndarray, options: BleuOptions) -> BleuArrays:
    """Corpus BLEU (:class:`bleu_core.engine.score.BleuArrays`, one row per system) of ``stats``
    (``K × S × F``): the rows where ``present`` is False are left out, the others summed and scored once."""
    from bleu_core.engine.score import bleu_from_stats

    return bleu_from_stats(without_missing(stats, present).sum(axis=-2), options)


def missing_outputs(study: Study, systems: Sequence[str] | None = None) -> dict[str, int]:
    """``{system: segments without its output}`` for the ``systems`` (default all) that lack any."""
    names = list(study.systems) if systems is None else list(systems)
    lacking = (~output_mask(study, names)).sum(axis=1)
    return {name: int(n) for name, n in zip(names, lacking, strict=True) if n}


def blank_outputs(study: Study, systems: Sequence[str] | None = None) -> dict[str, int]:
    """``{system: blank output lines}`` for the ``systems`` (default all): outputs that are empty or
    whitespace, scored as empty (counted, unlike a missing segment); 0 for a system with none.

    >>> from bleu_core.study import Segment, Study
    >>> toy = Study("t", (Segment("1"), Segment("2")), {"r": ["a", "b"]}, {"A": ["", None], "B": ["a", " "]})
    >>> blank_outputs(toy), missing_outputs(toy)
    ({'A': 1, 'B': 1}, {'A': 1})
    """
    names = list(study.systems) if systems is None else list(systems)
    return {
        name: sum(t is not None and not t.strip() for t in study.systems[name]) for name in names
    }


def missing_note(study: Study, systems: Sequence[str] | None = None) -> str | None:
    """One line saying which systems' BLEU counts fewer segments than the study has, and why (None when
    every system has every output)."""
    lacking = missing_outputs(study, systems)
    if not lacking:
        return None
    n = study.n_segments
    parts = ", ".join(f"{name} counts {n - k} of {n} segments" for name, k in lacking.items())
    return f"BLEU of {parts}: {MISSING_OUTPUT_RULE}"
