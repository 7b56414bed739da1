"""The class's span overlap computed with one matrix product equals the definition with sets of characters
(the mean of every pair's Jaccard index), to the last bit: a class of 100 gets the same number, faster."""

from __future__ import annotations

import itertools
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.campaigns.class_spans import class_span_overlap, span_overlap
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan

NAMES = ["ana", "bo", "cy", "dee", "ed"]


def by_sets(spans: list[StoredSpan], students: list[str]) -> float:
    """The definition: sets of marked characters, Jaccard per pair, exact mean ([missing] covers none)."""
    marked = {
        name: {
            i
            for s in spans
            if s.judge == name and not s.span.missing
            for i in range(s.span.start or 0, s.span.end or 0)
        }
        for name in students
    }
    values = [
        1.0
        if not (marked[a] | marked[b])
        else len(marked[a] & marked[b]) / len(marked[a] | marked[b])
        for a, b in itertools.combinations(sorted(marked), 2)
    ]
    return math.fsum(values) / len(values) if values else math.nan


span_lists = st.lists(
    st.tuples(
        st.sampled_from(NAMES + ["not a rater"]),
        st.integers(0, 30),
        st.integers(0, 12),
        st.booleans(),
        st.integers(0, 2),
    ),
    max_size=25,
)


def to_spans(drawn) -> list[StoredSpan]:
    return [
        StoredSpan(
            "K", who, "g", pos, "1", "A",
            MarkedSpan(None, None, "minor", True) if missing else MarkedSpan(start, start + length, "major"),
        )
        for who, start, length, missing, pos in drawn
    ]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(span_lists, st.lists(st.sampled_from(NAMES), max_size=5))
def test_matrix_overlap_is_the_set_definition_bit_for_bit(drawn, students):
    spans = [s for s in to_spans(drawn) if s.position == 0]
    ours, reference = span_overlap(spans, students), by_sets(spans, students)
    assert (math.isnan(ours) and math.isnan(reference)) or ours == reference


@settings(max_examples=100, deadline=None)
@given(span_lists, st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique=True))
def test_class_overlap_weights_items_by_their_pairs(drawn, students):
    spans = to_spans(drawn)
    raters = {0: students, 1: students[:2], 2: students[:1]}
    by_item = {p: [s for s in spans if s.position == p] for p in raters}
    pairs = {p: len(r) * (len(r) - 1) // 2 for p, r in raters.items()}
    expected = sum(by_sets(by_item[p], raters[p]) * pairs[p] for p in raters if pairs[p])
    assert class_span_overlap(spans, raters) == expected / sum(pairs.values())


def test_a_span_past_every_other_still_counts():
    """Characters beyond the longest other span widen the matrix (here 40 columns): a-b share 2 of 6."""
    spans = to_spans([("ana", 34, 4, False, 0), ("bo", 36, 4, False, 0)])
    assert span_overlap(spans, ["ana", "bo"]) == 2 / 6
