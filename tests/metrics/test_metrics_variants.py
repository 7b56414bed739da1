"""Same data, many BLEUs: each variant against the library it reproduces or a hand computation."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

from bleu_core.errors import BleuOptionError
from bleu_core.metrics.variants import VARIANTS, get_variant, many_bleus

HYPS = [
    "The cat sat on the mat.",
    "He read the book because he was interested in world history.",
    "It is raining today, he said.",
]
REFS1 = [
    "The cat sat on the red mat.",
    "He was interested in world history because he read the book.",
    "It rains today, he said.",
]
REFS2 = [
    "A cat sat.",
    "Because he was interested in history, he read the book.",
    "Today it is raining, he said.",
]


def by_key(rows):  # noqa: ANN001, ANN201
    return {r.variant.key: r for r in rows}


def test_sacrebleu_variant_equals_sacrebleu() -> None:
    rows = by_key(many_bleus(HYPS, [REFS1, REFS2]))
    expected = sacrebleu.corpus_bleu(HYPS, [REFS1, REFS2]).score  # sacrebleu 2.6 defaults
    assert rows["sacrebleu"].score == pytest.approx(expected, abs=1e-9)
    assert rows["sacrebleu"].difference == 0.0


def test_nltk_variant_equals_nltk_corpus_bleu_on_split_tokens() -> None:
    rows = by_key(many_bleus(HYPS, [REFS1, REFS2]))
    expected = nltk_corpus_bleu(
        [[a.split(), b.split()] for a, b in zip(REFS1, REFS2, strict=True)],
        [h.split() for h in HYPS],
    )
    assert rows["nltk"].score == pytest.approx(100 * expected, abs=1e-9)
    assert rows["nltk"].difference == pytest.approx(rows["nltk"].score - rows["sacrebleu"].score)


def test_nltk_variant_without_matching_4grams_is_zero_like_nltk() -> None:
    hyps, refs = ["the cat is on the mat"], ["the cat sat on the mat"]  # no 4-gram in common
    rows = by_key(many_bleus(hyps, [refs]))
    assert rows["nltk"].score == 0.0
    with pytest.warns(UserWarning):
        assert nltk_corpus_bleu([[refs[0].split()]], [hyps[0].split()]) < 1e-10


def test_hf_variant_uses_shortest_reference_hand_computed() -> None:
    # 13a tokens: hyp "The cat sat on the mat ." (7); references of 8 and 4 tokens.
    # precisions 7/7, 5/6, 3/5, 2/4 (counted by hand); shortest reference 4 < 7 -> BP = 1
    rows = by_key(
        many_bleus(["The cat sat on the mat."], [["The cat sat on the red mat."], ["A cat sat."]])
    )
    geo = (1 * 5 / 6 * 3 / 5 * 2 / 4) ** 0.25
    assert rows["hf-evaluate"].score == pytest.approx(100 * geo)
    assert rows["hf-evaluate"].ref_len == 4
    # sacrebleu: closest reference has 8 tokens -> BP = exp(1 - 8/7)
    assert rows["sacrebleu"].score == pytest.approx(100 * geo * math.exp(1 - 8 / 7))


def test_paper_variant_lecture_example() -> None:
    # seed 003 (corrected): precisions 5/5, 4/4, 3/3, 2/2 on case-folded words, BP = exp(1 - 6/5) = 0.8187
    rows = by_key(
        many_bleus(["The happiness of dreaming camels"], [["On the happiness of dreaming camels"]])
    )
    assert rows["paper"].score == pytest.approx(100 * math.exp(1 - 6 / 5))
    assert rows["paper"].precisions == pytest.approx((1.0, 1.0, 1.0, 1.0))
    # case kept (sacrebleu): 'The' does not match 'the'
    assert rows["sacrebleu"].precisions[0] == pytest.approx(4 / 5)


def test_every_variant_has_one_sentence_explanation() -> None:
    for v in VARIANTS:
        assert v.explanation.count(". ") == 0 and v.explanation.endswith(".")
    assert get_variant("nltk").options.tokenize == "none"


def test_unknown_variant() -> None:
    with pytest.raises(
        BleuOptionError, match="unknown BLEU variant 'moses'; choose one of: sacrebleu"
    ):
        get_variant("moses")
