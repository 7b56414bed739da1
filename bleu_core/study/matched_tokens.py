"""BLEU's matched tokens of many hypotheses at once: :func:`~bleu_core.study.token_masks.matched_mask` as numpy.

A study-wide count (:mod:`bleu_core.study.error_agreement`, :mod:`bleu_core.study.span_scores`) asks, for
thousands of hypotheses and max orders 1-4, which tokens lie inside a matched n-gram. One hypothesis at a
time in Python that is a dictionary look-up per n-gram; here it is a few sorts over all of them together:

1. every token becomes an integer (one vocabulary for hypotheses and references);
2. every n-gram becomes an integer *code*, order by order: first (segment, token), then the code of the
   (n-1)-gram at ``i`` paired with the token at ``i + n - 1``, renumbered densely (:func:`numpy.unique`)
   so codes stay small; equal n-grams of one segment get equal codes, n-grams of two segments never do;
   an order only looks at the hypothesis positions whose (n-1)-gram is in a reference (an n-gram can
   only be where its first n-1 tokens are);
3. BLEU's clip of a code is the most times one of its segment's references holds it (counted per
   reference, then the maximum: an array indexed by code);
4. the k-th occurrence (from the left, from 0) of an n-gram in a hypothesis is *matched* when k is below
   its clip (the rule of :func:`bleu_core.engine.matches.match_provenance`); occurrences are ranked by a stable
   sort on (hypothesis, code);
5. a token is matched at order n when one of the n n-grams covering it is matched.

The result is a flat boolean array per order over the hypotheses' tokens laid end to end
(:class:`MatchedTokens`). ``tests/study/test_matched_tokens.py`` checks it against
:func:`~bleu_core.study.token_masks.matched_mask` on generated texts and on the WMT24 release.

>>> result = matched_tokens([("the", "cat", "ran"), ("a", "cat")], [0, 0], [[["the", "cat", "sat"]]], (1, 2))
>>> result.flags(0, 1).tolist(), result.flags(0, 2).tolist(), result.flags(1, 1).tolist()
([True, True, False], [True, True, False], [False, True])
>>> bin(result.mask(0, 2))                    # the same bits as matched_mask gives
'0b11'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

__all__ = ["MatchedTokens", "matched_tokens"]


@dataclass(frozen=True)
class MatchedTokens:
    """Which hypothesis tokens are matched, per max order, for many hypotheses laid end to end.

    ``bounds[k]:bounds[k + 1]`` are the positions of hypothesis k's tokens in every flat array;
    ``matched[n]`` is True where the token lies in a matched n-gram of order n.
    """

    bounds: np.ndarray
    matched: dict[int, np.ndarray]

    def flags(self, k: int, n: int) -> np.ndarray:
        """Hypothesis ``k``'s matched flags at order ``n``, one per token."""
        return self.matched[n][self.bounds[k] : self.bounds[k + 1]]

    def mask(self, k: int, n: int) -> int:
        """:meth:`flags` as :func:`~bleu_core.study.token_masks.matched_mask` gives them: bit t for token t."""
        packed = np.packbits(self.flags(k, n), bitorder="little")
        return int.from_bytes(packed.tobytes(), "little")


def _token_ids(sequences: list[Sequence[str]]) -> tuple[np.ndarray, int]:
    """All tokens of ``sequences`` laid end to end, as integers; and the vocabulary's size."""
    flat = list(chain.from_iterable(sequences))
    vocabulary = {token: i for i, token in enumerate(dict.fromkeys(flat))}
    ids = np.fromiter(map(vocabulary.__getitem__, flat), dtype=np.int64, count=len(flat))
    return ids, max(len(vocabulary), 1)


def _dense(keys: np.ndarray) -> tuple[np.ndarray, int]:
    """``keys`` renumbered 0, 1, ... (equal keys, equal numbers) and how many numbers there are."""
    table, codes = np.unique(keys, return_inverse=True)
    return codes.reshape(-1).astype(np.int64, copy=False), len(table)


def _clip(codes: np.ndarray, owner: np.ndarray, width: int) -> np.ndarray:
    """Per code, the most times one reference holds it (``owner``: each position's reference)."""
    per_reference, counts = np.unique(owner * width + codes, return_counts=True)
    clip = np.zeros(width, dtype=np.int64)
    np.maximum.at(clip, per_reference % width, counts)
    return clip


def _ranks(codes: np.ndarray, item: np.ndarray, width: int) -> np.ndarray:
    """Per position, how many earlier positions of the same hypothesis hold the same code."""
    occurrence = item * width + codes
    if not len(occurrence):
        return occurrence
    order = np.argsort(occurrence, kind="stable")
    ranked = occurrence[order]
    first = np.r_[True, ranked[1:] != ranked[:-1]]
    positions = np.arange(len(ranked))
    rank = np.empty(len(ranked), dtype=np.int64)
    rank[order] = positions - np.maximum.accumulate(np.where(first, positions, 0))
    return rank


def _layout(sequences: list[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Per sequence its start in the flat layout (with the total at the end); per position its sequence."""
    lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=len(sequences))
    bounds = np.zeros(len(sequences) + 1, dtype=np.int64)
    np.cumsum(lengths, out=bounds[1:])
    return bounds, np.repeat(np.arange(len(sequences), dtype=np.int64), lengths)


def _covered(starts: np.ndarray, n: int) -> np.ndarray:
    """True at each token inside one of the n-grams starting where ``starts`` is True."""
    flags = starts.copy()
    for k in range(1, min(n, len(starts))):
        flags[k:] |= starts[: len(starts) - k]
    return flags


def matched_tokens(
    hypotheses: Sequence[Sequence[str]],
    segments: Sequence[int],
    references: Sequence[Sequence[Sequence[str]]],
    orders: Sequence[int],
) -> MatchedTokens:
    """Which tokens of each hypothesis are matched at each max order in ``orders``.

    ``hypotheses[k]`` are hypothesis k's tokens and ``segments[k]`` its segment: an index into
    ``references``, whose entry lists the token lists of that segment's references (empty: nothing of the
    hypothesis can match). The same rule as :func:`~bleu_core.study.token_masks.matched_mask` with the
    clip of :func:`~bleu_core.study.token_masks.max_reference_counts`, for all hypotheses at once.

    Codes are numbered per segment (the segment is part of the first key), so an n-gram's code says which
    segment it is in and the clip is a plain array indexed by code. An n-gram of a hypothesis can only be
    in a reference when the (n-1)-gram it starts with is: each order looks only at those.
    """
    hypotheses = list(hypotheses)
    ref_lists = [tokens for segment in references for tokens in segment]
    ref_segment = np.repeat(
        np.arange(len(references), dtype=np.int64),
        np.fromiter(map(len, references), dtype=np.int64, count=len(references)),
    )
    bounds, owner = _layout([*hypotheses, *ref_lists])
    ids, size = _token_ids([*hypotheses, *ref_lists])
    n_hyp = int(bounds[len(hypotheses)])
    hyp_segment = np.asarray(segments, dtype=np.int64).reshape(-1)
    segment_of = np.concatenate(
        [hyp_segment[owner[:n_hyp]], ref_segment[owner[n_hyp:] - len(hypotheses)]]
    )
    ends = bounds[1:][owner]
    at = np.arange(len(ids), dtype=np.int64)  # the positions where an n-gram of the order starts
    codes, width = _dense(segment_of * size + ids)
    matched: dict[int, np.ndarray] = {}
    for n in range(1, max(orders) + 1):
        if n > 1:
            keep = at + n <= ends[at]
            at, codes = at[keep], codes[keep]
            codes, width = _dense(codes * size + ids[at + n - 1])
        split = np.searchsorted(at, n_hyp)
        clip = _clip(codes[split:], owner[at[split:]], width)
        limit = clip[codes[:split]]
        present = limit > 0
        if n in orders:
            hits = np.flatnonzero(present)
            starts = np.zeros(n_hyp, dtype=bool)
            ranks = _ranks(codes[hits], owner[at[hits]], width)
            starts[at[hits]] = ranks < limit[hits]
            matched[n] = _covered(starts, n)
        keep = np.r_[present, np.ones(len(at) - split, dtype=bool)]
        at, codes = at[keep], codes[keep]
    return MatchedTokens(bounds[: len(hypotheses) + 1], matched)
