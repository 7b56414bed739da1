"""CSV exports that a spreadsheet cannot turn into formulas ("CSV injection", OWASP).

A spreadsheet opening a CSV file runs any cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in some
programs, a tab or carriage return followed by one) as a formula: ``=HYPERLINK(...)`` leaks data, DDE
payloads such as ``=cmd|' /C calc'!A0`` run programs. Campaign exports contain text typed by strangers
(judge names, comments), so every exported field goes through :func:`neutralize_cell`.

Checking only a field's first character is not enough: a spreadsheet that guesses ``;`` or TAB as the
separator (or a careless script that splits on ``,``) cuts ``x;=cmd|' /C calc'!A0;`` into cells, and the
second one starts with ``=``. So the rule here is: **every piece a split on** ``,`` **,** ``;`` **, TAB,
CR or LF would produce** is checked, and a piece that would start (after spaces) with a trigger character
gets a ``'`` in front of that character — the mark spreadsheets themselves use for "this is text". Pieces
that are plain numbers (``-1.5``, ``+3``) are left alone, so scores stay numbers. And
:func:`write_safe_csv` quotes every field, so a CSV reader never splits inside one.

>>> neutralize_cell("x;=cmd|' /C calc'!A0;")
"x;'=cmd|' /C calc'!A0;"
>>> neutralize_cell("=1+2"), neutralize_cell("-1.5"), neutralize_cell("Smith, Ana")
("'=1+2", '-1.5', 'Smith, Ana')
>>> print(write_safe_csv(["judge", "score"], [["@SUM(A1)", 4]]), end="")
"judge","score"
"'@SUM(A1)","4"

These are pure functions (no I/O): the campaign exports use them and so can any table download in the app.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

from bleu_core.io.cells import is_plain_number

__all__ = [
    "FORMULA_TRIGGERS",
    "formula_risk",
    "neutralize_cell",
    "neutralize_row",
    "write_safe_csv",
]

#: Characters that make a spreadsheet cell a formula (or a DDE call) when they start it; fullwidth forms
#: included because some East Asian spreadsheet versions normalise them.
FORMULA_TRIGGERS = "=+-@\t\r\uff1d\uff0b\uff0d\uff20"

# A piece starts at the start of the field or after a separator a spreadsheet might split on; spaces before
# the trigger are skipped (some importers trim them).
_PIECE_START = re.compile(r"(?:^|(?<=[,;\t\r\n]))( *)(?=[" + re.escape(FORMULA_TRIGGERS) + "])")
_SEPARATORS = re.compile(r"[,;\t\r\n]")


def _piece_at(text: str, start: int) -> str:
    match = _SEPARATORS.search(text, start)
    return text[start : match.start() if match else len(text)]


def formula_risk(text: str, *, keep_numbers: bool = True) -> bool:
    """True when ``text``, or any piece a split on ``,`` ``;`` TAB CR LF would give, starts with a trigger
    (plain numbers such as ``-1.5`` excepted).

    >>> formula_risk("ok"), formula_risk("a,b;@x"), formula_risk("-2"), formula_risk(" \\t=1")
    (False, True, False, True)
    """
    for match in _PIECE_START.finditer(text):
        piece = _piece_at(text, match.end(1))
        if not (keep_numbers and is_plain_number(piece.strip())):
            return True
    return False


def neutralize_cell(value: object, *, keep_numbers: bool = True) -> str:
    """``value`` as text that no spreadsheet reads as a formula, however it splits the line.

    ``None`` becomes the empty string; numbers (``int``, ``float``) are written as they are; in text, a
    ``'`` is put before the trigger character of every risky piece (see the module docstring). A text piece
    that is a plain number (``"-1.5"``) is left alone unless ``keep_numbers=False`` (for columns that hold
    names or ids, where ``-1`` should stay the text it was). Idempotent: neutralising twice changes nothing
    more.

    >>> neutralize_cell(None), neutralize_cell(-3.5), neutralize_cell("a\\t+b")
    ('', '-3.5', "a\\t'+b")
    >>> neutralize_cell("-1"), neutralize_cell("-1", keep_numbers=False)
    ('-1', "'-1")
    >>> neutralize_cell(neutralize_cell("=x;-y")) == neutralize_cell("=x;-y") == "'=x;'-y"
    True
    """
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)  # a number is never a formula
    text = value if isinstance(value, str) else str(value)
    if not formula_risk(text, keep_numbers=keep_numbers):
        return text

    def guard(match: re.Match[str]) -> str:
        piece = _piece_at(text, match.end(1))
        if keep_numbers and is_plain_number(piece.strip()):
            return match.group(0)
        return match.group(1) + "'"

    return _PIECE_START.sub(guard, text)


def neutralize_row(row: Iterable[object]) -> list[str]:
    """:func:`neutralize_cell` applied to every field of ``row``."""
    return [neutralize_cell(value) for value in row]


def write_safe_csv(header: Sequence[str], rows: Iterable[Iterable[object]]) -> str:
    """A CSV document (``\\r\\n`` line ends, RFC 4180) with every field quoted and neutralised.

    >>> write_safe_csv(["a"], [["x;=1"]]).splitlines()
    ['"a"', '"x;\\'=1"']
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(neutralize_row(header))
    for row in rows:
        writer.writerow(neutralize_row(row))
    return buffer.getvalue()
