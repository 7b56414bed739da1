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
"""

from __future__ import annotations

from bleu_core.errors import InputError
from bleu_core.study.model import LoadResult, LoadWarning, Segment, Study
from bleu_core.study.ratings import KEY_COLUMNS, ratings_from_table
from bleu_core.study.tables import Table, parse_table
from bleu_core.study.validation import validate_study

__all__ = ["LONG_TABLE_COLUMNS", "long_table_study", "looks_like_long_table"]

LONG_TABLE_COLUMNS = ("segment_id", "system", "text")
_ROLES = ("system", "reference", "human")


def looks_like_long_table(columns: list[str]) -> bool:
    """True when a header has the long table's required columns."""
    return all(column in columns for column in LONG_TABLE_COLUMNS)


def long_table_study(table: Table, *, name: str | None = None) -> LoadResult:
    """Build a study from a parsed long table (see the module docstring)."""
    table.require(*LONG_TABLE_COLUMNS)
    segment_order: dict[str, int] = {}
    docs: dict[str, tuple[str, int]] = {}
    sources: dict[str, tuple[str, int]] = {}
    roles: dict[str, tuple[str, int]] = {}
    texts: dict[tuple[str, str], tuple[str, int]] = {}
    for row in table:
        seg = row["segment_id"].strip()
        system = row["system"].strip()
        if not system:
            raise InputError(
                "empty system name; every row needs one",
                file=table.file,
                line=row.line,
                column="system",
            )
        role = row.get("role", "system").strip().lower() or "system"
        if role not in _ROLES:
            raise InputError(
                f"unknown role {role!r}; use one of: {', '.join(_ROLES)}",
                file=table.file,
                line=row.line,
                column="role",
            )
        if system in roles and roles[system][0] != role:
            raise InputError(
                f"{system!r} has role {role!r} here but {roles[system][0]!r} on line "
                f"{roles[system][1]}; a name is either a reference or a system",
                file=table.file,
                line=row.line,
                column="role",
            )
        roles.setdefault(system, (role, row.line))
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
        segment_order.setdefault(seg, len(segment_order))
        for column, store in (("doc_id", docs), ("source", sources)):
            value = row[column].strip() if column == "doc_id" else row[column]
            if not value:
                continue
            if seg in store and store[seg][0] != value:
                raise InputError(
                    f"segment {seg!r} has a different {column} than on line {store[seg][1]}; "
                    f"a segment has one {column}",
                    file=table.file,
                    line=row.line,
                    column=column,
                )
            store.setdefault(seg, (value, row.line))
        text = row["text"]
        if text.strip():
            key = (system, seg)
            if key in texts and texts[key][0] != text:
                raise InputError(
                    f"{system!r} has a different text for segment {seg!r} than on line "
                    f"{texts[key][1]}; repeat the same text or leave the cell empty",
                    file=table.file,
                    line=row.line,
                    column="text",
                )
            texts.setdefault(key, (text, row.line))
    if not segment_order:
        raise InputError("no segment rows (every segment_id is empty)", file=table.file)
    ids = list(segment_order)

    def stream(name: str) -> list[str | None]:
        return [texts[(name, seg)][0] if (name, seg) in texts else None for seg in ids]

    references = {n: stream(n) for n, (role, _) in roles.items() if role == "reference"}
    systems = {n: stream(n) for n, (role, _) in roles.items() if role != "reference"}
    if not references:
        raise InputError(
            "no reference: mark at least one translation with role 'reference' "
            "(add a 'role' column)",
            file=table.file,
        )
    warnings: list[LoadWarning] = []
    for kind, streams in (("reference", references), ("system", systems)):
        for n, values in streams.items():
            missing = sum(1 for v in values if v is None)
            if missing and any(v is not None for v in values):
                warnings.append(
                    LoadWarning(
                        "missing-texts",
                        f"{kind} {n!r} has no text for {missing} of {len(ids)} segments",
                        file=table.file,
                    )
                )
    has_ratings = "criterion" in table.columns or "score" in table.columns
    has_ratings = has_ratings or any(c not in KEY_COLUMNS for c in table.columns)
    parsed = None
    if has_ratings:
        score_columns = (
            ["score"]
            if "score" in table.columns
            else [c for c in table.columns if c not in KEY_COLUMNS]
        )
        rated_references = sorted(
            {
                row["system"].strip()
                for row in table
                if row["system"].strip() in references
                and any(row[c].strip() for c in score_columns)
            }
        )
        if rated_references:
            raise InputError(
                f"ratings for the reference {', '.join(map(repr, rated_references))}: a reference "
                "cannot be scored against itself; give it role 'human' to rate it as a system",
                file=table.file,
            )
        # Rows that only carry text have empty score cells: skipping them is normal, not reported.
        parsed = ratings_from_table(table, systems=set(systems), segment_ids=set(ids))
    study = Study(
        name=name or table.file.rsplit("/", 1)[-1].rsplit(".", 1)[0],
        segments=tuple(
            Segment(
                seg,
                docs[seg][0] if seg in docs else None,
                sources[seg][0] if seg in sources else None,
            )
            for seg in ids
        ),
        references=references,
        systems=systems,
        human_systems=frozenset(n for n, (role, _) in roles.items() if role == "human"),
        criteria=parsed.criteria if parsed else {},
        ratings=tuple(parsed.ratings) if parsed else (),
        metadata={"format": "long-table"},
    )
    validate_study(study)
    return LoadResult(study, tuple(warnings))


def load_long_table(text: str, file: str, *, name: str | None = None) -> LoadResult:
    """Parse and convert the text of a long table."""
    return long_table_study(parse_table(text, file), name=name)
