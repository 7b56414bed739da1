"""BLEU as a registry metric: sacrebleu's corpus BLEU, and sentence BLEU (effective order) per segment.

The statistics are the engine's (:mod:`bleu_core.engine.statistics`: lengths, clipped matches and totals per
order); systems scored against the same reference streams are counted in one batched pass
(:func:`~bleu_core.engine.statistics.compute_system_statistics`: the references are tokenised once). The score is
:func:`bleu_core.engine.score.bleu_from_stats` with the default options but the word tokenizer and case.

>>> from bleu_core.engine.statistics import compute_statistics
>>> hyps, refs = ["the cat sat on the mat .", "a dog barked"], [["the cat sat on a mat .", "a dog barked loudly"]]
>>> rows = compute_statistics(hyps, refs).array
>>> round(float(bleu_score_from_stats(rows.sum(axis=0), BleuOptions())), 4)  # sacrebleu 2.6 corpus_bleu
48.7668
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.statistics import compute_statistics, compute_system_statistics
from bleu_core.metrics.base import (
    MetricScores,
    MetricSpec,
    MetricStatistics,
    ScoringContext,
    assemble,
)

__all__ = ["BLEU", "bleu_score_from_stats", "bleu_scores_from_statistics"]


def bleu_score_from_stats(stats: np.ndarray, options: BleuOptions) -> np.ndarray:
    """BLEU (0-100) of statistics rows of any leading shape (the pure stats → score function)."""
    return np.asarray(bleu_from_stats(stats, options).score, dtype=np.float64)


def _options(ctx: ScoringContext, spec: MetricSpec) -> BleuOptions:
    return BleuOptions(tokenize=ctx.tokenize, lowercase=ctx.lowercase)


def _from_stats(ctx: ScoringContext, spec: MetricSpec) -> partial[np.ndarray]:
    return partial(bleu_score_from_stats, options=_options(ctx, spec))


def _rows(
    ctx: ScoringContext, system: str, rows: np.ndarray, sentence: BleuOptions
) -> tuple[list[int], np.ndarray, np.ndarray] | None:
    idx = ctx.present(system)
    if not idx:
        return None
    rows = rows[idx]
    return idx, rows, np.asarray(bleu_from_stats(rows, sentence).score)


def _statistics(ctx: ScoringContext, spec: MetricSpec) -> MetricStatistics:
    """Every system's BLEU statistics, one batched pass per set of reference streams; where some
    segment lacks every reference, each system's usable segments are counted alone."""
    options = _options(ctx, spec)
    sentence = options.with_(effective_order=True)
    per_system = {}
    groups: dict[tuple[str, ...], list[str]] = {}
    for system in ctx.systems:
        groups.setdefault(tuple(ctx.refs_for(system)), []).append(system)
    for refs, members in groups.items():
        streams = [ctx.study.references[r] for r in refs]
        if streams and all(any(t is not None for t in seg) for seg in zip(*streams, strict=True)):
            batch = compute_system_statistics(
                {s: ctx.study.systems[s] for s in members},
                streams,
                max_order=options.max_order,
                tokenize=ctx.tokenize,
                lowercase=ctx.lowercase,
            )
            for system in members:
                if (got := _rows(ctx, system, batch[system].array, sentence)) is not None:
                    per_system[system] = got
            continue
        for system in members:
            if (usable := ctx.usable_inputs(system)) is None:
                continue
            idx, hyps, refs_ = usable
            st = compute_statistics(
                hyps,
                refs_,
                max_order=options.max_order,
                tokenize=ctx.tokenize,
                lowercase=ctx.lowercase,
            )
            per_system[system] = (
                idx,
                st.array,
                np.asarray(bleu_from_stats(st.array, sentence).score),
            )
    return assemble(ctx, per_system, 4 + 2 * options.max_order)


BLEU = MetricSpec(
    "BLEU",
    True,
    "sacrebleu's BLEU (13a, closest reference length, exp smoothing)",
    "bleu",
    statistics=_statistics,
    from_stats=_from_stats,
)


def bleu_scores_from_statistics(
    names: Sequence[str],
    stats: np.ndarray,
    present: np.ndarray,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> MetricScores:
    """BLEU as :func:`~bleu_core.metrics.registry.score_study` gives it, from statistics counted elsewhere
    (the app's shared ones, counted once per setting for every page) instead of counting again.

    ``stats`` is ``(K, S, F)``: every system's statistics against all the study's reference streams, with
    BLEU's default options but ``tokenize``/``lowercase`` (order 4: ``F = 12``); ``present`` (``K × S``)
    is where a system has a translation. Rows without one count nothing (zeros) and have no sentence
    score (NaN), as in ``score_study``; the caller checks that every segment has a reference text
    (otherwise ``score_study`` scores the usable segments alone).

    >>> from bleu_core.engine.statistics import compute_statistics
    >>> rows = compute_statistics(["the cat", "a dog"], [["the cat", "a dog barks"]]).array
    >>> m = bleu_scores_from_statistics(["A"], rows[None], np.array([[True, False]]))
    >>> m.stats[0, 1].tolist() == [0.0] * 12, bool(np.isnan(m.segment[0, 1])), round(float(m.segment[0, 0]), 1)
    (True, True, 100.0)
    """
    options = BleuOptions(tokenize=tokenize, lowercase=lowercase)
    present = np.asarray(present, dtype=bool)
    table = np.where(present[..., None], np.asarray(stats, dtype=np.float64), 0.0)
    sentence = np.asarray(
        bleu_from_stats(table, options.with_(effective_order=True)).score, dtype=np.float64
    )
    return MetricScores(
        BLEU.name,
        tuple(names),
        table,
        partial(bleu_score_from_stats, options=options),
        np.where(present, sentence, np.nan),
        BLEU.higher_is_better,
        BLEU.description,
    )
