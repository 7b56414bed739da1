"""Plain-text studies: one file per reference and per system, one segment per line (sacrebleu's convention).

A study folder looks like this (only ``references/`` and ``systems/`` are required)::

    my-study/
      references/ref-A.txt     one file per reference stream; the name is the file name without .txt
      systems/google.txt       one file per system output
      humans/translator2.txt   human translations to score as systems (optional)
      source.txt               the source sentences (optional)
      segments.tsv             segment ids and document ids: columns segment_id, doc_id (optional;
                               default ids are the line numbers 1..N)
      ratings.csv              human ratings, long or wide form (optional; see ratings.py); any one
                               .csv/.tsv at the top other than segments.tsv is read as the ratings

The same can be loaded from explicit paths with :func:`plain_text_study` (the Python API), and from files
side by side whose names say their role (WMT names such as ``newstest2021.de-en.ref.A.en``, ``NAME.ref``,
``NAME.hyp``; see :mod:`bleu_core.study.file_roles`) or whose roles are given, with :func:`files_study`.
Every file must have the same number of lines; blank reference or source lines are errors, blank system
lines a warning.

Every loader here reads (:class:`bleu_core.io.FileTree` or paths), collects (name, file, lines) per stream
and the texts of the tables, and hands them to :func:`build_plain_text_study`, which checks and builds.

Ratings may name a human translation by its reference letter (``HUMAN-B``, ``Human-B.12``, ``refB`` for
the reference ``ref-B``; a bare ``HUMAN`` for the only one): the scores of a human system are studied like a
machine's, those of a reference stream are set aside (``metadata["reference_ratings"]``) with a warning, and
:func:`~bleu_core.study.reference_choice.choose_references` makes it a human system with its scores.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import astuple
from pathlib import Path

from bleu_core.errors import InputError, StudyError
from bleu_core.io.members import FileTree
from bleu_core.io.text import DEFAULT_MAX_BYTES, read_lines, read_text
from bleu_core.study.file_roles import NAMING_HELP, ROLES, FileRole, recognise_files, stream_name
from bleu_core.study.load_progress import report
from bleu_core.study.model import LoadResult, LoadWarning, Rating, Segment, Study
from bleu_core.study.ratings import human_aliases, ratings_from_table, unread_columns_warning
from bleu_core.study.reference_choice import choose_references
from bleu_core.study.tables import parse_table
from bleu_core.study.validation import (
    check_blank_lines,
    check_line_counts,
    check_unique_names,
    validate_study,
)

__all__ = [
    "build_plain_text_study",
    "files_study",
    "folder_study",
    "looks_like_plain_text_folder",
    "plain_text_study",
]

#: One text stream as read: (stream name, file as shown in messages, lines)
Stream = tuple[str, str, list[str]]

_TEXT_SUFFIXES = (".txt", ".detok", ".hyp", ".ref")


def _stream_name(path: str) -> str:
    return stream_name(path)


def _named(paths: Sequence[str] | Mapping[str, str], what: str) -> list[tuple[str, str]]:
    if isinstance(paths, Mapping):
        pairs = [(str(name), str(path)) for name, path in paths.items()]
    else:
        pairs = [(_stream_name(str(path)), str(path)) for path in paths]
    check_unique_names(pairs, what=what)
    return pairs


def build_plain_text_study(
    *,
    name: str,
    references: list[Stream],
    systems: list[Stream],
    humans: Sequence[str] = (),
    source: tuple[str, list[str]] | None = None,
    segments_table: tuple[str, str] | None = None,
    ratings_table: tuple[str, str] | None = None,
    validate: bool = True,
) -> LoadResult:
    """Assemble a study from already-read files: (name, file, lines) per stream, texts of tables.

    ``validate=False`` leaves :func:`validate_study` to the caller (``load_study`` checks every study it
    returns, once: half a second on a 50 × 10k study).
    """
    n = _check_streams(name, references, systems, source)
    warnings = _blank_output_warnings(systems)
    ids, docs = _segment_ids(segments_table, n)
    source_lines = source[1] if source is not None else [None] * n
    system_names = {s for s, _, _ in systems}
    reference_names = [r for r, _, _ in references]
    human_translations = reference_names + [h for h in humans if h in system_names]
    ratings: tuple[Rating, ...] = ()
    set_aside: list[Rating] = []
    criteria: dict = {}
    if ratings_table is not None:
        ratings, set_aside, criteria, skipped = _ratings(
            ratings_table, system_names, reference_names, human_translations, ids
        )
        warnings += skipped
    study = Study(
        name=name,
        segments=tuple(
            Segment(seg, doc, src) for seg, doc, src in zip(ids, docs, source_lines, strict=True)
        ),
        references={r: list(lines) for r, _, lines in references},
        systems={s: list(lines) for s, _, lines in systems},
        human_systems=frozenset(h for h in humans if h in system_names),
        criteria=criteria,
        ratings=ratings,
        metadata={
            "format": "plain-text",
            # every human translation can be a reference stream (reference_choice.choose_references)
            "all_references": human_translations,
            "reference_ratings": [list(astuple(r)) for r in set_aside],
        },
    )
    if validate or set_aside:  # choose_references needs a checked study
        validate_study(study)
    if set_aside:  # a reference stream's own scores, set aside: the warning says how to study them
        warnings.extend(choose_references(study, reference_names).warnings)
    return LoadResult(study, tuple(warnings))


def _check_streams(
    name: str,
    references: list[Stream],
    systems: list[Stream],
    source: tuple[str, list[str]] | None,
) -> int:
    """The number of segments, once every file has it and no reference or source line is blank."""
    if not references:
        raise StudyError(
            "no reference file; give at least one (folder layout: references/NAME.txt)", file=name
        )
    if not systems:
        raise StudyError(
            "no system output file; give at least one (folder layout: systems/NAME.txt)", file=name
        )
    check_unique_names(
        [(n, f) for n, f, _ in references] + [(n, f) for n, f, _ in systems],
        what="reference or system",
    )
    files = {f: lines for _, f, lines in references}
    if source is not None:
        files = {source[0]: source[1], **files}
    files.update({f: lines for _, f, lines in systems})
    n = check_line_counts(files)
    for _, file, lines in references:
        check_blank_lines(file, lines)
    if source is not None:
        check_blank_lines(*source)
    return n


def _blank_output_warnings(systems: list[Stream]) -> list[LoadWarning]:
    warnings = []
    for system, file, lines in systems:
        blank = [i for i, line in enumerate(lines, start=1) if not line.strip()]
        if blank:
            warnings.append(
                LoadWarning(
                    "blank-output-lines",
                    f"system {system!r} has {len(blank)} blank lines (scored as empty outputs); if "
                    "these segments were not translated, that is what BLEU should count",
                    file=file,
                    line=blank[0],
                )
            )
    return warnings


def _segment_ids(
    segments_table: tuple[str, str] | None, n: int
) -> tuple[list[str], list[str | None]]:
    """Segment ids and document ids: from the segments table, else the line numbers 1..n."""
    if segments_table is None:
        return [str(i) for i in range(1, n + 1)], [None] * n
    file, text = segments_table
    table = parse_table(text, file)
    table.require("segment_id")
    if len(table.rows) != n:
        raise InputError(
            f"has {len(table.rows)} segment rows but the text files have {n} lines; one row "
            "per line, in the same order",
            file=file,
        )
    seen: dict[str, int] = {}
    for row in table:
        seg = row["segment_id"].strip()
        if not seg:
            raise InputError("empty segment_id", file=file, line=row.line, column="segment_id")
        if seg in seen:
            raise InputError(
                f"segment_id {seg!r} already used on line {seen[seg]}; ids must be unique",
                file=file,
                line=row.line,
                column="segment_id",
            )
        seen[seg] = row.line
    return list(seen), [row["doc_id"].strip() or None for row in table]


def _ratings(
    ratings_table: tuple[str, str],
    system_names: set[str],
    reference_names: list[str],
    human_translations: list[str],
    ids: list[str],
) -> tuple[tuple[Rating, ...], list[Rating], dict, list[LoadWarning]]:
    """(ratings of systems, ratings of reference streams set aside, criteria, warnings)."""
    report("reading ratings")
    table = parse_table(ratings_table[1], ratings_table[0])
    known = system_names | set(reference_names)
    parsed = ratings_from_table(
        table,
        systems=known,
        segment_ids=set(ids),
        aliases=human_aliases(table, human_translations, known),
    )
    ratings = tuple(r for r in parsed.ratings if r.system in system_names)
    set_aside = [r for r in parsed.ratings if r.system not in system_names]
    unread = unread_columns_warning(table)
    warnings = [unread] if unread else []
    if parsed.skipped_empty:
        warnings.append(
            LoadWarning(
                "empty-scores",
                f"{parsed.skipped_empty} empty score cells were skipped (items not rated)",
                file=ratings_table[0],
            )
        )
    return ratings, set_aside, parsed.criteria, warnings


def plain_text_study(
    references: Sequence[str | os.PathLike[str]] | Mapping[str, str | os.PathLike[str]],
    systems: Sequence[str | os.PathLike[str]] | Mapping[str, str | os.PathLike[str]],
    *,
    ratings: str | os.PathLike[str] | None = None,
    source: str | os.PathLike[str] | None = None,
    segments: str | os.PathLike[str] | None = None,
    humans: Sequence[str] = (),
    name: str = "study",
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> LoadResult:
    """Load a study from explicit plain-text files (names: file names without ``.txt``, or mapping keys).

    ``humans`` lists the systems that are human translations.
    """
    ref_pairs = _named(references, "reference")  # type: ignore[arg-type]
    sys_pairs = _named(systems, "system")  # type: ignore[arg-type]

    def read(path: str) -> list[str]:
        return read_lines(path, max_bytes=max_bytes)

    return build_plain_text_study(
        name=name,
        references=[(n, p, read(p)) for n, p in ref_pairs],
        systems=[(n, p, read(p)) for n, p in sys_pairs],
        humans=humans,
        source=None if source is None else (str(source), read(str(source))),
        segments_table=None
        if segments is None
        else (str(segments), read_text(segments, max_bytes=max_bytes)),
        ratings_table=None
        if ratings is None
        else (str(ratings), read_text(ratings, max_bytes=max_bytes)),
    )


def looks_like_plain_text_folder(files: Sequence[str]) -> bool:
    """True when a folder has ``references/`` and ``systems/`` (or ``humans/``) text files at the top."""
    top = {f.split("/", 1)[0] for f in files if "/" in f}
    return "references" in top and bool({"systems", "humans"} & top)


def folder_study(tree: FileTree, *, name: str | None = None, validate: bool = True) -> LoadResult:
    """Load a plain-text study folder (or zip) with the layout in the module docstring
    (``validate=False``: the caller runs :func:`validate_study`)."""
    files = tree.files()

    def under(folder: str) -> list[str]:
        return [f for f in files if f.startswith(folder + "/") and f.count("/") == 1]

    texts = [f for f in files if "/" in f or f == "source.txt"]
    n_read = [0]

    def read(path: str) -> list[str]:
        lines = tree.read_lines(path)
        n_read[0] += 1
        report("reading files", n_read[0], len(texts))
        return lines

    refs = [(_stream_name(p), tree.display(p), read(p)) for p in under("references")]
    machine = [(_stream_name(p), tree.display(p), read(p)) for p in under("systems")]
    humans = [(_stream_name(p), tree.display(p), read(p)) for p in under("humans")]
    for label, streams in (("reference", refs), ("system", machine + humans)):
        check_unique_names([(n, f) for n, f, _ in streams], what=label)
    source = ("source.txt" in files and (tree.display("source.txt"), read("source.txt"))) or None
    segments = None
    ratings = None
    top_files = [f for f in files if "/" not in f]
    for candidate in ("segments.tsv", "segments.csv"):
        if candidate in top_files:
            segments = (tree.display(candidate), tree.read_text(candidate))
    tables = [
        f
        for f in top_files
        if f.lower().endswith((".csv", ".tsv")) and f not in ("segments.tsv", "segments.csv")
    ]
    if len(tables) > 1:
        raise StudyError(
            f"several ratings tables at the top of the study folder ({', '.join(tables)}); "
            "merge them into one ratings.csv",
            file=tree.label,
        )
    if tables:
        ratings = (tree.display(tables[0]), tree.read_text(tables[0]))
    stray = [f for f in top_files if f.lower().endswith(_TEXT_SUFFIXES) and f != "source.txt"]
    if stray:
        raise StudyError(
            f"text file {stray[0]!r} is at the top of the study folder, where only source.txt "
            "belongs; move it to references/, systems/ or humans/",
            file=tree.label,
        )
    label = name or Path(tree.label).name.removesuffix(".zip")
    return build_plain_text_study(
        name=label,
        references=refs,
        systems=machine + humans,
        humans=[n for n, _, _ in humans],
        source=source,
        segments_table=segments,
        ratings_table=ratings,
        validate=validate,
    )


def files_study(
    tree: FileTree,
    roles: Mapping[str, str] | None = None,
    *,
    name: str | None = None,
    pair: str | None = None,
    validate: bool = True,
) -> LoadResult:
    """A plain-text study from files side by side: each file's role from ``roles`` (path -> one of
    :data:`~bleu_core.study.file_roles.ROLES`) or else from its name (:mod:`bleu_core.study.file_roles`);
    ``validate=False``: the caller runs :func:`validate_study`.

    Files with WMT names of several language pairs need ``pair``; files of other pairs are left out.
    Raises :class:`~bleu_core.errors.StudyError` naming the files whose role is unknown and the names
    that work.
    """
    assigned, pairs = _assign_roles(tree, dict(roles or {}))
    if pair is None and len(pairs) > 1:
        raise StudyError(
            f"these files are of several language pairs ({', '.join(pairs)}); choose one with "
            "pair='xx-yy' (command line: --pair xx-yy)",
            file=tree.label,
        )
    chosen_pair = pair or (pairs[0] if pairs else None)
    streams, tables = _read_by_role(tree, assigned, chosen_pair)
    if not streams["reference"]:
        raise StudyError(
            "no reference among these files; mark one as the reference, or name it so: "
            + NAMING_HELP,
            file=tree.label,
        )
    result = build_plain_text_study(
        name=name or (f"{Path(tree.label).name} {chosen_pair}" if chosen_pair else tree.label),
        references=streams["reference"],
        systems=streams["system"] + streams["human"],
        humans=[n for n, _, _ in streams["human"]],
        source=tables.get("source"),  # type: ignore[arg-type]
        segments_table=tables.get("segments"),  # type: ignore[arg-type]
        ratings_table=tables.get("ratings"),  # type: ignore[arg-type]
        validate=validate,
    )
    if chosen_pair:
        result.study.source_lang, result.study.target_lang = chosen_pair.split("-", 1)
    return result


def _assign_roles(tree: FileTree, given: dict[str, str]) -> tuple[dict[str, FileRole], list[str]]:
    """Every file's role (given, else recognised from its name) and the language pairs the names show."""
    files = tree.files()
    for path, role in given.items():
        if path not in files:
            raise StudyError(
                f"a role is given for {path!r}, which is not among the files ({', '.join(files)})",
                file=tree.label,
            )
        if role not in ROLES:
            raise StudyError(
                f"unknown role {role!r} for {path!r}; roles: {', '.join(ROLES)}", file=tree.label
            )
    found = recognise_files([f for f in files if f not in given])
    assigned: dict[str, FileRole] = dict(found.recognised)
    for path, role in given.items():
        assigned[path] = FileRole(role, stream_name(path))
    unknown = [f for f in found.unrecognised if not f.lower().endswith(".json")]
    if unknown:
        raise StudyError(
            f"the role of {', '.join(repr(tree.display(f)) for f in unknown)} is not known from "
            f"the name; {NAMING_HELP}",
            file=tree.label,
        )
    return assigned, found.pairs


def _read_by_role(
    tree: FileTree, assigned: dict[str, FileRole], chosen_pair: str | None
) -> tuple[dict[str, list[Stream]], dict[str, tuple[str, object]]]:
    """The streams by role (reference, system, human) and the other files by role (source: its lines;
    segments, ratings: their text), each file named as shown; files of another pair are left out."""
    streams: dict[str, list[Stream]] = {"reference": [], "system": [], "human": []}
    tables: dict[str, tuple[str, object]] = {}
    for path, role in assigned.items():
        if role.role == "ignore" or (role.pair and chosen_pair and role.pair != chosen_pair):
            continue
        shown = tree.display(path)
        if role.role in streams:
            streams[role.role].append(
                (role.name or stream_name(path), shown, tree.read_lines(path))
            )
            continue
        kind = role.role if role.role in ("source", "segments") else "ratings"
        if kind in tables and kind != "segments":  # a later segments table replaces an earlier one
            first = tables[kind][0]
            raise StudyError(
                f"two source files ({first} and {shown}); give one"
                if kind == "source"
                else f"several ratings tables ({first} and {shown}); merge them into one",
                file=tree.label,
            )
        tables[kind] = (shown, tree.read_lines(path) if kind == "source" else tree.read_text(path))
    return streams, tables
