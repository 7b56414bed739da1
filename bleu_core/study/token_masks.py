"""Tokens as bits: the fast path that counts a whole study's agreement table.

A hypothesis of T tokens is a T-bit integer; bit t stands for token t. Three masks per item say everything
the 2 × 2 table needs, and Python's arbitrary-precision integers combine them in a few operations:

* :func:`matched_mask` — tokens inside a matched n-gram of order n (BLEU's clipping against
  :func:`max_reference_counts`, the most times one reference holds each n-gram);
* :func:`overlap_mask` — tokens overlapping an error span's characters (one mask per span, OR-ed together);
* then ``(matched & error).bit_count()`` is the number of rewarded errors, ``(~matched & ~error)`` the
  penalised correct words, and so on.

The rules are those of :func:`bleu_core.engine.matches.match_provenance` and
:func:`bleu_core.tokenize.token_offsets.tokens_overlapping`, without building a record per n-gram or token;
``tests/study/test_spans.py`` checks they agree.

>>> clip = max_reference_counts([["the", "cat", "sat"]], 2)
>>> bin(matched_mask(("the", "cat", "ran"), clip, 1)), bin(matched_mask(("the", "cat", "ran"), clip, 2))
('0b11', '0b11')
>>> bin(overlap_mask([0, 4, 8], [3, 7, 11], 5, 9))      # characters 5-8 touch tokens 1 and 2
'0b110'
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence

__all__ = ["matched_mask", "max_reference_counts", "overlap_mask"]


def max_reference_counts(
    references: Sequence[Sequence[str]], max_order: int
) -> dict[tuple[str, ...], int]:
    """For every n-gram (orders 1..max_order) the most times one reference holds it: BLEU's clip."""
    clip: dict[tuple[str, ...], int] = {}
    for tokens in references:
        counts: Counter[tuple[str, ...]] = Counter()
        tokens = tuple(tokens)
        for n in range(1, max_order + 1):
            counts.update(tokens[i : i + n] for i in range(len(tokens) - n + 1))
        for gram, count in counts.items():
            if count > clip.get(gram, 0):
                clip[gram] = count
    return clip


def overlap_mask(starts: Sequence[int], ends: Sequence[int], start: int, end: int) -> int:
    """Bit t set when token t overlaps ``[start, end)``: the rule of
    :func:`bleu_core.tokenize.token_offsets.tokens_overlapping` on precomputed token starts and ends."""
    mask = 0
    if start < end:
        for t in range(bisect_right(ends, start), bisect_left(starts, end)):
            if starts[t] < ends[t]:
                mask |= 1 << t
    return mask


def matched_mask(hypothesis: tuple[str, ...], clip: dict[tuple[str, ...], int], n: int) -> int:
    """Bit t set when token t lies in a matched n-gram: the same rule as
    :func:`bleu_core.engine.matches.match_provenance` (the first ``clip`` occurrences of an n-gram, left to
    right, are matched), without building its records. ``tests/study/test_spans.py`` checks they agree."""
    seen: dict[tuple[str, ...], int] = {}
    mask = 0
    window = (1 << n) - 1
    get = clip.get
    for i, gram in enumerate(zip(*(hypothesis[k:] for k in range(n)), strict=False)):
        limit = get(gram, 0)
        if limit:
            index = seen.get(gram, 0)
            seen[gram] = index + 1
            if index < limit:
                mask |= window << i
    return mask
