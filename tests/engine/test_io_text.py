"""The text reader of the input boundary (``bleu_core.io.text``): UTF-8 with located errors, the byte-order
mark, the one ``\\r`` rule, the size cap in MiB, NUL and line-length checks."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core.errors import InputError
from bleu_core.io import (
    check_size,
    decode_text,
    has_bom,
    read_lines,
    read_text,
    split_lines,
    text_from_bytes,
)
from bleu_core.limits import MAX_LINE_CHARS

# Lines as a file holds them: any text without the line separator itself (lone \r, U+2028, form feeds kept)
LINE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=12)


@given(st.lists(LINE, max_size=8), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_lines_survive_a_round_trip_whatever_the_line_end(
    lines: list[str], end: str, bom: bool
) -> None:
    # a line that itself ends with \r cannot survive: its \r before the line end reads as a CRLF line end
    # (\r\n) whichever end the file uses, so such lines are written without their trailing \r
    lines = [line.rstrip("\r") for line in lines]
    data = (codecs.BOM_UTF8 if bom else b"") + "".join(line + end for line in lines).encode("utf-8")
    assert has_bom(data) == bom
    assert split_lines(decode_text(data, "f.txt")) == lines


@given(st.lists(LINE, min_size=1, max_size=8).filter(lambda lines: lines[-1] != ""))
def test_a_missing_final_newline_changes_nothing(lines: list[str]) -> None:
    with_end = "".join(line + "\n" for line in lines)
    assert split_lines(with_end) == split_lines(with_end[:-1]) == lines


def test_the_carriage_return_rule() -> None:
    # \r\n ends a line; a lone \r is text (not a line end), as sacrebleu reads files (newline="\n")
    assert split_lines(decode_text(b"a\r\nb\rc\r\n\r\n", "f")) == ["a", "b\rc", ""]
    # the other Unicode line breaks str.splitlines knows are text too
    assert split_lines("x\u2028y\x0cz\x1c\n") == ["x\u2028y\x0cz\x1c"]


def test_only_a_leading_bom_is_dropped() -> None:
    assert decode_text(b"\xef\xbb\xbfa\n\xef\xbb\xbfb\n", "f") == "a\n\ufeffb\n"


@pytest.mark.parametrize(
    "data, match",
    [
        (
            b"abc\xff",
            r"f\.txt, line 1, column 4: bytes that are not UTF-8 \(0xff at byte offset 3\)",
        ),
        (b"ok\ncaf\xc3\xa9 \xe9t\xe9\n", r"line 2, column 6: .*0xe9 at byte offset 9"),
        (
            "é\n".encode("utf-16"),
            r"line 1, column 1: bytes that are not UTF-8 \(0xff at byte offset 0\)",
        ),
    ],
)
def test_undecodable_bytes_name_line_column_and_offset(data: bytes, match: str) -> None:
    with pytest.raises(InputError, match=match):
        decode_text(data, "f.txt")


def test_nul_and_over_long_lines_are_refused_after_decoding() -> None:
    with pytest.raises(InputError, match=r"f, line 2, column 3: NUL byte"):
        text_from_bytes(b"a\nbc\x00\n", "f")
    with pytest.raises(InputError, match=r"f, line 1: line is 1,000,001 characters long"):
        text_from_bytes(b"x" * (MAX_LINE_CHARS + 1), "f")


def test_one_size_cap_one_unit_one_message(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x\n" * 1024 * 1024)  # 2 MiB
    message = (
        r"big\.txt: file is 2\.0 MiB, over the size cap of 1\.0 MiB; split it, or raise the cap"
    )
    with pytest.raises(InputError, match=message):
        read_lines(path, max_bytes=1024 * 1024, name="big.txt")
    with pytest.raises(InputError, match=message):
        check_size(2 * 1024 * 1024, 1024 * 1024, "big.txt")
    check_size(1024 * 1024, 1024 * 1024, "big.txt")  # the cap itself is allowed


def test_read_text_names_a_missing_file_and_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"shown\.txt: file not found; check the path"):
        read_text(tmp_path / "nope.txt", name="shown.txt")
    with pytest.raises(InputError, match=r": file not found; check the path"):
        read_text(tmp_path)


#: Bytes of text files: UTF-8 pieces, line ends, byte-order marks, NUL, and bytes that are not UTF-8.
FILE_BYTES = st.lists(
    st.one_of(
        LINE.map(str.encode),
        st.sampled_from(
            [b"\n", b"\r\n", b"\r", b"\xef\xbb\xbf", b"\x00", b"\xff", b"\xc3", b"\xe2\x80"]
        ),
    ),
    max_size=10,
).map(b"".join)


@given(FILE_BYTES)
def test_lines_from_bytes_is_split_lines_of_text_from_bytes(data: bytes) -> None:
    """``read_lines``'s fast path (split the bytes, decode line by line, checks on the bytes) gives the same
    lines as decoding the whole text, and the same error, word for word."""
    from bleu_core.io.text import lines_from_bytes

    try:
        expected = split_lines(text_from_bytes(data, "f.txt"))
    except InputError as exc:
        with pytest.raises(InputError) as got:
            lines_from_bytes(data, "f.txt")
        assert str(got.value) == str(exc)
    else:
        assert lines_from_bytes(data, "f.txt") == expected


def test_lines_from_bytes_refuses_an_over_long_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleu_core.io import text

    monkeypatch.setattr(text, "MAX_LINE_CHARS", 4)
    monkeypatch.setattr("bleu_core.limits.MAX_LINE_CHARS", 4)
    assert text.lines_from_bytes("ééé\nabcd\n".encode(), "f.txt") == ["ééé", "abcd"]
    with pytest.raises(InputError, match="line 2: line is 5 characters long"):
        text.lines_from_bytes(b"abc\nabcde\n", "f.txt")
