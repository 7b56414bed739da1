"""The Appraise ESA reader and the published system-table reader read CSV strictly, like every table:
a quote never closed, or text after a closing quote, is an error naming the line the row starts on, never
rows silently merged into one cell; and a later row's line counts the lines a quoted cell spans."""

from __future__ import annotations

import pytest

from bleu_core.errors import InputError
from bleu_core.evaluation.system_table import parse_system_table
from bleu_core.study.formats.esa import read_esa

TEXTS = {"sysA": ["a b c", "d e f", "g h i"]}


def _esa(text: str):
    return read_esa(
        text, "esa.csv", pair="en-ja", segment_ids=["1", "2", "3"], texts=TEXTS, line_offset=1
    )


def _row(line: int, spans: str = "[]", score: str = "50") -> str:
    return f"r1,sysA,{line},TGT,eng,jpn,{score},doc,False,{spans},1.0,2.0\n"


def test_an_esa_row_with_a_quote_never_closed_is_an_error_naming_its_line():
    text = _row(1) + _row(2, spans='"[{""start_i"": 0') + _row(3)
    with pytest.raises(
        InputError,
        match=r"^esa\.csv, line 2: cannot parse this row: a quote opened in it is never closed",
    ):
        _esa(text)


def test_text_after_a_closing_quote_in_an_esa_row_is_an_error():
    with pytest.raises(InputError, match=r"^esa\.csv, line 2: cannot parse this row: ',' expected"):
        _esa(_row(1) + _row(2, spans='"[]"x'))


def test_an_esa_error_after_a_cell_spanning_two_lines_names_the_line_its_row_starts_on():
    spans = '"[{""start_i"": 0, ""end_i"": 1,\n""severity"": ""minor""}]"'
    text = _row(1, spans=spans) + _row(2) + _row(3, score="x")
    with pytest.raises(InputError, match=r"^esa\.csv, line 4, column score: 'x' is not a number"):
        _esa(text)
    assert len(_esa(_row(1, spans=spans) + _row(2)).spans) == 1


def test_a_system_table_with_a_quote_never_closed_is_an_error_naming_its_line():
    text = 'system,ade,BLEU\nA,1,2\n"B,2,3.5\nC,3,3\nD,4,1\n'
    with pytest.raises(
        InputError,
        match=r"^t\.csv, line 3: cannot parse this row: a quote opened in it is never closed",
    ):
        parse_system_table(text, "t.csv")


def test_text_after_a_closing_quote_in_a_system_table_is_an_error():
    with pytest.raises(InputError, match=r"^t\.csv, line 4: cannot parse this row"):
        parse_system_table('system,ade,BLEU\nA,1,2\nB,2,3\n"C"x,3,3\n', "t.csv")


def test_a_system_table_error_after_a_two_line_name_names_the_line_its_row_starts_on():
    text = 'system,ade,BLEU\nA,1,2\n"B\n(2nd run)",2,3.5\nC,3,3\nD,oops,1\n'
    with pytest.raises(InputError, match=r"^t\.csv, line 6, column ade: 'oops' is not a number"):
        parse_system_table(text, "t.csv")
    table = parse_system_table(text.replace("oops", "4"), "t.csv")
    assert table.systems == ("A", "B\n(2nd run)", "C", "D")
