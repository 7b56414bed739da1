"""Reading study files safely: size caps, UTF-8 decoding with locations, folders and zip archives alike.

Every loader reads through a :class:`FileTree`, so a WMT release works the same whether it is a folder or a
``.zip``. Reading enforces a size cap per file (``max_bytes``, default 200 MB) and, for archives, on the total
decompressed size; zip members with absolute paths or ``..`` components are refused.

Text is decoded as UTF-8; a byte-order mark is dropped and Windows line ends (CRLF) are accepted silently.
Undecodable bytes raise an :class:`~bleu_core.errors.InputError` naming the file, the line and the column:

>>> decode_text(b"caf\\xc3\\xa9\\r\\nna\\xefve\\r\\n", "hyp.txt")
Traceback (most recent call last):
  ...
bleu_core.errors.InputError: hyp.txt, line 2, column 3: bytes that are not UTF-8 (0xef at byte offset 9); save the file as UTF-8 ...
>>> split_lines(decode_text(b"\\xef\\xbb\\xbfone\\r\\ntwo\\r\\n", "ref.txt"))
['one', 'two']
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from bleu_core.errors import InputError, StudyError
from bleu_core.textio import decode_text as _decode_text

__all__ = [
    "DEFAULT_MAX_BYTES",
    "FileTree",
    "FolderTree",
    "SubTree",
    "ZipTree",
    "decode_text",
    "open_tree",
    "read_text_file",
    "split_lines",
]

#: Default cap on the size of one input file (and on an archive's total decompressed size): 200 MB.
DEFAULT_MAX_BYTES = 200 * 1024 * 1024

_BOM = "\ufeff"


def _megabytes(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def check_size(size: int, max_bytes: int, file: str) -> None:
    """Raise when ``size`` exceeds ``max_bytes``, saying how to raise the cap."""
    if size > max_bytes:
        raise InputError(
            f"file is {_megabytes(size)}, over the size cap of {_megabytes(max_bytes)}; "
            "split it, or raise the cap with max_bytes=... (command line: --max-mb)",
            file=file,
        )


def decode_text(data: bytes, file: str) -> str:
    """Decode UTF-8 bytes, dropping a byte-order mark; undecodable bytes raise with line and column
    (:func:`bleu_core.textio.decode_text`)."""
    return _decode_text(data, file)


def split_lines(text: str) -> list[str]:
    """Split text into lines on ``\\n``, accepting ``\\r\\n``; one final newline does not add a line.

    Only ``\\n`` separates lines (not the other Unicode line breaks ``str.splitlines`` uses), so a stray
    form feed or U+2028 inside a sentence does not shift every later line.

    >>> split_lines("a\\nb\\n"), split_lines("a\\nb"), split_lines("")
    (['a', 'b'], ['a', 'b'], [])
    """
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_text_file(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Read and decode one UTF-8 text file, enforcing the size cap."""
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file; check the path", file=str(path))
    check_size(path.stat().st_size, max_bytes, str(path))
    return decode_text(path.read_bytes(), str(path))


class FileTree:
    """A read-only set of files addressed by relative POSIX paths (a folder or a zip archive)."""

    label: str

    def files(self) -> list[str]:
        """Every file's relative path, sorted."""
        raise NotImplementedError

    def read_bytes(self, relpath: str) -> bytes:
        """The bytes of one file."""
        raise NotImplementedError

    def display(self, relpath: str) -> str:
        """How to name the file in messages."""
        return f"{self.label}/{relpath}"

    def read_text(self, relpath: str) -> str:
        """The decoded text of one file."""
        return decode_text(self.read_bytes(relpath), self.display(relpath))

    def close(self) -> None:
        """Release resources (open archives)."""

    def __enter__(self) -> FileTree:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FolderTree(FileTree):
    """The files under a folder (symbolic links followed, hidden files skipped)."""

    def __init__(self, root: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.root = Path(root)
        self.label = str(self.root)
        self.max_bytes = max_bytes

    def files(self) -> list[str]:
        found = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            for name in filenames:
                if not name.startswith("."):
                    full = Path(dirpath, name)
                    found.append(full.relative_to(self.root).as_posix())
        return sorted(found)

    def read_bytes(self, relpath: str) -> bytes:
        path = self.root / relpath
        check_size(path.stat().st_size, self.max_bytes, self.display(relpath))
        return path.read_bytes()


class ZipTree(FileTree):
    """The files of a zip archive, checked for path traversal and decompressed size before any reading."""

    def __init__(self, path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = Path(path)
        self.label = str(self.path)
        self.max_bytes = max_bytes
        check_size(self.path.stat().st_size, max_bytes, self.label)
        try:
            self._zip = zipfile.ZipFile(self.path)
        except zipfile.BadZipFile:
            raise StudyError(
                "not a valid zip archive; re-create it (e.g. `zip -r study.zip folder/`)",
                file=self.label,
            ) from None
        self._members: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in self._zip.infolist():
            name = info.filename
            parts = PurePosixPath(name.replace("\\", "/")).parts
            if name.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
                self._zip.close()
                raise StudyError(
                    f"archive member {name!r} points outside the archive (absolute path or '..'); "
                    "refusing to read it — re-create the archive from inside the study folder",
                    file=self.label,
                )
            if info.is_dir():
                continue
            total += info.file_size
            if total > max_bytes:
                self._zip.close()
                raise StudyError(
                    f"archive decompresses to more than {_megabytes(max_bytes)} "
                    f"(reached at member {name!r}); this looks like a zip bomb or a much larger "
                    "data set than a study — unpack only the language pair you need, or raise max_bytes",
                    file=self.label,
                )
            if not any(part.startswith(".") or part == "__MACOSX" for part in parts):
                self._members[PurePosixPath(*parts).as_posix()] = info

    def files(self) -> list[str]:
        return sorted(self._members)

    def read_bytes(self, relpath: str) -> bytes:
        info = self._members[relpath]
        # The header's size can lie: read at most one byte past the cap and check what really came out.
        with self._zip.open(info) as handle:
            data = handle.read(self.max_bytes + 1)
        check_size(len(data), self.max_bytes, self.display(relpath))
        return data

    def display(self, relpath: str) -> str:
        return f"{self.label}!{relpath}"

    def close(self) -> None:
        self._zip.close()


class SubTree(FileTree):
    """The files under one folder of another tree (e.g. the single top folder of a zip)."""

    def __init__(self, parent: FileTree, prefix: str) -> None:
        self.parent = parent
        self.prefix = prefix.rstrip("/") + "/"
        self.label = parent.display(self.prefix.rstrip("/"))

    def files(self) -> list[str]:
        return [f[len(self.prefix) :] for f in self.parent.files() if f.startswith(self.prefix)]

    def read_bytes(self, relpath: str) -> bytes:
        return self.parent.read_bytes(self.prefix + relpath)

    def display(self, relpath: str) -> str:
        return self.parent.display(self.prefix + relpath)


def single_top_folder(tree: FileTree) -> str | None:
    """The name of the only top-level folder when every file is inside it, else ``None``."""
    tops = {f.split("/", 1)[0] if "/" in f else None for f in tree.files()}
    if len(tops) == 1:
        (top,) = tops
        return top
    return None


def open_tree(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> FileTree:
    """A :class:`FolderTree` for a folder, a :class:`ZipTree` for a ``.zip`` file."""
    path = Path(path)
    if path.is_dir():
        return FolderTree(path, max_bytes=max_bytes)
    if zipfile.is_zipfile(path):
        return ZipTree(path, max_bytes=max_bytes)
    raise StudyError("neither a folder nor a zip archive", file=str(path))


def iter_suffix(tree: FileTree, suffix: str) -> Iterator[str]:
    """Relative paths in ``tree`` ending with ``suffix``."""
    return (name for name in tree.files() if name.endswith(suffix))
