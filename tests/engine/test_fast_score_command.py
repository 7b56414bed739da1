"""``bleu-study score``'s fast path (13a statistics in C from the files' bytes, the row scored without numpy)
prints what the general path prints, and leaves every input it does not cover to the general path, whose
errors and warnings stay word for word the same.

``general`` runs below switch the fast path off (``corpus_rows`` returns ``None``), so each comparison is the
same command, same files, both ways.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.cli import main
from bleu_core.engine.bleu import score_row
from bleu_core.engine.corpus_row import score_corpus_row
from bleu_core.engine.options import BleuOptions
from bleu_core.fast import file_bleu
from bleu_core.fast.compiled import available

needs_kernels = pytest.mark.skipif(not available(), reason="the compiled kernels are not built")

HYP = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REF1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
REF2 = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]


def write(tmp_path: Path, name: str, data: bytes | list[str]) -> str:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else "".join(x + "\n" for x in data).encode())
    return str(path)


def run_both(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[tuple[int, str, str], tuple[int, str, str], int]:
    """``(fast, general, fast rows computed)``: each a ``(exit code, stdout, stderr)`` of ``main(argv)``."""
    calls = []
    real = file_bleu.corpus_rows

    def counted(*args, **kwargs):
        rows = real(*args, **kwargs)
        calls.append(rows is not None)
        return rows

    monkeypatch.setattr(file_bleu, "corpus_rows", counted)
    fast = (main(argv), *capsys.readouterr())
    monkeypatch.setattr(file_bleu, "corpus_rows", lambda *a, **k: None)
    general = (main(argv), *capsys.readouterr())
    return fast, general, sum(calls)


def assert_same_json(fast: str, general: str) -> None:
    """The same systems, counts, lengths and signature; floats equal to 1e-12 (the fast path scores with
    :mod:`math` as sacrebleu does, the general path with numpy's exp and log)."""
    a, b = json.loads(fast), json.loads(general)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        for key in ("system", "counts", "totals", "hyp_len", "ref_len", "signature"):
            assert x[key] == y[key], key
        for key in ("bleu", "score", "bp", "ratio"):
            assert math.isclose(x[key], y[key], rel_tol=1e-12, abs_tol=1e-12), key
        assert all(
            math.isclose(p, q, rel_tol=1e-12)
            for p, q in zip(x["precisions"], y["precisions"], strict=True)
        )


@needs_kernels
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_fast_path_prints_what_the_general_path_prints(tmp_path, capsys, monkeypatch, fmt) -> None:
    files = [write(tmp_path, n, x) for n, x in [("r1", REF1), ("r2", REF2), ("h", HYP)]]
    files.append(write(tmp_path, "h2", [h.lower() for h in HYP]))
    argv = ["score", "-r", files[0], files[1], "-i", files[2], files[3], "--format", fmt]
    fast, general, used = run_both(argv, capsys, monkeypatch)
    assert used == 1 and fast[0] == general[0] == 0 and fast[2] == general[2]
    if fmt == "text":
        assert fast[1] == general[1]
        assert "BLEU = 48.53 82.4/50.0/45.5/37.5" in fast[1]  # sacrebleu's README example
    else:
        assert_same_json(fast[1], general[1])
        expected = sacrebleu.corpus_bleu(HYP, [REF1, REF2])
        assert json.loads(fast[1])[0]["score"] == expected.score  # bit for bit


@needs_kernels
@pytest.mark.parametrize(
    "flags",
    [
        [],
        ["--max-order", "2"],
        ["--smooth", "floor"],
        ["--smooth", "add-k", "--smooth-value", "2"],
        ["--smooth", "none", "--effective-order"],
        ["--ref-length", "shortest"],
        ["--smooth", "chen-cherry-5"],  # statistics of order 5, scored by numpy
        ["--weights", "0.5", "0.5", "0", "0"],
    ],
)
def test_options_fast_and_general_agree(tmp_path, capsys, monkeypatch, flags) -> None:
    files = [write(tmp_path, n, x) for n, x in [("r1", REF1), ("r2", REF2), ("h", HYP)]]
    argv = ["score", "-r", files[0], files[1], "-i", files[2], "--format", "json", *flags]
    fast, general, used = run_both(argv, capsys, monkeypatch)
    assert used == 1
    assert_same_json(fast[1], general[1])


@pytest.mark.parametrize(
    ("flags", "refs"),
    [
        (["--lowercase"], 1),
        (["--tokenize", "intl"], 1),
        (["--tokenize", "char"], 1),
        (
            ["--ref-length", "average"],
            2,
        ),  # a sum of fractions: numpy's summation decides the last bit
        (["--sentence-level"], 1),
    ],
)
def test_other_options_take_the_general_path(tmp_path, capsys, monkeypatch, flags, refs) -> None:
    files = [write(tmp_path, n, x) for n, x in [("r1", REF1), ("r2", REF2), ("h", HYP)]]
    argv = ["score", "-r", *files[:refs], "-i", files[2], *flags]
    fast, general, used = run_both(argv, capsys, monkeypatch)
    assert used == 0 and fast == general


#: Inputs the fast path declines, with what the general path says about them (code, stderr fragment).
DECLINED = {
    "bom": (b"\xef\xbb\xbfThe dog bit the man.\nx\ny\n", 0, "byte-order mark"),
    "crlf": (b"The dog bit the man.\r\nx\r\ny\r\n", 0, ""),  # not declined: the same score
    "blank-hypotheses": (b" \n\n\t\n", 0, "all 3 lines are blank"),
    "line-count": (b"a\nb\n", 2, "has 3 lines but"),
    "nul": (b"a\x00\nb\nc\n", 2, "NUL byte"),
    "not-utf8": (b"a\nb\xff\nc\n", 2, "not UTF-8"),
    "empty": (b"", 2, "empty"),
}


@needs_kernels
@pytest.mark.parametrize("case", sorted(DECLINED))
def test_declined_inputs_say_what_they_said(tmp_path, capsys, monkeypatch, case) -> None:
    data, code, message = DECLINED[case]
    ref = write(tmp_path, "ref", REF1)
    hyp = write(tmp_path, "hyp", data)
    fast, general, _ = run_both(["score", "-r", ref, "-i", hyp], capsys, monkeypatch)
    assert fast == general
    assert fast[0] == code and message in fast[2]


@needs_kernels
def test_blank_reference_line_is_an_error(tmp_path, capsys, monkeypatch) -> None:
    ref = write(tmp_path, "ref", ["a", " ", "c"])
    hyp = write(tmp_path, "hyp", ["a", "b", "c"])
    fast, general, _ = run_both(["score", "-r", ref, "-i", hyp], capsys, monkeypatch)
    assert fast == general and fast[0] == 2 and "line 2: blank line" in fast[2]


def test_corpus_rows_declines_without_kernels(tmp_path, monkeypatch) -> None:
    ref, hyp = write(tmp_path, "ref", REF1), write(tmp_path, "hyp", HYP)
    monkeypatch.setenv("BLEU_STUDY_PURE", "1")
    kwargs = dict(tokenize="13a", lowercase=False, ref_length="closest", max_bytes=10**6)
    assert file_bleu.corpus_rows([ref], [hyp], max_order=4, stream_bytes=10**6, **kwargs) is None


@needs_kernels
def test_corpus_rows_size_limits(tmp_path) -> None:
    ref, hyp = write(tmp_path, "ref", REF1), write(tmp_path, "hyp", HYP)
    kwargs = dict(max_order=4, tokenize="13a", lowercase=False, ref_length="closest")
    size = Path(ref).stat().st_size + Path(hyp).stat().st_size
    assert file_bleu.corpus_rows([ref], [hyp], max_bytes=10**6, stream_bytes=size, **kwargs)
    assert (
        file_bleu.corpus_rows([ref], [hyp], max_bytes=10**6, stream_bytes=size - 1, **kwargs)
        is None
    )
    assert file_bleu.corpus_rows([ref], [hyp], max_bytes=10, stream_bytes=size, **kwargs) is None
    many = [ref] * (file_bleu.MAX_REFERENCES + 1)
    assert file_bleu.corpus_rows(many, [hyp], max_bytes=10**6, stream_bytes=10**9, **kwargs) is None
    assert file_bleu.corpus_rows(many[1:], [hyp], max_bytes=10**6, stream_bytes=10**9, **kwargs)
    missing = str(tmp_path / "missing")
    assert (
        file_bleu.corpus_rows([missing], [hyp], max_bytes=10**6, stream_bytes=size, **kwargs)
        is None
    )


# ------------------------------------------------------------------------------------ the row, without numpy

COUNTS = st.integers(0, 10**7)


@settings(max_examples=400, deadline=None)
@given(
    max_order=st.integers(1, 6),
    data=st.data(),
    smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
    effective_order=st.booleans(),
)
def test_row_equals_sacrebleu_bit_for_bit(max_order, data, smooth, effective_order) -> None:
    totals = data.draw(st.lists(COUNTS, min_size=max_order, max_size=max_order))
    matches = [data.draw(st.integers(0, t)) for t in totals]
    hyp_len, ref_len = data.draw(COUNTS), data.draw(COUNTS)
    options = BleuOptions(max_order=max_order, smooth=smooth, effective_order=effective_order)
    row = [hyp_len, ref_len, ref_len, ref_len, *matches, *totals]
    ours = score_corpus_row(row, options, 1)
    assert ours is not None
    theirs = sacrebleu.BLEU.compute_bleu(
        list(matches),
        list(totals),
        hyp_len,
        ref_len,
        smooth_method=smooth,
        smooth_value=options.resolved_smooth_value,
        effective_order=effective_order,
        max_ngram_order=max_order,
    )
    assert ours.score == theirs.score and ours.bp == theirs.bp
    assert [100 * p for p in ours.precisions] == pytest.approx(theirs.precisions, rel=1e-15)
    numpy_score = score_row(row, options, 1)
    assert math.isclose(ours.score, numpy_score.score, rel_tol=1e-12, abs_tol=1e-12)
    assert (ours.counts, ours.totals, ours.ratio) == (
        numpy_score.counts,
        numpy_score.totals,
        numpy_score.ratio,
    )


def test_row_leaves_numpy_only_options_to_numpy() -> None:
    row = [6, 6, 6, 6, 5, 3, 1, 0, 0, 6, 5, 4, 3, 2]
    assert score_corpus_row(row, BleuOptions(smooth="chen-cherry-5"), 1) is None
    assert score_corpus_row(row, BleuOptions(weights=(0.5, 0.5, 0, 0)), 1) is None
    with pytest.raises(ValueError, match="up to order 5"):
        score_corpus_row(row, BleuOptions(max_order=6), 1)


def test_fast_path_size_is_the_streaming_size() -> None:
    from bleu_core.engine.file_statistics import STREAM_BYTES

    assert file_bleu.MAX_FAST_BYTES == STREAM_BYTES
