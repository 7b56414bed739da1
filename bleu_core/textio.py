"""Reading text files one segment per line, with messages that say exactly what is wrong.

UTF-8 only. A byte-order mark and Windows line endings (CRLF) are handled silently; undecodable bytes are an error
that names the file, line and byte offset (never silent replacement); a trailing newline does not make an extra
segment. Lines are split on ``\\n`` only, as sacrebleu reads files.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "hyp.txt")
>>> _ = open(path, "wb").write(b"\\xef\\xbb\\xbfone\\r\\ntwo\\r\\n")
>>> read_lines(path)
['one', 'two']
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .errors import InputError
from .limits import check_text

DEFAULT_MAX_BYTES = 200 * 1024 * 1024


def decode_text(data: bytes, name: str) -> str:
    """Decode UTF-8 (BOM dropped, CRLF → LF) or raise :class:`InputError` naming line, column and byte offset.

    >>> decode_text(b"ok\\nbad \\xff", "f.txt")
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: f.txt, line 2, column 5: bytes that are not UTF-8 (0xff at byte offset 7); save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
        raise InputError(
            f"bytes that are not UTF-8 (0x{data[exc.start]:02x} at byte offset {exc.start}); save the file as "
            "UTF-8 (e.g. `iconv -f latin1 -t utf-8`)",
            file=name,
            line=line,
            column=column,
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return text


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` only; a final newline does not start a new segment."""
    if text == "":
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def check_blank_lines(file: str, lines: Sequence[str]) -> None:
    """A reference (or source) line must not be blank: a blank reference makes BLEU meaningless.

    >>> check_blank_lines("ref.txt", ["a", " "])
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: ref.txt, line 2: blank line; every line must hold the text of one segment — fill it in, or delete the segment from every file (all files must stay line-aligned)
    """
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise InputError(
                "blank line; every line must hold the text of one segment — fill it in, or delete "
                "the segment from every file (all files must stay line-aligned)",
                file=file,
                line=number,
            )


def read_file_bytes(path: str | os.PathLike[str], name: str) -> bytes:
    """The bytes of a file; an operating-system error (permission, a vanished file...) becomes an
    :class:`~bleu_core.errors.InputError` naming the file."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", file=name) from None


def read_lines(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES, name: str | None = None
) -> list[str]:
    """The lines of a UTF-8 text file; errors name the file."""
    name = name or str(path)
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found", file=name)
    size = p.stat().st_size
    if size > max_bytes:
        raise InputError(
            f"file is {size / 1e6:.1f} MB, over the {max_bytes / 1e6:.0f} MB limit; raise the limit "
            "(max_bytes / --max-mb) if this is intended",
            file=name,
        )
    text = decode_text(read_file_bytes(p, name), name)
    check_text(text, name)  # NUL bytes and over-long lines, before any tokenising
    return split_lines(text)


#: What a text file's UTF-8 byte-order mark means for the score (one wording for ``score``, ``study`` and the app).
BOM_MESSAGE = (
    "the file starts with a UTF-8 byte-order mark, which was removed; sacrebleu keeps the mark "
    "inside the first word of the first line, so an official (sacrebleu) score of this file "
    "may differ slightly from the score here"
)
