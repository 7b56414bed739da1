"""Human ratings tables: long form (``criterion`` + ``score`` columns) or wide form (one column per criterion).

Long form, one score per row::

    system,segment_id,rater,group,criterion,score
    A,1,r1,experts,adequacy,4
    A,,r1,experts,adequacy,3.8        <- empty segment_id: a system-level score

Wide form, one column per criterion (every column that is not a known key column)::

    system,segment_id,rater,adequacy,fluency
    A,1,r1,4,5

Optional columns ``higher_is_better`` (true/false), ``scale_min`` and ``scale_max`` declare a criterion's
direction and scale (long form); otherwise :data:`KNOWN_CRITERIA` gives defaults for common names and
anything else is higher-is-better with no fixed scale.

>>> from bleu_core.study.tables import parse_table
>>> table = parse_table("system,segment_id,adequacy\\nA,1,4\\nA,2,\\n", "r.csv")
>>> parsed = ratings_from_table(table, systems={"A"}, segment_ids={"1", "2"})
>>> parsed.ratings
[Rating(system='A', segment_id='1', rater=None, group=None, criterion='adequacy', score=4.0)]
>>> parsed.criteria["adequacy"].scale, parsed.skipped_empty
((1.0, 5.0), 1)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from bleu_core.errors import InputError
from bleu_core.io.cells import number
from bleu_core.io.first_seen import FirstSeen
from bleu_core.study.load_progress import report
from bleu_core.study.model import Criterion, LoadWarning, Rating, Study
from bleu_core.study.tables import Row, Table

__all__ = [
    "KNOWN_CRITERIA",
    "ParsedRatings",
    "check_repeated_ratings",
    "default_criterion",
    "human_aliases",
    "ratings_from_table",
    "unread_columns_warning",
]

#: Defaults for criteria commonly found in MT evaluation data (used when a table does not declare them).
KNOWN_CRITERIA: dict[str, Criterion] = {
    "adequacy": Criterion(
        "adequacy", True, (1.0, 5.0), "How much of the meaning is kept (LDC/WMT 1-5 scale)"
    ),
    "fluency": Criterion(
        "fluency", True, (1.0, 5.0), "How good the target language is (1-5 scale)"
    ),
    "da": Criterion("da", True, (0.0, 100.0), "Direct assessment, raw 0-100 slider score"),
    "da_z": Criterion("da_z", True, None, "Direct assessment standardised per rater (z-score)"),
    "esa": Criterion(
        "esa",
        True,
        (0.0, 100.0),
        "ESA (Error Span Annotation, Kocmi et al. 2024): 0-100 after marking error spans; WMT24+",
    ),
    "mqm": Criterion(
        "mqm",
        True,
        None,
        "MQM: minus the weighted error count (Major 5, Minor 1, Minor punctuation 0.1, "
        "Non-translation 25); 0 is perfect",
    ),
}

#: Columns that identify a rating (or, like the long table's ``spans``, say more about it); every other
#: column of a wide table is a criterion.
KEY_COLUMNS = frozenset(
    {
        "system",
        "segment_id",
        "doc_id",
        "rater",
        "group",
        "criterion",
        "score",
        "higher_is_better",
        "scale_min",
        "scale_max",
        "source",
        "text",
        "role",
        "spans",
    }
)

_TRUE = {"true", "yes", "1", "higher"}
_FALSE = {"false", "no", "0", "lower"}


def default_criterion(name: str) -> Criterion:
    """The known definition of ``name`` or a plain higher-is-better criterion without scale."""
    known = KNOWN_CRITERIA.get(name.lower())
    return Criterion(name) if known is None else replace(known, name=name)


@dataclass
class ParsedRatings:
    """Ratings read from a table, the criteria they use, and how many empty cells were skipped."""

    ratings: list[Rating] = field(default_factory=list)
    criteria: dict[str, Criterion] = field(default_factory=dict)
    skipped_empty: int = 0
    lines: list[int] = field(default_factory=list)


def _declared_criteria(table: Table) -> dict[str, Criterion]:
    """Criteria declared through ``higher_is_better`` / ``scale_min`` / ``scale_max`` (long form); every
    row that names a criterion must declare it the same way."""
    declared: FirstSeen[str, Criterion] = FirstSeen(
        table.file,
        lambda name: f"criterion {name!r} is declared differently here",
        fix="declare each criterion the same way (direction and scale) on every row",
    )
    if not {"higher_is_better", "scale_min", "scale_max"} & set(table.columns):
        return {}
    for row in table:
        name = row["criterion"].strip()
        if name:
            declared.add(name, _declared_on_row(name, row, table.file), line=row.line)
    return declared.as_dict()


def _declared_on_row(name: str, row: Row, file: str) -> Criterion:
    base = default_criterion(name)
    direction = row["higher_is_better"].strip().lower()
    higher = base.higher_is_better
    if direction in _TRUE:
        higher = True
    elif direction in _FALSE:
        higher = False
    elif direction:
        raise InputError(
            f"higher_is_better must be true or false, not {direction!r}",
            file=file,
            line=row.line,
            column="higher_is_better",
        )
    low_text, high_text = row["scale_min"].strip(), row["scale_max"].strip()
    scale = base.scale
    if low_text or high_text:
        if not (low_text and high_text):
            raise InputError(
                "give both scale_min and scale_max (or neither)",
                file=file,
                line=row.line,
                column="scale_min" if not low_text else "scale_max",
            )
        low = number(low_text, file=file, line=row.line, column="scale_min")
        high = number(high_text, file=file, line=row.line, column="scale_max")
        if not low < high:
            raise InputError(
                f"scale_min {low} must be below scale_max {high}",
                file=file,
                line=row.line,
                column="scale_min",
            )
        scale = (low, high)
    return Criterion(name, higher, scale, base.description)


def _is_ascii_int(text: str) -> bool:
    """ASCII digits with an optional leading minus (``str.isdigit`` also accepts ``²`` and ``٣``)."""
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdigit()


def _check_known(
    value: str,
    known: Collection[str],
    *,
    what: str,
    row: Row,
    file: str,
    column: str,
) -> None:
    if value in known:
        return
    listing = sorted(known, key=lambda s: (len(s), s))
    shown = ", ".join(listing[:12]) + (" ..." if len(listing) > 12 else "")
    hint = ""
    if what == "segment" and _is_ascii_int(value.strip()):
        numeric = sorted(int(k) for k in known if _is_ascii_int(k))
        if numeric and int(value) == numeric[0] - 1:
            hint = (
                " (your ids look 0-based while the study's are 1-based: add 1 to every segment_id)"
            )
        elif numeric and int(value) == numeric[-1] + 1:
            hint = " (one past the last segment: are the ids shifted by one?)"
    raise InputError(
        f"rating for unknown {what} {value!r}{hint}; known {what}s: {shown}; "
        f"fix the name or add the {what}",
        file=file,
        line=row.line,
        column=column,
    )


def ratings_from_table(
    table: Table,
    *,
    systems: Collection[str],
    segment_ids: Collection[str],
    criteria: Mapping[str, Criterion] | None = None,
    aliases: Mapping[str, str] | None = None,
) -> ParsedRatings:
    """Read ratings from ``table`` (long or wide form), checking names, numbers and scales row by row.

    ``systems`` and ``segment_ids`` are the known names (a rating for anything else is an error naming the
    line). ``criteria`` gives definitions that take precedence over :data:`KNOWN_CRITERIA`.
    ``aliases`` maps other names of a system to its name (``{"HUMAN-B": "ref-B"}``, see
    :func:`human_aliases`). Empty score cells are skipped and counted (``skipped_empty``).
    """
    long_form, criterion_columns = _form(table)
    declared = _declared_criteria(table)
    result = ParsedRatings()
    given = dict(criteria or {})

    def criterion_for(name: str) -> Criterion:
        if name not in result.criteria:
            result.criteria[name] = given.get(name) or declared.get(name) or default_criterion(name)
        return result.criteria[name]

    known = _Known(systems, segment_ids, aliases or {})
    fast = _ratings_by_column(
        table,
        criterion_columns=None if long_form else criterion_columns,
        systems=systems,
        segment_ids=segment_ids,
        criterion_for=criterion_for,
        aliases=known.aliases,
    )
    if fast is not None:
        result.ratings, result.lines, result.skipped_empty = fast
        return result
    # Something is wrong (or unusual) in the table: the row-by-row reading finds the first problem and
    # names its line and column.
    result.criteria.clear()
    n_rows = len(table)
    for i, row in enumerate(table):
        if i % 25_000 == 0:
            report("reading ratings", i, n_rows)
        pairs = (
            [(row["criterion"].strip(), row["score"], "score")]
            if long_form
            else [(c, row[c], c) for c in criterion_columns]
        )
        _read_row(row, pairs, table.file, known, criterion_for, result)
    check_repeated_ratings(result.ratings, result.lines, file=table.file)
    return result


def unread_columns_warning(table: Table) -> LoadWarning | None:
    """An ``unread-columns`` warning naming the columns a long-form table (``criterion`` and ``score``) does
    not read, or ``None``: a criterion column beside them (wide form mixed in) would otherwise be dropped
    without a word.

    >>> from bleu_core.study.tables import parse_table
    >>> t = parse_table("system,segment_id,criterion,score,fluency\\nA,1,adequacy,4,3\\n", "r.csv")
    >>> print(unread_columns_warning(t).message)
    column 'fluency' is not read: with criterion and score columns every score comes from them (one row per criterion); give these scores as criterion/score rows, or drop the criterion and score columns to read one column per criterion
    """
    if "criterion" not in table.columns and "score" not in table.columns:
        return None
    unread = [c for c in table.columns if c not in KEY_COLUMNS]
    if not unread:
        return None
    plural = len(unread) > 1
    return LoadWarning(
        "unread-columns",
        f"column{'s' if plural else ''} {', '.join(map(repr, unread))} {'are' if plural else 'is'} not "
        "read: with criterion and score columns every score comes from them (one row per criterion); "
        "give these scores as criterion/score rows, or drop the criterion and score columns to read one "
        "column per criterion",
        file=table.file,
    )


def _form(table: Table) -> tuple[bool, list[str]]:
    """(long form?, the criterion columns of the wide form)."""
    table.require("system", "segment_id")
    if "criterion" in table.columns or "score" in table.columns:
        table.require("system", "segment_id", "criterion", "score")
        return True, []
    criterion_columns = [c for c in table.columns if c not in KEY_COLUMNS]
    if not criterion_columns:
        table.require(
            "criterion",
            "score",
            fix="give either 'criterion' and 'score' columns (long form) or one column per "
            "criterion (wide form), see docs/formats.md",
        )
    return False, criterion_columns


@dataclass(frozen=True)
class _Known:
    """The names a rating may use: the study's systems and segments, and other names of its systems."""

    systems: Collection[str]
    segment_ids: Collection[str]
    aliases: Mapping[str, str]


def _read_row(
    row: Row,
    pairs: list[tuple[str, str, str]],
    file: str,
    known: _Known,
    criterion_for: Callable[[str], Criterion],
    result: ParsedRatings,
) -> None:
    """Add the ratings of one row (``pairs``: criterion, score cell, column) to ``result``, or raise at the
    first problem with its line and column."""
    system = row["system"].strip()
    system = known.aliases.get(system, system)
    segment = row["segment_id"].strip() or None
    rater = row["rater"].strip() or None
    group = row["group"].strip() or None
    for name, cell, column in pairs:
        if not cell.strip():
            result.skipped_empty += 1
            continue
        if not name or not system:
            missing = "criterion" if not name else "system"
            raise InputError(
                f"score without a {missing}; fill in the {missing} column",
                file=file,
                line=row.line,
                column=missing,
            )
        _check_known(system, known.systems, what="system", row=row, file=file, column="system")
        if segment is not None:
            _check_known(
                segment, known.segment_ids, what="segment", row=row, file=file, column="segment_id"
            )
        score = number(cell, file=file, line=row.line, column=column, missing=("",))
        criterion = criterion_for(name)
        if not criterion.contains(score):
            low, high = criterion.scale  # type: ignore[misc]
            raise InputError(
                f"score {score:g} is outside the {name} scale [{low:g}, {high:g}]; correct it, "
                "or declare the scale with scale_min/scale_max columns",
                file=file,
                line=row.line,
                column=column,
            )
        result.ratings.append(Rating(system, segment, rater, group, name, score))
        result.lines.append(row.line)


def _ratings_by_column(
    table: Table,
    *,
    criterion_columns: list[str] | None,
    systems: Collection[str],
    segment_ids: Collection[str],
    criterion_for: Callable[[str], Criterion],
    aliases: Mapping[str, str],
) -> tuple[list[Rating], list[int], int] | None:
    """The ratings of a well-formed ``table`` read column by column: (ratings, lines, empty cells skipped).

    Half a million DA ratings (a 50 systems × 10,000 segments study) in about a second: every distinct
    score cell is parsed once, names are checked as sets, scales with numpy. Returns ``None`` as soon as
    anything would be an error (an unknown name, a bad number, a score off its scale, a repeated rating), so
    that the caller's row-by-row reading finds the first such row and names its line. The ratings come in
    the order of the rows (wide form: row by row, then column by column), as that reading gives them.
    """
    n_rows = len(table)
    report("reading ratings", 0, 4)

    def stripped(column: str) -> list[str]:
        return list(map(str.strip, table.column(column)))

    system = stripped("system")
    if aliases:
        system = [aliases.get(name, name) for name in system]
    segment = [name or None for name in stripped("segment_id")]
    rater = [name or None for name in stripped("rater")]
    group = [name or None for name in stripped("group")]
    if criterion_columns is None:  # long form: the criterion of each row, its score
        streams = [(stripped("criterion"), table.column("score"), "score")]
    else:  # wide form: one stream per criterion column
        streams = [([name] * n_rows, table.column(name), name) for name in criterion_columns]
    report("reading ratings", 1, 4)
    scored = _scores_in_row_order(table, streams)
    if scored is None:
        return None
    rows, which, values = scored
    report("reading ratings", 2, 4)
    row_list = rows.tolist()
    names = (
        [streams[0][0][i] for i in row_list]
        if criterion_columns is None
        else [criterion_columns[k] for k in which.tolist()]
    )
    kept = (
        [system[i] for i in row_list],
        [segment[i] for i in row_list],
        [rater[i] for i in row_list],
    )
    if not _well_formed(names, *kept, values, systems, segment_ids, criterion_for):
        return None
    report("reading ratings", 3, 4)
    ratings = list(
        map(Rating, kept[0], kept[1], kept[2], [group[i] for i in row_list], names, values.tolist())
    )
    report("reading ratings", 4, 4)
    lines = table.lines
    return ratings, [lines[i] for i in row_list], len(streams) * n_rows - len(row_list)


def _scores_in_row_order(
    table: Table, streams: list[tuple[list[str], list[str], str]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(row, stream, score) of every non-empty score cell, in the order of the row-by-row reading; ``None``
    when a cell is not a number."""
    kept_rows: list[np.ndarray] = []
    kept_scores: list[np.ndarray] = []
    n_rows = len(table)
    for _, cells, column in streams:
        parsed: dict[str, float] = {}
        for cell in set(cells):  # each distinct cell parsed once (DA tables repeat their scores)
            try:  # an empty cell is nan: not rated
                parsed[cell] = number(cell, file=table.file, line=0, column=column, missing=("",))
            except InputError:
                return None
        scores = np.fromiter(map(parsed.__getitem__, cells), dtype=np.float64, count=n_rows)
        rows = np.flatnonzero(~np.isnan(scores))
        kept_rows.append(rows)
        kept_scores.append(scores[rows])
    rows = np.concatenate(kept_rows)
    which = np.concatenate([np.full(len(r), k, dtype=np.intp) for k, r in enumerate(kept_rows)])
    values = np.concatenate(kept_scores)
    if len(streams) > 1:
        order = np.argsort(rows * len(streams) + which, kind="stable")
        rows, which, values = rows[order], which[order], values[order]
    return rows, which, values


def _well_formed(
    names: list[str],
    systems_of_rows: list[str],
    segments_of_rows: list[str | None],
    raters_of_rows: list[str | None],
    values: np.ndarray,
    systems: Collection[str],
    segment_ids: Collection[str],
    criterion_for: Callable[[str], Criterion],
) -> bool:
    """Whether the kept ratings need no message: names known, scores on their scales, no repeated rating."""
    if "" in names or "" in systems_of_rows:
        return False
    if not set(systems_of_rows) <= set(systems):
        return False
    if not set(segments_of_rows) - {None} <= set(segment_ids):
        return False
    names_array = np.asarray(names, dtype=object)
    for name in dict.fromkeys(
        names
    ):  # first appearance order, as the row-by-row reading meets them
        criterion = criterion_for(name)
        if criterion.scale is not None:
            low, high = criterion.scale
            on = values[names_array == name]
            if on.size and not (low <= on.min() and on.max() <= high):
                return False
    named = [
        key
        for key in zip(systems_of_rows, segments_of_rows, raters_of_rows, names, strict=True)
        if key[2] is not None
    ]
    return len(set(named)) == len(
        named
    )  # a rater scoring an item twice: the row-by-row reading says where


def check_repeated_ratings(
    ratings: Sequence[Rating], lines: Sequence[int] | None = None, *, file: str | None = None
) -> None:
    """A named rater may score an item (system, segment, criterion) once: raise on a repeat.

    Policy: averaging a rater's repeated scores silently would give that rater double weight in the
    mean over raters, and two *different* scores usually mean a copy-paste error or a misnamed rater. So
    a repeat is an error naming both lines, whether the scores differ or not. Deliberate repeats (e.g.
    quality-control items shown twice) must be resolved before loading: keep one row, or average them
    yourself. Ratings without a rater name are anonymous and may repeat (different unknown raters).

    ``lines`` are the table lines of the ratings; without them (ratings from Python) the message counts
    ratings instead ("rating 1", "rating 2").

    >>> r = Rating("A", "1", "ann", None, "adequacy", 4.0)
    >>> check_repeated_ratings([r, r], [2, 5], file="r.csv")
    Traceback (most recent call last):
      ...
    bleu_core.errors.InputError: r.csv, line 5: rater 'ann' scores system 'A', segment '1', adequacy twice (4 on line 2, 4 here): a duplicated row; ...
    """
    first: dict[tuple[str, str | None, str, str], tuple[float, int]] = {}
    where = "line" if lines is not None else "rating"
    numbers = lines if lines is not None else range(1, len(ratings) + 1)
    for rating, line in zip(ratings, numbers, strict=True):
        if rating.rater is None:
            continue
        key = (rating.system, rating.segment_id, rating.rater, rating.criterion)
        if key not in first:
            first[key] = (rating.score, line)
            continue
        score, earlier = first[key]
        item = (
            f"system {rating.system!r}, "
            + ("system level" if rating.segment_id is None else f"segment {rating.segment_id!r}")
            + f", {rating.criterion}"
        )
        kind = (
            "a duplicated row"
            if score == rating.score
            else "different scores for the same item (a copy-paste error or a misnamed rater?)"
        )
        raise InputError(
            f"rater {rating.rater!r} scores {item} twice ({score:g} on {where} {earlier}, "
            f"{rating.score:g} {'here' if lines is not None else f'on rating {line}'}): {kind}; "
            "keep one score per rater and item (bleu-study does not average a rater's repeats "
            "silently)",
            file=file,
            line=line if lines is not None else None,
        )


def human_aliases(
    table: Table, human_translations: Sequence[str], known: Collection[str]
) -> dict[str, str]:
    """Names in ``table``'s ``system`` column that mean one of ``human_translations`` by its reference
    letter (``HUMAN-B``, ``Human-B.12``, ``refB``, ``ref.B`` for ``ref-B``; a bare ``HUMAN`` for the only
    human translation), mapped to that name; names in ``known`` are left alone.

    >>> from bleu_core.study.tables import parse_table
    >>> table = parse_table("system,segment_id,da\\nHUMAN-B.12,1,90\\nHUMAN-C,1,80\\nmt,1,50\\n", "r.csv")
    >>> human_aliases(table, ["ref-B", "ref-C"], known={"mt", "ref-B", "ref-C"})
    {'HUMAN-B.12': 'ref-B', 'HUMAN-C': 'ref-C'}
    """
    from bleu_core.study.reference_choice import reference_letter

    by_letter: dict[str, list[str]] = {}
    for name in human_translations:
        letter = reference_letter(name)
        if letter:
            by_letter.setdefault(letter, []).append(name)
    aliases: dict[str, str] = {}
    for raw in dict.fromkeys(map(str.strip, table.column("system"))):
        if not raw or raw in known or raw in aliases:
            continue
        letter = reference_letter(raw)
        if letter == "" and len(human_translations) == 1:
            aliases[raw] = human_translations[0]
        elif letter and len(by_letter.get(letter, [])) == 1:
            aliases[raw] = by_letter[letter][0]
    return aliases


def group_system_scores(study: Study, criterion: str, group: str) -> dict[str, float]:
    """One human score per system for *criterion* from the raters of *group* only, aggregated exactly as
    :meth:`Study.system_scores` aggregates all raters (the mean of the group's system-level ratings where
    there are any, else the mean over segments of the mean over the group's raters); ``nan`` for a system
    the group did not rate."""
    ratings = tuple(r for r in study.ratings if r.criterion == criterion and r.group == group)
    return replace(study, ratings=ratings).system_scores(criterion)
