"""Vectorised NIST statistics against the oracle (a Counter per segment)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.errors import BleuOptionError
from bleu_core.fast.batch_tokenizers import BatchTokenizer
from bleu_core.fast.segment_counts import ngram_counts
from bleu_core.metrics.nist import corpus_nist, corpus_nist_from_tokens, information_weights
from bleu_core.metrics.nist_statistics import (
    NistStatistics,
    hypothesis_statistics,
    hypothesis_statistics_from_text,
    hypothesis_statistics_from_tokens,
    reference_ngrams,
    reference_ngrams_from_text,
    reference_ngrams_from_tokens,
)

# A small alphabet so that n-grams repeat within and across segments, and clipping matters.
TOKENS = st.lists(st.sampled_from(["a", "b", "c", "d", "the"]), max_size=9)
SEGMENT_REFS = st.lists(TOKENS, min_size=1, max_size=3)  # 1-3 references, some possibly empty


def counter_matches(
    hyp: list[list[str]], refs: list[list[list[str]]], max_order: int
) -> np.ndarray:
    """Clipped matches per segment and order, with Counters (as the oracle clips)."""
    out = np.zeros((len(hyp), max_order), np.int64)
    for i, (h, rs) in enumerate(zip(hyp, refs, strict=True)):
        ref_max: Counter[tuple[str, ...]] = Counter()
        for r in rs:
            ref_max |= ngram_counts(r, max_order)
        for ngram, count in ngram_counts(h, max_order).items():
            out[i, len(ngram) - 1] += min(count, ref_max.get(ngram, 0))
    return out


def assert_same_as_oracle(
    got: NistStatistics, hyp: list[list[str]], refs: list[list[list[str]]], max_order: int
) -> None:
    expected = corpus_nist_from_tokens(hyp, refs, max_order=max_order).stats
    stats = got.stats
    n = max_order
    # lengths, average reference lengths and n-gram totals: exactly equal
    np.testing.assert_array_equal(stats[:, :2], expected[:, :2])
    np.testing.assert_array_equal(stats[:, 2 + n :], expected[:, 2 + n :])
    np.testing.assert_array_equal(got.matched, counter_matches(hyp, refs, max_order))
    # information sums: the same terms added in another order
    np.testing.assert_allclose(stats[:, 2 : 2 + n], expected[:, 2 : 2 + n], rtol=1e-12, atol=0)


@settings(max_examples=150, deadline=None)
@given(
    segments=st.lists(
        st.tuples(SEGMENT_REFS, st.lists(TOKENS, min_size=1, max_size=3)), max_size=6
    ),
    max_order=st.integers(1, 5),
)
def test_vectorised_statistics_equal_the_counter_implementation(
    segments: list[tuple[list[list[str]], list[list[str]]]], max_order: int
) -> None:
    # several systems (1-3 hypotheses per segment, empty ones included) against shared references
    refs = [r for r, _ in segments]
    n_systems = min((len(h) for _, h in segments), default=1)
    reference = reference_ngrams_from_tokens(refs, max_order)
    for k in range(n_systems):
        hyp = [h[k] for _, h in segments]
        got = hypothesis_statistics_from_tokens(reference, hyp)
        assert_same_as_oracle(got, hyp, refs, max_order)


@settings(max_examples=60, deadline=None)
@given(
    segments=st.lists(st.tuples(SEGMENT_REFS, TOKENS, TOKENS), min_size=1, max_size=5),
    max_order=st.integers(1, 4),
)
def test_one_call_for_all_systems_equals_one_call_per_system(
    segments: list[tuple[list[list[str]], list[str], list[str]]], max_order: int
) -> None:
    refs = [r for r, _, _ in segments]
    first, second = [h for _, h, _ in segments], [h for _, _, h in segments]
    reference = reference_ngrams_from_tokens(refs, max_order)
    both = hypothesis_statistics_from_tokens(
        reference, first + second, segment=np.tile(np.arange(len(segments)), 2)
    )
    one = hypothesis_statistics_from_tokens(reference, first)
    two = hypothesis_statistics_from_tokens(reference, second)
    np.testing.assert_array_equal(both.matched, np.vstack([one.matched, two.matched]))
    np.testing.assert_array_equal(both.stats, np.vstack([one.stats, two.stats]))


@settings(max_examples=60, deadline=None)
@given(refs=st.lists(SEGMENT_REFS, min_size=1, max_size=5), max_order=st.integers(1, 4))
def test_information_weights_equal_the_dictionary(
    refs: list[list[list[str]]], max_order: int
) -> None:
    reference = reference_ngrams_from_tokens(refs, max_order)
    vocab = reference.token_ids
    assert vocab is not None
    expected = information_weights(refs, max_order)
    dense = {token: int(np.searchsorted(reference.vocabulary, i)) for token, i in vocab.items()}
    found = 0
    for ngram, info in expected.items():
        # the n-gram's id, order by order, as the module numbers them (key = prefix id * V + token)
        ids = [dense[t] for t in ngram]
        code = ids[0]
        for n, token_id in enumerate(ids[1:], start=2):
            code = int(
                np.searchsorted(reference.keys[n - 1], code * len(reference.vocabulary) + token_id)
            )
        assert reference.information[len(ngram) - 1][code] == pytest.approx(info, rel=1e-12, abs=0)
        found += 1
    assert found == sum(len(k) for k in reference.keys)  # every reference n-gram, and no other


def test_missing_references_are_skipped_and_the_average_length_uses_the_present_ones() -> None:
    tokenizer = BatchTokenizer("13a")
    streams = [["the cat sat .", None, "a b c"], [None, "x y", "a b c d e"]]
    hyps = ["the cat sat .", "x y z", "a b c d"]
    got = hypothesis_statistics_from_text(
        reference_ngrams_from_text(tokenizer, streams, 4), tokenizer, hyps
    )
    refs = [
        [["the", "cat", "sat", "."]],
        [["x", "y"]],
        [["a", "b", "c"], ["a", "b", "c", "d", "e"]],
    ]
    assert_same_as_oracle(got, [h.split() for h in hyps], refs, 4)
    assert got.ref_len.tolist() == [4.0, 2.0, 4.0]  # (3 + 5) / 2 for the last segment


def test_text_api_matches_the_reference_implementation_with_several_references() -> None:
    hyps = ["the cat sat on the mat .", "", "a dog , a dog ."]
    refs_a = ["the cat is on the mat .", "nothing here", "a dog ."]
    refs_b = ["there is a cat on the mat .", "empty hypothesis", "one dog , two dogs ."]
    scores = corpus_nist(hyps, [refs_a, refs_b])
    tokens = [h.split() for h in hyps]
    refs = [[a.split(), b.split()] for a, b in zip(refs_a, refs_b, strict=True)]
    expected = corpus_nist_from_tokens(tokens, refs)
    assert scores.corpus == pytest.approx(expected.corpus, rel=1e-12)
    np.testing.assert_allclose(scores.segment, expected.segment, rtol=1e-12, atol=0)
    assert scores.segment[1] == 0.0  # an empty hypothesis scores 0


def test_hypothesis_tokens_unknown_to_the_references_only_count_in_the_totals() -> None:
    reference = reference_ngrams_from_tokens([[["a", "b"]]], 2)
    got = hypothesis_statistics_from_tokens(reference, [["z", "a", "b", "y"]])
    assert got.matched.tolist() == [[2, 1]]
    assert got.totals.tolist() == [[4, 3]]


def test_validation_messages() -> None:
    ids, lengths = np.array([0, 1]), np.array([2])
    with pytest.raises(BleuOptionError, match="NIST max order must be at least 1"):
        reference_ngrams(ids, lengths, np.array([0]), 1, 0)
    with pytest.raises(BleuOptionError, match="at least one reference per segment"):
        reference_ngrams(ids, lengths, np.array([0]), 2, 2)
    with pytest.raises(BleuOptionError, match="1 reference lines but 2 segment numbers"):
        reference_ngrams(ids, lengths, np.array([0, 0]), 1, 2)
    with pytest.raises(BleuOptionError, match=r"reference segment numbers must lie in 0\.\.0"):
        reference_ngrams(ids, lengths, np.array([3]), 1, 2)
    reference = reference_ngrams(ids, lengths, np.array([0]), 1, 2)
    with pytest.raises(BleuOptionError, match="1 hypothesis lines but 2 segment numbers"):
        hypothesis_statistics(reference, ids, lengths, np.array([0, 0]))
    with pytest.raises(BleuOptionError, match=r"hypothesis segment numbers must lie in 0\.\.0"):
        hypothesis_statistics(reference, ids, lengths, np.array([1]))
    with pytest.raises(BleuOptionError, match="token ids must not be negative"):
        hypothesis_statistics(reference, np.array([-1, 0]), lengths, np.array([0]))
    with pytest.raises(BleuOptionError, match="were not built from tokens"):
        hypothesis_statistics_from_tokens(reference, [["a"]])
    with pytest.raises(BleuOptionError, match="reference streams of 1 and 2 segments"):
        reference_ngrams_from_text(BatchTokenizer("13a"), [["a", "b"], ["a"]], 2)
    with pytest.raises(BleuOptionError, match="at least one reference per segment"):
        corpus_nist(["a", "b"], [["a", None]])
