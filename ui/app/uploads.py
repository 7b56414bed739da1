"""Studies uploaded on the Study page: loaded from memory, cached on the files' contents.

Both functions are ``st.cache_data`` adapters (hashable inputs, no ``st.*`` inside). An uploaded study's
key is ``"upload:<sha256>"`` of the file names, their contents, the pair and the roles, so every other
cache follows the upload.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from bleu_core.study import Study
from bleu_core.study.file_roles import recognise_files
from bleu_core.study.loading import list_pairs, load_files
from bleu_core.study.model import LoadWarning
from ui.app.limits import UPLOAD_MAX_BYTES


@dataclass(frozen=True)
class UploadResult:
    """A study loaded from uploaded files, with the loader's warnings and each input's sha256."""

    study: Study
    warnings: tuple[LoadWarning, ...]
    inputs: tuple[tuple[str, int, str], ...]  # (file name, size in bytes, sha256)
    key: str


@st.cache_data(max_entries=8, show_spinner="Loading the uploaded study…")
def load_uploaded(
    files: tuple[tuple[str, bytes], ...],
    pair: str | None,
    roles: tuple[tuple[str, str], ...] = (),
) -> UploadResult:
    """Load uploaded files with :func:`bleu_core.study.loading.load_files`, from memory.

    One file is loaded as it is (a long table, a saved study, a WMT or plain-text study .zip, an MQM
    TSV…); several files are a WMT release (with a WMT source file) or a plain-text study whose roles come
    from the names or from ``roles`` ((file name, role) pairs chosen in the upload form). Every message
    names the files as uploaded. Errors are :class:`bleu_core.errors.BleuStudyError` with a message for
    the user. Work is bounded: :data:`ui.app.limits.UPLOAD_MAX_MB` per file read and
    lines of at most :data:`bleu_core.limits.MAX_LINE_CHARS` characters, checked before any tokenising.
    """
    digest = hashlib.sha256()
    inputs = []
    for name, data in files:
        sha = hashlib.sha256(data).hexdigest()
        digest.update(name.encode("utf-8") + b"\0" + sha.encode("ascii") + b"\0")
        inputs.append((name, len(data), sha))
    digest.update(repr((pair or "", sorted(roles))).encode("utf-8"))
    result = load_files(
        list(files), roles=dict(roles) or None, pair=pair or None, max_bytes=UPLOAD_MAX_BYTES
    )
    return UploadResult(
        result.study, result.warnings, tuple(inputs), "upload:" + digest.hexdigest()
    )


@st.cache_data(max_entries=16, show_spinner=False)
def upload_pairs(
    files_id: tuple[tuple[str, int, str], ...], _files: tuple[tuple[str, bytes], ...]
) -> list[str]:
    """The language pairs of uploaded files (a WMT release, zipped or not, or WMT-named files side by
    side), sorted; ``files_id`` identifies the upload (names, sizes, uploader ids) without hashing it."""
    pairs = list_pairs(list(_files))
    return pairs or recognise_files([name for name, _ in _files]).pairs
