"""Files of a study, wherever they are: a folder, a zip archive, or files uploaded into memory.

Every format reads through a :class:`FileTree`, so a WMT release works the same whether it is a folder or a
``.zip``: :meth:`FileTree.files` lists relative POSIX paths, :meth:`FileTree.read_text` gives a member's
checked text (:func:`bleu_core.io.text.text_from_bytes`). Reading enforces the size cap per file
(``max_bytes``, default 200 MiB) and, for archives, on the total decompressed size. Zip members with absolute
paths or ``..`` components are refused when the archive is opened; a member that is a **symbolic link** is an
error when read (its bytes are the link's target path, not a file of the study).

Text is decoded as UTF-8; a byte-order mark is dropped and the tree remembers the file
(:attr:`FileTree.bom_files`), so the loader can warn that the official (sacrebleu) score, which keeps the
mark inside the first word, may differ.

Messages name files as the user knows them: a tree can carry a ``label`` (e.g. the uploaded archive's name
instead of a temporary path) and ``aliases`` (relative path -> the name to show):

>>> tree = MemoryTree({"a.txt": b"\\xef\\xbb\\xbfone\\n"}, label="the upload")
>>> tree.read_text("a.txt"), tree.display("a.txt"), tree.bom_files
('one\\n', 'a.txt', ['a.txt'])
>>> tree.read_lines("a.txt")
['one']
"""

from __future__ import annotations

import os
import stat
import zipfile
import zlib
from collections.abc import Iterator
from lzma import LZMAError
from pathlib import Path, PurePosixPath

from bleu_core.errors import StudyError
from bleu_core.io.text import (
    DEFAULT_MAX_BYTES,
    check_size,
    has_bom,
    mebibytes,
    read_file_bytes,
    split_lines,
    text_from_bytes,
)

__all__ = [
    "FileTree",
    "FolderTree",
    "MemoryTree",
    "SubTree",
    "ZipTree",
    "is_symlink",
    "iter_suffix",
    "open_tree",
    "single_top_folder",
]


class FileTree:
    """A read-only set of files addressed by relative POSIX paths (a folder or a zip archive)."""

    label: str
    #: relative path -> the name messages use (e.g. the name a file was uploaded under)
    aliases: dict[str, str] | None = None

    @property
    def bom_files(self) -> list[str]:
        """Display names of the files read so far that started with a byte-order mark (removed)."""
        if "_boms" not in self.__dict__:
            self._boms: list[str] = []
        return self._boms

    def _note_bom(self, shown: str) -> None:
        if shown not in self.bom_files:
            self.bom_files.append(shown)

    def files(self) -> list[str]:
        """Every file's relative path, sorted."""
        raise NotImplementedError

    def read_bytes(self, relpath: str) -> bytes:
        """The bytes of one file."""
        raise NotImplementedError

    def display(self, relpath: str) -> str:
        """How to name the file in messages (its alias when it has one)."""
        if self.aliases and relpath in self.aliases:
            return self.aliases[relpath]
        return f"{self.label}/{relpath}"

    def read_text(self, relpath: str) -> str:
        """The decoded text of one file (a byte-order mark is removed and noted in :attr:`bom_files`)."""
        data = self.read_bytes(relpath)
        if has_bom(data):
            self._note_bom(self.display(relpath))
        return text_from_bytes(data, self.display(relpath))

    def read_lines(self, relpath: str) -> list[str]:
        """The lines of one file (:meth:`read_text`, then :func:`bleu_core.io.text.split_lines`)."""
        return split_lines(self.read_text(relpath))

    def close(self) -> None:
        """Release resources (open archives)."""

    def __enter__(self) -> FileTree:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FolderTree(FileTree):
    """The files under a folder (symbolic links followed, hidden files skipped)."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        label: str | None = None,
        aliases: dict[str, str] | None = None,
    ) -> None:
        self.root = Path(root)
        self.label = label or str(self.root)
        self.aliases = aliases
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
        return read_file_bytes(path, self.display(relpath))


def is_symlink(info: zipfile.ZipInfo) -> bool:
    """True when a zip member was stored as a symbolic link (Unix mode bits in ``external_attr``).

    >>> info = zipfile.ZipInfo("link.txt"); info.external_attr = (stat.S_IFLNK | 0o777) << 16
    >>> is_symlink(info), is_symlink(zipfile.ZipInfo("file.txt"))
    (True, False)
    """
    return stat.S_ISLNK(info.external_attr >> 16)


class ZipTree(FileTree):
    """The files of a zip archive, checked for path traversal and decompressed size before any reading."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        label: str | None = None,
        aliases: dict[str, str] | None = None,
    ) -> None:
        self.path = Path(path)
        self.label = label or str(self.path)
        self.aliases = aliases
        self.max_bytes = max_bytes
        check_size(self.path.stat().st_size, max_bytes, self.label)
        try:
            self._zip = zipfile.ZipFile(self.path)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError):
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
                    f"archive decompresses to more than {mebibytes(max_bytes)} "
                    f"(reached at member {name!r}); this looks like a zip bomb or a much larger "
                    "data set than a study — unpack only the language pair you need, or raise max_bytes",
                    file=self.label,
                )
            if not any(part.startswith(".") or part == "__MACOSX" for part in parts):
                key = PurePosixPath(*parts).as_posix()
                # the same name twice (e.g. `zip` appending to an archive): one would hide the other
                if key in self._members:
                    self._zip.close()
                    raise StudyError(
                        f"archive member {key!r} is in the archive twice; re-create the archive "
                        "(e.g. `zip -r study.zip folder/` into a new file)",
                        file=self.label,
                    )
                self._members[key] = info

    def files(self) -> list[str]:
        return sorted(self._members)

    def read_bytes(self, relpath: str) -> bytes:
        info = self._members[relpath]
        if is_symlink(info):
            raise StudyError(
                f"archive member {relpath!r} is a symbolic link, not a file; a study archive must hold "
                "the files themselves — re-create it without keeping links (e.g. `zip -r study.zip "
                "folder/`, without -y / --symlinks)",
                file=self.label,
            )
        # The header's size can lie: read at most one byte past the cap and check what really came out.
        try:
            with self._zip.open(info) as handle:
                data = handle.read(self.max_bytes + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, LZMAError) as exc:
            raise StudyError(
                f"archive member {relpath!r} is damaged ({exc}); the zip is corrupt or was cut "
                "short — re-create it (e.g. `zip -r study.zip folder/`)",
                file=self.label,
            ) from None
        except (NotImplementedError, RuntimeError) as exc:  # unknown compression, encrypted member
            raise StudyError(
                f"archive member {relpath!r} cannot be read ({exc}); re-create the zip without "
                "a password, with the usual Deflate compression",
                file=self.label,
            ) from None
        check_size(len(data), self.max_bytes, self.display(relpath))
        return data

    def display(self, relpath: str) -> str:
        if self.aliases and relpath in self.aliases:
            return self.aliases[relpath]
        return f"{self.label}!{relpath}"

    def close(self) -> None:
        self._zip.close()


class MemoryTree(FileTree):
    """Files held in memory (e.g. uploaded in the app), named as the user named them.

    ``files`` maps a relative path (usually the uploaded file's name) to its bytes; messages show the path
    itself, so no temporary folder ever appears in a message.
    """

    def __init__(
        self,
        files: dict[str, bytes],
        *,
        label: str = "the upload",
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self._data = dict(files)
        self.label = label
        self.max_bytes = max_bytes
        for relpath, data in self._data.items():
            check_size(len(data), max_bytes, relpath)

    def files(self) -> list[str]:
        return sorted(self._data)

    def read_bytes(self, relpath: str) -> bytes:
        return self._data[relpath]

    def display(self, relpath: str) -> str:
        if self.aliases and relpath in self.aliases:
            return self.aliases[relpath]
        return relpath


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

    def _note_bom(self, shown: str) -> None:
        self.parent._note_bom(shown)


def single_top_folder(tree: FileTree) -> str | None:
    """The name of the only top-level folder when every file is inside it, else ``None``."""
    tops = {f.split("/", 1)[0] if "/" in f else None for f in tree.files()}
    if len(tops) == 1:
        (top,) = tops
        return top
    return None


def open_tree(
    path: str | os.PathLike[str],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    label: str | None = None,
    aliases: dict[str, str] | None = None,
) -> FileTree:
    """A :class:`FolderTree` for a folder, a :class:`ZipTree` for a ``.zip`` file.

    ``label`` replaces the path in messages (a zip member is shown as ``label!member``); ``aliases`` map
    relative paths to the names messages use.
    """
    path = Path(path)
    if path.is_dir():
        return FolderTree(path, max_bytes=max_bytes, label=label, aliases=aliases)
    if zipfile.is_zipfile(path):
        return ZipTree(path, max_bytes=max_bytes, label=label, aliases=aliases)
    raise StudyError("neither a folder nor a zip archive", file=label or str(path))


def iter_suffix(tree: FileTree, suffix: str) -> Iterator[str]:
    """Relative paths in ``tree`` ending with ``suffix``."""
    return (name for name in tree.files() if name.endswith(suffix))
