"""Hypothesis property tests of the engine: invariances and bounds that must hold for any corpus."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core import BleuOptions, bleu_from_stats, compute_statistics
from bleu_core.engine.options import SMOOTHING_NAMES
from bleu_core.engine.statistics import segment_row

WORDS = st.sampled_from(
    ["the", "cat", "sat", "on", "mat", "a", "dog", ".", ",", "Hund", "4.5", "it's", "é"]
)
SENTENCE = st.lists(WORDS, min_size=0, max_size=12).map(" ".join)


@st.composite
def corpora(draw, min_refs=1, max_refs=3):
    n = draw(st.integers(min_value=1, max_value=8))
    k = draw(st.integers(min_value=min_refs, max_value=max_refs))
    hyps = draw(st.lists(SENTENCE, min_size=n, max_size=n))
    refs = [draw(st.lists(SENTENCE, min_size=n, max_size=n)) for _ in range(k)]
    return hyps, refs


OPTIONS = st.builds(
    BleuOptions,
    max_order=st.integers(1, 5),
    smooth=st.sampled_from(
        [s for s in SMOOTHING_NAMES if s not in ("chen-cherry-5", "chen-cherry-7")]
    ),
    effective_order=st.booleans(),
    ref_length=st.sampled_from(["closest", "shortest", "average"]),
)


@settings(max_examples=60, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_segment_order_invariance(corpus, rnd):
    hyps, refs = corpus
    perm = list(range(len(hyps)))
    rnd.shuffle(perm)
    a = compute_statistics(hyps, refs)
    b = compute_statistics([hyps[i] for i in perm], [[r[i] for i in perm] for r in refs])
    # integer columns are exact; the mean reference length (column 3) is a float sum, equal up to rounding
    np.testing.assert_array_equal(np.delete(a.total(), 3), np.delete(b.total(), 3))
    np.testing.assert_allclose(a.total()[3], b.total()[3], rtol=1e-12)
    assert float(bleu_from_stats(a.total()).score) == float(bleu_from_stats(b.total()).score)


@settings(max_examples=60, deadline=None)
@given(corpora(), st.integers(1, 7))
def test_statistics_are_additive(corpus, split):
    hyps, refs = corpus
    split = min(split, len(hyps))
    whole = compute_statistics(hyps, refs)
    left = compute_statistics(hyps[:split], [r[:split] for r in refs])
    parts = [left.total()]
    if split < len(hyps):
        parts.append(compute_statistics(hyps[split:], [r[split:] for r in refs]).total())
    np.testing.assert_allclose(whole.total(), np.sum(parts, axis=0))


@settings(max_examples=80, deadline=None)
@given(corpora(), OPTIONS)
def test_bounds(corpus, options):
    hyps, refs = corpus
    stats = compute_statistics(hyps, refs, max_order=options.statistics_order)
    for arr in (bleu_from_stats(stats, options), bleu_from_stats(stats.total(), options)):
        assert np.all(arr.bleu >= 0) and np.all(arr.bleu <= 1 + 1e-12)
        assert np.all(arr.bp >= 0) and np.all(arr.bp <= 1)
        assert np.all(arr.matches <= arr.totals)
        np.testing.assert_allclose(arr.score, 100 * arr.bleu)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(WORDS, min_size=5, max_size=12).map(" ".join), min_size=1, max_size=5),
    st.integers(1, 5),
)
def test_identity_gives_one(sentences, order):
    # hypothesis = reference with at least N tokens -> BLEU = 1 with any smoothing
    stats = compute_statistics(sentences, [sentences], max_order=order)
    assert float(
        bleu_from_stats(stats.total(), BleuOptions(max_order=order)).bleu
    ) == pytest.approx(1.0)
    np.testing.assert_allclose(
        bleu_from_stats(stats, BleuOptions(max_order=order, smooth="none")).bleu, 1.0
    )


@settings(max_examples=60, deadline=None)
@given(corpora(max_refs=2), st.integers(0, 1))
def test_duplicate_reference_changes_nothing(corpus, which):
    hyps, refs = corpus
    which = min(which, len(refs) - 1)
    a = compute_statistics(hyps, refs)
    b = compute_statistics(hyps, refs + [refs[which]])
    # everything but the *average* reference length (which a duplicate legitimately shifts) is unchanged
    np.testing.assert_array_equal(np.delete(a.array, 3, axis=1), np.delete(b.array, 3, axis=1))
    for options in (BleuOptions(), BleuOptions(ref_length="shortest", smooth="floor")):
        assert float(bleu_from_stats(a.total(), options).score) == float(
            bleu_from_stats(b.total(), options).score
        )


@settings(max_examples=60, deadline=None)
@given(corpora(), st.integers(1, 6))
def test_truncating_order_equals_recounting(corpus, order):
    hyps, refs = corpus
    full = compute_statistics(hyps, refs, max_order=6)
    np.testing.assert_array_equal(
        full.truncate_order(order).array, compute_statistics(hyps, refs, max_order=order).array
    )


@settings(max_examples=60, deadline=None)
@given(corpora())
def test_rows_equal_reference_implementation(corpus):
    from bleu_core.tokenize.tokenizers import get_tokenizer

    hyps, refs = corpus
    tok = get_tokenizer("13a")
    stats = compute_statistics(hyps, refs)
    for i, h in enumerate(hyps):
        assert stats.array[i].tolist() == segment_row(tok(h), [tok(r[i]) for r in refs], 4)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 10_000), st.floats(0, 10_000, allow_nan=False)),
        min_size=1,
        max_size=20,
    )
)
def test_brevity_penalty_of_one_pair_equals_the_vectorised_form(pairs):
    """BP has one definition in two forms (plain Python for ``score``'s numpy-free path and the Learn
    page, numpy for the engine): they agree on every pair of lengths, the empty candidate included."""
    from bleu_core.engine.brevity_penalty import brevity_penalty, brevity_penalty_of

    hyp, ref = zip(*pairs, strict=True)
    vectorised = brevity_penalty(np.array(hyp), np.array(ref))
    assert [brevity_penalty_of(c, r) for c, r in pairs] == pytest.approx(
        vectorised.tolist(), rel=1e-15, abs=0
    )
