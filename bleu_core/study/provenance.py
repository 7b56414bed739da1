"""Which files a study was read from, each with its size and sha256 (the Export's ``settings.json``).

A number can only be re-made from the same inputs, so an export lists every input file with its sha256.
An upload or a single file is its own input (a zip: the zip). A **folder** (a WMT release) holds every
language pair; :func:`input_files` then lists the files of the chosen pair (a path naming ``xx-yy`` or
``xxyy``, the WMT and MQM spellings) and the files that name no ``xx-yy`` pair (``automatic-scores.tsv``,
READMEs; a file naming another pair only as ``xxyy`` is listed too: more files, never fewer), each by
its path inside the folder, in sorted order. Hashing the WMT21 zh-en files (12 MB) takes a fraction
of a second.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> for name in ("t.zh-en.ref.A.en", "t.de-en.ref.A.en", "mqm_t_zhen.tsv", "scores.tsv"):
...     _ = (root / name).write_text("x\\n")
>>> [f["name"] for f in input_files(root, pair="zh-en")]
['mqm_t_zhen.tsv', 'scores.tsv', 't.zh-en.ref.A.en']
>>> input_files(root / "scores.tsv")[0]["sha256"][:12]   # printf 'x\\n' | sha256sum
'73cb3858a687'
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any


def file_record(path: Path, name: str) -> dict[str, Any]:
    """``{"name", "bytes", "sha256"}`` of one file (read in 1 MB blocks)."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
            size += len(block)
    return {"name": name, "bytes": size, "sha256": digest.hexdigest()}


def _names_pair(relative: str, pair: str) -> bool | None:
    """True when ``relative`` names ``pair``, False when it names another pair, None when none."""
    src, _, tgt = pair.lower().partition("-")
    lowered = relative.lower()
    if f"{src}-{tgt}" in lowered or re.search(rf"(?<![a-z]){src}{tgt}(?![a-z])", lowered):
        return True
    if re.search(r"(?<![a-z])[a-z]{2,3}-[a-z]{2,3}(?![a-z])", lowered):
        return False
    return None


def input_files(path: str | os.PathLike[str], *, pair: str | None = None) -> list[dict[str, Any]]:
    """Every input file behind ``path`` (see the module docstring), each ``{name, bytes, sha256}``.

    A folder without ``pair`` lists all its files; hidden files (``.name``) are skipped."""
    root = Path(path)
    if not root.is_dir():
        return [file_record(root, root.name)] if root.is_file() else []
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            if name.startswith("."):
                continue
            full = Path(folder) / name
            relative = full.relative_to(root).as_posix()
            if pair is not None and _names_pair(relative, pair) is False:
                continue
            found.append((relative, full))
    return [file_record(full, relative) for relative, full in sorted(found)]
