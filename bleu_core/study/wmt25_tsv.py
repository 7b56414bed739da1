"""The TSV of WMT25's span task: error spans out (a submission, or the gold) and back in.

The task releases its data as tab-separated rows with a header, the fields :data:`TSV_FIELDS_RELEASE`
(``doc_id, segment_id, source_lang, target_lang, set_id, system_id, source_segment, hypothesis_segment,
reference_segment, domain_name, method``) followed by :data:`TSV_FIELDS_SPANS` (``start_indices,
end_indices, error_types``): the spans of one translation as three space-separated lists of equal length,
offsets into ``hypothesis_segment`` (Python string offsets, ``end`` exclusive), ``missing`` for both
offsets of an omission, and ``-1 / -1 / no-error`` for a translation without error (as the organisers'
WMT24-to-TSV conversion writes it). A submission has the same rows with its own spans; the organisers'
scorer pairs the rows on ``doc_id, segment_id, source_lang, target_lang, set_id, system_id, domain_name,
method`` (:func:`row_key`), so a submission carries the gold's ``method`` (``ESA``, ``MQM``).

**Quoting.** The organisers write and read these files with pandas (``to_csv(sep="\\t")``,
``read_csv(sep="\\t")``): a cell holding a tab, a line break or a double quote is put in double quotes, a
quote inside doubled; other cells are plain. :func:`write_tsv` writes exactly that (Python's ``csv`` with
``QUOTE_MINIMAL``, the same rule), so segments with tabs or line breaks survive the round trip and pandas
reads the file back unchanged; :func:`parse_tsv` reads it strictly (:func:`bleu_core.io.read_csv_rows`).
Cells are never altered (no spreadsheet-formula guard): the offsets point into the exact text. The one
exception is the input boundary's rule for Windows line ends: a ``\r\n`` inside a segment is read back as
``\n`` (:func:`bleu_core.io.decode_text`), which shifts the offsets after it.

>>> row = Wmt25Row(dict(zip(TSV_FIELDS_RELEASE, ["d1", "1", "en", "de", "official", "A",
...                "Hi", "Hallo\\tWelt", "Hallo Welt", "news", "ESA"])),
...                (Wmt25Span(0, 5, "major"), Wmt25Span(None, None, "minor")))
>>> text = write_tsv([row])
>>> text.splitlines()[1].split("\\t")[-3:]
['0 missing', '5 missing', 'major minor']
>>> rows, warnings = parse_tsv(text, "sub.tsv")
>>> rows[0].spans == row.spans, rows[0].fields["hypothesis_segment"], warnings
(True, 'Hallo\\tWelt', [])
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bleu_core.errors import InputError, StudyError
from bleu_core.io import DEFAULT_MAX_BYTES, check_size, read_csv_rows, read_text, text_from_bytes
from bleu_core.study.span_scorer_wmt25 import (
    OFFICIAL_SET,
    Wmt25Item,
    Wmt25Result,
    Wmt25Span,
    score_items,
)

__all__ = [
    "KEY_FIELDS",
    "SEVERITIES",
    "TSV_FIELDS",
    "TSV_FIELDS_RELEASE",
    "TSV_FIELDS_SPANS",
    "Wmt25Row",
    "parse_tsv",
    "parse_tsv_bytes",
    "read_tsv",
    "row_key",
    "score_tsv",
    "write_tsv",
]

TSV_FIELDS_RELEASE = (
    "doc_id",
    "segment_id",
    "source_lang",
    "target_lang",
    "set_id",
    "system_id",
    "source_segment",
    "hypothesis_segment",
    "reference_segment",
    "domain_name",
    "method",
)
TSV_FIELDS_SPANS = ("start_indices", "end_indices", "error_types")
TSV_FIELDS = TSV_FIELDS_RELEASE + TSV_FIELDS_SPANS
KEY_FIELDS = ("doc_id", "segment_id", "source_lang", "target_lang", "set_id", "system_id",
              "domain_name", "method")  # fmt: skip
"""The fields the organisers' scorer joins a submission's rows to the gold's on."""
SEVERITIES = ("major", "minor", "critical", "undecided")
NO_ERROR = "no-error"
MISSING = "missing"


@dataclass(frozen=True)
class Wmt25Row:
    """One row: the release ``fields`` (name → text) and the translation's ``spans``; ``line`` is the
    line the row starts on in the file it was read from (0 when made in memory)."""

    fields: dict[str, str]
    spans: tuple[Wmt25Span, ...]
    line: int = 0

    @property
    def pair(self) -> str:
        return f"{self.fields['source_lang']}-{self.fields['target_lang']}"


def row_key(row: Wmt25Row) -> tuple[str, ...]:
    """The organisers' join key of a row (:data:`KEY_FIELDS`)."""
    return tuple(row.fields[name] for name in KEY_FIELDS)


def span_cells(spans: Sequence[Wmt25Span]) -> tuple[str, str, str]:
    """``start_indices, end_indices, error_types`` of ``spans`` (``-1 -1 no-error`` for none)."""
    if not spans:
        return "-1", "-1", NO_ERROR
    starts = " ".join(MISSING if s.missing else str(s.start) for s in spans)
    ends = " ".join(MISSING if s.missing else str(s.end) for s in spans)
    return starts, ends, " ".join(s.severity for s in spans)


def write_tsv(rows: Iterable[Wmt25Row]) -> str:
    """The task's TSV of ``rows`` (header first; quoting as pandas writes it, see the module docstring)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
    writer.writerow(TSV_FIELDS)
    for row in rows:
        writer.writerow(
            [*(row.fields[name] for name in TSV_FIELDS_RELEASE), *span_cells(row.spans)]
        )
    return out.getvalue()


def _offset(cell: str) -> int | None:
    if cell == MISSING:
        return None
    return int(cell)


def _parse_spans(
    cells: Sequence[str], length: int, where: str
) -> tuple[tuple[Wmt25Span, ...], str]:
    """The spans of one row and a problem ('' when none). A row the organisers' scorer reads as
    having no error (an empty entry) is read the same way, with the problem said."""
    starts_cell, ends_cell, types_cell = cells
    if types_cell.strip() == NO_ERROR:
        return (), ""
    starts, ends, types = (c.split(" ") for c in cells)
    if not len(starts) == len(ends) == len(types):
        return (), (f"start_indices, end_indices and error_types list {len(starts)}, {len(ends)} "
                    f"and {len(types)} entries; {where} reads it as having no error")  # fmt: skip
    if any(not a or not b or not t for a, b, t in zip(starts, ends, types, strict=True)):
        return (
            (),
            f"an empty entry in start_indices, end_indices or error_types; {where} reads it as having no error",
        )
    spans = []
    for a, b, t in zip(starts, ends, types, strict=True):
        if t not in SEVERITIES:
            return (), (f"unknown error type {t!r} (the task's are {', '.join(SEVERITIES)}, or "
                        f"{NO_ERROR} alone); {where} reads it as having no error")  # fmt: skip
        try:
            start, end = _offset(a), _offset(b)
        except ValueError:
            return (
                (),
                f"offsets {a!r}-{b!r} are not whole numbers (or {MISSING}); {where} reads it as having no error",
            )
        if (start is None) != (end is None):
            return (
                (),
                f"offsets {a!r}-{b!r}: only one is {MISSING}; {where} reads it as having no error",
            )
        if start is not None and end is not None and not 0 <= start <= end <= length:
            return (), (f"span {start}-{end} does not lie inside the hypothesis ({length} characters); "
                        f"{where} reads it as having no error")  # fmt: skip
        spans.append(Wmt25Span(start, end, t))
    return tuple(spans), ""


def parse_tsv(text: str, file: str) -> tuple[list[Wmt25Row], list[str]]:
    """The rows of a task TSV and warnings, each naming ``file`` and the line.

    A header without the task's fields raises :class:`~bleu_core.errors.InputError`; a row with the wrong
    number of cells is left out with a warning; a row whose span cells cannot be read is kept as a
    translation without error (the organisers' scorer does that for an empty entry), with a warning.

    >>> head = "\\t".join(TSV_FIELDS) + "\\n"
    >>> good = "\\t".join(["d", "1", "en", "de", "official", "A", "s", "abc", "r", "news", "ESA"])
    >>> rows, warnings = parse_tsv(head + good + "\\t0\\t9\\tmajor\\n" + good + "\\n", "p.tsv")
    >>> len(rows), rows[0].spans
    (1, ())
    >>> print("\\n".join(warnings))
    p.tsv, line 2: span 0-9 does not lie inside the hypothesis (3 characters); bleu-study reads it as having no error
    p.tsv, line 3: 11 cells where the header has 14; row left out
    """
    table, lines = read_csv_rows(text, file, delimiter="\t")
    if not table or not table[0]:
        raise InputError("the file is empty; a task TSV starts with a header row", file=file)
    header = table[0]
    absent = [name for name in TSV_FIELDS if name not in header]
    if absent:
        raise InputError(
            f"the header lacks {', '.join(absent)}; a WMT25 span TSV has the columns "
            f"{', '.join(TSV_FIELDS)}",
            file=file,
            line=lines[0],
        )
    where = "bleu-study"
    rows, warnings = [], []
    for cells, line in zip(table[1:], lines[1:], strict=True):
        if not cells:
            continue
        if len(cells) != len(header):
            warnings.append(f"{file}, line {line}: {len(cells)} cells where the header has "
                            f"{len(header)}; row left out")  # fmt: skip
            continue
        named = dict(zip(header, cells, strict=True))
        length = len(named["hypothesis_segment"])
        spans, problem = _parse_spans([named[k] for k in TSV_FIELDS_SPANS], length, where)
        if problem:
            warnings.append(f"{file}, line {line}: {problem}")
        rows.append(Wmt25Row({k: named[k] for k in TSV_FIELDS_RELEASE}, spans, line))
    return rows, warnings


def read_tsv(path: str, *, max_bytes: int | None = None) -> tuple[list[Wmt25Row], list[str]]:
    """:func:`parse_tsv` of the file at ``path`` (read through :mod:`bleu_core.io`)."""
    text = read_text(path) if max_bytes is None else read_text(path, max_bytes=max_bytes)
    return parse_tsv(text, str(path))


def parse_tsv_bytes(
    data: bytes, file: str, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[list[Wmt25Row], list[str]]:
    """:func:`parse_tsv` of an uploaded file's bytes (size cap, UTF-8 and line checks of
    :mod:`bleu_core.io`).

    >>> parse_tsv_bytes(b"x" * 10, "up.tsv", max_bytes=4)
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: up.tsv: file is ...
    """
    check_size(len(data), max_bytes, file)
    return parse_tsv(text_from_bytes(data, file), file)


def _where(file: str, line: int) -> str:
    """``file, line N``, or the file alone for a row made in memory (line 0)."""
    return f"{file}, line {line}" if line else file


def _official(rows: list[Wmt25Row], file: str, notes: list[str]) -> dict[tuple[str, ...], Wmt25Row]:
    by_key: dict[tuple[str, ...], Wmt25Row] = {}
    others = 0
    for row in rows:
        if row.fields["set_id"] != OFFICIAL_SET:
            others += 1
            continue
        key = row_key(row)
        if key in by_key:
            raise InputError(
                f"this row repeats the translation of line {by_key[key].line} (same "
                f"{', '.join(KEY_FIELDS)}); each translation has one row",
                file=file,
                line=row.line or None,
            )
        by_key[key] = row
    if others:
        notes.append(f"{file}: {others} row(s) of a set other than {OFFICIAL_SET!r} left out, as "
                     "the organisers' scorer leaves them out")  # fmt: skip
    return by_key


def score_tsv(
    gold: list[Wmt25Row],
    predicted: list[Wmt25Row],
    *,
    files: tuple[str, str] = ("gold", "predictions"),
    predictor: str = "predictions",
) -> Wmt25Result:
    """Score ``predicted`` rows against ``gold`` rows as the organisers' scorer does: the ``official``
    rows of the pairs both have, joined on :data:`KEY_FIELDS`; a translation on one side only raises
    :class:`~bleu_core.errors.StudyError` (the organisers' scorer stops there too)."""
    notes: list[str] = []
    gold_rows = _official(gold, files[0], notes)
    pred_rows = _official(predicted, files[1], notes)
    pairs = {r.pair for r in gold_rows.values()} & {r.pair for r in pred_rows.values()}
    for name, rows in zip(files, (gold_rows, pred_rows), strict=True):
        alone = sorted({r.pair for r in rows.values()} - pairs)
        if alone:
            notes.append(f"{name}: pair(s) {', '.join(alone)} only on this side, not scored")
    if not pairs:
        raise StudyError(
            f"{files[0]} and {files[1]} share no language pair of the official set; nothing to score"
        )
    items = []
    for key, row in gold_rows.items():
        if row.pair not in pairs:
            continue
        pred = pred_rows.pop(key, None)
        if pred is None:
            raise StudyError(
                f"{_where(files[0], row.line)}: no row of {files[1]} for this translation "
                f"({', '.join(f'{k}={v}' for k, v in zip(KEY_FIELDS, key, strict=True))}); a "
                "submission has one row per gold row"
            )
        length = len(row.fields["hypothesis_segment"])
        items.append(Wmt25Item(row.pair, row.fields["system_id"], length, row.spans, pred.spans))
    extra = [r for r in pred_rows.values() if r.pair in pairs]
    if extra:
        raise StudyError(
            f"{_where(files[1], extra[0].line)}: a translation the gold does not have "
            f"({len(extra)} such row(s)); a submission has one row per gold row"
        )
    return score_items(items, predictor=predictor, notes=notes)
