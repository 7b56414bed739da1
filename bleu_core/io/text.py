"""Text files in, Python strings out: the one place that turns input bytes into lines.

Every reader of bleu-study (the ``score`` command, every study format, the tables of system scores) goes
through these functions, so one file is read the same way everywhere:

* **UTF-8 only.** Undecodable bytes are an error naming the file, the line, the column and the byte offset
  (never a silent replacement character): :func:`decode_text`.
* **Byte-order mark.** A leading UTF-8 BOM is removed; :func:`has_bom` tells the caller so it can warn
  (:data:`BOM_MESSAGE`: sacrebleu keeps the mark inside the first word, so its score may differ slightly).
* **Line ends: one rule.** ``\\r\\n`` is a line end like ``\\n`` (it becomes ``\\n`` when decoding); a lone
  ``\\r`` is text, kept where it is; lines are split on ``\\n`` only (:func:`split_lines`), not on the other
  Unicode line breaks ``str.splitlines`` knows, so a stray form feed or U+2028 inside a sentence does not
  shift every later line; one final newline does not make an extra line.
* **One size cap, in MiB, with one message**: :func:`check_size` (default :data:`DEFAULT_MAX_BYTES`,
  200 MiB; ``max_bytes=...`` in Python, ``--max-mb`` on the command line, where 1 MB = 1024 x 1024 bytes).
* **NUL characters and over-long lines** (a file that lost its line breaks) are errors naming the line:
  :func:`bleu_core.limits.check_text`, run by :func:`text_from_bytes` on every decoded file.

>>> split_lines(decode_text(b"\\xef\\xbb\\xbfone\\r\\ntwo\\rstill two\\n", "ref.txt"))
['one', 'two\\rstill two']
>>> decode_text(b"caf\\xc3\\xa9\\r\\nna\\xefve\\r\\n", "hyp.txt")
Traceback (most recent call last):
  ...
bleu_core.errors.InputError: hyp.txt, line 2, column 3: bytes that are not UTF-8 (0xef at byte offset 9); save the file as UTF-8 ...
>>> check_size(3 * 1024 * 1024, 2 * 1024 * 1024, "big.txt")
Traceback (most recent call last):
  ...
bleu_core.errors.InputError: big.txt: file is 3.0 MiB, over the size cap of 2.0 MiB; split it, or raise the cap ...
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from bleu_core.errors import InputError
from bleu_core.limits import MAX_LINE_CHARS, check_text

__all__ = [
    "BOM_MESSAGE",
    "DEFAULT_MAX_BYTES",
    "check_blank_lines",
    "check_size",
    "decode_text",
    "has_bom",
    "lines_from_bytes",
    "mebibytes",
    "read_file_bytes",
    "read_lines",
    "read_text",
    "split_lines",
    "text_from_bytes",
]

#: Default cap on the size of one input file (and on an archive's total decompressed size): 200 MiB.
DEFAULT_MAX_BYTES = 200 * 1024 * 1024

_BOM = b"\xef\xbb\xbf"

#: What a text file's UTF-8 byte-order mark means for the score (one wording for ``score``, ``study`` and the app).
BOM_MESSAGE = (
    "the file starts with a UTF-8 byte-order mark, which was removed; sacrebleu keeps the mark "
    "inside the first word of the first line, so an official (sacrebleu) score of this file "
    "may differ slightly from the score here"
)


def mebibytes(n: int) -> str:
    """``n`` bytes in MiB with one decimal, the unit of every size message.

    >>> mebibytes(1536 * 1024), mebibytes(10)
    ('1.5 MiB', '0.0 MiB')
    """
    return f"{n / (1024 * 1024):.1f} MiB"


def check_size(size: int, max_bytes: int, file: str) -> None:
    """Raise :class:`~bleu_core.errors.InputError` when ``size`` bytes exceed ``max_bytes``, saying how to
    raise the cap (see the module's example)."""
    if size > max_bytes:
        raise InputError(
            f"file is {mebibytes(size)}, over the size cap of {mebibytes(max_bytes)}; "
            "split it, or raise the cap with max_bytes=... (command line: --max-mb)",
            file=file,
        )


def has_bom(data: bytes) -> bool:
    """True when ``data`` starts with the UTF-8 byte-order mark.

    >>> has_bom(b"\\xef\\xbb\\xbfx"), has_bom(b"x")
    (True, False)
    """
    return data.startswith(_BOM)


def decode_text(data: bytes, file: str) -> str:
    """Decode UTF-8 (a byte-order mark dropped, ``\\r\\n`` → ``\\n``) or raise
    :class:`~bleu_core.errors.InputError` naming the line, the column and the byte offset.

    >>> decode_text(b"ok\\nbad \\xff", "f.txt")
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: f.txt, line 2, column 5: bytes that are not UTF-8 (0xff at byte offset 7); save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
        raise InputError(
            f"bytes that are not UTF-8 (0x{data[exc.start]:02x} at byte offset {exc.start}); save the file as "
            "UTF-8 (e.g. `iconv -f latin1 -t utf-8`)",
            file=file,
            line=before.count(b"\n") + 1,
            column=column,
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    # The bytes hold "\r\n" exactly where the text does, and searching them reads one byte a character.
    if b"\r\n" in data:
        text = text.replace("\r\n", "\n")
    return text


def text_from_bytes(data: bytes, file: str) -> str:
    """:func:`decode_text`, then the NUL and line-length checks (:func:`bleu_core.limits.check_text`).

    >>> text_from_bytes(b"a\\nb\\x00\\n", "hyp.txt")
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: hyp.txt, line 2, column 2: NUL byte (\\x00) in the text; ...
    """
    text = decode_text(data, file)
    check_text(text, file)
    return text


def split_lines(text: str) -> list[str]:
    """Split decoded text on ``\\n`` only; one final newline does not add a line.

    >>> split_lines("a\\nb\\n"), split_lines("a\\nb"), split_lines(""), split_lines("a\\u2028b\\x0cc\\n\\n")
    (['a', 'b'], ['a', 'b'], [], ['a\\u2028b\\x0cc', ''])
    """
    if not text:
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


def read_text(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES, name: str | None = None
) -> str:
    """The checked text of one UTF-8 file (size cap, decoding, NUL, line length); messages call the file
    ``name`` (default: the path).

    >>> read_text("no/such.txt")
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: no/such.txt: file not found; check the path
    """
    data, shown = _file_bytes(path, max_bytes, name)
    return text_from_bytes(data, shown)


def _file_bytes(
    path: str | os.PathLike[str], max_bytes: int, name: str | None
) -> tuple[bytes, str]:
    """The bytes of a file under the size cap, and the name messages give it."""
    path = Path(path)
    shown = name or str(path)
    if not path.is_file():
        raise InputError("file not found; check the path", file=shown)
    check_size(path.stat().st_size, max_bytes, shown)
    return read_file_bytes(path, shown), shown


def read_lines(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES, name: str | None = None
) -> list[str]:
    """The lines of a UTF-8 text file: :func:`read_text`, then :func:`split_lines` (:func:`lines_from_bytes`).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "hyp.txt")
    >>> _ = open(path, "wb").write(b"\\xef\\xbb\\xbfone\\r\\ntwo\\r\\n")
    >>> read_lines(path)
    ['one', 'two']
    """
    data, shown = _file_bytes(path, max_bytes, name)
    return lines_from_bytes(data, shown)


def lines_from_bytes(data: bytes, file: str) -> list[str]:
    """``split_lines(text_from_bytes(data, file))``, with fewer passes over the text.

    The bytes are split on ``\\n`` (a ``memchr`` search) and each line decoded on its own: a UTF-8 sequence
    never holds the byte ``\\n``, so the lines decode exactly when the whole text does, to the same strings, and
    a line of ASCII decodes as a copy. The NUL check searches the bytes too, and line lengths are read off the
    lines; :func:`decode_text` and :func:`bleu_core.limits.check_text` run on the whole text only to word the
    error when a check fails.

    >>> lines_from_bytes(b"\\xef\\xbb\\xbfone\\r\\ntwo\\rstill two\\n", "hyp.txt")
    ['one', 'two\\rstill two']
    >>> lines_from_bytes(b"a\\nb\\x00\\n", "hyp.txt")
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: hyp.txt, line 2, column 2: NUL byte (\\x00) in the text; ...
    """
    body = data[len(_BOM) :] if has_bom(data) else data
    if b"\r" in body and b"\r\n" in body:
        body = body.replace(b"\r\n", b"\n")
    parts = body.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    try:
        lines = list(map(bytes.decode, parts))
    except UnicodeDecodeError:
        decode_text(data, file)  # raises, naming the line, the column and the byte offset
        raise
    if b"\x00" in body or (
        len(body) > MAX_LINE_CHARS and max(map(len, lines), default=0) > MAX_LINE_CHARS
    ):
        check_text(decode_text(data, file), file)
    return lines
