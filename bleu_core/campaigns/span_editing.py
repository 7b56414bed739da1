"""How a judge's choice of words becomes error spans under ESA, and how spans are changed and removed.

A judge marks errors by choosing words of the translation, not characters: a **word** is a run of
non-space characters (:func:`words_of` gives its character offsets). Neighbouring chosen words form one
span, from the first word's start to the last word's end (:func:`spans_from_words`); words with an unchosen
word between them form separate spans. ``[missing]`` marks an omission: a span with no characters
(:func:`missing_mark`), at most one per item.

Marking again is how a span is changed: a new span replaces every old one it overlaps, so the marks of an
item never overlap (:func:`add_marks`; :func:`mark_words` is the whole step from the chosen words). A mark's
severity switches between minor and major (:func:`switch_severity`), a mark is removed by its place in the
list (:func:`remove_mark`), and :func:`words_covered` says back which words a mark covers. The list keeps
character spans in reading order, then the ``[missing]`` mark.

>>> text = "the  cat sat"
>>> words_of(text)
[(0, 3), (5, 8), (9, 12)]
>>> marks = mark_words([], words_of(text), [0, 1], "minor")
>>> marks
[MarkedSpan(start=0, end=8, severity='minor', missing=False)]
>>> marks = mark_words(marks, words_of(text), [1, 2], "major", missing=True)   # overlaps: replaces it
>>> [(text[m.start:m.end] if not m.missing else "[missing]", m.severity) for m in marks]
[('cat sat', 'major'), ('[missing]', 'major')]
>>> switch_severity(marks, 0)[0].severity
'minor'
>>> remove_mark(marks, 1)
[MarkedSpan(start=5, end=12, severity='major', missing=False)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bleu_core.campaigns.model import CampaignError
from bleu_core.campaigns.protocols import SEVERITIES, MarkedSpan

_WORD = re.compile(r"\S+")


def words_of(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` character offsets (end exclusive) of the words of *text*: runs of non-space
    characters, in reading order. A text of spaces only has no word.

    >>> words_of(" a  bc ")
    [(1, 2), (4, 6)]
    """
    return [m.span() for m in _WORD.finditer(text)]


def spans_from_words(
    chosen: Sequence[int], words: Sequence[tuple[int, int]], severity: str
) -> list[MarkedSpan]:
    """One span of *severity* per run of neighbouring chosen words (indices into *words*, in any order,
    repeats ignored), from the run's first word's start to its last word's end; in reading order.

    >>> [(s.start, s.end) for s in spans_from_words([2, 0], words_of("the  cat sat"), "minor")]
    [(0, 3), (9, 12)]
    """
    spans: list[MarkedSpan] = []
    run: list[int] = []
    for index in sorted(set(chosen)):
        if run and index != run[-1] + 1:
            spans.append(MarkedSpan(words[run[0]][0], words[run[-1]][1], severity))
            run = []
        run.append(index)
    if run:
        spans.append(MarkedSpan(words[run[0]][0], words[run[-1]][1], severity))
    return spans


def missing_mark(severity: str) -> MarkedSpan:
    """The ``[missing]`` mark of *severity*: something left out of the translation, no characters."""
    return MarkedSpan(None, None, severity, True)


def overlaps(a: MarkedSpan, b: MarkedSpan) -> bool:
    """Whether two marks clash: two character spans sharing at least one character, or two ``[missing]``
    marks (an item has one). A ``[missing]`` mark never clashes with a character span.

    >>> overlaps(MarkedSpan(0, 3, "minor"), MarkedSpan(3, 5, "minor"))   # touching is not overlapping
    False
    """
    if a.missing or b.missing:
        return a.missing and b.missing
    return (a.start or 0) < (b.end or 0) and (b.start or 0) < (a.end or 0)


def add_marks(marks: Sequence[MarkedSpan], new: Sequence[MarkedSpan]) -> list[MarkedSpan]:
    """*marks* with *new* added: an old mark that overlaps a new one gives way to it (that is how a judge
    changes a span), so a new ``[missing]`` mark replaces the old one. Character spans come in reading
    order, then the ``[missing]`` mark. *new* is expected not to overlap itself (as
    :func:`spans_from_words` gives).

    >>> add_marks([MarkedSpan(0, 3, "minor"), MarkedSpan(9, 12, "minor")], [MarkedSpan(0, 8, "major")])
    [MarkedSpan(start=0, end=8, severity='major', missing=False), MarkedSpan(start=9, end=12, severity='minor', missing=False)]
    """
    kept = [old for old in marks if not any(overlaps(old, span) for span in new)]
    every = [*kept, *new]
    placed = sorted((s for s in every if not s.missing), key=lambda s: (s.start or 0, s.end or 0))
    return placed + [s for s in every if s.missing]


def mark_words(
    marks: Sequence[MarkedSpan],
    words: Sequence[tuple[int, int]],
    chosen: Sequence[int],
    severity: str,
    *,
    missing: bool = False,
) -> list[MarkedSpan]:
    """The marks after the judge chose the words *chosen* (and ``[missing]`` when *missing*) and marked
    them *severity*: :func:`spans_from_words` then :func:`add_marks`."""
    new = spans_from_words(chosen, words, severity)
    if missing:
        new.append(missing_mark(severity))
    return add_marks(marks, new)


def other_severity(severity: str) -> str:
    """The severity a "Make minor / major" button switches to.

    >>> other_severity("minor"), other_severity("major")
    ('major', 'minor')
    """
    if severity not in SEVERITIES:
        raise CampaignError(f"unknown severity {severity!r}; use one of {', '.join(SEVERITIES)}")
    return SEVERITIES[1 - SEVERITIES.index(severity)]


def switch_severity(marks: Sequence[MarkedSpan], index: int) -> list[MarkedSpan]:
    """*marks* with mark number *index* switched from minor to major or back, the same characters."""
    span = marks[index]
    switched = MarkedSpan(span.start, span.end, other_severity(span.severity), span.missing)
    return [switched if i == index else m for i, m in enumerate(marks)]


def remove_mark(marks: Sequence[MarkedSpan], index: int) -> list[MarkedSpan]:
    """*marks* without mark number *index*."""
    return [m for i, m in enumerate(marks) if i != index]


def words_covered(words: Sequence[tuple[int, int]], span: MarkedSpan) -> tuple[int, int] | None:
    """The first and last word (indices into *words*) that *span* shares a character with; for a
    ``[missing]`` mark ``(len(words), len(words))`` (its toggle comes after the words); ``None`` when the
    span covers no word.

    >>> words_covered(words_of("the cat sat"), MarkedSpan(4, 11, "major"))
    (1, 2)
    """
    if span.missing:
        return len(words), len(words)
    inside = [i for i, (a, b) in enumerate(words) if a < (span.end or 0) and (span.start or 0) < b]
    return (inside[0], inside[-1]) if inside else None
