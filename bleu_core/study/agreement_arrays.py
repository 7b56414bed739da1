"""The 2 × 2 agreement table of many translations at once, as numpy arrays.

:mod:`bleu_core.study.error_agreement` counts, for every annotated translation of a study, its tokens in the
four cells (BLEU matched or not × inside an error span or not), once per max order and once per group of
spans (all spans, each severity, each top-level category). :func:`item_tables` does it for all
translations together: BLEU's matched tokens come from :func:`bleu_core.study.matched_tokens.matched_tokens`
(one pass for every order), the tokens inside a group's spans are flags over the same flat layout, and the
four cells of each translation are sums over its slice. The definitions (and the item-by-item version the
tests compare against) stay in :mod:`bleu_core.study.error_agreement`.

>>> from array import array
>>> placed = [(("the", "cat", "sat"), array("l", [0, 4, 8]), array("l", [3, 7, 11]))]
>>> rows = item_tables(placed, [0], [[["the", "cat"]]], [[(4, 7, (0,))]], 1, (1, 2))
>>> rows[1][0].tolist(), rows[2][0].tolist()   # "cat" is matched and in error; "sat" unmatched, clean
([[1, 1, 0, 1]], [[1, 1, 0, 1]])
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

import numpy as np

from bleu_core.study.matched_tokens import MatchedTokens, matched_tokens
from bleu_core.tokenize.token_offsets import TokenColumns

__all__ = ["error_flags", "flat_offsets", "item_tables"]

SpanGroups = tuple[int, int, Sequence[int]]
"""A target-side error span of a translation: its start and end characters and the groups it belongs to."""


def flat_offsets(placed: Sequence[TokenColumns]) -> tuple[np.ndarray, np.ndarray]:
    """The token starts and ends of every translation, laid end to end (as :class:`MatchedTokens` lays
    out the tokens)."""
    if not placed:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    dtype = np.dtype(placed[0][1].typecode)  # every column is an array("l")
    starts = np.frombuffer(b"".join([s for _, s, _ in placed]), dtype=dtype)
    ends = np.frombuffer(b"".join([e for _, _, e in placed]), dtype=dtype)
    return starts.astype(np.int64), ends.astype(np.int64)


def error_flags(
    placed: Sequence[TokenColumns],
    bounds: np.ndarray,
    errors: Sequence[Sequence[SpanGroups]],
    n_groups: int,
) -> np.ndarray:
    """A ``(groups, tokens)`` boolean array: True where a token overlaps a span of the group (the rule of
    :func:`bleu_core.tokenize.token_offsets.tokens_overlapping`: a shared character; an empty token overlaps
    nothing)."""
    flags = np.zeros((n_groups, int(bounds[-1])), dtype=bool)
    for k, spans in enumerate(errors):
        if not spans:
            continue
        _, starts, ends = placed[k]
        offset = int(bounds[k])
        for start, end, groups in spans:
            if start >= end:
                continue
            first, stop = bisect_right(ends, start) + offset, bisect_left(starts, end) + offset
            for g in groups:
                flags[g, first:stop] = True
    flat_starts, flat_ends = flat_offsets(placed)
    flags &= flat_starts < flat_ends
    return flags


def _per_item(flags: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """How many flags are set in each translation's slice."""
    total = np.zeros(len(flags) + 1, dtype=np.int64)
    np.cumsum(flags, out=total[1:])
    return total[bounds[1:]] - total[bounds[:-1]]


def _cells(
    matched: np.ndarray, flags: np.ndarray, owner: np.ndarray, bounds: np.ndarray
) -> np.ndarray:
    """``(items, groups, 4)``: per translation and group the four cells (``COUNT_NAMES`` order)."""
    n_items = len(bounds) - 1
    tokens = np.diff(bounds)
    n_matched = _per_item(matched, bounds)
    out = np.empty((n_items, len(flags), 4), dtype=np.int64)
    for g, in_group in enumerate(flags):
        hit = np.flatnonzero(in_group)
        in_error = np.bincount(owner[hit], minlength=n_items)
        both = np.bincount(owner[hit], weights=matched[hit], minlength=n_items).astype(np.int64)
        out[:, g, 0] = both
        out[:, g, 1] = n_matched - both
        out[:, g, 2] = in_error - both
        out[:, g, 3] = tokens - n_matched - (in_error - both)
    return out


def item_tables(
    placed: Sequence[TokenColumns],
    segments: Sequence[int],
    references: Sequence[Sequence[Sequence[str]]],
    errors: Sequence[Sequence[SpanGroups]],
    n_groups: int,
    orders: Sequence[int],
    matches: MatchedTokens | None = None,
) -> dict[int, np.ndarray]:
    """Per max order, a ``(items, groups, 4)`` array of each translation's 2 × 2 table per group.

    ``placed[k]``: translation k's tokens and offsets; ``segments[k]``: its segment, an index into
    ``references`` (the token lists of that segment's references); ``errors[k]``: its target-side spans
    with their groups. ``matches``: :func:`~bleu_core.study.matched_tokens.matched_tokens` of these
    translations, when already counted.
    """
    if matches is None:
        matches = matched_tokens([p[0] for p in placed], segments, references, orders)
    bounds = matches.bounds
    flags = error_flags(placed, bounds, errors, n_groups)
    owner = np.repeat(np.arange(len(bounds) - 1, dtype=np.int64), np.diff(bounds))
    return {n: _cells(matches.matched[n], flags, owner, bounds) for n in orders}
