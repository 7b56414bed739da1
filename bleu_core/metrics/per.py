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
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.errors import BleuOptionError


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
    from bleu_core.statistics import tokenize_corpus_with_references

    hyp_tokens, refs = tokenize_corpus_with_references(
        hypotheses, references, tokenize=tokenize, lowercase=lowercase
    )
    for i, segment_refs in enumerate(refs):
        if not segment_refs:
            raise BleuOptionError(
                f"segment {i + 1} has no reference in any stream; remove it or add a reference."
            )
    return per_from_tokens(hyp_tokens, refs)
