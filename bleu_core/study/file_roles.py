"""What each file of a plain-text study is, from its name: reference, system output, source, table.

A set of files (a folder without the ``references/``/``systems/`` layout, or files uploaded together) is read
as a plain-text study when every text file's role is known. Names that say their role:

* WMT names: ``newstest2021.de-en.src.de`` (source), ``newstest2021.de-en.ref.A.en`` (reference ``ref-A``),
  ``newstest2021.de-en.hyp.SYSTEM.en`` (system ``SYSTEM``);
* ``references/NAME.txt``, ``systems/NAME.txt``, ``humans/NAME.txt`` (the study-folder layout);
* ``NAME.ref`` (a reference), ``NAME.hyp`` (a system), ``source.txt``;
* ``segments.tsv``/``segments.csv`` (segment and document ids) and any other ``.csv``/``.tsv`` (ratings).

Any other name gets its role from the caller (the upload form, or ``roles={"mine.txt": "reference"}``).

>>> found = recognise_files(["newstest2021.de-en.ref.A.en", "newstest2021.de-en.hyp.Online-B.en",
...                          "newstest2021.de-en.src.de", "ratings.csv", "google.txt"])
>>> {f: (r.role, r.name) for f, r in found.recognised.items()}  # doctest: +NORMALIZE_WHITESPACE
{'newstest2021.de-en.ref.A.en': ('reference', 'ref-A'),
 'newstest2021.de-en.hyp.Online-B.en': ('system', 'Online-B'),
 'newstest2021.de-en.src.de': ('source', None), 'ratings.csv': ('ratings', None)}
>>> found.unrecognised, found.pairs
(('google.txt',), ['de-en'])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "NAMING_HELP",
    "ROLES",
    "FileRole",
    "FileRoles",
    "file_role",
    "recognise_files",
    "stream_name",
]

#: The roles a file can have (``ignore`` leaves it out).
ROLES = ("reference", "system", "human", "source", "segments", "ratings", "ignore")

#: What names work, for error messages.
NAMING_HELP = (
    "names that work: WMT names (<testset>.<xx-yy>.src.<xx>, <testset>.<xx-yy>.ref.<A>.<yy>, "
    "<testset>.<xx-yy>.hyp.<SYSTEM>.<yy>), NAME.ref and NAME.hyp, source.txt, or the folders "
    "references/, systems/ and humans/; otherwise assign each file a role (app: the upload form; "
    "Python: roles={'file.txt': 'reference'|'system'|'human'|'source'})"
)

_PAIR = r"(?P<pair>[a-z]{2,3}-[a-z]{2,3})"
_WMT_SOURCE = re.compile(rf"^.+\.{_PAIR}\.src\.[\w-]+$")
_WMT_REFERENCE = re.compile(rf"^.+\.{_PAIR}\.ref\.(?P<ref>[^./]+)\.[\w-]+$")
_WMT_SYSTEM = re.compile(rf"^.+\.{_PAIR}\.hyp\.(?P<system>.+)\.[\w-]+$")
TEXT_SUFFIXES = (".txt", ".detok", ".hyp", ".ref")
_FOLDERS = {"references": "reference", "systems": "system", "humans": "human"}


@dataclass(frozen=True)
class FileRole:
    """The role of one file, the stream name it gives (references and systems) and its WMT pair."""

    role: str
    name: str | None = None
    pair: str | None = None


@dataclass(frozen=True)
class FileRoles:
    """The files whose role their names say, and the others (which need a role from the user)."""

    recognised: dict[str, FileRole]
    unrecognised: tuple[str, ...]

    @property
    def pairs(self) -> list[str]:
        """Language pairs named by WMT file names, sorted."""
        return sorted({r.pair for r in self.recognised.values() if r.pair})


def stream_name(path: str) -> str:
    """A reference or system name from a file name: the base name without ``.txt``/``.hyp``/...

    >>> stream_name("systems/google.txt"), stream_name("newstest2021.de-en.ref.B.en")
    ('google', 'ref-B')
    """
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    if match := _WMT_REFERENCE.match(base):
        return f"ref-{match['ref']}"
    if match := _WMT_SYSTEM.match(base):
        return match["system"]
    for suffix in TEXT_SUFFIXES:
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return base


def file_role(path: str) -> FileRole | None:
    """The role a file's name (or folder) says, or ``None``."""
    path = path.replace("\\", "/")
    folder, _, base = path.rpartition("/")
    lower = base.lower()
    if match := _WMT_SOURCE.match(base):
        return FileRole("source", None, match["pair"])
    if match := _WMT_REFERENCE.match(base):
        return FileRole("reference", f"ref-{match['ref']}", match["pair"])
    if match := _WMT_SYSTEM.match(base):
        return FileRole("system", match["system"], match["pair"])
    top = folder.rsplit("/", 1)[-1]
    if top in _FOLDERS and lower.endswith(TEXT_SUFFIXES):
        return FileRole(_FOLDERS[top], stream_name(base))
    if lower in ("segments.tsv", "segments.csv"):
        return FileRole("segments")
    if lower.endswith((".csv", ".tsv")):
        return FileRole("ratings")
    if lower == "source.txt":
        return FileRole("source")
    if lower.endswith(".ref"):
        return FileRole("reference", stream_name(base))
    if lower.endswith(".hyp"):
        return FileRole("system", stream_name(base))
    return None


def recognise_files(paths: Sequence[str]) -> FileRoles:
    """Split ``paths`` into those whose names say their role and the rest (see the module docstring)."""
    recognised: dict[str, FileRole] = {}
    unrecognised: list[str] = []
    for path in paths:
        role = file_role(path)
        if role is None:
            unrecognised.append(path)
        else:
            recognised[path] = role
    return FileRoles(recognised, tuple(unrecognised))
