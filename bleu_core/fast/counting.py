"""Counting clipped n-gram matches for many segments at once, with numpy.

The oracle (:func:`bleu_core.engine.statistics.segment_row`) builds a ``Counter`` of n-grams per
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

from .clipping import clipped_matches_by_segment
from .compiled import use_compiled

#: Token positions (hypothesis + references) processed together; bounds the working memory of one chunk
#: (a few hundred bytes per position at the peak, tokenisation included).
CHUNK_POSITIONS = 1_000_000


def sort_keys(keys: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """``(order, keys[order])`` with ``keys`` (non-negative, all ``< bound``) sorted ascending.

    The key is packed above the element index in one ``int64`` and sorted by value (numpy's vectorised sort),
    which is several times faster than ``argsort``; keys too wide to pack fall back to ``argsort``.

    >>> order, sorted_keys = sort_keys(np.array([30, 10, 30, 20]), 31)
    >>> order.tolist(), sorted_keys.tolist()
    ([1, 3, 0, 2], [10, 20, 30, 30])
    """
    n = keys.shape[0]
    shift = max(int(n - 1).bit_length(), 1)
    if max(int(bound) - 1, 1).bit_length() + shift > 63:
        order = np.argsort(keys, kind="stable")
        return order, keys[order]
    packed = keys.astype(np.int64, copy=False) << shift
    packed |= np.arange(n, dtype=np.int64)
    packed.sort()
    order = packed & ((1 << shift) - 1)
    packed >>= shift
    return order, packed


def clipped_matches(
    layout: np.ndarray,
    starts: np.ndarray,
    segment: np.ndarray,
    source: np.ndarray,
    n_segments: int,
    n_sources: int,
    max_order: int,
) -> np.ndarray:
    """Clipped n-gram matches per segment, shape ``(n_segments, max_order)`` (float64, exact integers).

    ``layout`` holds every line's token ids (``0 .. V-1``) one line after the other, each line followed by the
    separator id ``V`` (= ``layout.max()``). ``starts`` lists the positions of the real tokens in ``layout``,
    with their ``segment`` (0-based) and ``source`` (0 = hypothesis, 1..K = reference slot); ``n_sources`` is
    ``K + 1``. An n-gram never crosses a separator, so no line lengths are needed.

    Everything happens in *sorted order*: after sorting the keys of an order, equal n-grams of one segment and
    source are neighbours, their dense id is a running count of key changes, counts are run lengths, and the
    next order's keys are ``(id, next token, source)`` — no scatter back to text order is ever needed.
    """
    matches = np.zeros((n_segments, max_order), dtype=np.float64)
    if starts.shape[0] == 0 or n_sources < 2:
        return matches
    separator = int(layout.max())
    # Keys are bit fields (shifts and masks are much cheaper than integer division):
    # (n-gram part << source_bits) | source, the n-gram part being (segment or prefix id << token_bits) | token.
    token_bits = separator.bit_length()
    source_bits = max(n_sources - 1, 1).bit_length()
    source_mask = (1 << source_bits) - 1
    keys = (((segment << token_bits) | layout[starts]) << source_bits) | source
    bound = (n_segments << (token_bits + source_bits)) + 1
    positions = starts
    segment_of_prev = np.zeros(0, np.int64)
    for n in range(1, max_order + 1):
        order, keys = sort_keys(keys, bound)
        positions = positions[order]
        del order
        src = keys & source_mask
        keys >>= source_bits  # the n-gram part of the key
        new = np.empty(keys.shape[0], dtype=bool)
        new[0] = True
        np.not_equal(keys[1:], keys[:-1], out=new[1:])
        ids = np.cumsum(new, dtype=np.int64)
        ids -= 1
        n_ids = int(ids[-1]) + 1
        first_keys = keys[new]
        del new
        counts = np.bincount(ids * n_sources + src, minlength=n_ids * n_sources)
        counts = counts.reshape(n_ids, n_sources)
        in_hyp = counts[:, 0]
        in_refs = counts[:, 1:].max(axis=1)
        del counts
        # The segment of each distinct n-gram: from the key at order 1, then through the (n-1)-gram prefix.
        first_keys >>= token_bits
        segment_of = first_keys if n == 1 else segment_of_prev[first_keys]
        matches[:, n - 1] = np.bincount(
            segment_of, weights=np.minimum(in_hyp, in_refs), minlength=n_segments
        )
        if n == max_order:
            break
        # Only n-grams found in both the hypothesis and a reference of their segment can grow into matches,
        # and only if the line goes on (the next token is not the separator).
        grow = np.flatnonzero(((in_hyp > 0) & (in_refs > 0))[ids])
        next_token = layout[positions[grow] + n]
        goes_on = next_token != separator
        grow = grow[goes_on]
        if grow.shape[0] == 0:
            break
        positions = positions[grow]
        keys = (((ids[grow] << token_bits) | next_token[goes_on]) << source_bits) | src[grow]
        bound = (n_ids << (token_bits + source_bits)) + 1
        segment_of_prev = segment_of
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
    compiled: bool | None = None,
) -> np.ndarray:
    """Statistics rows (see :mod:`bleu_core.engine.statistics`) of segments given as token ids.

    ``hyp_ids`` holds the tokens of every hypothesis one after the other, ``hyp_lengths`` how many belong to each.
    Reference slot ``k`` is given the same way by ``ref_ids[k]``/``ref_lengths[k]``; ``ref_present[k]`` says
    which segments have that reference (an absent one must have length 0). The clipped matches come from the
    compiled kernel or from numpy sorting (identical results); ``compiled`` forces one (see
    :func:`bleu_core.fast.compiled.use_compiled`).
    """
    n_segments = hyp_lengths.shape[0]
    n_refs = len(ref_ids)
    streams = [(hyp_ids, hyp_lengths), *zip(ref_ids, ref_lengths, strict=True)]
    rows = np.empty((n_segments, 4 + 2 * max_order), dtype=np.float64)
    ref_len_matrix = (
        np.stack(list(ref_lengths), axis=1) if n_refs else np.zeros((n_segments, 0), np.int64)
    )
    present = np.stack(list(ref_present), axis=1) if n_refs else np.zeros((n_segments, 0), bool)
    rows[:, :4] = length_columns(hyp_lengths, ref_len_matrix, present)
    positions = sum(int(ids.shape[0]) for ids, _ in streams)
    if n_refs == 0 or positions == 0:
        rows[:, 4 : 4 + max_order] = 0.0
    elif use_compiled(positions, compiled):
        rows[:, 4 : 4 + max_order] = _compiled_matches(streams, max_order)
    else:
        rows[:, 4 : 4 + max_order] = _sorted_matches(streams, n_segments, max_order)
    orders = np.arange(max_order)
    rows[:, 4 + max_order :] = np.maximum(hyp_lengths[:, None] - orders[None, :], 0)
    return rows


def _compiled_matches(
    streams: Sequence[tuple[np.ndarray, np.ndarray]], max_order: int
) -> np.ndarray:
    """Clipped matches with the compiled segment-by-segment kernel (:mod:`bleu_core.fast.clipping`)."""
    lengths = np.stack([np.asarray(lens, dtype=np.int64) for _, lens in streams])
    offsets = np.cumsum([0, *(int(ids.shape[0]) for ids, _ in streams[:-1])])
    starts = np.cumsum(lengths, axis=1) - lengths + offsets[:, None]
    all_ids = np.concatenate([ids for ids, _ in streams])
    return clipped_matches_by_segment(all_ids, starts, lengths, max_order)


def _sorted_matches(
    streams: Sequence[tuple[np.ndarray, np.ndarray]], n_segments: int, max_order: int
) -> np.ndarray:
    """Clipped matches with numpy sorting (:func:`clipped_matches`)."""
    # Chunk-local token numbering 0..V-1 keeps the sort keys narrow; V is the line separator.
    all_ids = np.concatenate([ids for ids, _ in streams])
    seen = np.zeros(int(all_ids.max()) + 1 if all_ids.shape[0] else 1, dtype=bool)
    seen[all_ids] = True
    local = np.cumsum(seen, dtype=np.int64) - 1
    separator = int(local[-1]) + 1
    del all_ids, seen
    n_lines = n_segments * len(streams)
    total = sum(int(ids.shape[0]) for ids, _ in streams) + n_lines
    layout = np.full(total, separator, dtype=np.int64)
    starts, segment, source = [], [], []
    offset = 0
    segments = np.arange(n_segments, dtype=np.int64)
    for k, (ids, lengths) in enumerate(streams):
        # Where each line begins in `layout` and in `ids`.
        line_start = np.cumsum(lengths + 1) - (lengths + 1) + offset
        token_start = np.cumsum(lengths) - lengths
        pos = np.repeat(line_start - token_start, lengths) + np.arange(ids.shape[0], dtype=np.int64)
        layout[pos] = local[ids]
        starts.append(pos)
        segment.append(np.repeat(segments, lengths))
        source.append(np.full(ids.shape[0], k, dtype=np.int64))
        offset += int(ids.shape[0]) + n_segments
    return clipped_matches(
        layout,
        np.concatenate(starts),
        np.concatenate(segment),
        np.concatenate(source),
        n_segments,
        len(streams),
        max_order,
    )


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
    """Rows of :mod:`bleu_core.engine.statistics` for tokenised segments; ``refs_tokens[i]`` are segment i's references.

    Segments may have different numbers of references (none at all gives zero matches and reference lengths 0).
    Same result as :func:`bleu_core.engine.statistics.segment_row` on every segment.
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
        out[start:end] = rows_from_ids(
            hyp_ids, hyp_lengths, ref_ids, ref_lengths, ref_present, max_order
        )
        start = end
    return out
