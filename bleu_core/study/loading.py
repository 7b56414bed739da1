"""One entry point for every study format: :func:`load_study`.

``load_study(path)`` recognises:

* ``demo:NAME`` — a study bundled with bleu-study (``demo:ted-en-de``, ``demo:ted-zh-en``,
  ``demo:paper-examples``; see :mod:`bleu_core.study.demo`);
* a saved study, ``*.json`` or ``*.json.gz`` (:mod:`bleu_core.study.storage`);
* a ``.tsv``/``.csv`` file: Google's MQM TSV (recognised by its header) or the long table
  (:mod:`bleu_core.study.longtable`);
* a folder or ``.zip``: a WMT release (``txt/sources/...``, choose the pair) or a plain-text study folder
  (``references/``, ``systems/``, see :mod:`bleu_core.study.plaintext`).

Every loader validates the study; then the usual-mistake detectors run (:mod:`bleu_core.study.mistakes`) and
their warnings are returned with the study in a :class:`~bleu_core.study.model.LoadResult`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from bleu_core.errors import InputError, StudyError
from bleu_core.study.longtable import long_table_study, looks_like_long_table
from bleu_core.study.mistakes import detect_mistakes
from bleu_core.study.model import LoadResult
from bleu_core.study.mqm import looks_like_mqm, mqm_study_from_table
from bleu_core.study.plaintext import folder_study, looks_like_plain_text_folder
from bleu_core.study.reading import (
    DEFAULT_MAX_BYTES,
    FileTree,
    SubTree,
    open_tree,
    read_text_file,
    single_top_folder,
)
from bleu_core.study.storage import read_saved_study
from bleu_core.study.tables import Table, parse_table
from bleu_core.study.validation import validate_study
from bleu_core.study.wmt import _SOURCE, wmt_study

__all__ = ["load_study"]

DEMO_PREFIX = "demo:"


def _table_study(
    table: Table,
    *,
    name: str | None,
    pair: str | None,
    reference: str | Sequence[str] | None,
) -> LoadResult:
    if looks_like_mqm(table.columns):
        return mqm_study_from_table(table, name=name, reference=reference, pair=pair)
    if looks_like_long_table(table.columns):
        return long_table_study(table, name=name)
    table.require(
        "segment_id",
        "system",
        "text",
        fix="a study table is either the long table (segment_id, system, text, ...) or Google's MQM "
        "TSV (system, doc, seg_id, rater, source, target, category, severity); a ratings-only file "
        "belongs in a plain-text study folder as ratings.csv — see docs/formats.md",
    )
    raise AssertionError("unreachable")  # pragma: no cover


def _tree_study(
    tree: FileTree,
    *,
    name: str | None,
    pair: str | None,
    reference: str | Sequence[str] | None,
) -> LoadResult:
    files = tree.files()
    if any(_SOURCE.search(f) for f in files):
        return wmt_study(tree, pair=pair, reference=reference, name=name)
    if looks_like_plain_text_folder(files):
        return folder_study(tree, name=name)
    singles = [f for f in files if f.endswith((".tsv", ".csv", ".json", ".json.gz"))]
    if len(singles) == 1 and "/" not in singles[0]:
        single = singles[0]
        if single.endswith((".tsv", ".csv")):
            table = parse_table(tree.read_text(single), tree.display(single))
            return _table_study(table, name=name, pair=pair, reference=reference)
    top = single_top_folder(tree)
    if top is not None:  # e.g. a zip of the folder "my-study/" rather than of its contents
        return _tree_study(SubTree(tree, top), name=name or top, pair=pair, reference=reference)
    shown = ", ".join(files[:8]) + (" ..." if len(files) > 8 else "") if files else "(empty)"
    raise StudyError(
        "not a study folder: expected a WMT release (txt/sources, txt/references, "
        "txt/system-outputs) or a plain-text study (references/ and systems/ folders of .txt files); "
        f"found: {shown} — see docs/formats.md",
        file=tree.label,
    )


def load_study(
    path: str | os.PathLike[str],
    *,
    pair: str | None = None,
    reference: str | Sequence[str] | None = None,
    name: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    detect: bool = True,
) -> LoadResult:
    """Load a study from any supported format and return it with the warnings found.

    ``pair`` (``"en-de"``) picks the language pair of a WMT release (and sets the languages of an MQM TSV).
    ``reference`` chooses which translation(s) are reference streams (WMT: ``"A"``, ``["A", "C"]`` or
    ``"all"``; MQM TSV: a system name such as ``"refB"``); by default WMT uses ``ref-A`` and MQM the
    best-rated human translation. ``max_bytes`` caps the size of every file read (default 200 MB).
    ``detect=False`` skips the usual-mistake detectors.

    Raises :class:`~bleu_core.errors.InputError` / :class:`~bleu_core.errors.StudyError` (both
    ``ValueError``) with a message naming the file, line and column and the fix.
    """
    text_path = os.fspath(path)
    if isinstance(text_path, str) and text_path.startswith(DEMO_PREFIX):
        from bleu_core.study.demo import load_demo_result

        result = load_demo_result(text_path[len(DEMO_PREFIX) :])
    else:
        result = _load_path(
            Path(text_path), pair=pair, reference=reference, name=name, max_bytes=max_bytes
        )
    validate_study(result.study)
    if detect:
        result = LoadResult(result.study, result.warnings + tuple(detect_mistakes(result.study)))
    return result


def _load_path(
    path: Path,
    *,
    pair: str | None,
    reference: str | Sequence[str] | None,
    name: str | None,
    max_bytes: int,
) -> LoadResult:
    if not path.exists():
        raise InputError(
            "no such file or folder; check the path (bundled demos are named demo:ted-en-de, "
            "demo:ted-zh-en, demo:paper-examples)",
            file=str(path),
        )
    lower = path.name.lower()
    if path.is_dir() or lower.endswith(".zip"):
        with open_tree(path, max_bytes=max_bytes) as tree:
            return _tree_study(tree, name=name, pair=pair, reference=reference)
    if lower.endswith((".json", ".json.gz")):
        study = read_saved_study(path, max_bytes=max_bytes)
        if name:
            study.name = name
        return LoadResult(study, ())
    if lower.endswith((".tsv", ".csv")):
        table = parse_table(read_text_file(path, max_bytes=max_bytes), str(path))
        return _table_study(table, name=name, pair=pair, reference=reference)
    raise StudyError(
        "unrecognised study file; give a .json/.json.gz saved study, a .tsv/.csv table, a .zip, or "
        "a folder (a single text file is not a study: put it in a folder as references/NAME.txt or "
        "systems/NAME.txt) — see docs/formats.md",
        file=str(path),
    )
