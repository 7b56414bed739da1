"""The WMT24+ release layout (folder or ``.zip``) → a study for one language pair, with ESA human scores.

WMT24 and WMT25 (``wmt-conference/wmt24-news-systems``) publish each pair as plain text files, all
line-aligned, **line 1 of every file a canary line** (``CANARY GUID ...``) that is not test data::

    txt/sources/en-ja.txt                       the source, one segment (usually a paragraph) per line
    txt/references/en-ja.refA.txt               one file per human reference: refA, refB, ...
    txt/system-outputs/en-ja/SYSTEM.txt         one file per system
    txt/documents/en-ja.docs                    per line: domain <TAB> document id
    txt/metadata/en-ja.jsonl                    per line: {"domain": ..., "docid": ...}
    humeval/*.csv                               ESA human scores, Appraise's export (:mod:`.esa`);
                                                humeval/old/ (superseded, off-by-one lines) is not read

``txt-ts/`` holds the same with the test suites appended; ``txt/`` is preferred when both are there. The
canary line is dropped (a note says so) and segment ``i`` (1-based, after the canary) has id ``"i"``, which
is also the ESA file's 0-based ``line``. Segments carry their document id and domain (from ``.docs``, else
from the ``.jsonl``).

References are named ``ref-A``, ``ref-B``, ... as in the older WMT layout (:mod:`bleu_core.study.wmt`), and
chosen the same way (``reference="B"``, ``"all"``; default the first): every other reference becomes a
human system with its ESA scores. The ESA scores of a reference stream are kept aside in
``metadata["reference_ratings"]`` (a text is not scored against itself) and still reported by
:func:`~bleu_core.study.formats.esa.esa_system_scores`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from bleu_core.errors import InputError, StudyError
from bleu_core.io.cells import json_cell
from bleu_core.io.members import FileTree
from bleu_core.study.formats.esa import (
    ESA_CRITERION,
    SECOND_OPINIONS,
    looks_like_esa,
    merge_files,
    read_esa,
    second_opinion_rows,
)
from bleu_core.study.formats.release_texts import blank_output_warnings, choose_pair, read_aligned
from bleu_core.study.model import LoadResult, LoadWarning, Segment, Study
from bleu_core.study.reference_choice import choose_references
from bleu_core.study.validation import check_line_counts

__all__ = ["Wmt24Release", "find_wmt24", "is_wmt24_release", "wmt24_pairs", "wmt24_study"]

_PAIR = r"(?P<pair>[a-z]{2,3}(?:_[A-Za-z]{2})?-[a-z]{2,3}(?:_[A-Za-z]{2})?)"
_TOP = r"(?:^|/)(?P<top>txt(?:-ts)?)/"
_SOURCE = re.compile(rf"{_TOP}sources/{_PAIR}\.txt$")
_REFERENCE = re.compile(rf"{_TOP}references/{_PAIR}\.ref(?P<ref>[A-Za-z0-9]+)\.txt$")
_SYSTEM = re.compile(rf"{_TOP}system-outputs/{_PAIR}/(?P<system>[^/]+)\.txt$")
_DOCS = re.compile(rf"{_TOP}documents/{_PAIR}\.docs$")
_METADATA = re.compile(rf"{_TOP}metadata/{_PAIR}\.jsonl$")
_CANARY = "canary"
# ESA exports sit directly in humeval/ (the organisers keep superseded files in humeval/old/, not read)
_HUMEVAL = re.compile(r"(?:^|/)(?:humeval|humaneval)/[^/]+\.csv$", re.IGNORECASE)


def _prefer_txt(paths: Sequence[str]) -> list[str]:
    """The ``txt/`` files (without test suites) when the release has them, else the ``txt-ts/`` ones."""
    plain = [p for p in paths if (m := _SOURCE.search(p)) and m["top"] == "txt"]
    if not plain:
        return list(paths)
    return [p for p in paths if "txt-ts/" not in p]


def is_wmt24_release(files: Sequence[str]) -> bool:
    """True when ``files`` (relative paths) hold a WMT24+ source file ``txt/sources/PAIR.txt``.

    >>> is_wmt24_release(["wmt24/txt/sources/en-ja.txt", "wmt24/txt/references/en-ja.refA.txt"])
    True
    >>> is_wmt24_release(["txt/sources/newstest2021.en-de.src.en"])
    False
    """
    return any(_SOURCE.search(f) for f in files)


def wmt24_pairs(files: Sequence[str]) -> list[str]:
    """The language pairs of a WMT24+ release, sorted."""
    return sorted({m["pair"] for f in _prefer_txt(files) if (m := _SOURCE.search(f))})


@dataclass
class Wmt24Release:
    """The files of one language pair of a WMT24+ release."""

    pair: str
    source: str
    references: dict[str, str] = field(default_factory=dict)  # letter -> path
    systems: dict[str, str] = field(default_factory=dict)  # system -> path
    documents: str | None = None
    metadata: str | None = None
    esa: list[str] = field(default_factory=list)


def find_wmt24(tree: FileTree, pair: str | None) -> Wmt24Release:
    """Locate the files of ``pair`` (or of the only pair); raise naming the pairs found."""
    files = _prefer_txt(tree.files())
    pairs = wmt24_pairs(files)
    pair = choose_pair(pairs, pair, tree.label)
    source = next(f for f in files if (m := _SOURCE.search(f)) and m["pair"] == pair)
    release = Wmt24Release(pair, source)
    for path in files:
        if (m := _REFERENCE.search(path)) and m["pair"] == pair:
            release.references[m["ref"]] = path
        elif (m := _SYSTEM.search(path)) and m["pair"] == pair:
            release.systems[m["system"]] = path
        elif (m := _DOCS.search(path)) and m["pair"] == pair:
            release.documents = path
        elif (m := _METADATA.search(path)) and m["pair"] == pair:
            release.metadata = path
        elif _HUMEVAL.search(path) and looks_like_esa(_first_line(tree, path)):
            release.esa.append(path)
    if not release.references:
        raise StudyError(
            f"no reference file for {pair} (expected txt/references/{pair}.refA.txt)",
            file=tree.label,
        )
    return release


def _first_line(tree: FileTree, path: str) -> str:
    data = tree.read_bytes(path)[:4096]
    return data.split(b"\n", 1)[0].decode("utf-8", "replace").lstrip("\ufeff").rstrip("\r")


def _is_canary(line: str) -> bool:
    return _CANARY in line[:200].lower()


def _read(tree: FileTree, path: str, canary: bool) -> list[str]:
    """The lines of one file, its canary line dropped when the release has one."""
    lines = tree.read_lines(path)
    if canary:
        if not lines or not _is_canary(lines[0]):
            raise InputError(
                "line 1 is not the canary line the other files of the release start with; is this "
                "file from another release?",
                file=tree.display(path),
                line=1,
            )
        return lines[1:]
    return lines


def _numbered_lines(tree: FileTree, path: str, canary: bool, n: int) -> list[tuple[int, str]]:
    """``(line number in the file, line)`` of a file with one line per segment (checked: ``n`` lines)."""
    lines = _read(tree, path, canary)
    check_line_counts({tree.display(path): lines}, expected=n)
    return list(enumerate(lines, start=1 + canary))


def _documents(
    tree: FileTree, release: Wmt24Release, canary: bool, n: int
) -> list[tuple[str, str]]:
    """(domain, document id) per segment, from ``.docs`` or else the ``.jsonl`` (empty: neither)."""
    if release.documents:
        path = release.documents
        result = []
        for number, line in _numbered_lines(tree, path, canary, n):
            cells = line.split("\t")
            if len(cells) != 2 or not all(c.strip() for c in cells):
                raise InputError(
                    f"{len(cells)} tab-separated fields, expected 2 (domain, document id)",
                    file=tree.display(path),
                    line=number,
                )
            result.append((cells[0].strip(), cells[1].strip()))
        return result
    if release.metadata:
        path = release.metadata
        result = []
        for number, line in _numbered_lines(tree, path, canary, n):
            item = json_cell(
                line,
                file=tree.display(path),
                line=number,
                expected="one object per line with domain and docid",
            )
            if not isinstance(item, dict):
                raise InputError(
                    "each line must be a JSON object", file=tree.display(path), line=number
                )
            result.append((str(item.get("domain") or ""), str(item.get("docid") or "")))
        return result
    return []


def wmt24_study(
    tree: FileTree,
    *,
    pair: str | None = None,
    reference: str | Sequence[str] | None = None,
    name: str | None = None,
) -> LoadResult:
    """Load one language pair of a WMT24+ release (the layout is in the module docstring)."""
    release = find_wmt24(tree, pair)
    pair = release.pair
    canary = _is_canary(_first_line(tree, release.source))
    texts = read_aligned(
        tree,
        release.source,
        release.references,
        release.systems,
        partial(_read, tree, canary=canary),
    )
    n, source_lines, refs, systems = texts.n, texts.source, texts.references, texts.systems
    documents = _documents(tree, release, canary, n)
    segments = tuple(
        Segment(
            str(i + 1),
            (documents[i][1] or None) if documents else None,
            source_lines[i],
            (documents[i][0] or None) if documents else None,
        )
        for i in range(n)
    )
    warnings = _notes(tree, release, systems, canary)
    all_refs: dict[str, list[str | None]] = {f"ref-{x}": list(v) for x, v in refs.items()}
    system_texts: dict[str, list[str | None]] = {s: list(v) for s, v in systems.items()}
    full = Study(
        name=name or f"WMT24 {pair}",
        segments=segments,
        references=all_refs,
        systems=system_texts,
        source_lang=pair.split("-")[0].split("_")[0],
        target_lang=pair.split("-")[1].split("_")[0],
        metadata={
            "format": "wmt-release",
            "layout": "wmt24",
            "pair": pair,
            "release": tree.label,
            "canary_line": canary,
            "all_references": list(all_refs),
            "reference_ratings": [],
        },
    )
    full, esa_warnings = _with_esa(tree, release, full, canary, {**system_texts, **all_refs})
    view = choose_references(full, list(all_refs)[:1] if reference is None else reference)
    return LoadResult(view.study, tuple(warnings + esa_warnings) + view.warnings)


def _notes(
    tree: FileTree, release: Wmt24Release, systems: dict[str, list[str]], canary: bool
) -> list[LoadWarning]:
    """The canary note and the blank-output warnings."""
    notes = []
    if canary:
        notes.append(
            LoadWarning(
                "canary-line",
                "line 1 of every file of the release is a canary line (CANARY GUID ...), not test "
                "data: it was dropped, so segment 1 is line 2 of the files (line 1 of the ESA "
                "scores, which count from 0)",
                file=tree.display(release.source),
            )
        )
    return notes + blank_output_warnings(tree, release.systems, systems, line_offset=int(canary))


def _with_esa(
    tree: FileTree,
    release: Wmt24Release,
    study: Study,
    canary: bool,
    texts: dict[str, list[str | None]],
) -> tuple[Study, list[LoadWarning]]:
    """The study with the release's ESA ratings and spans (references' ratings kept aside)."""
    if not release.esa:
        return study, []
    results = [
        read_esa(
            tree.read_text(path),
            tree.display(path),
            pair=release.pair,
            segment_ids=study.segment_ids,
            texts=texts,
            line_offset=int(canary),
            skip_other_pairs=True,
        )
        for path in sorted(release.esa)
    ]
    ratings, spans, warnings = merge_files(results)
    if not ratings:
        return study, warnings
    refs = set(study.references)
    metadata = dict(study.metadata)
    metadata["reference_ratings"] = [
        [r.system, r.segment_id, r.rater, r.group, r.criterion, r.score]
        for r in ratings
        if r.system in refs
    ]
    metadata["reference_spans"] = [
        [s.system, s.segment_id, s.rater, s.side, s.start, s.end, s.category, s.severity]
        for s in spans
        if s.system in refs
    ]
    metadata["esa_files"] = [tree.display(p) for p in sorted(release.esa)]
    metadata[SECOND_OPINIONS] = second_opinion_rows(results)  # for the human ceiling only
    study = replace(
        study,
        criteria={**study.criteria, ESA_CRITERION.name: ESA_CRITERION},
        ratings=tuple(r for r in ratings if r.system not in refs),
        error_spans=tuple(s for s in spans if s.system not in refs),
        metadata=metadata,
    )
    return study, warnings
