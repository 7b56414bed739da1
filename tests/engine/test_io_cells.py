"""The cell parser and the "first seen" rule of the input boundary (``bleu_core.io.cells``,
``bleu_core.io.first_seen``)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core.errors import InputError
from bleu_core.io import FirstSeen, is_plain_number, number

NOT_A_NUMBER = r"is not a number; write a plain decimal number with ASCII digits"


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_finite_float_as_python_writes_it_is_read_back(value: float) -> None:
    assert number(repr(value), file="t.csv", line=2, column="score") == value
    assert number(f" {value:.6e}\t", file="t.csv", line=2) == float(f"{value:.6e}")


@given(st.integers(-(10**6), 10**6))
def test_integers_and_their_explicit_plus(value: int) -> None:
    assert number(str(value), file="f", line=1) == value
    assert number(f"+{abs(value)}", file="f", line=1) == abs(value)


@pytest.mark.parametrize(
    "cell",
    [
        "5_0",
        "\u0663\u0660",
        "\uff14",
        "\u00b2",
        "4,5",
        "0x10",
        "50%",
        "good",
        "\u22125",
        "1 000",
        "",
    ],
)
def test_anything_but_a_plain_number_is_refused_with_one_message(cell: str) -> None:
    assert not is_plain_number(cell.strip())
    with pytest.raises(InputError, match=rf"t\.csv, line 3, column score: '.*' {NOT_A_NUMBER}"):
        number(cell, file="t.csv", line=3, column="score")


@pytest.mark.parametrize("cell", ["nan", "NaN", "-inf", "Infinity", "1e400", "-1e999"])
def test_non_finite_numbers_are_refused(cell: str) -> None:
    with pytest.raises(
        InputError, match=rf"line 4: '{cell}' is not a finite number; NaN/inf is not a score"
    ):
        number(cell, file="f", line=4)


def test_missing_spellings_give_nan_and_the_hint_names_them() -> None:
    assert math.isnan(number(" NA ", file="f", line=1, missing=("", "NA")))
    assert math.isnan(number("", file="f", line=1, missing=("",)))
    assert math.isnan(number("none", file="f", line=1, missing=("None",)))
    with pytest.raises(InputError, match=r"'x' is not a number; .*; write NA for a missing value"):
        number("x", file="f", line=1, missing=("", "NA"))
    with pytest.raises(
        InputError, match=r"'x' is not a number; .*; leave the cell empty for a missing"
    ):
        number("x", file="f", line=1, missing=("",))
    with pytest.raises(
        InputError, match=r"'inf' is not a finite number; .* write None for a missing"
    ):
        number("inf", file="f", line=1, missing=("None",))
    with pytest.raises(InputError, match=r"'' is not a number"):  # no missing value allowed
        number("", file="f", line=1)


def test_first_seen_keeps_the_first_value_and_names_both_lines() -> None:
    docs = FirstSeen(
        "long.csv",
        lambda seg: f"segment {seg!r} has a different doc_id",
        fix="a segment has one doc_id",
        column="doc_id",
    )
    assert docs.add("s1", "d1", line=2) == "d1"
    assert docs.add("s2", "d1", line=3) == "d1"
    assert docs.add("s1", "d1", line=9) == "d1"  # the same value again is fine
    assert docs.as_dict() == {"s1": "d1", "s2": "d1"} and list(docs) == ["s1", "s2"]
    assert docs.line_of("s1") == 2 and docs.get("s3") is None and "s3" not in docs
    with pytest.raises(
        InputError,
        match=r"long\.csv, line 11, column doc_id: segment 's1' has a different doc_id than on line 2; "
        r"a segment has one doc_id$",
    ):
        docs.add("s1", "d2", line=11)
    assert docs["s1"] == "d1"  # the refused value is not kept


@given(st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 2)), max_size=20))
def test_first_seen_refuses_exactly_the_rows_that_disagree(rows: list[tuple[str, int]]) -> None:
    seen: FirstSeen[str, int] = FirstSeen("f", lambda key: f"{key} differs")
    first: dict[str, tuple[int, int]] = {}
    for line, (key, value) in enumerate(rows, start=1):
        first.setdefault(key, (value, line))
        if first[key][0] == value:
            assert seen.add(key, value, line=line) == value
        else:
            with pytest.raises(
                InputError, match=rf"f, line {line}: {key} differs than on line {first[key][1]}$"
            ):
                seen.add(key, value, line=line)
    assert seen.as_dict() == {key: value for key, (value, _) in first.items()}


@given(st.text(st.sampled_from("0123456789+-.eE _,\u0663\uff14naif "), max_size=8))
def test_number_is_float_restricted_to_plain_numbers(cell: str) -> None:
    # differential: whatever number() accepts, Python's float() reads the same way; what it refuses is
    # either something float() refuses too or one of the spellings a score file must not use
    try:
        value = number(cell, file="f", line=1)
    except InputError as error:
        assert error.line == 1 and ("is not a number" in str(error) or "not a finite" in str(error))
        return
    assert value == float(cell.strip()) and math.isfinite(value)
    assert is_plain_number(cell.strip())
