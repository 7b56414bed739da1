"""Position-independent word error rate (PER; Tillmann et al. 1997, as in the lecture notes of seed 003).

PER counts the hypothesis words that also occur in the reference, *regardless of their position*::

    PER = 1 - (correct - max(0, c - r)) / r

where ``c`` and ``r`` are the numbers of tokens of the candidate (hypothesis) and of the reference, and
``correct`` is the size of the bag (multiset) intersection of their words: a word that occurs twice in the
hypothesis and once in the reference is correct once. The ``max(0, c - r)`` term charges the extra words of a
hypothesis longer than the reference. Lower is better; 0 is a perfect bag of words. PER can exceed 1 when the
hypothesis is much longer than the reference.

Choices made here:

* **Corpus PER** is the total number of errors divided by the total reference length,
  ``sum(r - correct + max(0, c - r)) / sum(r)``, like TER and WER pool their edits.
* **Several references**: each segment uses the reference that gives it the lowest PER (ties: the first).
* **Empty reference** (``r = 0``): the segment's PER is 0 for an empty hypothesis and 1 otherwise; its
  errors (``c``) still count in the corpus total.

>>> hyp, ref = "the happiness of dreaming camels".split(), "on the happiness of dreaming camels".split()
>>> segment_per(hyp, [ref])   # correct = 5, c = 5, r = 6: 1 - 5/6
PerCounts(errors=1.0, ref_len=6.0)
>>> round(per_from_counts(segment_per(hyp, [ref])), 4)
0.1667
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from bleu_core.errors import BleuOptionError
from bleu_core.metrics.base import MetricSpec, MetricStatistics, ScoringContext, assemble


@dataclass(frozen=True)
class PerCounts:
    """Errors (``r - correct + max(0, c - r)``) and reference length of one segment."""

    errors: float
    ref_len: float


def per_from_counts(counts: PerCounts) -> float:
    """PER of one segment from its counts (empty reference: 0 if no errors else 1)."""
    if counts.ref_len == 0:
        return 0.0 if counts.errors == 0 else 1.0
    return counts.errors / counts.ref_len


def _counts(hyp: Sequence[str], ref: Sequence[str]) -> PerCounts:
    correct = sum((Counter(hyp) & Counter(ref)).values())
    c, r = len(hyp), len(ref)
    return PerCounts(float(r - correct + max(0, c - r)), float(r))


def segment_per(hypothesis: Sequence[str], references: Sequence[Sequence[str]]) -> PerCounts:
    """PER counts of one tokenised segment against its best reference (lowest PER; ties: the first).

    >>> segment_per(["a", "b", "b", "c"], [["b", "a"], ["a", "b", "c"]])   # second: correct 3, c - r = 1
    PerCounts(errors=1.0, ref_len=3.0)
    """
    if not references:
        raise BleuOptionError("PER needs at least one reference per segment")
    candidates = [_counts(hypothesis, ref) for ref in references]
    return min(candidates, key=per_from_counts)


@dataclass(frozen=True)
class PerScores:
    """PER of every segment (``segment``, length S) and of the corpus (``corpus``), plus the raw counts."""

    segment: np.ndarray
    corpus: float
    errors: np.ndarray
    ref_len: np.ndarray


def per_from_tokens(
    hypothesis_tokens: Sequence[Sequence[str]],
    reference_tokens: Sequence[Sequence[Sequence[str]]],
) -> PerScores:
    """PER of tokenised segments; ``reference_tokens[i]`` holds the references of segment i."""
    if len(hypothesis_tokens) != len(reference_tokens):
        raise BleuOptionError(
            f"{len(hypothesis_tokens)} hypotheses but {len(reference_tokens)} reference sets: give the "
            "references of every segment."
        )
    counts = [
        segment_per(h, refs) for h, refs in zip(hypothesis_tokens, reference_tokens, strict=True)
    ]
    errors = np.array([c.errors for c in counts], dtype=np.float64)
    ref_len = np.array([c.ref_len for c in counts], dtype=np.float64)
    segment = np.array([per_from_counts(c) for c in counts], dtype=np.float64)
    total = PerCounts(float(errors.sum()), float(ref_len.sum()))
    return PerScores(segment, per_from_counts(total), errors, ref_len)


def corpus_per(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> PerScores:
    """PER of a corpus; ``references`` are reference streams (``references[k][i]``; ``None`` = missing).

    >>> round(corpus_per(["the happiness of dreaming camels"],
    ...                  [["On the happiness of dreaming camels"]], lowercase=True).corpus, 4)
    0.1667
    """
    from bleu_core.engine.statistics import tokenize_corpus_with_references

    hyp_tokens, refs = tokenize_corpus_with_references(
        hypotheses, references, tokenize=tokenize, lowercase=lowercase
    )
    for i, segment_refs in enumerate(refs):
        if not segment_refs:
            raise BleuOptionError(
                f"segment {i + 1} has no reference in any stream; remove it or add a reference."
            )
    return per_from_tokens(hyp_tokens, refs)


def per_from_stats(stats: np.ndarray) -> np.ndarray:
    """PER of rows ``[errors, reference length]`` of any leading shape: an empty reference scores 1 if
    the hypothesis has words, else 0.

    >>> per_from_stats(np.array([[1.0, 4.0], [2.0, 0.0], [0.0, 0.0]])).tolist()
    [0.25, 1.0, 0.0]
    """
    s = np.asarray(stats, dtype=np.float64)
    err, ref = s[..., 0], s[..., 1]
    rate = np.divide(err, ref, out=np.zeros_like(err), where=ref > 0)
    return np.where(ref > 0, rate, np.where(err > 0, 1.0, 0.0))


def _step(
    report: Callable[[int, int, str], None],
    step: int,
    steps: int,
    what: str,
    done: int,
    total: int,
    _message: str,
) -> None:
    """Progress within one of ``steps`` reference streams, as progress over all of them."""
    report(step * max(total, 1) + done, steps * max(total, 1), what)


def _against_each_reference(
    ctx: ScoringContext, refs: tuple[str, ...], members: list[str]
) -> list[tuple[dict, np.ndarray]]:
    """Unigram statistics of every member system against each reference stream alone (one batched
    count per stream), with where that stream lacks a reference."""
    from bleu_core.engine.statistics import compute_system_statistics

    hyps = {system: [t or "" for t in ctx.study.systems[system]] for system in members}
    per_ref = []
    for r, ref in enumerate(refs):
        texts = ctx.study.references[ref]
        what = f"PER: {len(members)} systems against reference {ref} ({r + 1} of {len(refs)})"
        ctx.report(r, len(refs), what)
        counted = compute_system_statistics(
            hyps,
            [[t or "" for t in texts]],
            max_order=1,
            tokenize=ctx.tokenize,
            lowercase=ctx.lowercase,
            progress=None
            if ctx.progress is None
            else partial(_step, ctx.report, r, len(refs), what),
        )
        per_ref.append((counted, np.array([t is None for t in texts])))
    return per_ref


def _best_rows(system: str, per_ref: list[tuple[dict, np.ndarray]]) -> np.ndarray:
    """Per segment, ``[errors, reference length]`` against the reference with the lowest PER (the first
    of equal rates, as ``min()``)."""
    errors, lengths, rates = [], [], []
    for counted, missing in per_ref:
        a = counted[system].array
        hyp_len, ref_len, correct = a[:, 0], a[:, 1], a[:, 4]
        err = ref_len - correct + np.maximum(0.0, hyp_len - ref_len)
        rate = per_from_stats(np.stack([err, ref_len], axis=1))
        errors.append(err)
        lengths.append(ref_len)
        rates.append(np.where(missing, np.inf, rate))
    best = np.argmin(np.stack(rates), axis=0)
    cols = np.arange(best.size)
    return np.stack([np.stack(errors)[best, cols], np.stack(lengths)[best, cols]], axis=1)


def _registry_statistics(ctx: ScoringContext, spec: MetricSpec) -> MetricStatistics:
    """PER from one batched unigram count per reference stream.

    A segment's ``correct`` words against one reference are BLEU's clipped unigram matches with that
    single reference, so :func:`~bleu_core.engine.statistics.compute_system_statistics` (``max_order=1``) gives
    them for all systems at once, each text tokenised once; per segment the reference with the lowest PER
    wins (ties: the first), as :func:`segment_per` does (tests/metrics/test_metrics_registry.py compares
    them)."""
    per_system: dict[str, tuple[list[int], np.ndarray, np.ndarray]] = {}
    inputs = {system: ctx.usable_inputs(system) for system in ctx.systems}
    groups: dict[tuple[str, ...], list[str]] = {}
    for system, usable in inputs.items():
        if usable is not None:
            groups.setdefault(tuple(ctx.refs_for(system)), []).append(system)
    for refs, members in groups.items():
        per_ref = _against_each_reference(ctx, refs, members)
        for system in members:
            idx = inputs[system][0]  # type: ignore[index]
            stats = _best_rows(system, per_ref)[idx]
            per_system[system] = (list(idx), stats, per_from_stats(stats))
    return assemble(ctx, per_system, 2)


def _registry_from_stats(
    ctx: ScoringContext, spec: MetricSpec
) -> Callable[[np.ndarray], np.ndarray]:
    return per_from_stats


#: The registry's PER: the word tokenizer and case of the study's settings, every reference stream.
PER = MetricSpec(
    "PER",
    False,
    "position-independent word error rate (bag of words)",
    "per",
    _registry_statistics,
    _registry_from_stats,
)
