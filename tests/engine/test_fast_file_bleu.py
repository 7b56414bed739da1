"""``score``'s fast path (bleu_core/fast/file_bleu.py, the C kernel ``bleu13a_totals``): the compiled kernel, its
pure path and sacrebleu give the same corpus statistics on the real data and on Hypothesis text, and they decline
the same inputs for the same reason (the general path then words the error or the warning).

The real data is ../shared/data (WMT21 and WMT24 system outputs and references, as files) and the TED MQM
segments bundled in data/; the tests skip when the shared data is absent.
"""

from __future__ import annotations

import glob
import os
from functools import cache
from pathlib import Path

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.fast.compiled import available
from bleu_core.fast.file_bleu import REASONS, file_totals, python_file_totals
from bleu_core.io.text import lines_from_bytes

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"

needs_kernels = pytest.mark.skipif(not available(), reason="the compiled kernels are not built")


@cache
def sacrebleu_metric(max_order: int) -> sacrebleu.BLEU:
    """One BLEU object per order: its tokenizer's cache then serves every system of a test."""
    return sacrebleu.BLEU(tokenize="13a", max_ngram_order=max_order)


def sacrebleu_totals(hyp: bytes, refs: list[bytes], max_order: int = 4) -> tuple[int, list[int]]:
    """sacrebleu's corpus statistics of the files as bleu-study reads them (``lines_from_bytes``), in
    ``file_totals``' layout (sacrebleu sums the closest reference length only: the other two are left
    out of the comparison by :func:`comparable`)."""
    hyp_lines = lines_from_bytes(hyp, "hyp")
    ref_lines = [lines_from_bytes(r, "ref") for r in refs]
    score = sacrebleu_metric(max_order).corpus_score(hyp_lines, ref_lines)
    return len(hyp_lines), [score.sys_len, score.ref_len, *score.counts, *score.totals]


def comparable(totals: tuple[int, list[int]], max_order: int = 4) -> tuple[int, list[int]]:
    """(segments, [hyp_len, closest, matches..., totals...]): the numbers sacrebleu reports too."""
    n, row = totals
    return n, [row[0], row[1], *row[4 : 4 + 2 * max_order]]


def assert_three_agree(hyp: bytes, refs: list[bytes], max_order: int = 4) -> None:
    compiled = file_totals(hyp, refs, max_order, compiled=True)
    pure = python_file_totals(hyp, refs, max_order)
    assert compiled == pure
    assert not isinstance(compiled, str), compiled
    assert comparable(compiled, max_order) == sacrebleu_totals(hyp, refs, max_order)


# ------------------------------------------------------------------------------------------------ real data


def wmt_pairs() -> list[tuple[list[str], list[str]]]:
    """(reference files, system files) of every WMT21 and WMT24 language pair under ../shared/data."""
    out = []
    wmt21 = SHARED / "wmt21-newstest2021-mqm-da" / "wmt21-news-systems" / "txt"
    for pair in ("de-en", "en-de", "zh-en"):
        refs = sorted(glob.glob(str(wmt21 / "references" / f"newstest2021.{pair}.ref.*")))
        hyps = sorted(glob.glob(str(wmt21 / "system-outputs" / f"newstest2021.{pair}.hyp.*")))
        if refs and hyps:
            out.append((refs, hyps))
    wmt24 = SHARED / "wmt24-general-esa" / "txt"
    for pair in ("en-ja", "en-hi"):
        refs = sorted(glob.glob(str(wmt24 / "references" / f"{pair}.ref*.txt")))
        hyps = sorted(glob.glob(str(wmt24 / "system-outputs" / pair / "*.txt")))
        if refs and hyps:
            out.append((refs, hyps))
    return out


@needs_kernels
@pytest.mark.slow
def test_every_shared_system_equals_sacrebleu() -> None:
    """WMT21 / WMT24 system files (four per pair, spread; every one with ``BLEU_STUDY_ALL_DATA=1``) against
    their pair's first reference and against all of them, with one and with two threads."""
    pairs = wmt_pairs()
    if not pairs:
        pytest.skip(f"no WMT text files under {SHARED}")
    every = os.environ.get("BLEU_STUDY_ALL_DATA") == "1"  # default: 4 systems per pair, spread
    checked = 0
    for ref_paths, hyp_paths in pairs:
        refs = [Path(p).read_bytes() for p in ref_paths]
        for hyp_path in hyp_paths if every else hyp_paths[:: max(1, len(hyp_paths) // 4)]:
            hyp = Path(hyp_path).read_bytes()
            for chosen in [refs[:1], refs] if len(refs) > 1 else [refs]:
                got = file_totals(hyp, chosen, 4, compiled=True, threads=1)
                assert got == file_totals(hyp, chosen, 4, compiled=True, threads=2), hyp_path
                if isinstance(
                    got, str
                ):  # a WMT file with a blank line: the general path reports it
                    assert got == python_file_totals(hyp, chosen, 4), hyp_path
                    continue
                assert comparable(got) == sacrebleu_totals(hyp, chosen), hyp_path
                checked += 1
    assert checked > 0


@needs_kernels
def test_pure_path_equals_kernel_on_shared_systems() -> None:
    pairs = wmt_pairs()
    if not pairs:
        pytest.skip(f"no WMT text files under {SHARED}")
    for ref_paths, hyp_paths in pairs:
        refs = [Path(p).read_bytes() for p in ref_paths]
        for hyp_path in hyp_paths[:3]:
            hyp = Path(hyp_path).read_bytes()
            assert file_totals(hyp, refs, 4, compiled=True) == python_file_totals(hyp, refs, 4)


@needs_kernels
@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_ted_systems_as_files(pair: str) -> None:
    """The TED MQM segments (Apache-2.0, bundled in data/), every system as a file, against one and two
    references, at orders 1 to 5."""
    from bleu_core.study.demo import load_demo

    study = load_demo(f"ted-{pair}")
    texts = {**study.references, **study.systems}
    if any(t is None for v in texts.values() for t in v):
        pytest.skip("a TED text is missing")

    def as_file(lines: list[str]) -> bytes:
        return "".join(line + "\n" for line in lines).encode()

    ref_names = list(study.references)[:2]
    refs = [as_file(texts[r]) for r in ref_names]
    for name, lines in study.systems.items():
        for order in (1, 4, 5):
            assert_three_agree(as_file(lines), refs[:1], order)
        assert_three_agree(as_file(lines), refs)
        assert name


# ------------------------------------------------------------------------------------------ Hypothesis text

#: Pieces that matter to 13a or to splitting: entities, "<skipped>", digits beside periods, commas and dashes,
#: str.split()'s whitespace (ASCII and not), characters next to it that are not whitespace, non-ASCII text.
PIECES = st.sampled_from(
    [
        "a", "B", "cat", "1", "2019", "3.5", "e.g.", "1-2", "--", "-", ".", ",", "'", '"', "$", "&",
        "&quot;", "&amp;", "&lt;", "&gt;", "&amp;lt;", "<skipped>", "<skip<skipped>ped>", "<", ">", "/",
        " ", "  ", "\t", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85", "\xa0", "\u1680", "\u2000",
        "\u200a", "\u200b", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\x01", "\x7f", "\u00c2",
        "\u00e1", "é", "ß", "中文", "日本語。", "हिन्दी", "😀", "\ufeff", "e\u0301", "\U0010ffff",
    ]
)  # fmt: skip
LINE = st.lists(
    st.one_of(PIECES, st.text(max_size=4).filter(lambda t: "\n" not in t)), max_size=12
).map("".join)
WORDY = LINE.filter(lambda line: line.split() != [])


def as_bytes(lines: list[str], newline: str = "\n") -> bytes:
    return "".join(line + newline for line in lines).encode("utf-8", "surrogatepass")


@needs_kernels
@settings(max_examples=150, deadline=None)
@given(
    segments=st.lists(st.tuples(LINE, WORDY, WORDY), min_size=1, max_size=12),
    n_refs=st.integers(1, 2),
    max_order=st.integers(1, 5),
    crlf=st.booleans(),
)
def test_hypothesis_text_three_way(segments, n_refs, max_order, crlf) -> None:
    hyps = [s[0] for s in segments]
    refs = [[s[1 + k] for s in segments] for k in range(n_refs)]
    newline = "\r\n" if crlf else "\n"
    try:
        hyp = as_bytes(hyps, newline)
        ref_files = [as_bytes(r, newline) for r in refs]
    except UnicodeEncodeError:  # a lone surrogate: not UTF-8, covered by test_bytes_declined_alike
        return
    compiled = file_totals(hyp, ref_files, max_order, compiled=True)
    assert compiled == python_file_totals(hyp, ref_files, max_order)
    if isinstance(compiled, str):
        assert compiled in REASONS
        return
    assert comparable(compiled, max_order) == sacrebleu_totals(hyp, ref_files, max_order)


#: A file's bytes: arbitrary, or lines of text with some arbitrary bytes between them (so that a bad byte
#: falls in either half of a corpus the kernel cuts in two).
FILE_BYTES = st.binary(max_size=40) | st.lists(
    st.one_of(
        WORDY.map(lambda t: (t + "\n").encode("utf-8", "surrogatepass")), st.binary(max_size=3)
    ),
    max_size=8,
).map(b"".join)


@needs_kernels
@settings(max_examples=200, deadline=None)
@given(hyp=FILE_BYTES, refs=st.lists(FILE_BYTES, min_size=1, max_size=2), threads=st.integers(1, 2))
def test_bytes_declined_alike(hyp: bytes, refs: list[bytes], threads: int) -> None:
    """Arbitrary bytes (not UTF-8, NUL, surrogates in UTF-8 form, overlong forms, a BOM, blank or missing
    lines), in any of the files and either half: the kernel and the pure path decline for the same reason (the
    first problem in file order, as one pass finds it), or agree on the totals."""
    compiled = file_totals(hyp, refs, 4, compiled=True, threads=threads)
    assert compiled == python_file_totals(hyp, refs, 4)


# ---------------------------------------------------------------------------------------- the boundaries

DECLINED = [
    ("bom", b"\xef\xbb\xbfa b\n", b"a b\n"),
    ("empty", b"", b"a\n"),
    ("nul", b"a\x00b\n", b"a\n"),
    ("not-utf8", b"caf\xe9\n", b"a\n"),
    (
        "not-utf8",
        b"\xed\xa0\x80\n",
        b"a\n",
    ),  # a surrogate in UTF-8 form: Python's decoder refuses it
    ("not-utf8", b"\xc0\xaf\n", b"a\n"),  # an overlong form
    ("not-utf8", b"\xf4\x90\x80\x80\n", b"a\n"),  # above U+10FFFF
    ("not-utf8", b"a\n\xe2\x82", b"a\n"),  # cut short at the end of the file
    ("line-count", b"a\nb\n", b"a\n"),
    ("line-count", b"a\n", b"a\nb\n"),
    ("blank-reference", b"a\nb\n", "a\n \t\u3000\n".encode()),
    ("blank-hypotheses", b" \n\r\n", b"a\nb\n"),
    ("long-line", b"x" * 11 + b"\n", b"a\n"),
]


@pytest.mark.parametrize(("reason", "hyp", "ref"), DECLINED)
@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_kernels), False])
def test_declined_for_the_reason(reason: str, hyp: bytes, ref: bytes, compiled: bool) -> None:
    assert file_totals(hyp, [ref], 4, compiled=compiled, max_line_bytes=10) == reason


@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_kernels), False])
def test_accepted_at_the_boundaries(compiled: bool) -> None:
    """Just inside each limit: a line of exactly max_line_bytes bytes, a last line without a newline, a blank
    hypothesis line among others, CRLF line ends, U+FEFF inside a line (not at the start of the file)."""
    hyp = b"x" * 10 + b"\r\n\r\nlast \xef\xbb\xbfword"
    ref = b"x\r\ny\r\nlast word\r\n"
    got = file_totals(hyp, [ref], 2, compiled=compiled, max_line_bytes=12)  # the last line's length
    # hyp tokens: [x*10], [], [last, \ufeffword]; ref tokens: [x], [y], [last, word] (sacrebleu counts alike)
    assert got == (3, [3, 4, 4, 4, 1, 0, 3, 1])


@needs_kernels
def test_threads_give_the_same_totals(tmp_path: Path) -> None:
    lines = [f"segment {i} , of the corpus . {i % 7}-{i % 3}" for i in range(5000)]
    hyp = as_bytes(lines)
    ref = as_bytes([line.replace("of", "in") for line in lines[::-1]])
    one = file_totals(hyp, [ref], 4, compiled=True, threads=1)
    assert one == file_totals(hyp, [ref], 4, compiled=True, threads=2)
    assert comparable(one) == sacrebleu_totals(hyp, [ref])


def test_reasons_are_documented() -> None:
    assert len(set(REASONS)) == len(REASONS)
    assert {r for r, _, _ in DECLINED} == set(REASONS)
