"""Delimited tables (CSV / TSV) with locations: every row remembers its line, every error names its column.

>>> table = parse_table("system,segment_id,score\\nA,1,0.5\\n", "ratings.csv")
>>> table.columns, table.rows[0].line, table.rows[0]["score"]
(['system', 'segment_id', 'score'], 2, '0.5')
>>> table.require("system", "criterion")
Traceback (most recent call last):
  ...
bleu_core.errors.InputError: ratings.csv, line 1: missing required column 'criterion'; columns found: system, segment_id, score; ...
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter

from bleu_core.errors import InputError
from bleu_core.io.csv_rows import read_csv_rows
from bleu_core.limits import check_text

__all__ = ["Row", "Table", "parse_table"]

#: Cell values read as "no score here" (the row carries text only, or the item was not rated).
EMPTY_SCORE = ("",)


@dataclass(frozen=True)
class Row:
    """One data row: cells by (lower-cased) column name, and the 1-based line it started on."""

    cells: dict[str, str]
    line: int

    def __getitem__(self, column: str) -> str:
        return self.cells.get(column, "")

    def get(self, column: str, default: str = "") -> str:
        """The cell, or ``default`` when the column is absent."""
        return self.cells.get(column, default)


@dataclass(frozen=True)
class Table:
    """A parsed table: column names (stripped, lower-cased), the cells of every data row (``data``) and the
    line each row started on (``lines``).

    Large tables (half a million ratings) are read column by column (:meth:`column`); :attr:`rows` gives
    the same data as :class:`Row` objects, built on first use.
    """

    file: str
    columns: list[str]
    data: list[list[str]]
    lines: list[int]
    delimiter: str

    @cached_property
    def rows(self) -> list[Row]:
        """One :class:`Row` per data row (built once, on first use)."""
        columns = self.columns
        return [
            Row(dict(zip(columns, cells, strict=True)), line)
            for cells, line in zip(self.data, self.lines, strict=True)
        ]

    def column(self, name: str) -> list[str]:
        """Every row's cell in column ``name`` (``""`` for each row when the column is absent).

        >>> table = parse_table("system,score\\nA,1\\nB,2\\n", "r.csv")
        >>> table.column("score"), table.column("rater")
        (['1', '2'], ['', ''])
        """
        if name not in self.columns:
            return [""] * len(self.data)
        return list(map(itemgetter(self.columns.index(name)), self.data))

    def require(self, *names: str, fix: str = "") -> None:
        """Raise when a required column is missing, listing the columns found."""
        missing = [name for name in names if name not in self.columns]
        if missing:
            plural = "s" if len(missing) > 1 else ""
            found = ", ".join(self.columns) or "(none)"
            hint = fix or (
                f"rename your header so it has {', '.join(repr(n) for n in names)} "
                "(see docs/formats.md)"
            )
            raise InputError(
                f"missing required column{plural} {', '.join(repr(m) for m in missing)}; "
                f"columns found: {found}; {hint}",
                file=self.file,
                line=1,
            )

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.data)


def guess_delimiter(file: str, first_line: str) -> str:
    """TAB for ``.tsv`` files, comma for ``.csv``; otherwise TAB if the header has one, else comma."""
    lower = file.lower().removesuffix(".gz")
    if lower.endswith(".tsv"):
        return "\t"
    if lower.endswith(".csv"):
        return ","
    return "\t" if "\t" in first_line else ","


def parse_table(text: str, file: str, *, delimiter: str | None = None) -> Table:
    """Parse CSV (RFC 4180 quoting) or TSV (no quoting) text whose first line is a header.

    Raises :class:`~bleu_core.errors.InputError` for an empty file, a duplicate column name, or a row with
    the wrong number of cells (naming its line).
    """
    if not text.strip():
        raise InputError("empty file; a header line and at least one row are needed", file=file)
    check_text(text, file)  # a NUL in a cell, an over-long row (bleu_core.limits)
    if delimiter is None:
        delimiter = guess_delimiter(file, text.split("\n", 1)[0])
    # CSV is read strictly (bleu_core.io.csv_rows): an unclosed quote or a text after a closing quote is an
    # error naming the line the row starts on; TSV has no quoting
    raw, starts = read_csv_rows(text, file, delimiter=delimiter, quoting=delimiter != "\t")
    columns = _column_names(raw[0], file)
    data, lines = _rows(raw[1:], starts[1:], len(columns), delimiter, file)
    return Table(file=file, columns=columns, data=data, lines=lines, delimiter=delimiter)


def _column_names(header: list[str], file: str) -> list[str]:
    """The header's column names, stripped and lower-cased; an empty or repeated name is an error."""
    columns = [name.strip().lower() for name in header]
    seen: set[str] = set()
    for number, name in enumerate(columns, start=1):
        if not name:
            raise InputError(
                f"column {number} of the header is empty; give every column a name",
                file=file,
                line=1,
                column=number,
            )
        if name in seen:
            raise InputError(
                f"column name {name!r} appears twice in the header; rename one of them",
                file=file,
                line=1,
                column=number,
            )
        seen.add(name)
    return columns


def _rows(
    raw: list[list[str]], starts: list[int], width: int, delimiter: str, file: str
) -> tuple[list[list[str]], list[int]]:
    """The data rows and the line each starts on (a row may span lines inside quotes), blank lines
    skipped; a row with the wrong number of cells is an error naming its line."""
    data: list[list[str]] = []
    lines: list[int] = []
    for cells, start in zip(raw, starts, strict=True):
        if len(cells) != width or width == 1:
            if not cells or (len(cells) == 1 and not cells[0].strip()):
                continue  # blank line between rows
        if len(cells) != width:
            sep = "TAB" if delimiter == "\t" else repr(delimiter)
            raise InputError(
                f"{len(cells)} cells, but the header has {width} columns; "
                f"every row needs one value per column (separated by {sep}; "
                + (
                    "a TAB inside a text must be replaced by a space)"
                    if delimiter == "\t"
                    else 'quote texts containing commas: "a, b")'
                ),
                file=file,
                line=start,
            )
        data.append(cells)
        lines.append(start)
    return data, lines
