"""BLEU's predicted error spans scored for many translations at once, as numpy arrays.

:mod:`bleu_core.study.span_scores` defines the scores (exact, overlapping and character matches of BLEU's
runs of unmatched words against the raters' spans) and counts them one translation at a time
(:func:`~bleu_core.study.span_scores.item_counts`). Here the same counts come out for every translation
together: the texts are laid end to end (:class:`Layout`), so a character range of translation k becomes a
*global* range shifted by the length of the texts before it, and ranges of two translations never touch.
Then

* trimming a range of white space is two look-ups (the next and the previous non-space character);
* an exact match is an equal (start, end) pair, found by a sorted search;
* a predicted span touches a gold span of weight w when a gold span of that weight starts before the
  predicted one ends and ends after it starts (predicted spans are disjoint and sorted, so for gold spans
  the test is a difference of two sorted searches);
* characters are flags over the laid-out text.

Every count is summed per group (a system). ``tests/study/test_matched_tokens.py`` holds the results to the
one-translation-at-a-time code on generated studies and on the WMT24 release.

>>> layout = Layout.of(["the cat sat", " a "])
>>> runs = layout.shifted(np.array([0, 1]), np.array([4, 0]), np.array([11, 3]))   # "cat sat", " a "
>>> start, end, keep = layout.trimmed(*runs)
>>> [layout.text[a:b] for a, b in zip(start[keep].tolist(), end[keep].tolist())]
['cat sat', 'a']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "CHARACTER_FIELDS",
    "MATCH_FIELDS",
    "Layout",
    "character_counts",
    "match_counts",
    "unmatched_runs",
]

MATCH_FIELDS = (
    "predicted",
    "gold",
    "exact_right",
    "exact_found",
    "overlap_right",
    "overlap_found",
    "w_predicted_exact",
    "w_predicted_overlap",
    "w_gold",
    "w_exact_right",
    "w_exact_found",
    "w_overlap_right",
    "w_overlap_found",
)
"""The ``exact`` and ``overlap`` fields of :class:`~bleu_core.study.span_scores.SpanCounts`, in the order of
:func:`match_counts`' columns."""

CHARACTER_FIELDS = (
    "chars_hit",
    "chars_predicted",
    "chars_found",
    "chars_gold",
    "w_chars_hit",
    "w_chars_predicted",
    "w_chars_found",
    "w_chars_gold",
)
"""The ``character`` fields of :class:`~bleu_core.study.span_scores.SpanCounts`, in the order of
:func:`character_counts`' columns."""

_SPACE = re.compile(r"\s")

Ranges = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Character ranges of translations: (translation, start, end), one entry per range."""
WeightedRanges = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""Character ranges with a weight each: (translation, start, end, weight)."""


@dataclass(frozen=True)
class Layout:
    """Texts laid end to end: ``text`` is them joined, ``offsets[k]`` where text k starts (and the total
    at the end); ``after[i]`` is the first non-space character at or after ``i`` (``len(text)``: none),
    ``solid_end[i]`` one past the last non-space character at or before ``i`` (0: none). White space is
    what :meth:`str.isspace` says (``re``'s ``\\s`` on ``str`` uses the same table)."""

    text: str
    offsets: np.ndarray
    after: np.ndarray
    solid_end: np.ndarray

    @classmethod
    def of(cls, texts: Sequence[str]) -> Layout:
        offsets = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)), out=offsets[1:])
        text = "".join(texts)
        size = len(text)
        solid = np.ones(size + 1, dtype=bool)
        solid[[m.start() for m in _SPACE.finditer(text)]] = False
        index = np.arange(size + 1, dtype=np.int64)
        after = np.minimum.accumulate(np.where(solid, index, size)[::-1])[::-1]
        solid_end = np.maximum.accumulate(np.where(solid[:-1], index[1:], 0))
        return cls(text, offsets, after, solid_end)

    def shifted(
        self, item: np.ndarray, start: np.ndarray, end: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Ranges of translations ``item`` as global ranges."""
        return self.offsets[item] + start, self.offsets[item] + end

    def trimmed(
        self, start: np.ndarray, end: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Global ranges without the white space at either end, and which of them are not empty then."""
        start = np.minimum(self.after[start], end)
        last = self.solid_end[np.maximum(end - 1, 0)] if len(self.solid_end) else np.zeros_like(end)
        end = np.maximum(start, np.where(end > 0, last, 0))
        return start, end, start < end


def unmatched_runs(
    flags: np.ndarray, bounds: np.ndarray, starts: np.ndarray, ends: np.ndarray
) -> Ranges:
    """BLEU's predicted spans of every translation (:func:`~bleu_core.study.span_scores.predicted_spans`):
    the maximal runs of tokens whose ``flags`` (matched) are clear, as (translation, start, end) arrays.
    ``bounds[k]`` is where translation k's tokens begin in the flat arrays (the total at the end)."""
    size = len(flags)
    edge = np.zeros(size + 1, dtype=bool)
    edge[bounds] = (
        True  # a run stops at the end of its translation and starts at the beginning of one
    )
    unmatched = ~flags
    first = np.flatnonzero(unmatched & (np.r_[True, flags[:-1]] | edge[:-1]))
    last = np.flatnonzero(unmatched & (np.r_[flags[1:], True] | edge[1:]))
    item = np.searchsorted(bounds, first, side="right") - 1
    return item, starts[first], ends[last]


def _touching_weight(
    start: np.ndarray, end: np.ndarray, g_start: np.ndarray, g_end: np.ndarray, g_weight: np.ndarray
) -> np.ndarray:
    """Per range, the heaviest gold range it shares a character with (0: none). Gold ranges may overlap."""
    heaviest = np.zeros(len(start))
    for weight in np.unique(g_weight):
        chosen = g_weight == weight
        order = np.argsort(g_start[chosen], kind="stable")
        g_starts, g_ends = g_start[chosen][order], np.maximum.accumulate(g_end[chosen][order])
        before = np.searchsorted(g_starts, end, side="left")  # gold ranges starting before the end
        touched = (before > 0) & (g_ends[np.maximum(before - 1, 0)] > start)
        heaviest = np.where(touched, np.maximum(heaviest, weight), heaviest)
    return heaviest


def _unique_gold(
    start: np.ndarray, end: np.ndarray, weight: np.ndarray, group: np.ndarray, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Equal gold ranges once, with the heaviest weight; sorted by start."""
    keys = start * width + end
    unique, first, where = np.unique(keys, return_index=True, return_inverse=True)
    heaviest = np.zeros(len(unique))
    np.maximum.at(heaviest, where.reshape(-1), weight)
    return unique // width, unique % width, heaviest, group[first]


def _spans(
    layout: Layout, item: np.ndarray, start: np.ndarray, end: np.ndarray, *extra: np.ndarray
) -> list[np.ndarray]:
    """Ranges of translations ``item`` as trimmed global ranges, the empty ones dropped, with ``extra``
    values kept aligned: [start, end, *extra]."""
    start, end, keep = layout.trimmed(*layout.shifted(item, start, end))
    return [start[keep], end[keep], *(values[keep] for values in extra)]


def match_counts(
    layout: Layout, pred: Ranges, gold: WeightedRanges, item_group: np.ndarray, n_groups: int
) -> np.ndarray:
    """The ``exact`` and ``overlap`` counts (:data:`MATCH_FIELDS`) per group: an ``(n_groups, 13)`` array.

    ``pred``: (translation, start, end) of the predicted spans, in text order; ``gold``: (translation,
    start, end, weight) of the gold spans; ``item_group[k]``: translation k's group. Ranges are the
    translation's own, trimmed here; the rule of :func:`~bleu_core.study.span_scores.item_counts`."""
    p_start, p_end, p_group = _spans(layout, *pred, item_group[pred[0]])
    g_start, g_end, g_weight, g_group = _spans(
        layout, gold[0], gold[1], gold[2], gold[3].astype(float), item_group[gold[0]]
    )
    width = len(layout.text) + 1
    g_start, g_end, g_weight, g_group = _unique_gold(g_start, g_end, g_weight, g_group, width)
    gold_keys, pred_keys = g_start * width + g_end, p_start * width + p_end  # gold_keys: sorted
    at = np.minimum(np.searchsorted(gold_keys, pred_keys), max(len(gold_keys) - 1, 0))
    exact = gold_keys[at] == pred_keys if len(gold_keys) else np.zeros(len(pred_keys), dtype=bool)
    exact_weight = (
        np.where(exact, g_weight[at], 0.0) if len(gold_keys) else np.zeros(len(pred_keys))
    )
    touching = _touching_weight(p_start, p_end, g_start, g_end, g_weight)
    # predicted spans are disjoint and sorted: those starting before a gold span ends, less those
    # ending before it starts
    found = np.searchsorted(p_start, g_end) - np.searchsorted(p_end, g_start, side="right") > 0

    def per(group: np.ndarray, values: np.ndarray) -> np.ndarray:
        return np.bincount(group, weights=values, minlength=n_groups)[:n_groups]

    columns = [
        per(p_group, np.ones(len(p_start))),
        per(g_group, np.ones(len(g_start))),
        per(p_group, exact),
        per(p_group, exact),  # predicted spans are distinct: each exact one finds its own gold span
        per(p_group, touching > 0),
        per(g_group, found),
        per(p_group, np.where(exact, exact_weight, 1.0)),
        per(p_group, np.where(touching > 0, touching, 1.0)),
        per(g_group, g_weight),
        per(p_group, exact_weight),
        per(p_group, exact_weight),
        per(p_group, touching),
        per(g_group, np.where(found, g_weight, 0.0)),
    ]
    return np.stack(columns, axis=1)


def _coverage(size: int, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """True at every position inside one of the ranges ``[starts[k], ends[k])``."""
    delta = np.bincount(starts, minlength=size + 1) - np.bincount(ends, minlength=size + 1)
    return np.cumsum(delta[:size]) > 0


def character_counts(
    layout: Layout, pred: Ranges, gold: WeightedRanges, item_group: np.ndarray, n_groups: int
) -> np.ndarray:
    """The ``character`` counts (:data:`CHARACTER_FIELDS`) per group: an ``(n_groups, 8)`` array. White
    space is not counted, a character weighs as the heaviest gold span over it, and a predicted character
    outside every gold span weighs 1 (the rule of :func:`~bleu_core.study.span_scores.item_counts`).
    ``pred`` and ``gold`` as for :func:`match_counts` (a gold span's end is cut at its text's end)."""
    size = len(layout.text)
    space = layout.after[:size] != np.arange(size)
    covered = _coverage(size, *layout.shifted(*pred))
    g_start, g_end = layout.shifted(gold[0], gold[1], gold[2])
    g_end = np.minimum(g_end, layout.offsets[gold[0] + 1])
    weights = gold[3].astype(float)
    weight = np.zeros(size)
    for w in np.unique(
        weights[g_start < g_end]
    ):  # lightest first: the heaviest over a character wins
        chosen = (weights == w) & (g_start < g_end)
        weight[_coverage(size, g_start[chosen], g_end[chosen])] = w
    weight[space] = 0.0
    covered &= ~space
    hit = covered & (weight > 0)
    group = np.repeat(item_group, np.diff(layout.offsets))

    def total(values: np.ndarray) -> np.ndarray:
        return np.bincount(group, weights=values, minlength=n_groups)[:n_groups]

    hits, hit_weight = total(hit), total(np.where(hit, weight, 0.0))
    predicted, gold_chars, gold_weight = total(covered), total(weight > 0), total(weight)
    columns = [hits, predicted, hits, gold_chars]
    columns += [hit_weight, hit_weight + predicted - hits, hit_weight, gold_weight]
    return np.stack(columns, axis=1)
