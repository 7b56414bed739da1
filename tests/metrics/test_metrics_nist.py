"""NIST (Doddington 2002) against NLTK's nist_score on small cases with one reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from nltk.translate.nist_score import corpus_nist as nltk_corpus_nist
from nltk.translate.nist_score import sentence_nist as nltk_sentence_nist

from bleu_core.errors import BleuOptionError
from bleu_core.metrics.nist import (
    corpus_nist,
    corpus_nist_from_tokens,
    information_weights,
    length_penalty,
    nist_from_stats,
)

HYPS = [
    "It is a guide to action which ensures that the military always obeys the commands of the party",
    "he read the book because he was interested in world history",
    "the cat sat on the mat",
    "short one",
]
REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "he was interested in world history because he read the book",
    "the cat is sitting on the mat",
    "this is a much longer reference sentence",
]


@pytest.mark.parametrize("n", [1, 2, 5])
def test_corpus_nist_equals_nltk_single_reference(n: int) -> None:
    hyp = [h.split() for h in HYPS]
    refs = [[r.split()] for r in REFS]
    ours = corpus_nist_from_tokens(hyp, refs, max_order=n).corpus
    assert ours == pytest.approx(nltk_corpus_nist(refs, hyp, n=n), rel=1e-12)


def test_sentence_nist_equals_nltk_for_one_segment() -> None:
    hyp, ref = HYPS[0].split(), REFS[0].split()
    ours = corpus_nist_from_tokens([hyp], [[ref]]).segment[0]
    assert ours == pytest.approx(nltk_sentence_nist([ref], hyp, n=5), rel=1e-12)


def test_text_level_uses_engine_tokenizer() -> None:
    # 13a splits nothing here (no punctuation), so the text API agrees with the whitespace tokens
    scores = corpus_nist(HYPS, [REFS])
    hyp = [h.split() for h in HYPS]
    refs = [[r.split()] for r in REFS]
    assert scores.corpus == pytest.approx(nltk_corpus_nist(refs, hyp, n=5), rel=1e-12)
    assert scores.segment.shape == (4,)
    # rows add up: the corpus score is nist_from_stats of the column sums
    assert float(nist_from_stats(scores.stats.sum(axis=0), 5)) == pytest.approx(scores.corpus)


def test_information_weights_hand_computed() -> None:
    info = information_weights([[["the", "cat", "the", "dog"]]], max_order=2)
    assert info[("the",)] == pytest.approx(math.log2(4 / 2))  # 4 reference words, 'the' twice
    assert info[("cat",)] == pytest.approx(math.log2(4 / 1))
    assert info[("the", "cat")] == pytest.approx(math.log2(2 / 1))  # count(the) / count(the cat)
    assert info[("cat", "the")] == pytest.approx(0.0)


def test_multiple_references_clip_at_the_largest_count() -> None:
    hyp = [["a", "a", "b"]]
    refs = [[["a", "c"], ["a", "a"]]]
    s = corpus_nist_from_tokens(hyp, refs, max_order=1)
    # 4 reference words; info(a) = log2(4/3), info(b) not in references; 2 'a' matched (second reference)
    expected = 2 * math.log2(4 / 3) / 3
    assert s.corpus == pytest.approx(expected)  # length 3 >= average reference length 2: no penalty


def test_length_penalty_matches_doddington() -> None:
    assert float(length_penalty(2, 3)) == pytest.approx(0.5)  # beta chosen for hyp/ref = 2/3
    assert float(length_penalty(3, 3)) == 1.0
    np.testing.assert_allclose(
        length_penalty(np.array([0.0, 1.0]), np.array([3.0, 0.0])), [0.0, 1.0]
    )


def test_validation_messages() -> None:
    with pytest.raises(BleuOptionError, match="NIST max order must be at least 1"):
        corpus_nist_from_tokens([["a"]], [[["a"]]], max_order=0)
    with pytest.raises(BleuOptionError, match="2 hypotheses but 1 reference sets"):
        corpus_nist_from_tokens([["a"], ["b"]], [[["a"]]])
    with pytest.raises(BleuOptionError, match="at least one reference per segment"):
        corpus_nist_from_tokens([["a"]], [[]])
