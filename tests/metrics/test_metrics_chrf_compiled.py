"""chrF / chrF++ matches in compiled code (``chrf_matches`` in bleu_core/fast/_kernels.c): the same statistics as
the numpy path (``_match_counts``) float for float, the same as sacrebleu on real data, and the switch that picks
a path."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu_core.metrics.chrf as chrf_module
import bleu_core.metrics.chrf_units as chrf_units
from bleu_core.fast import native
from bleu_core.fast.compiled import available
from bleu_core.metrics.chrf import ChrfOptions, chrf_statistics_table
from tests.metrics.test_metrics_chrf_stats import (
    _sacrebleu_rows,  # sacrebleu's own rows: the reference
)

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
WMT21 = DATA / "wmt21-newstest2021-mqm-da"

needs_kernel = pytest.mark.skipif(not available(), reason="compiled kernels not built")

# characters that make chrF tricky: repeated n-grams, punctuation at word edges, Unicode whitespace (removed by
# str.split), CJK, astral code points, case pairs whose lowercase changes length (İ) or depends on context (Σ);
# plus any code point at all (lone surrogates included)
TRICKY = list("aab c.,()!'-") + [
    "\u3000", "\xa0", "\t", "\n", "\x1f", "İ", "Σ", "猫", "é", "A", " ", "\U0001f600", "\U00010348",
]  # fmt: skip
CHAR = st.one_of(st.sampled_from(TRICKY), st.characters(blacklist_categories=()))
TEXT = st.text(CHAR, max_size=30)
OPTIONS = st.builds(
    ChrfOptions,
    char_order=st.integers(1, 7),
    word_order=st.integers(0, 3),
    beta=st.integers(1, 3),
    lowercase=st.booleans(),
    whitespace=st.booleans(),
    eps_smoothing=st.booleans(),
)


def _both(systems, references, options, **kwargs):  # noqa: ANN001, ANN003, ANN202
    compiled = chrf_statistics_table(systems, references, options, compiled=True, **kwargs)
    pure = chrf_statistics_table(systems, references, options, compiled=False, **kwargs)
    return compiled, pure


def _assert_identical(compiled, pure) -> None:  # noqa: ANN001
    assert compiled.stats.dtype == pure.stats.dtype
    np.testing.assert_array_equal(compiled.stats, pure.stats)
    np.testing.assert_array_equal(compiled.reference, pure.reference)


@needs_kernel
@settings(max_examples=120, deadline=None)
@given(data=st.data(), options=OPTIONS)
def test_compiled_equals_pure_on_random_text(data, options: ChrfOptions) -> None:  # noqa: ANN001
    n = data.draw(st.integers(1, 4), label="segments")
    k = data.draw(st.integers(1, 3), label="systems")
    r = data.draw(st.integers(1, 3), label="references")
    stream = st.lists(st.one_of(st.none(), TEXT), min_size=n, max_size=n)
    systems = [data.draw(stream, label="system") for _ in range(k)]
    references = [data.draw(stream, label="reference") for _ in range(r)]
    usable = np.array(
        data.draw(st.lists(st.booleans(), min_size=k * r, max_size=k * r), label="usable")
    ).reshape(k, r)
    chunk = data.draw(st.integers(1, 200), label="chunk_positions")
    compiled, pure = _both(systems, references, options, usable=usable, chunk_positions=chunk)
    _assert_identical(compiled, pure)


@needs_kernel
@settings(max_examples=40, deadline=None)
@given(
    hyps=st.lists(st.text("ab ", min_size=0, max_size=300), min_size=1, max_size=3),
    refs=st.lists(st.text("ab ", min_size=0, max_size=300), min_size=1, max_size=3),
    word_order=st.integers(0, 2),
)
def test_compiled_equals_pure_on_long_repetitive_text(
    hyps: list[str], refs: list[str], word_order: int
) -> None:
    # two letters: every n-gram repeats many times, so clipping decides almost every match; the references
    # are the segment's reference streams (one segment), the hypotheses its systems
    options = ChrfOptions(word_order=word_order)
    compiled, pure = _both([[h] for h in hyps], [[t] for t in refs], options)
    _assert_identical(compiled, pure)


@needs_kernel
def test_compiled_equals_pure_on_many_distinct_ngrams() -> None:
    # long documents over a big alphabet: a reference table with tens of thousands of n-grams (many probes
    # per look-up), one hypothesis shuffled from the reference, one sharing half of it
    rng = np.random.default_rng(7)
    alphabet = np.array([chr(c) for c in range(0x4E00, 0x4E00 + 3000)] + list("abc .,"))
    ref = "".join(rng.choice(alphabet, size=20_000))
    shuffled = "".join(rng.permutation(list(ref)))
    half = ref[:10_000] + "".join(rng.choice(alphabet, size=10_000))
    for options in (ChrfOptions(), ChrfOptions(word_order=2, char_order=9)):
        compiled, pure = _both([[shuffled, half], [half, ref]], [[ref, half]], options)
        _assert_identical(compiled, pure)
        # system 1 on segment 1 is its reference: every (non-space) character matches
        assert compiled.stats[0, 1, 2] == len("".join(half.split()))


@pytest.fixture(scope="module")
def wmt21_study():  # noqa: ANN201
    if not WMT21.is_dir():
        pytest.skip("WMT21 release not in ../shared/data")
    from bleu_core.study.loading import load_study

    return load_study(WMT21, pair="zh-en", detect=False).study


@needs_kernel
@pytest.mark.parametrize(
    "options", [ChrfOptions(), ChrfOptions(word_order=2), ChrfOptions(lowercase=True, word_order=2)]
)
def test_compiled_equals_sacrebleu_on_wmt21(options: ChrfOptions, wmt21_study) -> None:  # noqa: ANN001
    study = wmt21_study
    n_segments = 300
    names = list(study.systems)[:3]
    refs = [list(r[:n_segments]) for r in study.references.values()]
    table = chrf_statistics_table(
        [study.systems[s][:n_segments] for s in names], refs, options, compiled=True
    )
    for k, name in enumerate(names):
        hyps = study.systems[name][:n_segments]
        idx = [i for i, h in enumerate(hyps) if h is not None]
        expected = _sacrebleu_rows(
            [hyps[i] for i in idx], [[r[i] for i in idx] for r in refs], options
        )
        np.testing.assert_array_equal(table.stats[k, idx], expected, err_msg=name)


def _spy(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the calls of the compiled kernel and of the numpy path."""
    calls = {"compiled": 0, "pure": 0}
    kernel, numpy_path = native.chrf_matches, chrf_module._match_counts

    def compiled(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls["compiled"] += 1
        return kernel(*args, **kwargs)

    def pure(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls["pure"] += 1
        return numpy_path(*args, **kwargs)

    monkeypatch.setattr(native, "chrf_matches", compiled)
    monkeypatch.setattr(chrf_module, "_match_counts", pure)
    return calls


@pytest.mark.parametrize("how", ["environment", "force"])
def test_pure_switch_takes_the_numpy_path(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _spy(monkeypatch)
    force = None
    if how == "environment":
        monkeypatch.setenv("BLEU_STUDY_PURE", "1")
    else:
        force = False
    table = chrf_statistics_table(
        [["a cat"]], [["the cat"]], ChrfOptions(word_order=2), compiled=force
    )
    assert calls == {"compiled": 0, "pure": 2}  # characters and words
    assert table.stats[0, 0, 2] == 3  # c, a, t


@needs_kernel
def test_compiled_path_is_the_default_when_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BLEU_STUDY_PURE", raising=False)
    monkeypatch.delenv("BLEU_STUDY_NO_NUMBA", raising=False)
    calls = _spy(monkeypatch)
    chrf_statistics_table([["a cat"]], [["the cat"]], ChrfOptions(word_order=2))
    assert calls == {"compiled": 2, "pure": 0}


@needs_kernel
def test_kernel_rejects_bad_sizes() -> None:
    units = np.array([97, 98], dtype=np.uint32)
    out = np.zeros((1, 1, 1, 2))
    kept = np.zeros(2, np.int64)
    skip = np.zeros(0, np.uint8)
    c = native._c()
    with pytest.raises(ValueError, match="chrf_matches: bad sizes"):
        c.chrf_matches(units, np.array([0, 0]), np.array([1, 1]), 1, 1, 3, skip, out, kept)
    with pytest.raises(ValueError, match="chrf_matches: a document lies outside units"):
        c.chrf_matches(units, np.array([0, 1]), np.array([1, 2]), 1, 1, 2, skip, out, kept)
    with pytest.raises(TypeError, match="units: expected items of 4 bytes, got 8"):
        c.chrf_matches(units.astype(np.int64), np.array([0, 0]), np.array([1, 1]), 1, 1, 2, skip, out,
                       kept)  # fmt: skip


@needs_kernel
def test_kernel_skips_marked_units_and_reports_lengths() -> None:
    # "a b a" against "ab": with spaces skipped the hypothesis is "aba"
    units = np.array([ord(c) for c in "a b a" + "ab"], dtype=np.uint32)
    space = np.array([c == " " for c in map(chr, range(33))])
    matches, kept = native.chrf_matches(units, [[0], [5]], [[5], [2]], 1, 1, 3, space)
    assert kept.ravel().tolist() == [3, 2]
    assert matches.ravel().tolist() == [
        2.0,
        1.0,
        0.0,
    ]  # a+b (clipped: one a); ab; nothing of order 3
    matches, kept = native.chrf_matches(units, [[0], [5]], [[5], [2]], 1, 1, 3)
    assert kept.ravel().tolist() == [5, 2]
    assert matches.ravel().tolist() == [2.0, 0.0, 0.0]


def test_whitespace_table_covers_every_code_point() -> None:
    # str.split() splits at exactly the characters str.isspace() is true of; the table must hold them all
    table = chrf_units.SPACE
    assert table.tolist() == [chr(c).isspace() for c in range(table.size)]
    assert not any(chr(c).isspace() for c in range(table.size, sys.maxunicode + 1))


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_kernel)])
def test_words_without_a_free_separator(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # every separator candidate occurs in the text: words are split text by text, with the same result
    texts = [["(hi) there, .. a !x §", None], ["there, (hi) a §", "x"]]
    expected = chrf_statistics_table(
        texts[:1], texts[1:], ChrfOptions(word_order=2), compiled=compiled
    )
    monkeypatch.setattr(chrf_units, "SEPARATORS", ("§",))
    words = chrf_units.WordUnits(texts, compiled)
    assert words.sep == ""
    got = chrf_statistics_table(texts[:1], texts[1:], ChrfOptions(word_order=2), compiled=compiled)
    np.testing.assert_array_equal(got.stats, expected.stats)
