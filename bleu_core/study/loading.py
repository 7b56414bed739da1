"""One entry point for every study format: :func:`load_study`.

``load_study(path)`` recognises:

* ``demo:NAME`` — a study bundled with bleu-study (``demo:ted-en-de``, ``demo:ted-zh-en``,
  ``demo:paper-examples``; see :mod:`bleu_core.study.demo`);
* a saved study, ``*.json`` or ``*.json.gz`` (:mod:`bleu_core.study.storage`);
* a ``.tsv``/``.csv`` file: Google's MQM TSV (recognised by its header) or the long table
  (:mod:`bleu_core.study.formats.long_table`);
* a folder or ``.zip``: a WMT release (``txt/sources/...``, choose the pair) or a plain-text study folder
  (``references/``, ``systems/``, see :mod:`bleu_core.study.formats.plain_text`).

* files side by side whose names say their role (WMT names, ``NAME.ref``, ``NAME.hyp``) or whose roles are
  given (``roles=``; :mod:`bleu_core.study.file_roles`).

Every loader validates the study; then the usual-mistake detectors run (:mod:`bleu_core.study.mistakes`) and
their warnings are returned with the study in a :class:`~bleu_core.study.model.LoadResult`. A text file that
started with a byte-order mark gets a ``byte-order-mark`` warning (the mark is removed here, but sacrebleu,
and so an official score, keeps it inside the first word).

Files uploaded in the app are loaded from memory by :func:`load_files`, so messages name them as the user
did. ``reference="all"`` loads every human translation as a reference stream and keeps everything needed to
switch to another choice with :func:`~bleu_core.study.reference_choice.choose_references`.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Sequence
from pathlib import Path

from bleu_core.errors import BleuStudyError, InputError, StudyError, WrongTypeError
from bleu_core.io.members import FileTree, MemoryTree, SubTree, open_tree, single_top_folder
from bleu_core.io.text import DEFAULT_MAX_BYTES, read_text
from bleu_core.study.file_roles import NAMING_HELP, TEXT_SUFFIXES, recognise_files
from bleu_core.study.formats.genmt import genmt_pairs, is_genmt_release
from bleu_core.study.formats.genmt_release import genmt_study
from bleu_core.study.formats.long_table import long_table_study, looks_like_long_table
from bleu_core.study.formats.mqm import looks_like_mqm, mqm_study_from_table
from bleu_core.study.formats.pearmut_study import (
    PearmutFiles,
    pearmut_file,
    pearmut_files,
    pearmut_kind,
    pearmut_study,
)
from bleu_core.study.formats.plain_text import (
    files_study,
    folder_study,
    looks_like_plain_text_folder,
)
from bleu_core.study.formats.release_scores import attach_release_scores
from bleu_core.study.formats.wmt import WMT_SOURCE_FILE, release_pairs, wmt_study
from bleu_core.study.formats.wmt24 import is_wmt24_release, wmt24_pairs, wmt24_study
from bleu_core.study.gc_pause import gc_paused
from bleu_core.study.load_progress import Progress, finish, report, reporting
from bleu_core.study.mistakes import detect_mistakes
from bleu_core.study.model import LoadResult, LoadWarning
from bleu_core.study.reference_choice import choose_references
from bleu_core.study.storage import read_saved_study
from bleu_core.study.tables import Table, parse_table
from bleu_core.study.validation import validate_study

__all__ = ["bom_warning", "list_pairs", "load_files", "load_study", "with_pair"]

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
    roles: dict[str, str] | None = None,
) -> LoadResult:
    files = tree.files()
    if roles is not None:
        return files_study(tree, roles, name=name, pair=pair, validate=False)
    if is_wmt24_release(files):
        return attach_release_scores(
            tree, wmt24_study(tree, pair=pair, reference=reference, name=name)
        )
    if any(WMT_SOURCE_FILE.search(f) for f in files):
        return attach_release_scores(
            tree, wmt_study(tree, pair=pair, reference=reference, name=name)
        )
    if is_genmt_release(files):
        return genmt_study(tree, pair=pair, reference=reference, name=name)
    pearmut = pearmut_files(tree) if any(f.endswith((".json", ".jsonl")) for f in files) else None
    if pearmut is not None:  # a Pearmut campaign with its annotation log or download
        return pearmut_study(pearmut, name=name)
    if looks_like_plain_text_folder(files):
        return folder_study(tree, name=name, validate=False)
    found = recognise_files(files)
    streams = [r for r in found.recognised.values() if r.role in ("reference", "system", "human")]
    singles = [f for f in files if f.endswith((".tsv", ".csv", ".json", ".json.gz"))]
    if len(singles) == 1 and "/" not in singles[0] and not streams:
        single = singles[0]
        if single.endswith((".tsv", ".csv")):
            table = parse_table(tree.read_text(single), tree.display(single))
            return _table_study(table, name=name, pair=pair, reference=reference)
    top = single_top_folder(tree)
    if top is not None:  # e.g. a zip of the folder "my-study/" rather than of its contents
        return _tree_study(SubTree(tree, top), name=name or top, pair=pair, reference=reference)
    if not found.unrecognised and any(r.role == "system" for r in found.recognised.values()):
        return files_study(tree, name=name, pair=pair, validate=False)
    shown = ", ".join(files[:8]) + (" ..." if len(files) > 8 else "") if files else "(empty)"
    unknown = [f for f in found.unrecognised if f.lower().endswith(TEXT_SUFFIXES)]
    why = f"the role of {', '.join(unknown[:8])} is not known from the name; " if unknown else ""
    raise StudyError(
        "not a study folder: expected a WMT release (txt/sources, txt/references, "
        "txt/system-outputs) or a plain-text study (references/ and systems/ folders of .txt files); "
        f"found: {shown}; {why}{NAMING_HELP} — see docs/formats.md",
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
    display_name: str | None = None,
    roles: dict[str, str] | None = None,
    progress: Progress | None = None,
) -> LoadResult:
    """Load a study from any supported format and return it with the warnings found.

    ``pair`` (``"en-de"``) picks the language pair of a WMT release (and sets the languages of an MQM TSV).
    ``reference`` chooses which translation(s) are reference streams (WMT: ``"A"``, ``["A", "C"]`` or
    ``"all"``; MQM TSV: a system name such as ``"refB"``); by default WMT uses ``ref-A`` and MQM the
    best-rated human translation. ``max_bytes`` caps the size of every file read (default 200 MiB).
    ``detect=False`` skips the usual-mistake detectors. ``display_name`` is how messages name ``path`` (e.g.
    the name a file was uploaded under; a zip member is shown as ``display_name!member``). ``roles`` gives
    the role of files in a folder whose names do not say it (relative path -> ``reference``, ``system``,
    ``human``, ``source``, ``segments``, ``ratings`` or ``ignore``). ``progress(done, total, message)`` is
    told how far the load has got (:mod:`bleu_core.study.load_progress`; seconds on a 50 × 10k study).

    For formats whose loader does not choose references itself (plain text, long table, saved study),
    ``reference`` is applied with :func:`~bleu_core.study.reference_choice.choose_references`.

    Raises :class:`~bleu_core.errors.InputError` / :class:`~bleu_core.errors.StudyError` (both
    ``ValueError``) with a message naming the file, line and column and the fix.
    """
    if isinstance(path, (bytes, bytearray, memoryview)) or not isinstance(path, (str, os.PathLike)):
        raise WrongTypeError(
            "load_study() takes a path (str or pathlib.Path) to a study file or folder, or "
            f"'demo:NAME', not {type(path).__name__}; to load uploaded bytes, write them to a file "
            "first"
            if isinstance(path, (bytes, bytearray, memoryview))
            else "load_study() takes a path (str or pathlib.Path) to a study file or folder, or "
            f"'demo:NAME', not {type(path).__name__} {path!r:.40}"
        )
    text_path = os.fspath(path)
    if not isinstance(text_path, str):
        raise WrongTypeError(
            f"load_study() takes a text path, but this path object gives {type(text_path).__name__}"
        )
    if "\x00" in text_path:
        raise InputError("the path contains a NUL character; check the file name")
    check_choices(pair=pair, reference=reference, name=name)
    with reporting(progress), gc_paused():
        report("reading files")
        result = _load_and_check(
            text_path, pair, reference, name, max_bytes, detect, display_name, roles
        )
        finish()
    return result


def check_choices(*, pair: object = None, reference: object = None, name: object = None) -> None:
    """Refuse a ``pair``, ``reference`` or ``name`` of the wrong type before any loader sees it.

    Raises :class:`~bleu_core.errors.WrongTypeError` (a ``TypeError`` and a ``ValueError``) saying what
    the argument takes:

    >>> check_choices(reference=["A", "B"], pair="en-de")
    >>> check_choices(reference=3)
    Traceback (most recent call last):
      ...
    bleu_core.errors.WrongTypeError: load_study(reference=...) takes a reference name ('A', 'refB'), a list of names or 'all', not int 3
    """
    for argument, value, takes in (
        ("pair", pair, "a language pair such as 'en-de'"),
        ("name", name, "the study's name as text"),
    ):
        if value is not None and not isinstance(value, str):
            raise WrongTypeError(
                f"load_study({argument}=...) takes {takes}, not {type(value).__name__} {value!r:.40}"
            )
    names = [reference] if isinstance(reference, str) else reference
    if reference is not None and (
        not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names)
    ):
        wrong = (
            next((n for n in names if not isinstance(n, str)), names)
            if isinstance(names, (list, tuple))
            else reference
        )
        raise WrongTypeError(
            "load_study(reference=...) takes a reference name ('A', 'refB'), a list of names or "
            f"'all', not {type(wrong).__name__} {wrong!r:.40}"
        )


def _load_and_check(
    text_path: str,
    pair: str | None,
    reference: str | Sequence[str] | None,
    name: str | None,
    max_bytes: int,
    detect: bool,
    display_name: str | None,
    roles: dict[str, str] | None,
) -> LoadResult:
    if text_path.startswith(DEMO_PREFIX):
        from bleu_core.study.demo import load_demo_result

        result = load_demo_result(text_path[len(DEMO_PREFIX) :])
    else:
        result = _load_path(
            Path(text_path),
            pair=pair,
            reference=reference,
            name=name,
            max_bytes=max_bytes,
            display_name=display_name,
            roles=roles,
        )
    result = with_pair(result, pair, display_name or text_path)
    report("checking the study")
    validate_study(result.study)  # the loaders leave it here: one check of every study, not two
    chosen = _apply_reference(result, reference)
    if chosen.study is not result.study:
        validate_study(chosen.study)
    result = chosen
    if detect:
        report("looking for usual mistakes")
        result = LoadResult(result.study, result.warnings + tuple(detect_mistakes(result.study)))
    return result


def _load_path(
    path: Path,
    *,
    pair: str | None,
    reference: str | Sequence[str] | None,
    name: str | None,
    max_bytes: int,
    display_name: str | None = None,
    roles: dict[str, str] | None = None,
) -> LoadResult:
    shown = display_name or str(path)
    if not path.exists():
        raise InputError(
            "no such file or folder; check the path (bundled demos are named demo:ted-en-de, "
            "demo:ted-zh-en, demo:paper-examples)",
            file=shown,
        )
    lower = path.name.lower()
    if lower.endswith((".jsonl", ".json")) and (pearmut := _pearmut_file(path, shown, max_bytes)):
        return pearmut_study(pearmut, name=name)
    if path.is_dir() or lower.endswith(".zip"):
        with open_tree(path, max_bytes=max_bytes, label=display_name) as tree:
            return _tree_result(tree, name=name, pair=pair, reference=reference, roles=roles)
    if lower.endswith((".json", ".json.gz")):
        try:
            study = read_saved_study(path, max_bytes=max_bytes)
        except BleuStudyError as exc:
            if display_name is None:
                raise
            raise type(exc)(str(exc).replace(str(path), display_name)) from None
        if name:
            study.name = name
        return LoadResult(study, ())
    if lower.endswith((".tsv", ".csv")):
        table = parse_table(read_text(path, max_bytes=max_bytes, name=shown), shown)
        return _table_study(table, name=name, pair=pair, reference=reference)
    raise StudyError(
        "unrecognised study file; give a .json/.json.gz saved study, a .tsv/.csv table, a .zip, or "
        "a folder (a single text file is not a study: put it in a folder as references/NAME.txt or "
        "systems/NAME.txt) — see docs/formats.md",
        file=shown,
    )


_TABLE_SUFFIXES = (".csv", ".tsv", ".json", ".json.gz")


def _pearmut_file(path: Path, shown: str, max_bytes: int) -> PearmutFiles | None:
    """A Pearmut annotation log or download (``None`` for any other JSON file: a saved study)."""
    with open(path, "rb") as handle:
        head = handle.read(4096).decode("utf-8", "replace")
    if (
        path.name.lower().endswith(".json")
        and pearmut_kind(head) is None
        and '": [{"annotation"' not in head
    ):
        return None
    return pearmut_file(shown, read_text(path, max_bytes=max_bytes, name=shown))


def bom_warning(file: str) -> LoadWarning:
    """The warning for a text file that started with a UTF-8 byte-order mark (removed when read)."""
    from bleu_core.io.text import BOM_MESSAGE

    return LoadWarning("byte-order-mark", BOM_MESSAGE, file=file)


def _tree_result(
    tree: FileTree,
    *,
    name: str | None,
    pair: str | None,
    reference: str | Sequence[str] | None,
    roles: dict[str, str] | None = None,
) -> LoadResult:
    """Load a tree and add a warning for every text file that had a byte-order mark."""
    result = _tree_study(tree, name=name, pair=pair, reference=reference, roles=roles)
    boms = [bom_warning(f) for f in tree.bom_files if not f.lower().endswith(_TABLE_SUFFIXES)]
    return LoadResult(result.study, tuple(boms) + result.warnings) if boms else result


def _apply_reference(result: LoadResult, reference: str | Sequence[str] | None) -> LoadResult:
    """Choose ``reference`` when the format's loader did not (plain text, long table, saved study)."""
    if reference is None or result.study.metadata.get("format") in (
        "wmt-release",
        "google-mqm-tsv",
    ):
        return result
    view = choose_references(result.study, reference)
    return LoadResult(view.study, result.warnings + view.warnings)


def load_files(
    files: Sequence[tuple[str, bytes]],
    *,
    roles: dict[str, str] | None = None,
    pair: str | None = None,
    reference: str | Sequence[str] | None = None,
    name: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    detect: bool = True,
) -> LoadResult:
    """Load a study from files held in memory (e.g. uploaded in the app), named as the user named them.

    One file is loaded as :func:`load_study` loads it (a zip, a table, a saved study); several files are
    read side by side: a WMT release when there is a WMT source file, else a plain-text study whose roles
    come from the names or from ``roles`` (file name -> role;
    :func:`~bleu_core.study.file_roles.recognise_files` says which names need one). Messages name the
    files as given (``upload.zip!txt/...`` for a zip member), never a temporary path.
    """
    if not files:
        raise StudyError("no file given; upload the study's files")
    check_choices(pair=pair, reference=reference, name=name)
    if len(files) == 1 and not roles:
        import tempfile

        file_name, data = files[0]
        base = file_name.replace("\\", "/").rsplit("/", 1)[-1] or "upload"
        with tempfile.TemporaryDirectory(prefix="bleu-study-upload-") as tmp:
            path = Path(tmp) / base
            path.write_bytes(data)
            return load_study(
                path,
                pair=pair,
                reference=reference,
                name=name,
                max_bytes=max_bytes,
                detect=detect,
                display_name=file_name,
            )
    _check_unique_names(files)
    tree = MemoryTree(dict(files), max_bytes=max_bytes)
    if not any(WMT_SOURCE_FILE.search(f) for f in tree.files()) and not (
        is_wmt24_release(tree.files()) or is_genmt_release(tree.files())
    ):
        if roles or pearmut_files(tree) is None:  # Pearmut's files side by side are a campaign
            roles = roles or {}  # side-by-side files: a plain-text study, whatever the names say
    result = _tree_result(tree, name=name or "upload", pair=pair, reference=reference, roles=roles)
    result = with_pair(result, pair, "upload")
    validate_study(result.study)
    result = _apply_reference(result, reference)
    if detect:
        result = LoadResult(result.study, result.warnings + tuple(detect_mistakes(result.study)))
    return result


def with_pair(result: LoadResult, pair: str | None, label: str) -> LoadResult:
    """``result`` with the languages of ``pair`` (``"en-ja"``) on a study whose files name none (a long
    table, a plain-text folder, a saved study without them): the target language sets BLEU's default
    tokenizer, as sacrebleu's ``-l xx-yy`` does. A release or an MQM TSV already has the pair chosen.

    Raises :class:`~bleu_core.errors.InputError` for a ``pair`` that is not ``xx-yy`` and
    :class:`~bleu_core.errors.StudyError` when the study names another pair (``label`` names the file).

    >>> from bleu_core.study.model import Segment, Study
    >>> table = LoadResult(Study("t", (Segment("1"),), {"ref": ["a"]}, {"A": ["a"]}), ())
    >>> ready = with_pair(table, "en-ja", "t.csv").study
    >>> ready.source_lang, ready.target_lang, ready.metadata["pair"]
    ('en', 'ja', 'en-ja')
    >>> with_pair(LoadResult(ready, ()), "en-de", "t.csv")
    Traceback (most recent call last):
      ...
    bleu_core.errors.StudyError: t.csv: this study names its language pair en-ja, not en-de: leave --pair out or give en-ja
    """
    if pair is None:
        return result
    source, dash, target = pair.partition("-")
    if not (dash and source.strip() and target.strip()) or pair != pair.strip():
        raise InputError(
            f"--pair {pair!r} is not a language pair: give the source and target languages joined by "
            "'-', e.g. en-de",
            file=label,
        )
    study = result.study
    named = (study.source_lang, study.target_lang)
    if named == (source, target):
        return result
    if any(lang and lang != given for lang, given in zip(named, (source, target), strict=True)):
        shown = "-".join(lang or "?" for lang in named)
        raise StudyError(
            f"this study names its language pair {shown}, not {pair}: leave --pair out or give "
            f"{shown}",
            file=label,
        )
    from dataclasses import replace

    metadata = {**study.metadata, "pair": pair}
    study = replace(study, source_lang=source, target_lang=target, metadata=metadata)
    return LoadResult(study, result.warnings)


def _check_unique_names(files: Sequence[tuple[str, bytes]]) -> None:
    """Two files of one name (uploaded from two folders) are an error: one would hide the other.

    >>> _check_unique_names([("a.ref", b"x"), ("b.hyp", b"y"), ("a.ref", b"z")])
    Traceback (most recent call last):
      ...
    bleu_core.errors.StudyError: a.ref: given twice (files 1 and 3); every file needs its own name — rename one
    """
    first: dict[str, int] = {}
    for number, (file_name, _) in enumerate(files, start=1):
        if file_name in first:
            raise StudyError(
                f"given twice (files {first[file_name]} and {number}); every file needs its own name — "
                "rename one",
                file=file_name,
            )
        first[file_name] = number


def list_pairs(source: str | os.PathLike[str] | Sequence[tuple[str, bytes]]) -> list[str]:
    """The language pairs of a WMT release (a folder, a zip, or uploaded files), sorted; ``[]`` when the
    files are not a WMT release."""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not (path.is_dir() or zipfile.is_zipfile(path)):
            return []
        with open_tree(path) as tree:
            return release_pairs(tree) or wmt24_pairs(tree.files()) or genmt_pairs(tree)
    items = list(source)
    if len(items) == 1 and items[0][0].lower().endswith(".zip"):
        import io

        try:
            with zipfile.ZipFile(io.BytesIO(items[0][1])) as archive:
                names = [n for n in archive.namelist() if not n.endswith("/")]
        except (zipfile.BadZipFile, OSError, EOFError):
            return []  # not a zip after all: loading it says so, naming the file
        if is_genmt_release(names):  # the pairs are inside the test set: read that member only
            with zipfile.ZipFile(io.BytesIO(items[0][1])) as archive:
                wanted = [n for n in names if n.endswith("-genmt.jsonl")]
                return genmt_pairs(MemoryTree({n: archive.read(n) for n in wanted}))
        return release_pairs(MemoryTree(dict.fromkeys(names, b""))) or wmt24_pairs(names)
    names = [n for n, _ in items]
    if is_genmt_release(names):
        return genmt_pairs(MemoryTree(dict(items)))
    return release_pairs(MemoryTree(dict.fromkeys(names, b""))) or wmt24_pairs(names)
