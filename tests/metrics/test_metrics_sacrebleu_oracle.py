"""The sacrebleu oracle (chrF and TER through sacrebleu 2.x): its per-segment path equals sacrebleu's public API."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import CHRF, TER

from bleu_core.errors import BleuStudyError
from tests.metrics.sacrebleu_oracle import corpus_chrf, corpus_ter

HYPS = [
    "The cat sat on the mat.",
    "A dog barked loudly at the postman",
    "It rained all day long.",
    "",
]
REFS1 = [
    "The cat was sitting on the mat.",
    "The dog barked at a postman.",
    "It was raining all day.",
    "Hello",
]
REFS2 = ["A cat sat on a mat.", None, "Rain fell the whole day.", "Hi there"]


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_equals_sacrebleu(word_order: int) -> None:
    ours = corpus_chrf(HYPS, [REFS1, REFS2], word_order=word_order)
    metric = CHRF(word_order=word_order)
    assert ours.corpus == pytest.approx(metric.corpus_score(HYPS, [REFS1, REFS2]).score, abs=1e-9)
    for i, hyp in enumerate(HYPS):
        refs = [r for r in (REFS1[i], REFS2[i]) if r is not None]
        assert ours.segment[i] == pytest.approx(metric.sentence_score(hyp, refs).score, abs=1e-9)
    # a None in the second stream makes the number of references variable
    assert ours.signature.startswith("nrefs:var|") and f"nw:{word_order}" in ours.signature
    assert ours.name == ("chrF++" if word_order else "chrF")
    assert ours.higher_is_better


def test_ter_equals_sacrebleu() -> None:
    ours = corpus_ter(HYPS, [REFS1])
    metric = TER()
    assert ours.corpus == pytest.approx(metric.corpus_score(HYPS, [REFS1]).score, abs=1e-9)
    for i, hyp in enumerate(HYPS):
        assert ours.segment[i] == pytest.approx(
            metric.sentence_score(hyp, [REFS1[i]]).score, abs=1e-9
        )
    assert not ours.higher_is_better


def test_bad_shapes_are_reported() -> None:
    with pytest.raises(BleuStudyError, match="reference stream 1 has 1 segment"):
        corpus_chrf(["a", "b"], [["a"]])
    with pytest.raises(BleuStudyError, match="reference stream 1 has 1 segment"):
        corpus_ter(["a", "b"], [["a"]])
