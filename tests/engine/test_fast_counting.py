"""Vectorised n-gram counting equals the oracle (bleu_core.fast.counting / fast.corpus).

The oracle is :func:`bleu_core.engine.statistics.segment_row` (Counter-based, one segment at a time) on tokens from
the line-by-line tokenizer. Checked on Hypothesis-generated corpora (small alphabets so n-grams repeat, 0-4
references per segment, empty lines, orders 1-10, tiny chunks so segments straddle chunk boundaries), on the
TED MQM data (every system, 1 and 2 references, four tokenizers, lowercase on and off) and against sacrebleu's
own corpus statistics on real files.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_core.engine.statistics import compute_statistics, segment_row
from bleu_core.fast import corpus, counting
from bleu_core.fast.corpus import corpus_statistics
from bleu_core.tokenize.tokenizers import get_tokenizer

#: Every test runs on the compiled kernels and on the pure numpy/Python path (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("engine_path")

DATA = "/work/shared/data"
TED = os.path.join(DATA, "google-mqm-ted2021", "ted")
WMT = os.path.join(DATA, "wmt21-newstest2021-mqm-da", "wmt21-news-systems", "txt")


def oracle(
    hyps: Sequence[Sequence[str]],
    refs_per_segment: Sequence[Sequence[Sequence[str]]],
    max_order: int,
) -> np.ndarray:
    return np.array(
        [segment_row(h, r, max_order) for h, r in zip(hyps, refs_per_segment, strict=True)]
    )


def oracle_from_text(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    max_order: int = 4,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> np.ndarray:
    tokenizer = get_tokenizer(tokenize, lowercase)
    refs = [
        [tokenizer(s[i]) for s in references if s[i] is not None] for i in range(len(hypotheses))
    ]
    return oracle([tokenizer(h) for h in hypotheses], refs, max_order)


# ------------------------------------------------------------------------------------------------ generated

TOKEN_LISTS = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "."]), max_size=14)
SEGMENTS = st.lists(
    st.tuples(TOKEN_LISTS, st.lists(TOKEN_LISTS, min_size=0, max_size=4)), min_size=1, max_size=12
)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    segments=SEGMENTS,
    max_order=st.integers(1, 10),
    chunk=st.sampled_from([1, 5, 17, counting.CHUNK_POSITIONS]),
)
def test_statistics_array_equals_oracle(
    segments: list[tuple[list[str], list[list[str]]]], max_order: int, chunk: int
) -> None:
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    saved = counting.CHUNK_POSITIONS
    counting.CHUNK_POSITIONS = chunk
    try:
        got = counting.statistics_array(hyps, refs, max_order)
    finally:
        counting.CHUNK_POSITIONS = saved
    np.testing.assert_array_equal(got, oracle(hyps, refs, max_order))


WORD = st.sampled_from(["a", "b", "c", "the", "cat", ".", ",", "A", "3.5", "&amp;", "Σ"])
LINE = st.lists(WORD, max_size=10).map(" ".join)


@SETTINGS
@given(
    data=st.data(),
    n_segments=st.integers(1, 10),
    n_streams=st.integers(1, 4),
    max_order=st.integers(1, 9),
    tokenize=st.sampled_from(["13a", "intl", "char", "none", "zh", "paper"]),
    lowercase=st.booleans(),
    chunk=st.sampled_from([None, 1, 3]),
)
def test_corpus_statistics_equals_oracle(
    data: st.DataObject,
    n_segments: int,
    n_streams: int,
    max_order: int,
    tokenize: str,
    lowercase: bool,
    chunk: int | None,
) -> None:
    hyps = data.draw(st.lists(LINE, min_size=n_segments, max_size=n_segments))
    refs = [
        data.draw(st.lists(st.one_of(LINE, st.none()), min_size=n_segments, max_size=n_segments))
        for _ in range(n_streams)
    ]
    saved = corpus.SMALL_CORPUS
    corpus.SMALL_CORPUS = 0  # the batched path even for one segment
    try:
        got, n_refs = corpus_statistics(
            hyps,
            refs,
            max_order=max_order,
            tokenize=tokenize,
            lowercase=lowercase,
            chunk_segments=chunk,
        )
    finally:
        corpus.SMALL_CORPUS = saved
    small, small_n_refs = corpus._small_corpus(hyps, refs, max_order, tokenize, lowercase)
    np.testing.assert_array_equal(got, small)
    assert n_refs == small_n_refs
    expected = oracle_from_text(hyps, refs, max_order, tokenize, lowercase)
    np.testing.assert_array_equal(got, expected)
    per_segment = {sum(s[i] is not None for s in refs) for i in range(n_segments)}
    assert n_refs == (per_segment.pop() if len(per_segment) == 1 else -1)


def test_repeated_ngrams_are_clipped() -> None:
    # Paper, section 2.1: "the the the the the the the" against "the cat is on the mat": unigram 2/7.
    rows = counting.statistics_array(
        [["the"] * 7], [[["the", "cat", "is", "on", "the", "mat"]]], max_order=2
    )
    assert rows[0, 4] == 2 and rows[0, 6] == 7
    assert rows[0, 5] == 0 and rows[0, 7] == 6


def test_segment_without_references() -> None:
    rows = counting.statistics_array([["a", "b"]], [[]], max_order=2)
    assert rows.tolist() == [[2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 1.0]]


def test_sort_keys_falls_back_to_argsort_for_wide_keys() -> None:
    keys = np.array([5, 2**61, 3, 5, 0], dtype=np.int64)
    order, sorted_keys = counting.sort_keys(keys, 2**62)
    assert sorted_keys.tolist() == sorted(keys.tolist())
    assert keys[order].tolist() == sorted_keys.tolist()
    narrow_order, narrow_sorted = counting.sort_keys(np.array([5, 3, 5, 0]), 6)
    assert narrow_sorted.tolist() == [0, 3, 5, 5] and narrow_order.tolist()[:2] == [3, 1]


def test_wide_keys_give_the_same_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the argsort path of the numpy counting everywhere: same statistics as the oracle."""
    hyps = [["a", "b", "a", "b", "c"], ["x"], []]
    refs = [[["a", "b", "c"], ["b", "a", "b"]], [["x", "x"]], [["y"]]]
    expected = oracle(hyps, refs, 4)
    monkeypatch.setenv("BLEU_STUDY_NO_NUMBA", "1")  # the sorting path, whatever engine_path says
    real = counting.sort_keys

    def argsort_only(keys: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
        return real(keys, 2**62)

    monkeypatch.setattr(counting, "sort_keys", argsort_only)
    np.testing.assert_array_equal(counting.statistics_array(hyps, refs, 4), expected)


# ------------------------------------------------------------------------------------------------ real data


def ted_pair(pair: str) -> dict[str, list[str]]:
    """system -> target texts in segment order (MQM marks removed), from the TED MQM TSV of ``pair``."""
    path = os.path.join(TED, pair, f"mqm_ted_{pair}.tsv")
    if not os.path.exists(path):
        pytest.skip(f"{path} not found")
    texts: dict[str, dict[int, str]] = defaultdict(dict)
    with open(path, encoding="utf-8") as fh:
        header = next(fh).rstrip("\n").split("\t")
        s, g, t = header.index("system"), header.index("seg_id"), header.index("target")
        for row in fh:
            cells = row.rstrip("\n").split("\t")
            texts[cells[s]][int(cells[g])] = cells[t].replace("<v>", "").replace("</v>", "")
    segs = sorted(set.intersection(*(set(v) for v in texts.values())))
    return {system: [by_seg[i] for i in segs] for system, by_seg in texts.items()}


@pytest.mark.parametrize(("pair", "ref_names"), [("ende", ["ref"]), ("zhen", ["refB", "ref"])])
def test_every_ted_system_equals_oracle(pair: str, ref_names: list[str]) -> None:
    systems = ted_pair(pair)
    references = [systems[r] for r in ref_names]
    for name, hyps in systems.items():
        if name in ref_names:
            continue
        got = compute_statistics(hyps, references)
        np.testing.assert_array_equal(got.array, oracle_from_text(hyps, references), err_msg=name)
        assert got.n_refs == len(ref_names)


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_ted_tokenizers_and_case_equal_oracle(tokenize: str, lowercase: bool) -> None:
    systems = ted_pair("zhen")
    references = [systems["refB"], systems["ref"]]
    hyps = systems["Facebook-AI"]
    got = compute_statistics(hyps, references, tokenize=tokenize, lowercase=lowercase, max_order=6)
    expected = oracle_from_text(hyps, references, 6, tokenize, lowercase)
    np.testing.assert_array_equal(got.array, expected)


def test_ted_four_references_some_missing_equal_oracle() -> None:
    """4 reference streams (two human, two other systems), a few removed: variable references per segment."""
    systems = ted_pair("zhen")
    streams = [list(systems[n]) for n in ["refB", "ref", "DIDI-NLP", "Online-W"]]
    for i in range(0, len(streams[0]), 7):
        streams[i % 4][i] = None
    hyps = systems["NiuTrans"]
    got = compute_statistics(hyps, streams, max_order=10)
    np.testing.assert_array_equal(got.array, oracle_from_text(hyps, streams, 10))
    assert got.n_refs == -1


def sacrebleu_totals(
    hyps: list[str], refs: list[list[str]], tokenize: str = "13a", lowercase: bool = False
) -> tuple[int, int, list[int], list[int]]:
    score = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs)
    return score.sys_len, score.ref_len, list(score.counts), list(score.totals)


def assert_equal_to_sacrebleu(
    hyps: list[str], refs: list[list[str]], tokenize: str = "13a", lowercase: bool = False
) -> None:
    total = compute_statistics(hyps, refs, tokenize=tokenize, lowercase=lowercase).total()
    ours = (
        int(total[0]),
        int(total[1]),
        total[4:8].astype(int).tolist(),
        total[8:12].astype(int).tolist(),
    )
    assert ours == sacrebleu_totals(hyps, refs, tokenize, lowercase)


@pytest.mark.parametrize(
    ("tokenize", "lowercase"), [("13a", False), ("intl", True), ("char", False)]
)
def test_ted_corpus_statistics_equal_sacrebleu(tokenize: str, lowercase: bool) -> None:
    # sacrebleu 2.x BLEU.corpus_score: sys_len, ref_len (closest), counts, totals.
    systems = ted_pair("zhen")
    assert_equal_to_sacrebleu(
        systems["Online-W"], [systems["refB"], systems["ref"]], tokenize, lowercase
    )


def read_lines(path: str) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return fh.read().split("\n")[:-1]


@pytest.mark.parametrize("tokenize", ["13a", "intl"])
def test_wmt21_file_corpus_statistics_equal_sacrebleu(tokenize: str) -> None:
    hyp = os.path.join(WMT, "system-outputs", "newstest2021.de-en.hyp.Facebook-AI.en")
    refs = [os.path.join(WMT, "references", f"newstest2021.de-en.ref.{r}.en") for r in "AB"]
    if not all(os.path.exists(p) for p in [hyp, *refs]):
        pytest.skip("WMT21 release not found")
    assert_equal_to_sacrebleu(read_lines(hyp), [read_lines(p) for p in refs], tokenize)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    n_segments=st.integers(1, 6),
    n_systems=st.integers(2, 4),
    tokenize=st.sampled_from(["13a", "intl", "char"]),
    chunk=st.sampled_from([None, 1, 4]),
)
def test_systems_stacked_on_one_reference_equal_each_system_alone(
    data: st.DataObject, n_segments: int, n_systems: int, tokenize: str, chunk: int | None
) -> None:
    """compute_system_statistics' corpus: every system's outputs, the same reference objects repeated once
    per system (tokenised once per chunk by the batched tokenizer), chunk boundaries anywhere."""
    systems = [
        data.draw(st.lists(LINE, min_size=n_segments, max_size=n_segments))
        for _ in range(n_systems)
    ]
    ref = data.draw(st.lists(LINE, min_size=n_segments, max_size=n_segments))
    hyps = [h for outputs in systems for h in outputs]
    got, n_refs = corpus_statistics(
        hyps, [ref * n_systems], max_order=4, tokenize=tokenize, chunk_segments=chunk
    )
    assert n_refs == 1
    expected = oracle_from_text(hyps, [ref * n_systems], 4, tokenize, False)
    np.testing.assert_array_equal(got, expected)


def test_an_error_in_the_counting_thread_reaches_the_caller(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the compiled kernels, chunk i is counted in a background thread: its exception is re-raised."""
    calls = []

    def failing_count(*args: object) -> None:
        calls.append(args[1])
        if len(calls) == 2:
            raise MemoryError("chunk 2")
        real_count(*args)

    real_count = corpus._count_chunk
    monkeypatch.setattr(corpus, "_count_chunk", failing_count)
    monkeypatch.setattr(corpus.os, "cpu_count", lambda: 2)
    lines = [f"segment {i} of the corpus ." for i in range(20)]
    with pytest.raises(MemoryError, match="chunk 2"):
        corpus_statistics(lines, [lines], chunk_segments=5)
    assert calls[:2] == [0, 5]
