"""Per-segment statistics straight from the files' bytes (``file_segments``, ``segment_rows``): the rows that
``significance`` resamples, counted by the compiled kernel ``bleu13a_segments``.

Three ways agree on every row: the kernel, its pure path (``compute_statistics`` on the decoded lines) and
sacrebleu's own per-segment statistics (``BLEU._extract_corpus_statistics``, sacrebleu 2.x: hypothesis length,
closest reference length, matches and totals per order). ``file_totals`` is their sum.
"""

from __future__ import annotations

import glob
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.fast.compiled import available
from bleu_core.fast.file_bleu import (
    MAX_REFERENCES,
    corpus_rows,
    file_segments,
    file_totals,
    files_segments,
    files_totals,
    hypothesis_groups,
    python_file_segments,
    segment_rows,
)
from bleu_core.io.text import lines_from_bytes

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_kernels = pytest.mark.skipif(not available(), reason="the compiled kernels are not built")


@cache
def sacrebleu_metric(max_order: int) -> sacrebleu.BLEU:
    return sacrebleu.BLEU(tokenize="13a", max_ngram_order=max_order)


def sacrebleu_rows(hyp: bytes, refs: list[bytes], max_order: int) -> list[list[int]]:
    """sacrebleu's statistics per segment: [hyp_len, closest ref_len, matches..., totals...]."""
    hyp_lines = lines_from_bytes(hyp, "hyp")
    ref_lines = [lines_from_bytes(r, "ref") for r in refs]
    stats = sacrebleu_metric(max_order)._extract_corpus_statistics(hyp_lines, ref_lines)
    return [[int(x) for x in row] for row in stats]


def comparable(rows: np.ndarray, max_order: int) -> list[list[int]]:
    """The columns sacrebleu reports: hyp_len, closest, matches..., totals..."""
    keep = [0, 1, *range(4, 4 + 2 * max_order)]
    return rows[:, keep].tolist()


def assert_three_agree(hyp: bytes, refs: list[bytes], max_order: int = 4) -> np.ndarray:
    kernel = file_segments(hyp, refs, max_order, compiled=True)
    pure = python_file_segments(hyp, refs, max_order)
    assert not isinstance(kernel, str), kernel
    assert kernel.dtype == np.int64
    assert kernel.tolist() == pure.tolist()
    assert comparable(kernel, max_order) == sacrebleu_rows(hyp, refs, max_order)
    totals = file_totals(hyp, refs, max_order, compiled=True)
    assert totals == (len(kernel), kernel.sum(axis=0).tolist())
    return kernel


WORDS = st.sampled_from(
    ["the", "cat", "sat", "on", "mat", "a", "(", ")", "1,5", "3.5", "it's", "&amp;", "&quot;", "<skipped>",
     "--", "é", "東京", "dog.", "e.g.", "\u00a0", "\u3000", "\t", "😀"]
)  # fmt: skip
LINE = st.lists(WORDS, min_size=0, max_size=12).map(" ".join)
REF_LINE = LINE.filter(lambda line: line.split() != [])  # a blank reference is declined


@needs_kernels
@settings(max_examples=120, deadline=None)
@given(
    data=st.data(),
    n_segments=st.integers(1, 8),
    n_refs=st.integers(1, 3),
    max_order=st.integers(1, 5),
)
def test_hypothesis_text_three_way(data, n_segments: int, n_refs: int, max_order: int) -> None:
    hyp = data.draw(st.lists(LINE, min_size=n_segments, max_size=n_segments))
    refs = [
        data.draw(st.lists(REF_LINE, min_size=n_segments, max_size=n_segments))
        for _ in range(n_refs)
    ]
    if not any(line.split() for line in hyp):
        hyp[0] = "the"

    def as_bytes(lines: list[str]) -> bytes:
        return "".join(f"{line}\n" for line in lines).encode()

    assert_three_agree(as_bytes(hyp), [as_bytes(r) for r in refs], max_order)


@needs_kernels
@pytest.mark.parametrize("pair", ["en-ja", "en-hi"])
def test_wmt24_system_files(pair: str) -> None:
    """Two systems of each WMT24 pair (paragraph segments, the longest lines in shared/data)."""
    txt = SHARED / "wmt24-general-esa" / "txt"
    refs = sorted(glob.glob(str(txt / "references" / f"{pair}.ref*.txt")))
    hyps = sorted(glob.glob(str(txt / "system-outputs" / pair / "*.txt")))[:2]
    if not refs or not hyps:
        pytest.skip(f"WMT24 {pair} is not under {txt}")
    ref_bytes = [Path(r).read_bytes() for r in refs]
    for path in hyps:
        assert_three_agree(Path(path).read_bytes(), ref_bytes)


@needs_kernels
@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_segment_rows_equal_compute_system_statistics(pair: str, tmp_path: Path) -> None:
    """What ``significance`` gets from ``segment_rows`` is, float for float, what the general path gives
    (``compute_system_statistics`` on the files' lines): the TED MQM systems (Apache-2.0, bundled) as files,
    against one and two references."""
    from bleu_core.study.demo import load_demo

    study = load_demo(f"ted-{pair}")
    texts = {**study.references, **study.systems}
    paths = {}
    for i, (name, lines) in enumerate(texts.items()):
        paths[name] = tmp_path / f"{i}.txt"
        paths[name].write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    hyps = [str(paths[name]) for name in study.systems]
    for ref_names in (list(study.references)[:1], list(study.references)[:2]):
        ref_paths = [str(paths[r]) for r in ref_names]
        fast = segment_rows(
            ref_paths, hyps, max_order=4, tokenize="13a", lowercase=False, max_bytes=1 << 30
        )
        assert fast is not None
        general = compute_system_statistics(
            {p: lines_from_bytes(Path(p).read_bytes(), p) for p in hyps},
            [texts[r] for r in ref_names],
            max_order=4,
        )
        assert [p for p, _ in fast] == hyps
        for path, array in fast:
            assert array.dtype == np.float64
            assert array.tolist() == general[path].array.tolist()


@needs_kernels
def test_threads_give_the_same_rows() -> None:
    hyp = b"".join(b"the cat sat on the mat %d\n" % i for i in range(101))
    ref = b"".join(b"the cat is on the mat %d\n" % (i % 7) for i in range(101))
    one = file_segments(hyp, [ref], 4, threads=1, compiled=True)
    two = file_segments(hyp, [ref], 4, threads=2, compiled=True)
    assert one.tolist() == two.tolist()
    assert one.shape == (101, 12)


@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_kernels), False])
@pytest.mark.parametrize(
    ("reason", "hyp", "ref"),
    [
        ("empty", b"", b"x\n"),
        ("bom", b"\xef\xbb\xbfx\n", b"x\n"),
        ("nul", b"x\x00\n", b"x\n"),
        ("not-utf8", b"\xff\n", b"x\n"),
        ("line-count", b"x\ny\n", b"x\n"),
        ("blank-reference", b"x\n", b" \n"),
        ("blank-hypotheses", b" \n", b"x\n"),
    ],
)
def test_declined_as_the_totals_are(reason: str, hyp: bytes, ref: bytes, compiled: bool) -> None:
    assert file_segments(hyp, [ref], 4, compiled=compiled) == reason
    assert file_totals(hyp, [ref], 4, compiled=compiled) == reason


@needs_kernels
def test_segment_rows_leave_other_options_to_the_general_path(tmp_path: Path) -> None:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat\n", encoding="utf-8")
    hyp.write_text("the cat\n", encoding="utf-8")
    common = {"max_order": 4, "max_bytes": 1 << 20}
    assert segment_rows([str(ref)], [str(hyp)], tokenize="13a", lowercase=False, **common)
    assert segment_rows([str(ref)], [str(hyp)], tokenize="intl", lowercase=False, **common) is None
    assert segment_rows([str(ref)], [str(hyp)], tokenize="13a", lowercase=True, **common) is None
    refs = [str(ref)] * (MAX_REFERENCES + 1)
    assert segment_rows(refs, [str(hyp)], tokenize="13a", lowercase=False, **common) is None
    missing = str(tmp_path / "missing.txt")
    assert segment_rows([str(ref)], [missing], tokenize="13a", lowercase=False, **common) is None
    hyp.write_text(" \n", encoding="utf-8")  # the general path warns about it
    assert segment_rows([str(ref)], [str(hyp)], tokenize="13a", lowercase=False, **common) is None


# ---------------------------------------------------------------------------- several hypothesis files at once


@needs_kernels
@settings(max_examples=80, deadline=None)
@given(
    data=st.data(),
    n_segments=st.integers(1, 6),
    n_hyps=st.integers(1, 5),
    n_refs=st.integers(1, 3),
    threads=st.integers(1, 2),
)
def test_several_files_equal_one_at_a_time(data, n_segments, n_hyps, n_refs, threads) -> None:
    """One call with the references tokenised once for every hypothesis file gives each file's own rows and
    totals (token ids are shared across the files of a call: they must not leak into the counts)."""

    def draw_file(lines: st.SearchStrategy[str]) -> bytes:
        drawn = data.draw(st.lists(lines, min_size=n_segments, max_size=n_segments))
        return "".join(f"{line}\n" for line in drawn).encode()

    hyps = [draw_file(LINE) for _ in range(n_hyps)]
    refs = [draw_file(REF_LINE) for _ in range(n_refs)]
    one_by_one = [file_segments(h, refs, 4, compiled=True, threads=threads) for h in hyps]
    together = files_segments(hyps, refs, 4, compiled=True, threads=threads)
    if any(isinstance(r, str) for r in one_by_one):  # a file without any word: all are declined
        assert together == "blank-hypotheses"
        assert files_totals(hyps, refs, 4, compiled=True) == "blank-hypotheses"
        return
    assert together.shape == (n_hyps, n_segments, 12)
    assert together.tolist() == [r.tolist() for r in one_by_one]
    assert files_totals(hyps, refs, 4, compiled=True, threads=threads) == (
        n_segments,
        [r.sum(axis=0).tolist() for r in one_by_one],
    )
    assert files_segments(hyps, refs, 4, compiled=False).tolist() == together.tolist()


@needs_kernels
def test_many_systems_are_cut_into_calls(tmp_path: Path) -> None:
    """70 systems and 2 references: the kernel takes at most 64 files per call (62 systems, then 8)."""
    ref_lines = ["the cat sat on the mat", "a dog barked", "it rained all day"]
    refs = []
    for k, shift in enumerate((0, 1)):
        path = tmp_path / f"ref{k}.txt"
        path.write_text("".join(f"{line} {shift}\n" for line in ref_lines), encoding="utf-8")
        refs.append(str(path))
    hyps = []
    for i in range(70):
        path = tmp_path / f"sys{i}.txt"
        path.write_text("".join(f"{line} {i % 3}\n" for line in ref_lines), encoding="utf-8")
        hyps.append(str(path))
    assert [len(g) for g in hypothesis_groups(hyps, 2)] == [62, 8]
    common = {"max_order": 4, "tokenize": "13a", "lowercase": False, "max_bytes": 1 << 20}
    rows = segment_rows(refs, hyps, **common)
    assert rows is not None and [p for p, _ in rows] == hyps
    ref_bytes = [Path(r).read_bytes() for r in refs]
    for path, array in rows:
        alone = file_segments(Path(path).read_bytes(), ref_bytes, 4).astype(float)
        alone[:, 3] /= 2
        assert array.tolist() == alone.tolist()
    totals = corpus_rows(refs, hyps, ref_length="closest", **common)
    assert totals is not None
    assert [row for _, row in totals] == [array.sum(axis=0).tolist() for _, array in rows]


def test_the_kernel_refuses_bad_arguments() -> None:
    from bleu_core.fast.compiled import extension

    module = extension()
    if module is None:
        pytest.skip("the compiled kernels are not built")
    with pytest.raises(
        ValueError, match="at least one hypothesis and one reference file, 64 files"
    ):
        module.bleu13a_segments((), (b"x\n",), 4, 100, 1)
    with pytest.raises(ValueError, match="max_order 1 to 64"):
        module.bleu13a_totals((b"x\n",), (b"x\n",), 0, 100, 1)
    with pytest.raises(TypeError, match="the files' contents must be bytes"):
        module.bleu13a_totals(("x\n",), (b"x\n",), 4, 100, 1)
