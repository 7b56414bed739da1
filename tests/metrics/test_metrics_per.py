"""PER (position-independent error rate), hand-computed with the lecture's formula (seed 003)."""

from __future__ import annotations

import pytest

from bleu_core.errors import BleuOptionError
from bleu_core.metrics.per import (
    PerCounts,
    corpus_per,
    per_from_counts,
    per_from_tokens,
    segment_per,
)


def test_lecture_example() -> None:
    # seed 003: reference "On the happiness of dreaming camels" (r = 6), MT "The happiness of dreaming camels"
    # (c = 5, all 5 correct, case-folded): PER = 1 - (5 - max(0, 5 - 6)) / 6 = 1/6
    s = corpus_per(
        ["The happiness of dreaming camels"],
        [["On the happiness of dreaming camels"]],
        lowercase=True,
    )
    assert s.corpus == pytest.approx(1 / 6)
    # case-sensitive: 'The' != 'the', correct = 4: PER = 1 - 4/6
    s = corpus_per(["The happiness of dreaming camels"], [["On the happiness of dreaming camels"]])
    assert s.corpus == pytest.approx(2 / 6)


def test_longer_hypothesis_and_repeated_words() -> None:
    # hyp a a b c d (c = 5), ref a b c (r = 3): correct = 3 (bag intersection), extra = 2: PER = 1 - (3 - 2)/3
    c = segment_per("a a b c d".split(), ["a b c".split()])
    assert per_from_counts(c) == pytest.approx(2 / 3)
    # word order does not matter
    assert per_from_counts(segment_per("c b a".split(), ["a b c".split()])) == 0.0
    # PER can exceed 1: hyp x x x x (c = 4), ref a (r = 1): 1 - (0 - 3)/1 = 4
    assert per_from_counts(segment_per(["x"] * 4, [["a"]])) == pytest.approx(4.0)


def test_best_reference_and_corpus_pooling() -> None:
    hyp = [["a", "b"], ["x", "y", "z"]]
    refs = [[["a", "c"], ["a", "b"]], [["x", "q", "r", "s"]]]
    s = per_from_tokens(hyp, refs)
    # segment 1: the second reference is perfect; segment 2: only x matches, c = 3 < r = 4: 1 - 1/4
    assert s.segment.tolist() == pytest.approx([0.0, 3 / 4])
    # corpus: errors 0 + 3 over reference lengths 2 + 4
    assert s.corpus == pytest.approx(3 / 6)
    assert s.errors.tolist() == [0.0, 3.0]


def test_empty_reference() -> None:
    assert per_from_counts(PerCounts(0.0, 0.0)) == 0.0
    assert per_from_counts(PerCounts(2.0, 0.0)) == 1.0


def test_missing_references_are_skipped() -> None:
    s = corpus_per(["a b", "c"], [["a b", None], ["zzz", "c"]])
    assert s.segment.tolist() == [0.0, 0.0]


def test_validation_messages() -> None:
    with pytest.raises(BleuOptionError, match="segment 1 has no reference in any stream"):
        corpus_per(["a"], [[None]])
    with pytest.raises(BleuOptionError, match="PER needs at least one reference"):
        segment_per(["a"], [])
    with pytest.raises(BleuOptionError, match="2 hypotheses but 1 reference sets"):
        per_from_tokens([["a"], ["b"]], [[["a"]]])
