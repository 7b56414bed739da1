"""Numbers and JSON in table cells: one parser, one message, for every table bleu-study reads.

A rating, a metric score or a published BLEU is written by a spreadsheet or a script as a plain decimal number
in ASCII digits. Python's ``float()`` accepts much more (``5_0`` = 50, Arabic-Indic ``٣٠`` = 30, fullwidth
``４``, ``nan``, ``inf``), and each of those in a score file is a mistake that would shift a result silently,
so :func:`number` accepts only the plain form and says how to write the cell otherwise.

A table may allow a *missing* value: the caller names its spellings (``missing=("", "NA")``), and such a
cell gives ``nan``. Since ``nan`` written as a number is always refused, a ``nan`` result means exactly
"missing here".

>>> number(" 4.5 ", file="r.csv", line=2, column="score")
4.5
>>> number("na", file="t.csv", line=3, column="BLEU", missing=("", "NA"))
nan
>>> number("5_0", file="r.csv", line=4, column="score")
Traceback (most recent call last):
  ...
bleu_core.errors.InputError: r.csv, line 4, column score: '5_0' is not a number; write a plain decimal number with ASCII digits such as 3, -1.5 or 2e-3 (no digit separators, no other scripts' digits)
>>> number("inf", file="t.csv", line=5, column="BLEU", missing=("NA",))
Traceback (most recent call last):
  ...
bleu_core.errors.InputError: t.csv, line 5, column BLEU: 'inf' is not a finite number; NaN/inf is not a score — write NA for a missing value

A cell (or a line of a JSON-lines file) that holds JSON, such as the error spans of an ESA export, is read
by :func:`json_cell`: invalid JSON and JSON nested deeper than Python's recursion limit are both an
:class:`~bleu_core.errors.InputError` naming the file and line, never a traceback.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection
from typing import Any

from bleu_core.errors import InputError

__all__ = ["is_plain_number", "json_cell", "number"]

#: A plain decimal number in ASCII digits: what every spreadsheet writes.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_NON_FINITE_WORDS = frozenset({"nan", "inf", "infinity"})


def is_plain_number(text: str) -> bool:
    """True for a plain ASCII decimal number (``3``, ``-1.5``, ``.5``, ``2e-3``); False for ``5_0``,
    ``٣٠``, ``４``, ``nan``, ``1,5``, surrounding spaces and anything else.

    >>> [is_plain_number(t) for t in ("3", "-1.5", "2e-3", "5_0", "\\u0663\\u0660", "\\uff14", " 4")]
    [True, True, True, False, False, False, False]
    """
    return _PLAIN_NUMBER.fullmatch(text) is not None


def _missing_hint(missing: Collection[str]) -> str:
    if not missing:
        return ""
    if any(m.lower() == "na" for m in missing):
        return "write NA for a missing value"
    if "" in missing:
        return "leave the cell empty for a missing value"
    return f"write {sorted(missing)[0]} for a missing value"


def number(
    cell: str,
    *,
    file: str | None,
    line: int | None,
    column: str | int | None = None,
    missing: Collection[str] = (),
) -> float:
    """The finite number in ``cell`` (spaces around it ignored), or ``nan`` for a spelling of "missing".

    ``missing`` lists the spellings of a missing value this table allows, compared without case (``""`` for
    an empty cell, ``"NA"``, ``"None"``...); by default every cell must hold a number. Anything else raises
    :class:`~bleu_core.errors.InputError` at ``file``, ``line``, ``column`` with the one message of every
    table: what is wrong with the cell and how to write it (see the module's examples).
    """
    text = cell.strip()
    if missing and text.lower() in {m.lower() for m in missing}:
        return math.nan
    if is_plain_number(text):
        value = float(text)
        if math.isfinite(value):
            return value
    elif text.lower().lstrip("+-") not in _NON_FINITE_WORDS:
        hint = _missing_hint(missing)
        raise InputError(
            f"{text!r} is not a number; write a plain decimal number with ASCII digits such as 3, -1.5 or "
            "2e-3 (no digit separators, no other scripts' digits)" + (f"; {hint}" if hint else ""),
            file=file,
            line=line,
            column=column,
        )
    hint = _missing_hint(missing) or "give the value, or remove the row"
    raise InputError(
        f"{text!r} is not a finite number; NaN/inf is not a score — {hint}",
        file=file,
        line=line,
        column=column,
    )


def json_cell(
    text: str,
    *,
    file: str | None,
    line: int | None,
    column: str | int | None = None,
    expected: str,
    name: str = "",
) -> Any:
    """The JSON value in ``text`` (one cell of a table, or one line of a JSON-lines file).

    Invalid JSON, and JSON nested so deeply that Python's reader gives up (a ``RecursionError``), raise
    :class:`~bleu_core.errors.InputError` at ``file``, ``line``, ``column``; ``expected`` says what the cell
    should hold and ``name`` (``"the spans"``) names the cell in the message.

    >>> json_cell('{"a": [1]}', file="x.jsonl", line=1, expected="one object per line")
    {'a': [1]}
    >>> json_cell("[" * 100_000, file="x.csv", line=3, column="spans", expected="a list", name="the spans")
    Traceback (most recent call last):
      ...
    bleu_core.errors.InputError: x.csv, line 3, column spans: the spans are JSON nested too deeply to read (over Python's recursion limit); expected a list
    >>> json_cell("{oops", file="x.jsonl", line=2, expected="one object per line")
    Traceback (most recent call last):
      ...
    bleu_core.errors.InputError: x.jsonl, line 2: not valid JSON (Expecting property name enclosed in double quotes at character 1); expected one object per line
    """
    lead = f"{name} are " if name else ""
    try:
        return json.loads(text)
    except RecursionError:
        message = "JSON nested too deeply to read (over Python's recursion limit)"
    except json.JSONDecodeError as exc:
        message = f"not valid JSON ({exc.msg} at character {exc.pos})"
    raise InputError(
        f"{lead}{message}; expected {expected}", file=file, line=line, column=column
    ) from None
