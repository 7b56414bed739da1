"""One segment's statistics row from its tokens, with ``Counter``: the oracle of the batched engine.

The batched engine (:mod:`bleu_core.fast`) computes the same rows many segments at a time; the tests compare it
with :func:`segment_row`, and it runs this code itself on corpora of a few segments. The columns are those of
:mod:`bleu_core.engine.statistics`: hypothesis length, closest / shortest / average reference length, clipped matches
per order, n-gram totals per order.

This module imports nothing of bleu_core, so that both :mod:`bleu_core.engine.statistics` and
:mod:`bleu_core.fast.corpus` can use it (no import cycle).

>>> segment_row(["the", "cat", "the"], [["the", "cat"], ["the", "the", "mat"]], 2)
[3.0, 3.0, 2.0, 2.5, 3.0, 1.0, 3.0, 2.0]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """All n-grams of orders 1..max_order with their counts.

    >>> sorted(ngram_counts(["a", "b", "a"], 2).items())
    [(('a',), 2), (('a', 'b'), 1), (('b',), 1), (('b', 'a'), 1)]
    """
    counts: Counter[tuple[str, ...]] = Counter()
    length = len(tokens)
    for n in range(1, max_order + 1):
        for i in range(length - n + 1):
            counts[tuple(tokens[i : i + n])] += 1
    return counts


def closest_length(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to ``hyp_len``; ties go to the shorter one (paper, sacrebleu).

    >>> closest_length(12, [10, 14])
    10
    >>> closest_length(0, [])
    0
    """
    best_diff, best = -1, 0
    for r in ref_lens:
        diff = abs(hyp_len - r)
        if best_diff == -1 or diff < best_diff or (diff == best_diff and r < best):
            best_diff, best = diff, r
    return best


def segment_row(
    hyp_tokens: Sequence[str], refs_tokens: Sequence[Sequence[str]], max_order: int
) -> list[float]:
    """One statistics row from tokenised text (the oracle; the engine also uses it for a single segment)."""
    hyp_counts = ngram_counts(hyp_tokens, max_order)
    ref_max: Counter[tuple[str, ...]] = Counter()
    for ref in refs_tokens:
        for ngram, c in ngram_counts(ref, max_order).items():
            if c > ref_max[ngram]:
                ref_max[ngram] = c
    matches = [0] * max_order
    totals = [0] * max_order
    for ngram, c in hyp_counts.items():
        n = len(ngram) - 1
        totals[n] += c
        m = ref_max.get(ngram)
        if m:
            matches[n] += min(c, m)
    ref_lens = [len(r) for r in refs_tokens]
    hyp_len = len(hyp_tokens)
    return [
        float(hyp_len),
        float(closest_length(hyp_len, ref_lens)),
        float(min(ref_lens)) if ref_lens else 0.0,
        float(sum(ref_lens) / len(ref_lens)) if ref_lens else 0.0,
        *map(float, matches),
        *map(float, totals),
    ]
