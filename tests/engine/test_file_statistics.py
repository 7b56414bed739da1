"""Block-by-block statistics of files (bleu_core.engine.file_statistics) equal the whole-file path, with the same
checks; the line numbers of errors count from the start of the file, whatever block they fall in."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_core.cli import main
from bleu_core.engine import file_statistics, statistics
from bleu_core.engine.file_statistics import stream_statistics
from bleu_core.engine.statistics import compute_statistics
from bleu_core.errors import InputError
from bleu_core.fast import file_bleu
from bleu_core.io.text import read_lines

WORDS = st.sampled_from(["the", "cat", "sat", "mat", "a", ".", ",", "é", "\ufeffx", "dog's"])
LINE = st.lists(WORDS, min_size=1, max_size=6).map(" ".join)


def write(path: Path, lines: list[str], *, newline: str = "\n", bom: bool = False) -> str:
    data = ("\ufeff" if bom else "") + "".join(line + newline for line in lines)
    path.write_bytes(data.encode("utf-8"))
    return str(path)


def streamed(refs: list[str], hyp: str, block_lines: int) -> np.ndarray:
    [(path, stats)] = list(stream_statistics(refs, [hyp], block_lines=block_lines))
    assert path == hyp
    return stats.array


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    segments=st.lists(st.tuples(LINE, LINE, LINE), min_size=1, max_size=30),
    block_lines=st.integers(1, 7),
)
def test_blocks_equal_the_whole_corpus(
    segments: list[tuple[str, str, str]], block_lines: int, tmp_path: Path
) -> None:
    hyps, ref_a, ref_b = (list(x) for x in zip(*segments, strict=True))
    refs = [write(tmp_path / "a.txt", ref_a), write(tmp_path / "b.txt", ref_b, newline="\r\n")]
    hyp = write(tmp_path / "hyp.txt", hyps, bom=True)
    # The whole-file path (read_lines: a U+FEFF at the very start of a file is a byte-order mark)
    expected = compute_statistics(read_lines(hyp), [read_lines(p) for p in refs]).array
    np.testing.assert_array_equal(streamed(refs, hyp, block_lines), expected)


def test_small_reads_split_lines_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reads of a few bytes cut lines and multi-byte characters in half: the lines come out whole."""
    monkeypatch.setattr(file_statistics, "_READ_BYTES", 3)
    lines = ["día uno .", "über alles", "\ufeffzwei drei", "x"] * 5
    ref = write(tmp_path / "ref.txt", lines)
    hyp = write(tmp_path / "hyp.txt", lines[::-1])
    expected = compute_statistics(lines[::-1], [lines]).array
    np.testing.assert_array_equal(streamed([ref], hyp, 4), expected)


@pytest.mark.parametrize(
    ("ref_bytes", "message"),
    [
        (b"a\nb\nc\nd\ne \xff\n", r"ref\.txt, line 5, column 3: bytes that are not UTF-8"),
        (b"a\nb\nc\nd\ne\x00\n", r"ref\.txt, line 5, column 2: NUL byte"),
        (b"a\nb\nc\nd\n \n", r"ref\.txt, line 5: blank line"),
        (b"a\nb\nc\nd\n", r"ref\.txt has 4 lines but .*hyp\.txt has 5"),
        (b"", r"ref\.txt: the file is empty"),
    ],
)
def test_errors_name_the_line_in_the_file(
    ref_bytes: bytes, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_statistics, "_READ_BYTES", 4)  # the bad line is in a later read
    (tmp_path / "ref.txt").write_bytes(ref_bytes)
    hyp = write(tmp_path / "hyp.txt", ["a", "b", "c", "d", "e"])
    with pytest.raises(InputError, match=message):
        streamed([str(tmp_path / "ref.txt")], hyp, 2)


def test_all_blank_hypotheses_and_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = write(tmp_path / "ref.txt", ["a", "b"])
    hyp = write(tmp_path / "hyp.txt", ["", " "])
    # scored as the whole-file path scores it (sacrebleu gives such a file BLEU 0), with a warning
    expected = compute_statistics(["", " "], [["a", "b"]]).array
    np.testing.assert_array_equal(streamed([ref], hyp, 1), expected)
    assert "hyp.txt: all 2 lines are blank: BLEU is 0" in capsys.readouterr().err
    with pytest.raises(InputError, match=r"nope\.txt: file not found"):
        streamed([ref], str(tmp_path / "nope.txt"), 1)
    with pytest.raises(
        InputError, match=r"hyp\.txt: file is 0\.0 MiB, over the size cap of 0\.0 MiB"
    ):
        list(stream_statistics([ref], [hyp], max_bytes=1))


def test_score_command_streams_big_input_with_the_same_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [f"the cat {i % 7} sat on the mat ." for i in range(50)]
    ref = write(tmp_path / "ref.txt", lines)
    hyp = write(tmp_path / "hyp.txt", [line.replace("sat", "is") for line in lines])
    # the whole-file path of numpy's statistics (13a's fast path from the bytes is tested on its own:
    # tests/engine/test_fast_score_command.py)
    monkeypatch.setattr(file_bleu, "corpus_rows", lambda *args, **kwargs: None)
    assert main(["score", "-r", ref, "-i", hyp, "--format", "json"]) == 0
    whole = capsys.readouterr().out
    monkeypatch.setattr(file_statistics, "STREAM_BYTES", 0)
    monkeypatch.setattr(file_statistics, "BLOCK_LINES", 7)
    calls: list[int] = []
    real = statistics.compute_statistics

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(statistics, "compute_statistics", counted)
    assert main(["score", "-r", ref, "-i", hyp, "--format", "json"]) == 0
    assert capsys.readouterr().out == whole
    assert len(calls) == 8  # 50 lines in blocks of 7: it did stream
