"""The compiled kernels (C, built at install) equal their pure paths and the oracles, on generated and real text.

* :func:`bleu_core.fast.word_index.number_words` = ``str.split`` + first-occurrence numbering, including every
  kind of Unicode whitespace, lone surrogates and words that only differ after their first bytes;
* :func:`bleu_core.fast.word_index.tokens_of_words` = the numpy expansion;
* :func:`bleu_core.fast.clipping.clipped_matches_by_segment` = :func:`bleu_core.engine.statistics.segment_row`;
* the path choice (:func:`bleu_core.fast.compiled.use_compiled`) and the kernels' own argument checks.
"""

from __future__ import annotations

import glob
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_core.engine.statistics import segment_row
from bleu_core.fast import compiled
from bleu_core.fast.clipping import clipped_matches_by_segment
from bleu_core.fast.word_index import (
    ASCII_WHITESPACE,
    NON_ASCII_WHITESPACE,
    count_bytes,
    number_words,
    tokens_of_words,
)

pytestmark = pytest.mark.skipif(
    compiled.extension() is None, reason="the compiled kernels are not built"
)

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DATA = "/work/shared/data"


def split_oracle(text: str, first: str) -> tuple[list[int], list[str]]:
    index = {first: 0}
    ids = [index.setdefault(w, len(index)) for w in text.split()]
    return ids, list(index)


def test_whitespace_tables_match_str_isspace() -> None:
    """The kernel's whitespace is exactly what ``str.split()`` splits on, over every code point."""
    non_ascii = "".join(chr(c) for c in range(0x80, sys.maxunicode + 1) if chr(c).isspace())
    assert non_ascii == NON_ASCII_WHITESPACE
    assert bytes(c for c in range(128) if chr(c).isspace()) == ASCII_WHITESPACE


WORD_CHARS = st.sampled_from(
    ["a", "b", "ab", "é", "日", "\u2003", "\xa0", "\x85", "\u3000", "\u1680", "\u205f", "\u2028"]
    + ["\u202f", "\u200a", "\u200b", "\u2010", "\u201c", "\xc2", "\u00a1", "\ud800", "\x1c", "\x1f"]
    + [
        " ",
        "\t",
        "\n",
        "\r",
        "\x0b",
        "\x0c",
        "\x00",
        "\x01",
        "\u0100",
        "\u2000",
        "\u2029",
        "\U0001f600",
    ]
)
TEXTS = st.lists(WORD_CHARS, max_size=60).map("".join)


@SETTINGS
@given(text=TEXTS, first=st.sampled_from(["", "\x01", "a", "é"]))
def test_number_words_compiled_equals_split(text: str, first: str) -> None:
    expected_ids, expected_distinct = split_oracle(text, first)
    for flag in (True, False):
        ids, distinct = number_words(text, first=first, compiled=flag)
        assert ids.tolist() == expected_ids
        assert distinct == expected_distinct


def test_number_words_many_distinct_words_grow_every_table() -> None:
    """More distinct words than the initial table, arena and id arrays hold: they grow, nothing is lost."""
    words = [f"w{i}x" * (1 + i % 7) for i in range(20_000)]
    text = " ".join(words + words[::-1] + ["\x01"])
    ids, distinct = number_words(text, first="\x01", compiled=True)
    assert (ids.tolist(), distinct) == split_oracle(text, "\x01")


def test_number_words_hash_hits_are_confirmed_byte_by_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    """Words of equal length sharing a table slot stay distinct (the hit is checked against the bytes)."""
    text = " ".join(f"{a}{b}" for a in "abcdefghij" for b in "abcdefghij") * 3
    ids, distinct = number_words(text, compiled=True)
    assert (ids.tolist(), distinct) == split_oracle(text, "")


def real_texts() -> list[str]:
    paths = sorted(glob.glob(os.path.join(DATA, "google-mqm-ted2021", "ted", "*", "*.tsv")))
    texts = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            texts.append(f.read())
    return texts


@pytest.mark.skipif(not os.path.isdir(DATA), reason="shared data not available")
def test_number_words_on_real_text() -> None:
    texts = real_texts()
    assert texts
    for text in texts:
        ids, distinct = number_words(text, first="\x01", compiled=True)
        expected_ids, expected_distinct = split_oracle(text, "\x01")
        assert distinct == expected_distinct
        np.testing.assert_array_equal(ids, expected_ids)


@SETTINGS
@given(
    words=st.lists(
        st.lists(st.integers(0, 9), max_size=4), min_size=1, max_size=8
    ),  # tokens of each word
    occurrences=st.lists(st.integers(0, 7), max_size=40),
)
def test_tokens_of_words_compiled_equals_numpy(
    words: list[list[int]], occurrences: list[int]
) -> None:
    word_len = np.array([0] + [len(w) for w in words], dtype=np.int64)  # word 0: the separator
    word_flat = np.array([t for w in words for t in w], dtype=np.int64)
    word_ids = np.array([o % (len(words) + 1) for o in occurrences], dtype=np.int64)
    n_lines = int((word_ids == 0).sum()) + 1
    a_ids, a_len = tokens_of_words(word_ids, word_flat, word_len, n_lines, compiled=True)
    b_ids, b_len = tokens_of_words(word_ids, word_flat, word_len, n_lines, compiled=False)
    assert a_ids.tolist() == b_ids.tolist() and a_len.tolist() == b_len.tolist()
    assert int(a_len.sum()) == sum(len(words[w - 1]) for w in word_ids.tolist() if w)


@SETTINGS
@given(data=st.binary(max_size=70), values=st.binary(max_size=5))
def test_count_bytes_compiled_equals_bytes_count(data: bytes, values: bytes) -> None:
    """The memchr walks against ``bytes.count``, value by value (repeated values too)."""
    got = count_bytes(data, values, compiled=True)
    assert got == count_bytes(data, values, compiled=False)
    assert got == [data.count(bytes([v])) for v in values]


LINES = st.lists(st.integers(0, 5), max_size=16)
Segments = list[tuple[list[int], list[list[int]]]]


def kernel_input(segments: Segments) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, starts, lengths)`` for the kernel: hypotheses, then each reference slot (absent = empty)."""
    n_slots = max(len(refs) for _, refs in segments)
    streams = [[hyp for hyp, _ in segments]] + [
        [refs[k] if k < len(refs) else [] for _, refs in segments] for k in range(n_slots)
    ]
    lengths = np.array([[len(line) for line in stream] for stream in streams], dtype=np.int64)
    flat = np.array([t for stream in streams for line in stream for t in line], dtype=np.int64)
    offsets = np.cumsum([0] + [int(row.sum()) for row in lengths[:-1]])
    return flat, np.cumsum(lengths, axis=1) - lengths + offsets[:, None], lengths


def assert_equals_segment_row(segments: Segments, got: np.ndarray, max_order: int) -> None:
    for i, (hyp, refs) in enumerate(segments):
        row = segment_row([str(t) for t in hyp], [[str(t) for t in r] for r in refs], max_order)
        assert got[i].tolist() == row[4 : 4 + max_order], (hyp, refs)


@SETTINGS
@given(
    segments=st.lists(st.tuples(LINES, st.lists(LINES, max_size=4)), min_size=1, max_size=10),
    max_order=st.integers(1, 7),
)
def test_clipping_kernel_equals_segment_row(segments: Segments, max_order: int) -> None:
    got = clipped_matches_by_segment(*kernel_input(segments), max_order)
    assert_equals_segment_row(segments, got, max_order)


@SETTINGS
@given(
    segments=st.lists(st.tuples(LINES, st.lists(LINES, max_size=3)), min_size=1, max_size=6),
    max_order=st.integers(1, 5),
)
def test_clipping_kernel_sparse_ids_take_the_hash_table(segments: Segments, max_order: int) -> None:
    """Huge token ids (no arrays indexed by id) give the same matches as small dense ones."""
    flat, starts, lengths = kernel_input(segments)
    dense = clipped_matches_by_segment(flat, starts, lengths, max_order)
    sparse = clipped_matches_by_segment(flat * (1 << 40) + 7, starts, lengths, max_order)
    assert dense.tolist() == sparse.tolist()


def test_clipping_kernel_long_hypotheses_take_the_hash_table() -> None:
    """A hypothesis longer than 512 tokens switches n-gram look-ups from the pair arrays to the hash table."""
    rng = np.random.default_rng(3)
    segments: Segments = [
        (
            rng.integers(0, 6, 700).tolist(),
            [rng.integers(0, 6, 650).tolist(), rng.integers(0, 6, 40).tolist()],
        ),
        (rng.integers(0, 4, 30).tolist(), [[1, 2, 3, 1, 2]]),
    ]
    got = clipped_matches_by_segment(*kernel_input(segments), 6)
    assert_equals_segment_row(segments, got, 6)
    assert got[0, 3] > 0  # long matches exist, so orders >= 2 really went through the table


def test_clipping_kernel_paper_example() -> None:
    # Paper, section 2.1: "the the the the the the the" vs "the cat is on the mat": unigram matches 2 (of 7).
    ids = np.array([0] * 7 + [0, 1, 2, 3, 0, 4], dtype=np.int64)
    got = clipped_matches_by_segment(ids, np.array([[0], [7]]), np.array([[7], [6]]), 2)
    assert got.tolist() == [[2.0, 0.0]]


def test_use_compiled_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Built kernels run for every size; BLEU_STUDY_PURE (or its old name) switches them off."""
    for name in compiled.SWITCHES:
        monkeypatch.delenv(name, raising=False)
    assert compiled.use_compiled(1, force=False) is False
    assert compiled.use_compiled(1) is True and compiled.prepare(1) is True
    for name in compiled.SWITCHES:
        monkeypatch.setenv(name, "1")
        assert compiled.use_compiled(10**9) is False
        assert compiled.use_compiled(10**9, force=True) is True
        monkeypatch.setenv(name, "0")
        assert compiled.use_compiled(1) is True
    compiled.load_all()
    assert compiled.loaded()


def test_missing_extension_gives_one_line_notice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the built extension the pure path runs, after one line on standard error."""
    monkeypatch.setitem(sys.modules, "bleu_core.fast._kernels", None)  # import -> ImportError
    compiled.extension.cache_clear()
    try:
        assert compiled.extension() is None and compiled.available() is False
        assert compiled.use_compiled(10**9) is False
        compiled.extension()  # cached: no second notice
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "pure numpy/Python path" in err
        ids, distinct = number_words("a b a")
        assert ids.tolist() == [1, 2, 1] and distinct == ["", "a", "b"]
    finally:
        monkeypatch.undo()
        compiled.extension.cache_clear()
    assert compiled.extension() is not None


def test_kernel_loads_in_milliseconds() -> None:
    """The extension is an ordinary import: a fresh process loads it in well under 50 ms."""
    code = (
        "import time, bleu_core.fast; t = time.perf_counter(); import bleu_core.fast._kernels; "
        "print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert float(out.stdout) < 0.05


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda c: c.count(
                np.array([5]),
                np.array([[0], [0]]),
                np.array([[1], [1]]),
                2,
                1,
                5,
                True,
                np.zeros((1, 1)),
            ),
            "token ids must be in 0..key_base-1",
        ),
        (
            lambda c: c.count(
                np.array([1]),
                np.array([[0], [1]]),
                np.array([[1], [1]]),
                2,
                1,
                5,
                True,
                np.zeros((1, 1)),
            ),
            "a line lies outside ids",
        ),
        (
            lambda c: c.count(
                np.array([1]),
                np.array([[0], [0]]),
                np.array([[1], [1]]),
                2,
                1,
                5,
                True,
                np.zeros((2, 1)),
            ),
            "count: bad sizes",
        ),
        (
            lambda c: c.expand(
                np.array([7]),
                np.array([1]),
                np.array([0, 0]),
                np.array([0, 1]),
                np.zeros(1, np.int64),
                np.zeros(1, np.int64),
            ),
            "out of bounds",
        ),
        (
            lambda c: c.scan(
                np.zeros(4, np.uint8),
                np.zeros(256, np.uint8),
                0,
                np.zeros(3, np.int64),
                0,
                np.zeros(3, np.uint64),
                np.zeros((2, 2), np.int64),
                np.zeros(8, np.uint8),
                0,
                0,
            ),
            "bad table or output sizes",
        ),
        (
            lambda c: c.count(
                np.array([1], np.int32),
                np.array([[0], [0]]),
                np.array([[1], [1]]),
                2,
                1,
                5,
                True,
                np.zeros((1, 1)),
            ),
            "expected items of 8 bytes",
        ),
    ],
)
def test_kernels_check_their_arguments(call: object, message: str) -> None:
    """Bad sizes, ids or dtypes are refused with an error, never read or written out of bounds."""
    with pytest.raises((ValueError, TypeError), match=message):
        call(compiled.extension())  # type: ignore[operator]
