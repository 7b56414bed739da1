"""Statistics of big text files, block by block: ``score`` on a million segments in bounded memory.

``bleu-study score`` reads small files whole (:func:`bleu_core.io.text.read_lines`). Above
:data:`STREAM_BYTES` of input it reads every file :data:`BLOCK_LINES` lines at a time instead, computes the
statistics of each block (:func:`bleu_core.engine.statistics.compute_statistics`) and keeps only those rows: 8 × (4 +
2N) bytes a segment. The text of 1M segments × 4 references is about 1 GB on disk and more as Python strings;
the rows are 96 MB.

The checks and their messages are those of the whole-file path: undecodable bytes, NUL characters and
over-long lines (:mod:`bleu_core.io.text`, :mod:`bleu_core.limits`) name the file and the line in the *file*;
a blank reference line is an error; all-blank hypotheses are scored (BLEU 0, as sacrebleu) with a warning
(:func:`all_blank_warning`); files with different numbers of lines
are an error that gives both counts.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> for name, text in [("ref", "a b c\\nd e\\nf\\n"), ("hyp", "a b c\\nd x\\nf\\n")]:
...     _ = open(os.path.join(d, name), "w").write(text)
>>> [(path[-3:], s.total().tolist()) for path, s in stream_statistics(
...     [os.path.join(d, "ref")], [os.path.join(d, "hyp")], max_order=2, block_lines=2)]
[('hyp', [6.0, 6.0, 6.0, 6.0, 5.0, 2.0, 6.0, 3.0])]
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..errors import InputError
from ..io.text import BOM_MESSAGE, check_blank_lines, check_size, decode_text, has_bom
from ..limits import check_text

# numpy (through bleu_core.engine.statistics) is loaded when a block is counted, not by importing this module
if TYPE_CHECKING:
    from .statistics import SegmentStatistics

#: Input (all files together) above which ``score`` reads block by block.
STREAM_BYTES = 64 * 1024 * 1024
#: Segments per block.
BLOCK_LINES = 100_000
_READ_BYTES = 4 * 1024 * 1024


def _shifted(exc: InputError, lines_before: int) -> InputError:
    """The same error with its line number counted from the start of the file."""
    line = exc.line + lines_before if exc.line is not None else None
    return InputError(exc.message, file=exc.file, line=line, column=exc.column)


def all_blank_warning(path: str, n_lines: int) -> str:
    """The warning for a hypothesis file whose every line is blank: it is scored (BLEU 0, as sacrebleu
    scores it), but it is more likely the wrong file than a system that translated nothing.

    >>> all_blank_warning("hyp.txt", 3)
    'hyp.txt: all 3 lines are blank: BLEU is 0 (as sacrebleu scores it); is this the right file?'
    """
    return f"{path}: all {n_lines} lines are blank: BLEU is 0 (as sacrebleu scores it); is this the right file?"


class LineReader:
    """The lines of a UTF-8 text file, ``take(n)`` at a time, checked as :func:`bleu_core.io.text.read_lines`
    checks a whole file (a byte-order mark at the start is dropped, CRLF becomes LF)."""

    def __init__(self, path: str, *, max_bytes: int) -> None:
        self.path = path
        if not os.path.isfile(path):
            raise InputError("file not found; check the path", file=path)
        check_size(os.path.getsize(path), max_bytes, path)
        self._file = open(path, "rb")  # noqa: SIM115 - closed by close()
        self._carry = b""
        self._lines: list[str] = []
        self._at_start = True
        self._eof = False
        self.lines_read = 0  # lines decoded so far (handed out or waiting)
        self.bom = False

    def close(self) -> None:
        self._file.close()

    def _fill(self) -> None:
        data = self._file.read(_READ_BYTES)
        if not data:
            self._eof = True
            piece, self._carry = self._carry, b""
        else:
            data = self._carry + data
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                self._carry = data
                return
            piece, self._carry = data[:cut], data[cut:]
        if not piece:
            return
        if self._at_start:
            self.bom = has_bom(piece)
        try:
            # decode_text drops a byte-order mark only at the start of the text it is given: later blocks
            # get a line in front (taken off again), so a U+FEFF starting one of their lines stays.
            text = decode_text(piece if self._at_start else b"\n" + piece, self.path)
        except InputError as exc:
            raise _shifted(exc, self.lines_read - (0 if self._at_start else 1)) from None
        if not self._at_start:
            text = text[1:]
        try:
            check_text(text, self.path)
        except InputError as exc:
            raise _shifted(exc, self.lines_read) from None
        self._at_start = False
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        self._lines.extend(lines)
        self.lines_read += len(lines)

    def take(self, n: int) -> list[str]:
        """Up to ``n`` more lines (fewer only at the end of the file)."""
        while len(self._lines) < n and not self._eof:
            self._fill()
        out, self._lines = self._lines[:n], self._lines[n:]
        return out

    def count_rest(self) -> int:
        """Total number of lines in the file (reads the rest)."""
        while not self._eof:
            self._fill()
            self._lines.clear()
        return self.lines_read


def stream_statistics(
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    *,
    max_order: int = 4,
    tokenize: str = "13a",
    lowercase: bool = False,
    max_bytes: int = 200 * 1024 * 1024,
    block_lines: int | None = None,
) -> Iterator[tuple[str, SegmentStatistics]]:
    """``(hypothesis path, statistics)`` for each hypothesis file against the reference files, read
    ``block_lines`` lines at a time (the references are read again for every hypothesis file)."""
    block = block_lines or BLOCK_LINES
    for hyp_path in hyp_paths:
        readers = [LineReader(p, max_bytes=max_bytes) for p in [hyp_path, *ref_paths]]
        try:
            yield hyp_path, _one_system(readers, max_order, tokenize, lowercase, block)
        finally:
            for reader in readers:
                reader.close()


def _one_system(
    readers: list[LineReader], max_order: int, tokenize: str, lowercase: bool, block_lines: int
) -> SegmentStatistics:
    from .statistics import SegmentStatistics, compute_statistics

    hyp, refs = readers[0], readers[1:]
    parts: list[SegmentStatistics] = []
    any_text = False
    done = 0
    while True:
        blocks = [reader.take(block_lines) for reader in readers]
        sizes = {len(b) for b in blocks}
        if len(sizes) > 1 or not blocks[0]:
            break
        for reader, block in zip(refs, blocks[1:], strict=True):
            try:
                check_blank_lines(reader.path, block)
            except InputError as exc:
                raise _shifted(exc, done) from None
        any_text = any_text or any(line.strip() for line in blocks[0])
        parts.append(
            compute_statistics(
                blocks[0], blocks[1:], max_order=max_order, tokenize=tokenize, lowercase=lowercase
            )
        )
        done += len(blocks[0])
    counts = [reader.count_rest() for reader in readers]
    for reader in readers:
        if reader.bom:
            print(f"bleu-study: warning: {reader.path}: {BOM_MESSAGE}", file=sys.stderr)
    for reader, n in zip(readers, counts, strict=True):
        if n == 0:
            raise InputError("the file is empty: nothing to score", file=reader.path)
    for reader, n in zip(readers[1:], counts[1:], strict=True):
        if n != counts[0]:
            raise InputError(
                f"{reader.path} has {n} lines but {hyp.path} has {counts[0]}; every hypothesis and "
                "reference file needs one line per segment (sacrebleu would silently truncate, its issue #220)"
            )
    if not any_text:
        print(f"bleu-study: warning: {all_blank_warning(hyp.path, counts[0])}", file=sys.stderr)
    return SegmentStatistics.concat(parts)
