"""Published system-level tables: one row per system, one column per metric or human criterion.

Users reproduce published correlation tables by typing the paper's numbers into a CSV (comma, tab or
semicolon separated), e.g. Babych & Hartley (2004) Table 1::

    system,adequacy,fluency,BLEU
    CANDIDE,0.677,0.455,0.3561
    REVERSO,NA,NA,0.3823

The first column holds the system names. ``NA`` (also ``N/A``, ``nan``, ``-``, ``—`` or an empty
cell) marks a missing value; missing values are skipped pair by pair.

**Which columns are human criteria?** Those named with ``criteria`` (case-insensitive), or by default
every column whose name contains one of the words in :data:`HUMAN_WORDS` (the name is split into words
at every character that is not a letter or digit, so ``DA z``, ``mqm_avg`` and ``Adequacy (mean)``
are criteria, ``BLEU`` and ``chrF`` are metrics). Every other column is a metric. Every metric is
correlated with every criterion.

>>> table = parse_system_table("system,ade,BLEU\\nA,1,2\\nB,2,3.5\\nC,3,3\\nD,NA,1", "t.csv")
>>> split_columns(table)
(['BLEU'], ['ade'])
>>> [round(r.result.statistic, 4) for r in table_correlations(table)]
[0.6547]
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from ..io.cells import number
from ..io.csv_rows import read_csv_rows
from ..io.text import read_text, split_lines
from ..limits import check_text
from .correlation import CorrelationResult, check_method, correlation

#: Words that mark a column as human judgment (see the module docstring for the matching rule).
HUMAN_WORDS = frozenset(
    {
        "adequacy",
        "ade",
        "adq",
        "fluency",
        "flu",
        "mqm",
        "da",
        "human",
        "humans",
        "informativeness",
        "comprehensibility",
        "rating",
        "ratings",
        "judgment",
        "judgement",
        "rank",
        "ranking",
        "z",
        "raw",
        "esa",
        "sqm",
        "hter",
        "mos",
        "monolingual",
        "bilingual",
        "accuracy",
    }
)
NA_TOKENS = frozenset({"", "na", "n/a", "nan", "-", "—", "none", "null"})
_MAX_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True, eq=False)
class SystemTable:
    """A parsed table: system names, column names (without the name column) and a ``systems × columns`` array."""

    file: str
    systems: tuple[str, ...]
    columns: tuple[str, ...]
    values: np.ndarray

    def column(self, name: str) -> np.ndarray:
        return self.values[:, self.columns.index(name)]


@dataclass(frozen=True)
class TableCorrelation:
    """Correlation of one metric column with one criterion column."""

    metric: str
    criterion: str
    result: CorrelationResult

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "criterion": self.criterion, **self.result.to_dict()}


def _number(cell: str, file: str, line: int, column: str) -> float:
    # published tables print negative correlations with the typographic minus sign
    return number(
        cell.replace("\u2212", "-"), file=file, line=line, column=column, missing=NA_TOKENS
    )


def parse_system_table(text: str, file: str = "table", *, pair: str | None = None) -> SystemTable:
    """Parse CSV/TSV text into a :class:`SystemTable` (errors name the file, line and column).

    A WMT release's ``scores/automatic-scores.tsv`` (long form: ``pair, system, ..., metric, score``) is
    read too, one column per metric, for one language pair (``pair``; needed when the file has several)."""
    header_index, rows, lines = _csv_rows(text, file)
    header = [c.strip() for c in rows[header_index]]
    if _WMT_LONG <= {c.lower() for c in header}:
        header, rows, header_index = _wide_from_wmt_long(
            header, rows, lines, header_index, file, pair
        )
        # rows made here: every score was checked on its own line by _wide_from_wmt_long
        lines = list(range(1, len(rows) + 1))
    _check_header(header, file, lines[header_index])
    systems: list[str] = []
    values: list[list[float]] = []
    for row, i in zip(rows[header_index + 1 :], lines[header_index + 1 :], strict=True):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise InputError(
                f"{len(row)} cells but the header has {len(header)} columns; give every system a value "
                "(or NA) in every column",
                file=file,
                line=i,
            )
        name = row[0].strip()
        if not name:
            raise InputError("the system name is empty", file=file, line=i, column=header[0] or 1)
        if name in systems:
            raise InputError(
                f"system {name!r} appears twice; keep one row per system", file=file, line=i
            )
        systems.append(name)
        values.append([_number(c, file, i, header[j]) for j, c in enumerate(row) if j > 0])
    if len(systems) < 3:
        raise InputError(
            f"{len(systems)} system row(s); a correlation needs at least 3 systems", file=file
        )
    return SystemTable(file, tuple(systems), tuple(header[1:]), np.array(values, dtype=np.float64))


_WMT_LONG = frozenset({"pair", "system", "metric", "score"})


def wmt_table_pairs(text: str, file: str = "table") -> list[str]:
    r"""The language pairs of a WMT release's long scores table (``pair, system, …, metric, score``), in
    the order they first appear; ``[]`` for any other table. A page offers them before parsing.

    >>> wmt_table_pairs("pair\tsystem\tmetric\tscore\nen-de\tA\tBLEU\t30\nzh-en\tA\tBLEU\t20\n")
    ['en-de', 'zh-en']
    >>> wmt_table_pairs("system,BLEU\nA,30\n")
    []
    """
    header_index, rows, _lines = _csv_rows(text, file)
    header = [c.strip().lower() for c in rows[header_index]]
    if not _WMT_LONG <= set(header):
        return []
    at = header.index("pair")
    return list(
        dict.fromkeys(
            r[at].strip() for r in rows[header_index + 1 :] if len(r) > at and r[at].strip()
        )
    )


def _wide_from_wmt_long(
    header: list[str],
    rows: list[list[str]],
    lines: list[int],
    header_index: int,
    file: str,
    pair: str | None,
) -> tuple[list[str], list[list[str]], int]:
    """The rows of one pair of a WMT ``automatic-scores.tsv``, laid out one column per metric: (header,
    rows, header index), made from the table's header, rows, the line each row starts on and the header's
    index (as :func:`_csv_rows` gives them); every score is checked here, on its own line."""
    at = {name.lower(): j for j, name in enumerate(header)}
    body = [
        (i, r)
        for r, i in zip(rows[header_index + 1 :], lines[header_index + 1 :], strict=True)
        if any(c.strip() for c in r)
    ]
    pairs = list(dict.fromkeys(r[at["pair"]].strip() for _, r in body if len(r) > at["pair"]))
    if pair is None and len(pairs) > 1:
        raise InputError(
            f"this WMT scores table has several language pairs ({', '.join(pairs)}); choose one "
            "(command line: --pair xx-yy)",
            file=file,
        )
    chosen = pair or (pairs[0] if pairs else "")
    if chosen not in pairs:
        raise InputError(
            f"no scores for language pair {chosen!r}; pairs in the table: {', '.join(pairs)}",
            file=file,
        )
    metrics: dict[str, None] = {}
    cells: dict[str, dict[str, str]] = {}
    for i, r in body:
        if len(r) != len(header):
            raise InputError(
                f"{len(r)} cells but the header has {len(header)} columns", file=file, line=i
            )
        if r[at["pair"]].strip() != chosen:
            continue
        system, metric = r[at["system"]].strip(), r[at["metric"]].strip()
        metrics.setdefault(metric)
        if metric in cells.setdefault(system, {}):
            raise InputError(
                f"a second {metric!r} score for system {system!r}; keep one", file=file, line=i
            )
        cells[system][metric] = repr(_number(r[at["score"]], file, i, header[at["score"]]))
    wide = [["system", *metrics]] + [
        [system, *(values.get(m, "NA") for m in metrics)] for system, values in cells.items()
    ]
    return wide[0], wide, 0


def _csv_rows(text: str, file: str) -> tuple[int, list[list[str]], list[int]]:
    """(index of the header row, every row, the line each row starts on), the delimiter guessed from the
    first non-blank line."""
    check_text(text, file)  # a NUL in a cell, an over-long row (bleu_core.limits)
    first = next((ln for ln in split_lines(text) if ln.strip()), "")
    if not first:
        raise InputError("the table is empty; give a header row and one row per system", file=file)
    delimiter = max(",\t;", key=first.count) if any(d in first for d in ",\t;") else ","
    # strict, as every table (bleu_core.io.csv_rows): an unclosed quote is an error naming its line
    rows, lines = read_csv_rows(text, file, delimiter=delimiter)
    header_index = next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), None)
    if header_index is None:
        raise InputError("the table is empty; give a header row and one row per system", file=file)
    return header_index, rows, lines


def _check_header(header: list[str], file: str, line: int) -> None:
    if len(header) < 3:
        raise InputError(
            f"the header has {len(header)} column(s); need a system-name column, at least one metric "
            "and one human criterion (separate columns with commas, tabs or semicolons)",
            file=file,
            line=line,
        )
    seen: set[str] = set()
    for j, name in enumerate(header[1:], start=2):
        if not name:
            raise InputError(
                "a column has no name; name every column in the header",
                file=file,
                line=line,
                column=j,
            )
        if name.lower() in seen:
            raise InputError(
                f"column {name!r} appears twice; give each column a distinct name",
                file=file,
                line=line,
                column=name,
            )
        seen.add(name.lower())


def read_system_table(
    path: str | os.PathLike[str], *, max_bytes: int = _MAX_BYTES, pair: str | None = None
) -> SystemTable:
    """Read a CSV/TSV file of system-level scores (see :func:`parse_system_table`)."""
    name = str(path)
    return parse_system_table(read_text(path, max_bytes=max_bytes, name=name), name, pair=pair)


def is_human_column(name: str) -> bool:
    """Whether a column name marks human judgment under the default rule.

    >>> is_human_column("DA z"), is_human_column("Adequacy (mean)"), is_human_column("chrF")
    (True, True, False)
    """
    return any(word in HUMAN_WORDS for word in re.split(r"[^0-9a-z]+", name.lower()) if word)


def split_columns(
    table: SystemTable, criteria: Sequence[str] | None = None
) -> tuple[list[str], list[str]]:
    """``(metric columns, criterion columns)`` by the documented rule (or the given criteria)."""
    if criteria:
        lookup = {c.lower(): c for c in table.columns}
        chosen = []
        for c in criteria:
            if c.lower() not in lookup:
                raise InputError(
                    f"--criteria names {c!r}, which is not a column; columns: {', '.join(table.columns)}",
                    file=table.file,
                )
            chosen.append(lookup[c.lower()])
    else:
        chosen = [c for c in table.columns if is_human_column(c)]
        if not chosen:
            raise InputError(
                "no column looks like a human criterion (names such as adequacy, fluency, mqm, da, human); "
                "name them with --criteria",
                file=table.file,
            )
    metrics = [c for c in table.columns if c not in chosen]
    if not metrics:
        raise InputError(
            "every column is a human criterion; at least one metric column is needed",
            file=table.file,
        )
    return metrics, chosen


def table_correlations(
    table: SystemTable,
    criteria: Sequence[str] | None = None,
    methods: Sequence[str] = ("pearson",),
) -> list[TableCorrelation]:
    """Every metric × criterion correlation of a system table (NA skipped pair by pair)."""
    for m in methods:
        check_method(m)
    metrics, chosen = split_columns(table, criteria)
    return [
        TableCorrelation(
            metric,
            crit,
            correlation(table.column(metric), table.column(crit), m).with_fisher_interval(),
        )
        for metric in metrics
        for crit in chosen
        for m in methods
    ]
