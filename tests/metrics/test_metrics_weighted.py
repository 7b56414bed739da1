"""Weighted n-gram precision / recall / F (Babych & Hartley 2004, §2)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.engine.statistics import compute_statistics
from bleu_core.errors import BleuOptionError
from bleu_core.metrics.weighted import (
    prf_from_counts,
    weighted_counts,
    weighted_scores,
    weighted_scores_from_tokens,
)
from bleu_core.metrics.weighting import WordWeights

HYPS = [
    "the cat sat on the mat .",
    "a dog barked at the postman",
    "it rained all day",
    "the the the",
]
REFS = [
    "the cat was sitting on the mat .",
    "the dog barked at a postman",
    "it was raining the whole day",
    "the cat",
]

words = st.lists(st.sampled_from(list("abcde")), min_size=0, max_size=8)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(words, words), min_size=1, max_size=5),
    st.sampled_from(["max", "last", "mean"]),
)
def test_weights_of_one_equal_baseline(pairs: list, rule: str) -> None:
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    docs = ["d"] * len(pairs)
    ones = WordWeights("ones", {"d": dict.fromkeys("abcde", 1.0)}, n_documents=1)
    below = WordWeights("small", {"d": dict.fromkeys("abcde", 0.3)}, n_documents=1)
    base = weighted_counts(hyps, refs, docs, None, max_order=3, ngram_rule=rule)
    np.testing.assert_array_equal(
        weighted_counts(hyps, refs, docs, ones, max_order=3, ngram_rule=rule), base
    )
    np.testing.assert_array_equal(
        weighted_counts(hyps, refs, docs, below, max_order=3, ngram_rule=rule), base
    )


def test_baseline_counts_equal_engine_statistics() -> None:
    # unweighted matches and hypothesis totals are exactly BLEU's clipped counts with this one reference
    scores = weighted_scores(HYPS, REFS, schemes=["none"])["none"]
    stats = compute_statistics(HYPS, [REFS])
    np.testing.assert_array_equal(scores.counts[:, :4], stats.matches)
    np.testing.assert_array_equal(scores.counts[:, 4:8], stats.totals)


def test_hand_computed_weighted_counts_and_rules() -> None:
    # doc weights: 'cat' 3.0 (> 1: counts 3), 'mat' 2.0, 'the' 0.5 (<= 1: counts 1)
    w = WordWeights("tf.idf", {"d": {"cat": 3.0, "mat": 2.0, "the": 0.5}}, n_documents=2)
    hyp = [["the", "cat", "mat"]]
    ref = [["a", "cat", "mat"]]
    # unigrams: hyp the 1 + cat 3 + mat 2 = 6; matched cat + mat = 5; ref a 1 + cat 3 + mat 2 = 6
    # bigrams (max rule): 'the cat' 3, 'cat mat' 3 -> hyp 6, matched 3 ('cat mat'); ref 'a cat' 3, 'cat mat' 3 = 6
    c = weighted_counts(hyp, ref, ["d"], w, max_order=2, ngram_rule="max")
    assert c.tolist() == [[5.0, 3.0, 6.0, 6.0, 6.0, 6.0]]
    # last-word rule: 'the cat' 3, 'cat mat' 2 (its last word); ref 'a cat' 3, 'cat mat' 2
    c = weighted_counts(hyp, ref, ["d"], w, max_order=2, ngram_rule="last")
    assert c.tolist() == [[5.0, 2.0, 6.0, 5.0, 6.0, 5.0]]
    # mean rule: 'the cat' (1 + 3)/2 = 2, 'cat mat' (3 + 2)/2 = 2.5; ref 'a cat' 2, 'cat mat' 2.5
    c = weighted_counts(hyp, ref, ["d"], w, max_order=2, ngram_rule="mean")
    assert c.tolist() == [[5.0, 2.5, 6.0, 4.5, 6.0, 4.5]]
    prf = prf_from_counts(c, max_order=2)
    assert float(prf.precision[0]) == pytest.approx(7.5 / 10.5)
    assert float(prf.recall[0]) == pytest.approx(7.5 / 10.5)
    assert float(prf.f[0]) == pytest.approx(7.5 / 10.5)


def test_clipping_applies_to_weighted_counts() -> None:
    w = WordWeights("s-score", {"d": {"cat": 4.0}}, n_documents=2)
    c = weighted_counts([["cat", "cat", "cat"]], [["cat"]], ["d"], w, max_order=1)
    assert c.tolist() == [
        [4.0, 12.0, 4.0]
    ]  # one clipped match worth 4, three hypothesis cats worth 12


def test_levels_sum_counts() -> None:
    hyp_tokens = [h.split() for h in HYPS]
    ref_tokens = [r.split() for r in REFS]
    doc_ids = ["a", "a", "b", None]
    out = weighted_scores_from_tokens(hyp_tokens, ref_tokens, doc_ids=doc_ids)
    assert set(out) == {"none", "tf.idf", "s-score"}
    for scores in out.values():
        docs = scores.documents()
        assert list(docs) == ["a", "b", "#3"]
        a = prf_from_counts(scores.counts[:2].sum(axis=0), 4)
        assert float(docs["a"].precision) == pytest.approx(float(a.precision))
        assert float(docs["a"].recall) == pytest.approx(float(a.recall))
        corpus = scores.corpus()
        total = prf_from_counts(scores.counts.sum(axis=0), 4)
        assert float(corpus.f) == pytest.approx(float(total.f))
        seg = scores.segment()
        assert seg.precision.shape == (4,)
        assert np.all((seg.precision >= 0) & (seg.precision <= 1))
    # 'the the the' vs 'the cat': clipped 1 of 3 unigrams, no bigram/trigram match
    base = out["none"].segment()
    assert base.precision[3] == pytest.approx(1 / (3 + 2 + 1))
    assert base.recall[3] == pytest.approx(1 / (2 + 1))


def test_matching_a_salient_word_beats_matching_a_function_word() -> None:
    # the paper's point: two outputs with the same baseline recall, one keeps the salient word 'storm'
    refs = [
        ["storm", "hit", "the", "coast"],
        ["the", "day", "was", "calm"],
        ["the", "night", "was", "calm"],
    ]
    keeps_salient = [["storm", "hit", "a", "town"], ["the", "day"], ["the", "night"]]
    keeps_function = [["rain", "hit", "the", "town"], ["the", "day"], ["the", "night"]]
    docs = ["x", "y", "z"]
    a = weighted_scores_from_tokens(
        keeps_salient, refs, doc_ids=docs, schemes=["none", "tf.idf"], max_order=1
    )
    b = weighted_scores_from_tokens(
        keeps_function, refs, doc_ids=docs, schemes=["none", "tf.idf"], max_order=1
    )
    assert a["none"].segment().recall[0] == b["none"].segment().recall[0] == 0.5
    # tf.idf: storm, hit, coast = ln 3 = 1.0986 (> 1, count their weight); 'the' = ln(3/3) = 0 (counts 1)
    ln3 = np.log(3)
    assert a["tf.idf"].segment().recall[0] == pytest.approx(2 * ln3 / (3 * ln3 + 1))
    assert b["tf.idf"].segment().recall[0] == pytest.approx((ln3 + 1) / (3 * ln3 + 1))


def test_empty_segments_score_zero() -> None:
    c = weighted_counts([[]], [["a"]], ["d"], None, max_order=2)
    prf = prf_from_counts(c, 2)
    assert (float(prf.precision[0]), float(prf.recall[0]), float(prf.f[0])) == (0.0, 0.0, 0.0)


def test_validation_messages() -> None:
    with pytest.raises(
        BleuOptionError, match="unknown n-gram weighting rule 'sum'; choose one of: max, last, mean"
    ):
        weighted_counts([["a"]], [["a"]], ["d"], None, ngram_rule="sum")
    with pytest.raises(BleuOptionError, match="2 hypotheses, 1 references and 1 document ids"):
        weighted_counts([["a"], ["b"]], [["a"]], ["d"], None)
    with pytest.raises(BleuOptionError, match="max_order must be at least 1"):
        weighted_counts([["a"]], [["a"]], ["d"], None, max_order=0)
    with pytest.raises(BleuOptionError, match="2 hypotheses but 1 reference lines"):
        weighted_scores(["a", "b"], ["a"])
    with pytest.raises(BleuOptionError, match="unknown weighting scheme 'idf'"):
        weighted_scores(["a"], ["a"], schemes=["idf"])
