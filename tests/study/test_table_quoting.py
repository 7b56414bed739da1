"""A CSV table with broken quoting is an error naming the line, never a table with rows silently merged.

Python's ``csv`` module, by default, lets a quote that is never closed swallow the rest of the file into one
cell, and glues text after a closing quote onto the cell (``"a"b`` → ``ab``).
"""

from __future__ import annotations

import pytest

from bleu_core.errors import InputError
from bleu_core.study import load_study
from bleu_core.study.tables import parse_table


def test_a_quote_never_closed_is_an_error_naming_the_line_it_opens_on():
    text = 'segment_id,system,role,text\n1,ref-A,reference,"The dog\n1,g,system,x\n2,g,system,y\n'
    with pytest.raises(
        InputError,
        match=r"^t\.csv, line 2: cannot parse this row: a quote opened in it is never closed",
    ):
        parse_table(text, "t.csv")


def test_text_after_a_closing_quote_is_an_error():
    with pytest.raises(InputError, match=r"^t\.csv, line 3: cannot parse this row"):
        parse_table('a,b\n1,2\n3,"x"y\n', "t.csv")


def test_a_long_table_with_an_open_quote_does_not_load_without_its_systems(tmp_path):
    path = tmp_path / "study.csv"
    path.write_text(
        'segment_id,system,role,text\n1,ref-A,reference,"The dog\n1,g,system,The cat\n',
        encoding="utf-8",
    )
    with pytest.raises(
        InputError, match=r"study\.csv, line 2: cannot parse this row: a quote opened in it"
    ):
        load_study(str(path))


def test_well_formed_quotes_still_read():
    table = parse_table('a,b\n"x, y","say ""hi""\nthere"\n', "t.csv")
    assert table.data == [["x, y", 'say "hi"\nthere']]
    assert table.lines == [2]
