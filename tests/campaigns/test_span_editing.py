"""The rules of marking ESA error spans word by word (bleu_core/campaigns/span_editing.py): chosen words become
spans covering exactly them, marks never overlap and stay inside the text, marking then removing restores,
switching severity twice restores."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core.campaigns import MarkedSpan
from bleu_core.campaigns.model import CampaignError
from bleu_core.campaigns.span_editing import (
    add_marks,
    mark_words,
    missing_mark,
    other_severity,
    overlaps,
    remove_mark,
    spans_from_words,
    switch_severity,
    words_covered,
    words_of,
)

WORDS = st.lists(st.sampled_from(["a", "bb", "<c>", "d&e", "ß", "ñandú"]), min_size=1, max_size=12)
SEPARATORS = st.sampled_from([" ", "  ", "\t", " \n "])
SEVERITY = st.sampled_from(["minor", "major"])


@st.composite
def text_and_words(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    words = draw(WORDS)
    seps = draw(st.lists(SEPARATORS, min_size=len(words) + 1, max_size=len(words) + 1))
    text = seps[0] + "".join(w + s for w, s in zip(words, seps[1:], strict=True))
    return text, words_of(text)


@st.composite
def marking_steps(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]], list[MarkedSpan]]:
    """A text and the marks after a judge's random sequence of marking steps."""
    text, words = draw(text_and_words())
    marks: list[MarkedSpan] = []
    for _ in range(draw(st.integers(0, 6))):
        chosen = draw(st.lists(st.integers(0, len(words) - 1), max_size=len(words)))
        marks = mark_words(marks, words, chosen, draw(SEVERITY), missing=draw(st.booleans()))
    return text, words, marks


def in_reading_order_without_overlap(marks: list[MarkedSpan]) -> bool:
    spans = [m for m in marks if not m.missing]
    return all(a.end <= b.start for a, b in zip(spans, spans[1:], strict=False)) and not any(
        overlaps(a, b) for i, a in enumerate(marks) for b in marks[i + 1 :]
    )


@given(text_and_words())
def test_words_are_the_runs_of_non_space_characters(case):
    text, words = case
    assert [text[a:b] for a, b in words] == text.split()


@given(text_and_words(), st.data())
def test_chosen_words_become_spans_covering_exactly_those_words(case, data):
    _, words = case
    chosen = data.draw(st.lists(st.integers(0, len(words) - 1)))
    spans = spans_from_words(chosen, words, "minor")
    covered = {
        i for i, (s, e) in enumerate(words) for span in spans if span.start <= s and e <= span.end
    }
    assert covered == set(chosen)
    assert all(
        a.end < b.start for a, b in zip(spans, spans[1:], strict=False)
    )  # a gap between runs


@given(marking_steps())
def test_marks_never_overlap_stay_inside_the_text_and_start_and_end_on_words(case):
    text, words, marks = case
    assert in_reading_order_without_overlap(marks)
    assert sum(m.missing for m in marks) <= 1 and all(m.missing for m in marks[-1:] if m.missing)
    starts, ends = {a for a, _ in words}, {b for _, b in words}
    for m in marks:
        if not m.missing:
            assert 0 <= m.start < m.end <= len(text)
            assert m.start in starts and m.end in ends


@given(marking_steps(), st.data())
def test_marking_words_clear_of_every_mark_then_removing_them_restores(case, data):
    _, words, marks = case
    free = [
        i
        for i, w in enumerate(words)
        if not any(overlaps(MarkedSpan(*w, "minor"), m) for m in marks)
    ]
    chosen = data.draw(st.lists(st.sampled_from(free), min_size=1)) if free else []
    after = mark_words(marks, words, chosen, data.draw(SEVERITY))
    new = [m for m in after if m not in marks]
    assert len(new) == len(spans_from_words(chosen, words, "minor"))
    restored = after
    for span in new:
        restored = remove_mark(restored, restored.index(span))
    assert restored == marks


@given(marking_steps(), st.data())
def test_switching_severity_twice_restores_and_keeps_the_characters(case, data):
    _, _, marks = case
    if not marks:
        return
    i = data.draw(st.integers(0, len(marks) - 1))
    once = switch_severity(marks, i)
    assert (once[i].start, once[i].end, once[i].missing) == (
        marks[i].start,
        marks[i].end,
        marks[i].missing,
    )
    assert once[i].severity != marks[i].severity
    assert switch_severity(once, i) == marks


def test_a_new_mark_replaces_the_marks_it_overlaps_and_a_new_missing_the_old_one():
    # "the cat sat on": words (0,3) (4,7) (8,11) (12,14); by hand
    words = words_of("the cat sat on")
    marks = mark_words([], words, [0], "minor", missing=True)
    marks = mark_words(marks, words, [3], "minor")
    assert marks == [MarkedSpan(0, 3, "minor"), MarkedSpan(12, 14, "minor"), missing_mark("minor")]
    marks = mark_words(marks, words, [0, 1], "major", missing=True)
    assert marks == [MarkedSpan(0, 7, "major"), MarkedSpan(12, 14, "minor"), missing_mark("major")]
    assert add_marks(marks, [MarkedSpan(8, 11, "minor")])[1] == MarkedSpan(8, 11, "minor")


def test_words_covered_and_a_span_between_words():
    words = words_of("the cat sat")
    assert words_covered(words, MarkedSpan(0, 11, "minor")) == (0, 2)
    assert words_covered(words, missing_mark("minor")) == (3, 3)
    assert words_covered(words, MarkedSpan(3, 4, "minor")) is None  # only the space


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_a_text_without_words_has_nothing_to_mark(text):
    assert words_of(text) == [] and mark_words([], [], [], "minor") == []


def test_an_unknown_severity_is_refused():
    with pytest.raises(CampaignError, match="unknown severity 'critical'; use one of minor, major"):
        other_severity("critical")
