"""Counting clipped n-gram matches for many segments at once, with numpy.

The reference implementation (:func:`bleu_core.statistics.segment_row`) builds a ``Counter`` of n-grams per
hypothesis and per reference. Here every token is an integer and the same counts come from sorting:

1. **Unigrams.** Each token position gets the key ``(segment, token)``; sorting the keys and numbering the
   distinct ones gives every position a dense id that means "this token in this segment". ``np.bincount`` over
   ``id × sources + source`` then counts each id in the hypothesis (source 0) and in each reference (sources
   1..K) in one pass.
2. **Clipping.** ``min(count in hypothesis, max over references of count in reference)`` per id, summed per
   segment with another ``bincount``: the clipped matches of the paper (section 2.1).
3. **Longer n-grams, order by order.** The n-gram starting at position ``p`` is the pair
   ``(id of the (n-1)-gram at p, token at p+n-1)``: numbering distinct pairs gives exact n-gram ids — no hashing,
   so no collisions. Only positions whose (n-1)-gram occurs in *both* the hypothesis and some reference of its
   segment can start a matching n-gram, so the others are dropped before the next order (the work shrinks
   quickly as n grows). Totals need no counting: a line of ``L`` tokens has ``max(L - n + 1, 0)`` n-grams.

Sorting uses numpy's (vectorised) sort on one ``int64`` per position that packs the key above the position
index, which is much faster than ``argsort``; when a key is too wide to pack, ``argsort`` is used instead.

Segments are processed in chunks (:data:`CHUNK_POSITIONS` token positions at a time), so the working memory is
bounded whatever the size of the corpus.

>>> rows = statistics_array([["the", "cat", "the"]], [[["the", "cat"], ["the", "the", "mat"]]], 2)
>>> rows.tolist()  # hyp_len, closest, shortest, average, matches (1, 2), totals (1, 2)
[[3.0, 3.0, 2.0, 2.5, 3.0, 1.0, 3.0, 2.0]]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

#: Token positions (hypothesis + references) processed together; bounds the working memory of one chunk
#: (about 100 bytes per position at the peak).
CHUNK_POSITIONS = 2_000_000


def dense_ranks(keys: np.ndarray, bound: int) -> tuple[np.ndarray, int]:
    """Number the distinct values of ``keys`` (non-negative, all ``< bound``) 0, 1, 2 ... in sorted order.

    Returns the number of each key and how many distinct keys there are.

    >>> ranks, n = dense_ranks(np.array([30, 10, 30, 20]), 31)
    >>> ranks.tolist(), n
    ([2, 0, 2, 1], 3)
    """
    n = keys.shape[0]
    if n == 0:
        return np.zeros(0, np.int64), 0
    shift = max(int(n - 1).bit_length(), 1)
    if max(int(bound) - 1, 1).bit_length() + shift <= 63:
        packed = keys.astype(np.int64, copy=False) << shift
        packed |= np.arange(n, dtype=np.int64)
        packed.sort()
        order = packed & ((1 << shift) - 1)
        sorted_keys = packed >> shift
        del packed
    else:
        order = np.argsort(keys)
        sorted_keys = keys[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=new[1:])
    del sorted_keys
    ranks_sorted = np.cumsum(new, dtype=np.int64)
    ranks_sorted -= 1
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = ranks_sorted
    return ranks, int(ranks_sorted[-1]) + 1


def clipped_matches(
    tokens: np.ndarray,
    segment: np.ndarray,
    source: np.ndarray,
    line_end: np.ndarray,
    n_segments: int,
    n_sources: int,
    max_order: int,
) -> np.ndarray:
    """Clipped n-gram matches per segment, shape ``(n_segments, max_order)`` (float64, exact integers).

    Every array has one entry per token position: ``tokens`` (ids, non-negative), ``segment`` (0-based),
    ``source`` (0 = hypothesis, 1..K = reference slot) and ``line_end`` (the index one past the last position of
    the line the position belongs to; lines are contiguous in these arrays). ``n_sources`` is ``K + 1``.
    """
    matches = np.zeros((n_segments, max_order), dtype=np.float64)
    n_positions = tokens.shape[0]
    if n_positions == 0 or n_sources < 2:
        return matches
    # Chunk-local token numbering keeps the packed sort keys narrow.
    seen = np.zeros(int(tokens.max()) + 1, dtype=bool)
    seen[tokens] = True
    local = np.cumsum(seen, dtype=np.int64) - 1
    vocab = int(local[-1]) + 1
    tok = local[tokens]
    del seen, local
    active = np.arange(n_positions, dtype=np.int64)
    prev_ranks = np.zeros(0, np.int64)
    n_prev = 0
    for n in range(1, max_order + 1):
        if n == 1:
            keys = segment.astype(np.int64) * vocab + tok
            bound = n_segments * vocab
        else:
            keys = prev_ranks * vocab + tok[active + (n - 1)]
            bound = n_prev * vocab
        ranks, n_ids = dense_ranks(keys, bound)
        del keys
        counts = np.bincount(ranks * n_sources + source[active], minlength=n_ids * n_sources)
        counts = counts.reshape(n_ids, n_sources)
        in_hyp = counts[:, 0]
        in_refs = counts[:, 1:].max(axis=1)
        clip = np.minimum(in_hyp, in_refs)
        segment_of = np.zeros(n_ids, dtype=np.int64)
        segment_of[ranks] = segment[active]
        matches[:, n - 1] = np.bincount(segment_of, weights=clip, minlength=n_segments)
        if n == max_order:
            break
        shared = (in_hyp > 0) & (in_refs > 0)
        keep = shared[ranks] & (active + n < line_end[active])
        active = active[keep]
        prev_ranks = ranks[keep]
        n_prev = n_ids
        if active.shape[0] == 0:
            break
    return matches


def length_columns(hyp_len: np.ndarray, ref_lens: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Columns ``hyp_len, ref_closest, ref_shortest, ref_average`` from token counts.

    ``ref_lens`` and ``present`` are ``(S, K)``: reference lengths and which references exist. The closest length
    breaks ties towards the shorter reference (as sacrebleu and the paper); a segment without references gets 0.

    >>> length_columns(np.array([12]), np.array([[10, 14]]), np.array([[True, True]])).tolist()
    [[12.0, 10.0, 10.0, 12.0]]
    """
    n = hyp_len.shape[0]
    out = np.zeros((n, 4), dtype=np.float64)
    out[:, 0] = hyp_len
    if ref_lens.shape[1] == 0:
        return out
    refs = ref_lens.astype(np.float64)
    n_present = present.sum(axis=1)
    has_ref = n_present > 0
    diff = np.where(present, np.abs(refs - out[:, :1]), np.inf)
    best = diff.min(axis=1, keepdims=True)
    closest = np.where(present & (diff == best), refs, np.inf).min(axis=1)
    shortest = np.where(present, refs, np.inf).min(axis=1)
    total = np.where(present, refs, 0.0).sum(axis=1)
    out[:, 1] = np.where(has_ref, closest, 0.0)
    out[:, 2] = np.where(has_ref, shortest, 0.0)
    out[:, 3] = np.divide(total, n_present, out=np.zeros(n), where=has_ref)
    return out


def rows_from_ids(
    hyp_ids: np.ndarray,
    hyp_lengths: np.ndarray,
    ref_ids: Sequence[np.ndarray],
    ref_lengths: Sequence[np.ndarray],
    ref_present: Sequence[np.ndarray],
    max_order: int,
) -> np.ndarray:
    """Statistics rows (see :mod:`bleu_core.statistics`) of segments given as token ids.

    ``hyp_ids`` holds the tokens of every hypothesis one after the other, ``hyp_lengths`` how many belong to each.
    Reference slot ``k`` is given the same way by ``ref_ids[k]``/``ref_lengths[k]``; ``ref_present[k]`` says
    which segments have that reference (an absent one must have length 0).
    """
    n_segments = hyp_lengths.shape[0]
    n_refs = len(ref_ids)
    segments = np.arange(n_segments, dtype=np.int64)
    streams = [(hyp_ids, hyp_lengths), *zip(ref_ids, ref_lengths, strict=True)]
    tokens = np.concatenate([ids for ids, _ in streams]) if streams else np.zeros(0, np.int64)
    segment = np.concatenate([np.repeat(segments, lengths) for _, lengths in streams])
    source = np.concatenate(
        [np.full(int(lengths.sum()), k, dtype=np.int64) for k, (_, lengths) in enumerate(streams)]
    )
    ends = []
    offset = 0
    for _, lengths in streams:
        line_ends = np.cumsum(lengths) + offset
        ends.append(np.repeat(line_ends, lengths))
        offset = int(line_ends[-1]) if line_ends.shape[0] else offset
    line_end = np.concatenate(ends)
    rows = np.empty((n_segments, 4 + 2 * max_order), dtype=np.float64)
    ref_len_matrix = (
        np.stack(list(ref_lengths), axis=1) if n_refs else np.zeros((n_segments, 0), np.int64)
    )
    present = np.stack(list(ref_present), axis=1) if n_refs else np.zeros((n_segments, 0), bool)
    rows[:, :4] = length_columns(hyp_lengths, ref_len_matrix, present)
    rows[:, 4 : 4 + max_order] = clipped_matches(
        tokens, segment, source, line_end, n_segments, n_refs + 1, max_order
    )
    orders = np.arange(max_order)
    rows[:, 4 + max_order :] = np.maximum(hyp_lengths[:, None] - orders[None, :], 0)
    return rows


def _encode_token_lists(
    token_lists: Sequence[Sequence[str]], vocabulary: dict[str, int]
) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter(map(len, token_lists), np.int64, len(token_lists))
    flat = list(itertools.chain.from_iterable(token_lists))
    for token in dict.fromkeys(flat):
        if token not in vocabulary:
            vocabulary[token] = len(vocabulary)
    return np.fromiter(map(vocabulary.__getitem__, flat), np.int64, len(flat)), lengths


def statistics_array(
    hyp_tokens: Sequence[Sequence[str]],
    refs_tokens: Sequence[Sequence[Sequence[str]]],
    max_order: int,
) -> np.ndarray:
    """Rows of :mod:`bleu_core.statistics` for tokenised segments; ``refs_tokens[i]`` are segment i's references.

    Segments may have different numbers of references (none at all gives zero matches and reference lengths 0).
    Same result as :func:`bleu_core.statistics.segment_row` on every segment.
    """
    if len(hyp_tokens) != len(refs_tokens):
        raise ValueError(f"{len(hyp_tokens)} hypotheses but {len(refs_tokens)} reference lists")
    n_segments = len(hyp_tokens)
    out = np.empty((n_segments, 4 + 2 * max_order), dtype=np.float64)
    start = 0
    while start < n_segments:
        # Grow the chunk until it holds about CHUNK_POSITIONS tokens.
        end, size = start, 0
        while end < n_segments and (size < CHUNK_POSITIONS or end == start):
            size += len(hyp_tokens[end]) + sum(len(r) for r in refs_tokens[end])
            end += 1
        hyps = hyp_tokens[start:end]
        refs = refs_tokens[start:end]
        n_slots = max((len(r) for r in refs), default=0)
        vocabulary: dict[str, int] = {}
        hyp_ids, hyp_lengths = _encode_token_lists(hyps, vocabulary)
        ref_ids, ref_lengths, ref_present = [], [], []
        for k in range(n_slots):
            slot = [r[k] if k < len(r) else () for r in refs]
            ids, lengths = _encode_token_lists(slot, vocabulary)
            ref_ids.append(ids)
            ref_lengths.append(lengths)
            ref_present.append(np.fromiter((k < len(r) for r in refs), bool, len(refs)))
        out[start:end] = rows_from_ids(hyp_ids, hyp_lengths, ref_ids, ref_lengths, ref_present, max_order)
        start = end
    return out
