"""Every validation message of the engine, checked with pytest.raises(match=...)."""

from __future__ import annotations

import pytest

from bleu_core import BleuOptionError, BleuOptions, InputError, compute_statistics, corpus_bleu
from bleu_core.io.text import read_lines


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_order": 0}, r"max order must be from 1 to 9, got 0"),
        ({"max_order": 10}, r"max order must be from 1 to 9, got 10"),
        ({"max_order": 2.5}, r"max order must be a whole number"),
        ({"weights": (0.5, 0.5)}, r"weights must be 4 numbers .* got 2"),
        ({"weights": (0.5, 0.5, 0.5, -0.5)}, r"weights must be non-negative, got -0.5"),
        ({"weights": (0.3, 0.3, 0.3, 0.3)}, r"weights must sum to 1, they sum to 1.2"),
        ({"weights": (float("nan"), 0.5, 0.25, 0.25)}, r"weights must be finite numbers"),
        (
            {"ref_length": "longest"},
            r"unknown reference-length policy 'longest'; choose one of: closest, shortest",
        ),
        (
            {"smooth": "laplace"},
            r"unknown smoothing 'laplace'; choose one of: none, floor, add-k, exp, chen-cherry-1",
        ),
        ({"smooth": "exp", "smooth_value": 0.1}, r"smoothing 'exp' takes no value"),
        ({"smooth": "floor", "smooth_value": -1}, r"smoothing value must be a positive number"),
        (
            {"tokenize": "moses"},
            r"unknown tokenizer 'moses'; choose one of: 13a, intl, char, zh, none, paper",
        ),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(BleuOptionError, match=message):
        BleuOptions(**kwargs)


def test_empty_corpus():
    with pytest.raises(InputError, match="the corpus is empty"):
        corpus_bleu([], [[]])


def test_line_count_mismatch_is_an_error_not_truncation():
    with pytest.raises(
        InputError, match=r"reference stream 2 has 1 segment\(s\) but there are 2 hypotheses"
    ):
        compute_statistics(["a", "b"], [["a", "b"], ["a"]])


def test_transposed_string_references():
    with pytest.raises(InputError, match="not a list of strings"):
        compute_statistics(["a"], ["a"])


def test_hypotheses_as_one_string():
    with pytest.raises(InputError, match="hypotheses must be a list of segments"):
        compute_statistics("a b", [["a b"]])


def test_no_reference_stream():
    with pytest.raises(InputError, match="at least one reference stream is needed"):
        compute_statistics(["a"], [])


def test_non_text_hypothesis():
    with pytest.raises(InputError, match="hypothesis 2 is int, expected text"):
        compute_statistics(["a", 3], [["a", "b"]])


def test_undecodable_bytes_name_file_line_and_offset(tmp_path):
    p = tmp_path / "hyp.txt"
    p.write_bytes(b"fine\nbad \xff here\n")
    with pytest.raises(
        InputError,
        match=r"hyp.txt, line 2, column 5: bytes that are not UTF-8 \(0xff at byte offset 9\)",
    ):
        read_lines(p)


def test_file_over_size_cap(tmp_path):
    p = tmp_path / "big.txt"
    p.write_text("x" * 2000)
    with pytest.raises(
        InputError, match=r"big\.txt: file is 0\.0 MiB, over the size cap of 0\.0 MiB"
    ):
        read_lines(p, max_bytes=1000)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match=r"nope.txt: file not found"):
        read_lines(tmp_path / "nope.txt")


def test_bom_and_crlf_handled_silently(tmp_path):
    p = tmp_path / "r.txt"
    p.write_bytes(b"\xef\xbb\xbfa b\r\nc d\r\n")
    assert read_lines(p) == ["a b", "c d"]


def test_non_text_reference():
    with pytest.raises(InputError, match="reference stream 1, segment 2 is float, expected text"):
        compute_statistics(["a", "b"], [["a", 1.5]])


def test_statistics_order_out_of_range():
    with pytest.raises(InputError, match="statistics max order must be from 1 to 10, got 11"):
        compute_statistics(["a"], [["a"]], max_order=11)


def test_system_statistics_need_equal_lengths():
    from bleu_core.engine.statistics import compute_system_statistics

    with pytest.raises(InputError, match="system 'b' has 1 segment\\(s\\) but 'a' has 2"):
        compute_system_statistics({"a": ["x", "y"], "b": ["x"]}, [["x", "y"]])
    with pytest.raises(InputError, match="no systems to score"):
        compute_system_statistics({}, [["x"]])


def test_system_statistics_equal_one_system_at_a_time():
    import numpy as np

    from bleu_core.engine.statistics import compute_system_statistics

    refs = [["the cat sat", "a dog ran ."], ["the cat sat down", None]]
    systems = {"a": ["the cat sat", "a dog"], "b": [None, "dog ran ."]}
    together = compute_system_statistics(systems, refs, max_order=3)
    for name, hyps in systems.items():
        alone = compute_statistics(["" if h is None else h for h in hyps], refs, max_order=3)
        np.testing.assert_array_equal(together[name].array, alone.array)
        assert together[name].n_refs == alone.n_refs
