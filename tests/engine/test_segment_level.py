"""System and segment BLEU (:mod:`bleu_core.engine.segment_level`) against sacrebleu, and their signatures."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core import BleuOptions, compute_statistics
from bleu_core.engine.segment_level import (
    segment_bleu,
    segment_signature,
    sentence_options,
    system_bleu,
)
from bleu_core.engine.signature import make_signature

HYPS = ["a cat", "the cat sat on the mat .", "Hund", "", "it is raining cats and dogs today"]
REFS = [
    "a cat sat",
    "the cat sat on a mat .",
    "the dog",
    "nothing here",
    "it rains cats and dogs today",
]


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_segment_bleu_is_sacrebleus_sentence_bleu(smooth):
    stats = compute_statistics(HYPS, [REFS])
    # the corpus-level option says no effective order: the segment level uses it anyway, as sacrebleu
    ours = segment_bleu(stats.array, BleuOptions(smooth=smooth, effective_order=False))
    theirs = [
        sacrebleu.sentence_bleu(h, [r], smooth_method=smooth).score
        for h, r in zip(HYPS, REFS, strict=True)
    ]
    np.testing.assert_allclose(ours, theirs, atol=1e-9)


def test_system_bleu_is_sacrebleus_corpus_bleu_and_keeps_leading_axes():
    one = compute_statistics(HYPS, [REFS]).array
    two = compute_statistics(list(reversed(HYPS)), [REFS]).array
    ours = system_bleu(np.stack([one, two]), BleuOptions())
    theirs = [
        sacrebleu.corpus_bleu(HYPS, [REFS]).score,
        sacrebleu.corpus_bleu(list(reversed(HYPS)), [REFS]).score,
    ]
    np.testing.assert_allclose(ours, theirs, atol=1e-9)
    assert segment_bleu(np.stack([one, two]), BleuOptions()).shape == (2, len(HYPS))


def test_the_segment_signature_says_effective_order_and_names_the_references():
    options = BleuOptions(smooth="floor")
    corpus = make_signature(options, ["ref-A"])
    segment = segment_signature(options, ["ref-A"])
    assert "eff:no" in corpus and "eff:yes" in segment
    assert corpus.replace("eff:no", "eff:yes") == segment  # nothing else differs
    assert make_signature(options, ["ref-A"]) != make_signature(options, ["ref-B"])
    assert make_signature(options, ["ref-A"]).startswith("nrefs:1|refs:ref-A|")
    assert make_signature(options, 2).startswith("nrefs:2|case:")  # only a count: no names
    # a name with the field separator stays one field
    assert make_signature(options, ["a|b", "c+d"]).split("|")[1] == "refs:a/b+c&d"


WORDS = st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "dog", "."])
SENTENCE = st.lists(WORDS, min_size=0, max_size=8).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(SENTENCE, SENTENCE), min_size=1, max_size=6),
    st.booleans(),
    st.sampled_from(["exp", "floor", "add-k"]),
)
def test_segment_bleu_ignores_the_corpus_effective_order_flag(pairs, flag, smooth):
    hyps, refs = [p[0] for p in pairs], [p[1] for p in pairs]
    array = compute_statistics(hyps, [refs]).array
    options = BleuOptions(smooth=smooth, effective_order=flag)
    np.testing.assert_array_equal(
        segment_bleu(array, options), segment_bleu(array, options.with_(effective_order=not flag))
    )
    assert sentence_options(options).effective_order
