"""MQM error spans: which characters of a translation (or of its source) a rater marked as an error.

An :class:`ErrorSpan` is one error that one rater marked in one system's translation of one segment: the
character offsets ``start``/``end`` (Python string indices, i.e. Unicode code points, ``end`` exclusive) into
the *target* text (the system's translation, ``study.systems[system][i]``) or, for errors a rater marked on
the *source* side (omissions, source errors), into the segment's source text (``side="source"``); the full
MQM ``category`` (``"Accuracy/Mistranslation"``), its top-level part (:attr:`ErrorSpan.top_category`,
``"Accuracy"``) and the ``severity`` (``"Major"``, ``"Minor"``...).

Google's MQM TSVs mark the span inside the text with ``<v>…</v>``; :func:`spans_from_marked_text` removes the
marks and returns the plain text and the offsets:

>>> spans_from_marked_text("Ich möchte <v>euch</v> alle bitten.")
('Ich möchte euch alle bitten.', [(11, 15)])
>>> text, [(start, end)] = _
>>> text[start:end]
'euch'

A study keeps its spans in ``study.error_spans``; :func:`check_error_spans` (run by
:func:`bleu_core.study.validation.validate_study`) makes sure each one points inside its text. This module
sits below :mod:`bleu_core.study.model` (the model imports :class:`ErrorSpan`), so it names the study it
checks by the few attributes it reads (:class:`SpannedStudy`), never by importing the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from bleu_core.errors import InputError, StudyError

__all__ = [
    "SIDES",
    "ErrorSpan",
    "SpannedStudy",
    "check_error_spans",
    "spans_from_columns",
    "spans_from_marked_text",
    "spans_of",
    "spans_to_columns",
]

Side = Literal["target", "source"]
#: The texts a span can point into.
SIDES: tuple[str, ...] = ("target", "source")

_MARK = re.compile(r"<(/?)v>")


@dataclass(frozen=True)
class ErrorSpan:
    """One MQM error marked by ``rater`` in ``system``'s translation of segment ``segment_id``.

    ``start``/``end`` are character offsets (``end`` exclusive) into the target text, or into the source text
    when ``side == "source"``. ``start == end`` is an empty span: it records the error but covers no
    character (and so no token).

    >>> span = ErrorSpan("A", "1", "rater1", "target", 4, 7, "Accuracy/Mistranslation", "Major")
    >>> span.top_category, span.length
    ('Accuracy', 3)
    """

    system: str
    segment_id: str
    rater: str | None
    side: Side
    start: int
    end: int
    category: str
    severity: str

    @property
    def top_category(self) -> str:
        """The part of the category before the first ``/`` (``"Fluency/Grammar"`` → ``"Fluency"``)."""
        return self.category.split("/", 1)[0].strip()

    @property
    def length(self) -> int:
        """Number of characters covered."""
        return self.end - self.start

    def overlaps(self, start: int, end: int) -> bool:
        """True when the characters ``[start, end)`` and the span share at least one character.

        >>> span = ErrorSpan("A", "1", None, "target", 4, 7, "Other", "Minor")
        >>> span.overlaps(0, 4), span.overlaps(0, 5), span.overlaps(6, 9), span.overlaps(7, 9)
        (False, True, True, False)
        """
        return max(self.start, start) < min(self.end, end)


def spans_from_marked_text(
    text: str,
    *,
    unclosed: Literal["error", "to-end"] = "error",
    file: str | None = None,
    line: int | None = None,
    column: str | None = None,
) -> tuple[str, list[tuple[int, int]]]:
    """Remove ``<v>``/``</v>`` marks from ``text``; return the plain text and the ``(start, end)`` of each
    marked span in it (offsets into the plain text).

    Raises :class:`~bleu_core.errors.InputError` (naming ``file``, ``line`` and ``column``) when the marks are
    nested, when a ``</v>`` closes nothing, or (with ``unclosed="error"``) when a ``<v>`` is never closed.
    Google's TSVs have a few rows whose last ``<v>`` is not closed (the rater marked up to the end of the
    text: TED en-de line 6444, zh-en line 9622); ``unclosed="to-end"`` reads such a span as running to the
    end of the text:

    >>> spans_from_marked_text("Warum <v>?", unclosed="to-end")
    ('Warum ?', [(6, 7)])

    >>> spans_from_marked_text("<v>a</v> b <v>c</v>")
    ('a b c', [(0, 1), (4, 5)])
    >>> spans_from_marked_text("a <v>b", file="x.tsv", line=3, column="target")
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: x.tsv, line 3, column target: an error span opened with <v> at character 2 is never closed with </v>; ...
    """
    if "<" not in text:
        return text, []
    pieces: list[str] = []
    spans: list[tuple[int, int]] = []
    position = 0  # in the plain text
    last = 0  # in the marked text
    open_at: int | None = None
    for match in _MARK.finditer(text):
        pieces.append(text[last : match.start()])
        position += match.start() - last
        last = match.end()
        closing = match.group(1) == "/"
        if not closing:
            if open_at is not None:
                raise InputError(
                    f"an error span opens with <v> at character {match.start()} inside another "
                    "span; spans cannot nest — close the first with </v>",
                    file=file,
                    line=line,
                    column=column,
                )
            open_at = position
        else:
            if open_at is None:
                raise InputError(
                    f"</v> at character {match.start()} closes no span; every </v> needs an "
                    "opening <v> before it",
                    file=file,
                    line=line,
                    column=column,
                )
            spans.append((open_at, position))
            open_at = None
    pieces.append(text[last:])
    plain = "".join(pieces)
    if open_at is not None and unclosed == "to-end":
        spans.append((open_at, len(plain)))
    elif open_at is not None:
        raise InputError(
            f"an error span opened with <v> at character {open_at} is never closed with </v>; "
            "add the closing mark",
            file=file,
            line=line,
            column=column,
        )
    return plain, spans


def spans_of(
    spans: Iterable[ErrorSpan],
    *,
    system: str | None = None,
    segment_id: str | None = None,
    side: str | None = "target",
    raters: Iterable[str | None] | None = None,
    severities: Iterable[str] | None = None,
    categories: Iterable[str] | None = None,
) -> list[ErrorSpan]:
    """The spans that pass every given filter (``None`` = no filter).

    ``severities`` compare case-insensitively; ``categories`` match a full category (``"Fluency/Grammar"``)
    or a top-level one (``"Fluency"``), case-insensitively.

    >>> spans = [ErrorSpan("A", "1", "r1", "target", 0, 1, "Fluency/Grammar", "Minor"),
    ...          ErrorSpan("A", "1", "r2", "source", 0, 1, "Accuracy/Omission", "Major")]
    >>> [s.rater for s in spans_of(spans, categories=["fluency"])]
    ['r1']
    >>> [s.rater for s in spans_of(spans, side=None, severities=["major"])]
    ['r2']
    """
    rater_set = None if raters is None else set(raters)
    severity_set = None if severities is None else {s.strip().lower() for s in severities}
    category_set = None if categories is None else {c.strip().lower() for c in categories}
    return [
        span
        for span in spans
        if (system is None or span.system == system)
        and (segment_id is None or span.segment_id == segment_id)
        and (side is None or span.side == side)
        and (rater_set is None or span.rater in rater_set)
        and (severity_set is None or span.severity.lower() in severity_set)
        and (
            category_set is None
            or span.category.lower() in category_set
            or span.top_category.lower() in category_set
        )
    ]


class SpannedStudy(Protocol):
    """What :func:`check_error_spans` reads of a study (a :class:`bleu_core.study.model.Study` has it all)."""

    @property
    def name(self) -> str: ...

    @property
    def segments(self) -> Sequence[Any]:  # each with ``id`` and ``source``
        ...

    @property
    def systems(self) -> Mapping[str, Sequence[str | None]]: ...

    @property
    def error_spans(self) -> Sequence[ErrorSpan]: ...


def check_error_spans(study: SpannedStudy) -> None:
    """Raise :class:`~bleu_core.errors.StudyError` on the first span that does not fit ``study``.

    Each span must name a system and a segment of the study, a side ``"target"`` or ``"source"``, a non-empty
    category and severity, and integer offsets with ``0 <= start <= end <= len(text)`` where ``text`` is the
    system's translation of the segment (or the segment's source for ``side="source"``), which must exist.

    >>> from bleu_core.study.model import Segment, Study
    >>> study = Study("toy", (Segment("1", None, "ein Hund"),), {"ref": ["a dog"]}, {"A": ["the dog"]})
    >>> study.error_spans = (ErrorSpan("A", "1", "r1", "target", 4, 9, "Other", "Minor"),)
    >>> check_error_spans(study)
    Traceback (most recent call last):
    ...
    bleu_core.errors.StudyError: toy: error span 1 (system 'A', segment '1', rater 'r1') ends at character 9, but the target text has 7 characters; ...
    """
    where = study.name or "study"
    spans = getattr(study, "error_spans", ())
    if not spans:
        return
    index = {segment.id: i for i, segment in enumerate(study.segments)}
    for number, span in enumerate(spans, start=1):
        if not isinstance(span, ErrorSpan):
            raise StudyError(
                f"error span {number} is a {type(span).__name__}, not an ErrorSpan", file=where
            )
        label = f"error span {number} (system {span.system!r}, segment {span.segment_id!r}"
        label += ")" if span.rater is None else f", rater {span.rater!r})"
        _check_names(span, label, study, index, where)
        i = index[span.segment_id]
        text = study.systems[span.system][i] if span.side == "target" else study.segments[i].source
        if text is None:
            raise StudyError(
                f"{label} points into the {span.side} text, but the study has no {span.side} text "
                "for this segment; drop the span or add the text",
                file=where,
            )
        _check_offsets(span, label, len(text), where)


def _check_names(
    span: ErrorSpan, label: str, study: SpannedStudy, index: Mapping[str, int], where: str
) -> None:
    """The span's system, segment, side, category and severity are known and given."""
    if span.system not in study.systems:
        raise StudyError(
            f"{label} is for unknown system {span.system!r}; known systems: "
            f"{', '.join(study.systems)}",
            file=where,
        )
    if span.segment_id not in index:
        raise StudyError(f"{label} is for unknown segment {span.segment_id!r}", file=where)
    if span.side not in SIDES:
        raise StudyError(
            f"{label} has side {span.side!r}; use 'target' (the translation) or 'source'",
            file=where,
        )
    if not isinstance(span.category, str) or not span.category.strip():
        raise StudyError(f"{label} has no category; give its MQM category", file=where)
    if not isinstance(span.severity, str) or not span.severity.strip():
        raise StudyError(
            f"{label} has no severity; give its MQM severity (Major, Minor...)", file=where
        )


def _check_offsets(span: ErrorSpan, label: str, length: int, where: str) -> None:
    """Integer offsets with ``0 <= start <= end <= length`` (the length of the text the span is in)."""
    if not (isinstance(span.start, int) and isinstance(span.end, int)) or isinstance(
        span.start, bool
    ):
        raise StudyError(
            f"{label} has offsets {span.start!r}, {span.end!r}; offsets must be integers",
            file=where,
        )
    if span.start < 0 or span.start > span.end:
        raise StudyError(
            f"{label} runs from character {span.start} to {span.end}; offsets need "
            "0 <= start <= end",
            file=where,
        )
    if span.end > length:
        raise StudyError(
            f"{label} ends at character {span.end}, but the {span.side} text has {length} "
            "characters; the offsets must lie inside the text (were they counted in bytes, or "
            "on a different text?)",
            file=where,
        )


def _codes(values: list[str | None]) -> tuple[list[str | None], list[int]]:
    names: dict[str | None, int] = {}
    codes = []
    for value in values:
        if value is None:
            codes.append(-1)
        else:
            codes.append(names.setdefault(value, len(names)))
    return list(names), codes


def spans_to_columns(spans: Iterable[ErrorSpan], segment_ids: list[str]) -> dict[str, list]:
    """The spans column-wise for a saved study (``docs/formats.md``, "Saved study"): name lists plus one
    small integer code per span (``-1`` = no rater), ``side`` 0 for target and 1 for source.

    >>> columns = spans_to_columns([ErrorSpan("A", "2", None, "source", 0, 3, "Other", "Minor")], ["1", "2"])
    >>> columns["segment"], columns["rater"], columns["side"], columns["start"], columns["end"]
    ([1], [-1], [1], [0], [3])
    """
    spans = list(spans)
    index = {seg_id: i for i, seg_id in enumerate(segment_ids)}
    systems, system_codes = _codes([s.system for s in spans])
    raters, rater_codes = _codes([s.rater for s in spans])
    categories, category_codes = _codes([s.category for s in spans])
    severities, severity_codes = _codes([s.severity for s in spans])
    return {
        "systems": systems,
        "raters": raters,
        "categories": categories,
        "severities": severities,
        "system": system_codes,
        "segment": [index[s.segment_id] for s in spans],
        "rater": rater_codes,
        "side": [SIDES.index(s.side) for s in spans],
        "start": [s.start for s in spans],
        "end": [s.end for s in spans],
        "category": category_codes,
        "severity": severity_codes,
    }


_NAME_LISTS = ("systems", "raters", "categories", "severities")
_CODE_COLUMNS = {
    "system": "systems",
    "segment": None,
    "rater": "raters",
    "side": None,
    "start": None,
    "end": None,
    "category": "categories",
    "severity": "severities",
}


def spans_from_columns(
    columns: object, segment_ids: list[str], *, file: str = "study"
) -> tuple[ErrorSpan, ...]:
    """Rebuild the spans from :func:`spans_to_columns` output; ``None`` (a study saved before spans
    existed, or one without spans) gives no spans.

    Raises :class:`~bleu_core.errors.StudyError` naming the JSON path of the first bad value. Whether the
    offsets fit the texts is checked afterwards by :func:`check_error_spans`.

    >>> spans_from_columns({"systems": ["A"]}, ["1"], file="s.json")
    Traceback (most recent call last):
    ...
    bleu_core.errors.StudyError: s.json: saved study: error_spans.raters is missing; ...
    """
    if columns is None:
        return ()
    fix = "the file was edited or damaged — fix the value, or save the study again with save_study"

    def fail(message: str) -> StudyError:
        return StudyError(f"saved study: {message}; {fix}", file=file)

    if not isinstance(columns, dict):
        raise fail("error_spans must be an object of columns")
    for key in (*_NAME_LISTS, *_CODE_COLUMNS):
        if not isinstance(columns.get(key), list):
            raise fail(
                f"error_spans.{key} is missing"
                if key not in columns
                else f"error_spans.{key} must be a list"
            )
    for key in _NAME_LISTS:
        for i, name in enumerate(columns[key]):
            if not isinstance(name, str) and not (key == "raters" and name is None):
                raise fail(f"error_spans.{key}[{i}] must be a text, got {name!r}")
    lengths = {len(columns[key]) for key in _CODE_COLUMNS}
    if len(lengths) != 1:
        raise fail(
            "the error_spans columns have different lengths ("
            + ", ".join(f"{key} {len(columns[key])}" for key in _CODE_COLUMNS)
            + ")"
        )
    limits = {
        "segment": len(segment_ids),
        "side": len(SIDES),
        **{key: len(columns[names]) for key, names in _CODE_COLUMNS.items() if names},
    }
    for key in _CODE_COLUMNS:
        lowest = -1 if key == "rater" else 0
        for i, code in enumerate(columns[key]):
            if not isinstance(code, int) or isinstance(code, bool):
                raise fail(f"error_spans.{key}[{i}] must be a whole number, got {code!r}")
            if code < lowest or (key in limits and code >= limits[key]):
                raise fail(f"error_spans.{key}[{i}] = {code} is out of range")
    raters = list(columns["raters"]) + [None]  # code -1 finds the appended None
    return tuple(
        ErrorSpan(
            columns["systems"][sy],
            segment_ids[sg],
            raters[ra],
            "target" if side == 0 else "source",
            start,
            end,
            columns["categories"][ca],
            columns["severities"][se],
        )
        for sy, sg, ra, side, start, end, ca, se in zip(
            *(columns[key] for key in _CODE_COLUMNS), strict=True
        )
    )
