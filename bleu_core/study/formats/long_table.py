"""One long CSV/TSV table holding a whole study: texts, references and ratings.

One row per (segment, translation), optionally with a score::

    segment_id,doc_id,source,system,role,text,rater,group,criterion,score
    1,d1,Der Hund bellt.,ref-A,reference,The dog barks.,,,,
    1,d1,Der Hund bellt.,A,system,The dog is barking.,r1,experts,adequacy,5
    1,d1,Der Hund bellt.,A,system,The dog is barking.,r2,experts,adequacy,4
    ,,,A,system,,r1,experts,adequacy,4.4          <- empty segment_id: a system-level score

Required columns: ``segment_id``, ``system`` and ``text``. ``role`` is ``system`` (default), ``reference``
(a reference stream named ``system``) or ``human`` (a human translation scored as a system). Rows with a
``criterion`` and a non-empty ``score`` add a rating; the text may then be repeated (it must be identical) or
left empty. Segments keep the order of their first row. A translation that does not cover a segment has
``None`` there. ``higher_is_better``, ``scale_min`` and ``scale_max`` declare criteria (see ratings.py).
An optional ``spans`` column holds the rater's error spans of the row's translation as ESA's JSON
(Appraise's export, read by :func:`bleu_core.study.formats.esa.parse_esa_spans`); they become the study's
error spans as from an ESA file, by the row's rater.

The builder reads in three steps: :func:`_collect` walks the rows once (each fact kept where first seen, a
contradiction an error naming both lines: :class:`bleu_core.io.FirstSeen`), :func:`_streams` lays the texts
out as reference and system streams, and the ratings come from :func:`bleu_core.study.ratings.ratings_from_table`
and the error spans from :func:`_error_spans`.

>>> text = ("segment_id,system,role,text,criterion,score\\n1,ref,reference,a dog,,\\n"
...         "1,A,system,the dog,adequacy,4\\n")
>>> result = load_long_table(text, "study.csv")
>>> result.study.references, result.study.systems, result.study.system_scores("adequacy")
({'ref': ['a dog']}, {'A': ['the dog']}, {'A': 4.0})
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bleu_core.errors import InputError
from bleu_core.io.first_seen import FirstSeen
from bleu_core.study.formats.esa import parse_esa_spans
from bleu_core.study.model import LoadResult, LoadWarning, Segment, Study
from bleu_core.study.ratings import (
    KEY_COLUMNS,
    ParsedRatings,
    ratings_from_table,
    unread_columns_warning,
)
from bleu_core.study.spans import ErrorSpan
from bleu_core.study.tables import Row, Table, parse_table
from bleu_core.study.validation import validate_study

__all__ = ["LONG_TABLE_COLUMNS", "load_long_table", "long_table_study", "looks_like_long_table"]

LONG_TABLE_COLUMNS = ("segment_id", "system", "text")
_ROLES = ("system", "reference", "human")


def looks_like_long_table(columns: list[str]) -> bool:
    """True when a header has the long table's required columns."""
    return all(column in columns for column in LONG_TABLE_COLUMNS)


def long_table_study(table: Table, *, name: str | None = None) -> LoadResult:
    """Build a study from a parsed long table (see the module docstring)."""
    table.require(*LONG_TABLE_COLUMNS)
    got = _collect(table)
    references, systems = _streams(got, table.file)
    parsed = _ratings(table, references, systems, got.segments)
    study = Study(
        name=name or table.file.rsplit("/", 1)[-1].rsplit(".", 1)[0],
        segments=tuple(
            Segment(seg, got.docs.get(seg), got.sources.get(seg)) for seg in got.segments
        ),
        references=references,
        systems=systems,
        human_systems=frozenset(n for n, role in got.roles.as_dict().items() if role == "human"),
        criteria=parsed.criteria if parsed else {},
        ratings=tuple(parsed.ratings) if parsed else (),
        error_spans=_error_spans(table, got, references),
        metadata={"format": "long-table"},
    )
    validate_study(study)
    warnings = _missing_text_warnings(references, systems, table.file)
    unread = unread_columns_warning(table)
    return LoadResult(study, tuple(warnings + ([unread] if unread else [])))


def load_long_table(text: str, file: str, *, name: str | None = None) -> LoadResult:
    """Parse and convert the text of a long table."""
    return long_table_study(parse_table(text, file), name=name)


def _segment_differs(column: str) -> Callable[[str], str]:
    """What a second, different *column* value of a segment is called: ``segment 's1' has a different doc_id``."""
    return lambda seg: f"segment {seg!r} has a different {column}"


@dataclass
class _Collected:
    """What the rows say, each fact with the line it was first given on."""

    file: str
    segments: dict[str, None] = field(default_factory=dict)  # segment ids in first-row order
    roles: FirstSeen[str, str] = field(init=False)
    docs: FirstSeen[str, str] = field(init=False)
    sources: FirstSeen[str, str] = field(init=False)
    texts: FirstSeen[tuple[str, str], str] = field(init=False)

    def __post_init__(self) -> None:
        self.roles = FirstSeen(
            self.file,
            lambda system: f"{system!r} has a different role",
            fix="a name is either a reference or a system",
            column="role",
        )
        self.docs, self.sources = (
            FirstSeen(
                self.file,
                _segment_differs(column),
                fix=f"a segment has one {column}",
                column=column,
            )
            for column in ("doc_id", "source")
        )
        self.texts = FirstSeen(
            self.file,
            lambda key: f"{key[0]!r} has a different text for segment {key[1]!r}",
            fix="repeat the same text or leave the cell empty",
            column="text",
        )


def _collect(table: Table) -> _Collected:
    got = _Collected(table.file)
    for row in table:
        system = _system_and_role(row, got)
        seg = row["segment_id"].strip()
        if not seg:
            if row["text"].strip():
                raise InputError(
                    "a text without segment_id; fill in the segment_id (an empty segment_id is "
                    "only for system-level scores)",
                    file=table.file,
                    line=row.line,
                    column="segment_id",
                )
            continue
        got.segments.setdefault(seg)
        if doc := row["doc_id"].strip():
            got.docs.add(seg, doc, line=row.line)
        if source := row["source"]:
            got.sources.add(seg, source, line=row.line)
        text = row["text"]
        if text.strip():
            got.texts.add((system, seg), text, line=row.line)
    if not got.segments:
        raise InputError("no segment rows (every segment_id is empty)", file=table.file)
    return got


def _system_and_role(row: Row, got: _Collected) -> str:
    system = row["system"].strip()
    if not system:
        raise InputError(
            "empty system name; every row needs one", file=got.file, line=row.line, column="system"
        )
    role = row.get("role", "system").strip().lower() or "system"
    if role not in _ROLES:
        raise InputError(
            f"unknown role {role!r}; use one of: {', '.join(_ROLES)}",
            file=got.file,
            line=row.line,
            column="role",
        )
    got.roles.add(system, role, line=row.line)
    return system


def _streams(
    got: _Collected, file: str
) -> tuple[dict[str, list[str | None]], dict[str, list[str | None]]]:
    """(reference streams, system streams): one text per segment, ``None`` where a translation is missing."""

    def stream(name: str) -> list[str | None]:
        return [got.texts.get((name, seg)) for seg in got.segments]

    roles = got.roles.as_dict()
    references = {n: stream(n) for n, role in roles.items() if role == "reference"}
    systems = {n: stream(n) for n, role in roles.items() if role != "reference"}
    if not references:
        raise InputError(
            "no reference: mark at least one translation with role 'reference' "
            "(add a 'role' column)",
            file=file,
        )
    return references, systems


def _missing_text_warnings(
    references: dict[str, list[str | None]], systems: dict[str, list[str | None]], file: str
) -> list[LoadWarning]:
    warnings = []
    for kind, streams in (("reference", references), ("system", systems)):
        for n, values in streams.items():
            missing = sum(1 for v in values if v is None)
            if missing and any(v is not None for v in values):
                warnings.append(
                    LoadWarning(
                        "missing-texts",
                        f"{kind} {n!r} has no text for {missing} of {len(values)} segments"
                        + ("; its corpus BLEU does not count them" if kind == "system" else ""),
                        file=file,
                    )
                )
    return warnings


def _ratings(
    table: Table,
    references: dict[str, list[str | None]],
    systems: dict[str, list[str | None]],
    segments: dict[str, None],
) -> ParsedRatings | None:
    """The table's ratings, or ``None`` when it has no score column; a rated reference is an error."""
    if not (
        "criterion" in table.columns
        or "score" in table.columns
        or any(c not in KEY_COLUMNS for c in table.columns)
    ):
        return None
    score_columns = (
        ["score"]
        if "score" in table.columns
        else [c for c in table.columns if c not in KEY_COLUMNS]
    )
    rated_references = sorted(
        {
            row["system"].strip()
            for row in table
            if row["system"].strip() in references and any(row[c].strip() for c in score_columns)
        }
    )
    if rated_references:
        raise InputError(
            f"ratings for the reference {', '.join(map(repr, rated_references))}: a reference "
            "cannot be scored against itself; give it role 'human' to rate it as a system",
            file=table.file,
        )
    # Rows that only carry text have empty score cells: skipping them is normal, not reported.
    return ratings_from_table(table, systems=set(systems), segment_ids=set(segments))


def _error_spans(
    table: Table, got: _Collected, references: dict[str, list[str | None]]
) -> tuple[ErrorSpan, ...]:
    """The error spans of the ``spans`` column, in the order of their first row.

    A rater gives the spans of one translation once: repeating them on the rater's other rows (one per
    criterion) is fine, different spans are an error naming both lines. An empty cell says nothing.
    """
    if "spans" not in table.columns:
        return ()
    kept: FirstSeen[tuple[str | None, str, str], tuple[ErrorSpan, ...]] = FirstSeen(
        table.file,
        lambda key: f"{_rater_words(key[0])} marks other spans in {key[1]!r}'s segment {key[2]!r}",
        fix="give a rater's spans of a translation on one row, or repeat them exactly "
        "(name each rater in the 'rater' column)",
        column="spans",
    )
    for row in table:
        cell = row["spans"].strip()
        if not cell:
            continue
        system, seg = row["system"].strip(), row["segment_id"].strip()
        text = _spanned_text(system, seg, got, references, row.line)
        rater = row["rater"].strip() or None
        spans = parse_esa_spans(
            cell, text, system=system, segment_id=seg, rater=rater, file=table.file, line=row.line
        )
        kept.add((rater, system, seg), tuple(spans), line=row.line)
    return tuple(span for spans in kept.as_dict().values() for span in spans)


def _rater_words(rater: str | None) -> str:
    return "the unnamed rater" if rater is None else f"rater {rater!r}"


def _spanned_text(
    system: str, seg: str, got: _Collected, references: dict[str, list[str | None]], line: int
) -> str:
    """The translation a row's spans point into; an error when there is none to mark."""
    if not seg:
        problem = "spans without a segment_id; spans mark a segment's translation"
    elif system in references:
        problem = (
            f"spans on the reference {system!r}: a reference is not rated; give it role 'human' "
            "to rate it as a system"
        )
    elif (text := got.texts.get((system, seg))) is None:
        problem = f"spans, but {system!r} has no text for segment {seg!r}; add the translation"
    else:
        return text
    raise InputError(problem, file=got.file, line=line, column="spans")
