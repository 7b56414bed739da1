"""BLEU statistics of 13a-tokenised files straight from their bytes: the fast path of ``bleu-study score`` and
``bleu-study significance``.

``score`` with the default tokenizer needs, per system, only the corpus totals: hypothesis length, reference
length, clipped matches and totals per order. :func:`files_totals` computes them in one call of the compiled
kernel ``bleu13a_totals`` (``fast/_bleu13a.c``): the files' bytes are checked (UTF-8, NUL, line length),
split into lines and words, each distinct word tokenised once with sacrebleu's 13a rules (in C: the rules of
``rules_13a``) for all the hypothesis files of the call and their references, every token numbered through a
hash table, and the clipped n-gram matches counted segment by segment, system by system; with two threads
each takes half of the lines (tokenising and counting them). No ``str`` is built for the text and numpy is
not imported. ``significance`` resamples segments, so it takes one row per segment and system instead
(:func:`files_segments`, the kernel ``bleu13a_segments``: the same counts, not summed).

It gives exactly the numbers of :func:`bleu_core.engine.statistics.compute_statistics` on the decoded lines (its
pure paths, :func:`python_file_segments` and :func:`python_file_totals`, compute them that way; tests compare the two, and both with
sacrebleu, on the real data and on Hypothesis text). Whenever the general path would warn or fail, the kernel
declines with a reason instead (:data:`REASONS`), and ``score`` takes the general path, which words the
message: so errors and warnings stay those of :mod:`bleu_core.io.text` and :mod:`bleu_core.cli.options`.
One file's reason declines every file of the call.

The example of :mod:`bleu_core.engine.statistics` (sacrebleu counts 5/6, 3/5, 1/4 and 0/3 n-grams on it):

>>> file_totals(b"the cat sat on the mat\\n", [b"the cat is on the mat\\n"], 4, compiled=False)
(1, [6, 6, 6, 6, 5, 3, 1, 0, 6, 5, 4, 3])
>>> file_totals(b"x\\n", [b" \\n"], 4, compiled=False)
'blank-reference'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..limits import MAX_LINE_CHARS
from .compiled import extension, use_compiled

if TYPE_CHECKING:  # numpy is imported only by the per-segment functions: `score` does without it
    import numpy as np

#: Why the kernel (and its pure path) decline: the general path then reports the problem or the warning.
REASONS = (
    "bom",  # a UTF-8 byte-order mark: removed with a warning by the general path
    "empty",  # an empty file: an error
    "nul",  # a NUL byte: an error
    "not-utf8",  # bytes that are not UTF-8: an error naming the line
    "line-count",  # files of different numbers of lines: an error
    "long-line",  # a line of more than MAX_LINE_CHARS bytes (the general path counts characters)
    "blank-reference",  # a blank reference line: an error
    "blank-hypotheses",  # no word in the whole hypothesis file: scored with a warning
)

#: All input files together above this size take the general path, which reads them block by block above
#: :data:`bleu_core.engine.file_statistics.STREAM_BYTES` (the same size, tested): the kernel holds every file's bytes
#: and their token ids (about as many bytes again) in memory at once.
MAX_FAST_BYTES = 64 * 1024 * 1024

#: The kernel's limit (``B13_MAX_SOURCES`` - 1 in ``_bleu13a.c``); more references take the general path.
MAX_REFERENCES = 63

_BOM = b"\xef\xbb\xbf"
_WHITESPACE = b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "


def file_totals(
    hyp: bytes,
    refs: Sequence[bytes],
    max_order: int,
    *,
    threads: int | None = None,
    compiled: bool | None = None,
    max_line_bytes: int = MAX_LINE_CHARS,
) -> tuple[int, list[int]] | str:
    """``(segments, totals)`` of a hypothesis file against reference files (their contents), or a reason.

    ``totals`` are integers: hypothesis length, closest, shortest and summed reference lengths (the sums over
    segments), then the clipped matches and the n-gram totals of orders 1..``max_order``. ``threads`` (1 or
    2; default: 2 when the machine has two cores) is how many threads the compiled kernel uses; a line of
    more than ``max_line_bytes`` bytes is a reason to decline (``"long-line"``).
    """
    out = files_totals(
        [hyp], refs, max_order, threads=threads, compiled=compiled, max_line_bytes=max_line_bytes
    )
    return out if isinstance(out, str) else (out[0], out[1][0])


def files_totals(
    hyps: Sequence[bytes],
    refs: Sequence[bytes],
    max_order: int,
    *,
    threads: int | None = None,
    compiled: bool | None = None,
    max_line_bytes: int = MAX_LINE_CHARS,
) -> tuple[int, list[list[int]]] | str:
    """:func:`file_totals` of several hypothesis files at once: ``(segments, [totals of each file])``, or a
    reason (one file's reason declines them all). The compiled kernel tokenises the references once for all
    of them; at most ``MAX_REFERENCES + 1`` files in all (:func:`hypothesis_groups` cuts a longer list).

    >>> files_totals([b"a b\\n", b"a c\\n"], [b"a b\\n"], 2, compiled=False)
    (1, [[2, 2, 2, 2, 2, 1, 2, 1], [2, 2, 2, 2, 1, 0, 2, 1]])
    """
    if use_compiled(sum(map(len, hyps)), compiled):
        module = extension()
        assert module is not None
        out = module.bleu13a_totals(
            tuple(hyps), tuple(refs), int(max_order), int(max_line_bytes), _threads(threads)
        )
        return out if isinstance(out, str) else (out[0], [list(t) for t in out[1]])
    totals = []
    for hyp in hyps:
        one = python_file_totals(hyp, refs, max_order, max_line_bytes=max_line_bytes)
        if isinstance(one, str):
            return one
        totals.append(one[1])
    return len(_lines(hyps[0])), totals


def hypothesis_groups(paths: Sequence[str], n_refs: int) -> list[list[str]]:
    """``paths`` cut into groups that one kernel call takes beside ``n_refs`` reference files.

    >>> [len(g) for g in hypothesis_groups([f"h{i}" for i in range(70)], 1)]
    [63, 7]
    """
    size = max(1, MAX_REFERENCES + 1 - n_refs)
    return [list(paths[i : i + size]) for i in range(0, len(paths), size)]


def _check_bytes(data: bytes) -> str | None:
    """The reason to decline a file's bytes as a whole (the kernel's order of checks), or ``None``."""
    if data.startswith(_BOM):
        return "bom"
    if not data:
        return "empty"
    nul = data.find(b"\x00")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return "nul" if 0 <= nul < exc.start else "not-utf8"
    return "nul" if nul >= 0 else None


def _lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    return parts


def _line_reason(
    hyp_lines: list[bytes], ref_lines: list[list[bytes]], max_line_bytes: int
) -> str | None:
    """The reason the kernel finds going segment by segment, file by file (``None``: none)."""
    for s in range(len(hyp_lines)):
        for k, lines in enumerate([hyp_lines, *ref_lines]):
            if k and s >= len(lines):
                return "line-count"
            if len(lines[s]) > max_line_bytes:
                return "long-line"
            if k and not lines[s].decode().split():
                return "blank-reference"
    if any(len(lines) > len(hyp_lines) for lines in ref_lines):
        return "line-count"
    if not any(line.decode().split() for line in hyp_lines):
        return "blank-hypotheses"
    return None


def python_file_totals(
    hyp: bytes, refs: Sequence[bytes], max_order: int, *, max_line_bytes: int = MAX_LINE_CHARS
) -> tuple[int, list[int]] | str:
    """The pure path of :func:`file_totals`: :func:`python_file_segments`, summed."""
    rows = python_file_segments(hyp, refs, max_order, max_line_bytes=max_line_bytes)
    if isinstance(rows, str):
        return rows
    return len(rows), [int(x) for x in rows.sum(axis=0)]


def file_segments(
    hyp: bytes,
    refs: Sequence[bytes],
    max_order: int,
    *,
    threads: int | None = None,
    compiled: bool | None = None,
    max_line_bytes: int = MAX_LINE_CHARS,
) -> np.ndarray | str:
    """One row of integers per segment (what :func:`file_totals` sums), or a reason to decline.

    The columns: hypothesis length, closest, shortest and summed reference lengths, then the clipped matches
    and the n-gram totals of orders 1..``max_order`` (``int64``, segments × (4 + 2 × ``max_order``)). The
    compiled kernel ``bleu13a_segments`` counts them as ``bleu13a_totals`` does; the arguments are those of
    :func:`file_totals`.

    >>> file_segments(b"the cat sat on the mat\\nx y\\n", [b"the cat is on the mat\\nx y z\\n"], 2).tolist()
    [[6, 6, 6, 6, 5, 3, 6, 5], [2, 3, 3, 3, 2, 1, 2, 1]]
    """
    out = files_segments(
        [hyp], refs, max_order, threads=threads, compiled=compiled, max_line_bytes=max_line_bytes
    )
    return out if isinstance(out, str) else out[0]


def files_segments(
    hyps: Sequence[bytes],
    refs: Sequence[bytes],
    max_order: int,
    *,
    threads: int | None = None,
    compiled: bool | None = None,
    max_line_bytes: int = MAX_LINE_CHARS,
) -> np.ndarray | str:
    """:func:`file_segments` of several hypothesis files at once (files × segments × columns), or a reason
    (one file's reason declines them all); the references are tokenised once for all of them."""
    import numpy as np

    if use_compiled(sum(map(len, hyps)), compiled):
        module = extension()
        assert module is not None
        out = module.bleu13a_segments(
            tuple(hyps), tuple(refs), int(max_order), int(max_line_bytes), _threads(threads)
        )
        if isinstance(out, str):
            return out
        n_segments, data = out
        array = np.frombuffer(data, dtype=np.int64)
        return array.reshape(len(hyps), n_segments, 4 + 2 * max_order)
    rows = []
    for hyp in hyps:
        one = python_file_segments(hyp, refs, max_order, max_line_bytes=max_line_bytes)
        if isinstance(one, str):
            return one
        rows.append(one)
    return np.stack(rows)


def python_file_segments(
    hyp: bytes, refs: Sequence[bytes], max_order: int, *, max_line_bytes: int = MAX_LINE_CHARS
) -> np.ndarray | str:
    """The pure path of :func:`file_segments`: the same checks in Python, then
    :func:`bleu_core.fast.corpus.corpus_statistics` (what
    :func:`bleu_core.engine.statistics.compute_statistics` runs) on the decoded lines."""
    import numpy as np

    for data in [hyp, *refs]:
        reason = _check_bytes(data)
        if reason:
            return reason
    hyp_lines, ref_lines = _lines(hyp), [_lines(r) for r in refs]
    reason = _line_reason(hyp_lines, ref_lines, max_line_bytes)
    if reason:
        return reason
    from .corpus import corpus_statistics

    def text(lines: list[bytes]) -> list[str]:  # "\r\n" -> "\n" as the general path reads files
        return [line.decode().removesuffix("\r") for line in lines]

    array, _ = corpus_statistics(
        text(hyp_lines), [text(r) for r in ref_lines], max_order=max_order, tokenize="13a"
    )
    # the average column times the number of references: each segment's summed reference lengths
    array[:, 3] *= len(refs)
    return np.rint(array).astype(np.int64)


def _threads(threads: int | None) -> int:
    """The kernel's threads: 2 when the machine has two cores or more, unless told."""
    if threads is None:
        return 2 if (os.cpu_count() or 1) > 1 else 1
    return int(threads)


def _fast_inputs(
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    *,
    tokenize: str,
    lowercase: bool,
    max_bytes: int,
    stream_bytes: int,
) -> list[bytes] | None:
    """The references' bytes when the files can take the kernel (13a, no lower-casing, compiled kernels, at
    most :data:`MAX_REFERENCES` references, every file present, none over ``max_bytes``, all together at most
    ``stream_bytes``), else ``None``."""
    if tokenize != "13a" or lowercase or not use_compiled():
        return None
    if len(ref_paths) > MAX_REFERENCES:
        return None
    paths = [*hyp_paths, *ref_paths]
    try:
        sizes = [os.path.getsize(p) if os.path.isfile(p) else -1 for p in paths]
        if min(sizes) < 0 or max(sizes) > max_bytes or sum(sizes) > stream_bytes:
            return None
        return [_read(p) for p in ref_paths]
    except OSError:
        return None


def _per_file(
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    count: Callable[[list[bytes], list[bytes]], Sequence[Any] | np.ndarray | str],
    **limits: Any,
) -> tuple[int, list[tuple[str, Any]]] | None:
    """``(references, [(path, what count gave for it)])``: each group of :func:`hypothesis_groups` read and
    counted in one call of ``count(hypotheses, references)`` (a result per hypothesis file, or a reason);
    ``None`` when the files cannot take the kernel (:func:`_fast_inputs` with ``limits``), cannot be read,
    or a group is declined."""
    refs = _fast_inputs(ref_paths, hyp_paths, **limits)
    if refs is None:
        return None
    results: list[tuple[str, Any]] = []
    try:
        for group in hypothesis_groups(hyp_paths, len(refs)):
            out = count([_read(p) for p in group], refs)
            if isinstance(out, str):
                return None
            results += zip(group, out, strict=True)
    except OSError:
        return None
    return len(refs), results


def corpus_rows(
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    *,
    max_order: int,
    tokenize: str,
    lowercase: bool,
    ref_length: str,
    max_bytes: int,
    stream_bytes: int = MAX_FAST_BYTES,
) -> list[tuple[str, list[float]]] | None:
    """``score``'s corpus statistics row per system file (the columns of
    :class:`bleu_core.engine.statistics.SegmentStatistics`, summed), or ``None`` when the general path must run:
    the files cannot take the kernel (:func:`_fast_inputs`: another tokenizer, lower-casing, no compiled
    kernels, too many references, a missing or over-size file, input above ``stream_bytes``, which the
    general path reads block by block), several references with the ``average`` length policy (its column
    is a sum of fractions, left to numpy's summation), or any reason of :data:`REASONS`.

    With several references and another policy, the ``average`` column holds the summed reference lengths
    divided by their number (the policy's column is exact; this one is not read).
    """
    if ref_length == "average" and len(ref_paths) > 1:
        return None

    def count(hyps: list[bytes], refs: list[bytes]) -> Sequence[Any] | str:
        out = files_totals(hyps, refs, max_order)
        return out if isinstance(out, str) else out[1]

    limits = {"tokenize": tokenize, "lowercase": lowercase, "max_bytes": max_bytes}
    found = _per_file(ref_paths, hyp_paths, count, **limits, stream_bytes=stream_bytes)
    if found is None:
        return None
    n_refs, results = found
    rows = []
    for path, totals in results:
        row = [float(x) for x in totals]
        row[3] /= n_refs
        rows.append((path, row))
    return rows


def segment_rows(
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    *,
    max_order: int,
    tokenize: str,
    lowercase: bool,
    max_bytes: int,
    stream_bytes: int = MAX_FAST_BYTES,
) -> list[tuple[str, np.ndarray]] | None:
    """Per-segment statistics per system file, as :func:`bleu_core.engine.statistics.compute_system_statistics`
    gives them on the files' lines (``float64``, the columns of :class:`bleu_core.engine.statistics.SegmentStatistics`:
    the ``average`` column is each segment's summed reference lengths divided by their number, as numpy
    divides it there), or ``None`` when the general path must run (the conditions of :func:`corpus_rows`,
    except that the ``average`` column is exact here for any number of references).
    """
    import numpy as np

    def count(hyps: list[bytes], refs: list[bytes]) -> np.ndarray | str:
        return files_segments(hyps, refs, max_order)

    limits = {"tokenize": tokenize, "lowercase": lowercase, "max_bytes": max_bytes}
    found = _per_file(ref_paths, hyp_paths, count, **limits, stream_bytes=stream_bytes)
    if found is None:
        return None
    n_refs, results = found
    out = []
    for path, rows in results:
        array = rows.astype(np.float64)
        array[:, 3] /= n_refs
        out.append((path, array))
    return out


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()
