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
from pathlib import Path

from .errors import InputError

DEFAULT_MAX_BYTES = 200 * 1024 * 1024


def decode_text(data: bytes, name: str) -> str:
    """Decode UTF-8 (BOM dropped, CRLF → LF) or raise :class:`InputError` naming line and byte offset."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        offset = exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        line = data.count(b"\n", 0, offset) + 1
        bad = data[exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0) :][:4]
        raise InputError(
            f"byte offset {offset}: bytes {bad!r} are not valid UTF-8; save the file as UTF-8",
            file=name,
            line=line,
        ) from None
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
    return split_lines(decode_text(p.read_bytes(), name))
