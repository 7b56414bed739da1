"""BLEU and rankings under reference subsets and one random reference per document (paper §3)."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from bleu_core.evaluation import StatsInputError, random_reference_per_document, reference_subsets
from bleu_core.evaluation.references import RandomReferenceResult


@pytest.fixture(scope="module")
def references_corpus():
    rng = np.random.default_rng(21)
    vocab = [f"w{i}" for i in range(80)]
    n = 40
    base = [list(rng.choice(vocab, size=int(rng.integers(5, 12)))) for _ in range(n)]

    def vary(p):
        return [
            " ".join(t if rng.random() > p else str(rng.choice(vocab)) for t in toks)
            for toks in base
        ]

    references = {"A": vary(0.2), "B": vary(0.2), "C": vary(0.2)}
    systems = {"good": vary(0.3), "mid": vary(0.5), "bad": vary(0.7)}
    docs = [f"d{i // 10}" for i in range(n)]  # 4 documents of 10 segments
    return systems, references, docs


def test_every_subset_matches_sacrebleu(references_corpus):
    # sacrebleu 2.6 corpus_bleu (defaults) with the same reference streams.
    systems, references, _ = references_corpus
    res = reference_subsets(systems, references)
    assert len(res.subsets) == 7 and res.full.references == ("A", "B", "C")
    for sub in res.subsets:
        for k, name in enumerate(res.systems):
            expected = sacrebleu.corpus_bleu(
                systems[name], [references[r] for r in sub.references]
            ).score
            assert sub.scores[k] == pytest.approx(expected, abs=1e-9)
    assert res.full.kendall == pytest.approx(1.0)
    sizes = res.by_size()
    assert sizes[1]["n_subsets"] == 3 and sizes[3]["n_subsets"] == 1
    # more references, higher BLEU (on average)
    assert sizes[3]["mean"]["good"] > sizes[1]["mean"]["good"]
    assert reference_subsets(systems, references, max_size=1).subsets[-1].size == 3
    assert res.to_dict()["by_size"]["2"]["n_subsets"] == 3


def test_random_reference_per_document_equals_scoring_the_mixed_stream(references_corpus):
    systems, references, docs = references_corpus
    res = random_reference_per_document(systems, references, docs, n_draws=5, seed=7)
    assert res.seed == 7 and res.draws.shape == (5, 3) and res.documents == ("d0", "d1", "d2", "d3")
    names = list(references)
    for d in (0, 4):
        mixed = [references[names[res.choices[d, int(docs[i][1:])]]][i] for i in range(len(docs))]
        for k, name in enumerate(res.systems):
            expected = sacrebleu.corpus_bleu(systems[name], [mixed]).score
            assert res.draws[d, k] == pytest.approx(expected, abs=1e-9)
    # every segment of a document uses the same reference, and the seed repeats the draws
    again = random_reference_per_document(systems, references, docs, n_draws=5, seed=7)
    assert np.array_equal(res.choices, again.choices)
    assert 0.0 <= res.same_order_share <= 1.0 and res.kendall.shape == (5,)


def test_segments_without_document_are_their_own_document(references_corpus):
    systems, references, _ = references_corpus
    res = random_reference_per_document(systems, references, None, n_draws=2, seed=1)
    assert len(res.documents) == 40 and res.choices.shape == (2, 40)


def test_errors_are_explained(references_corpus):
    systems, references, docs = references_corpus
    with pytest.raises(StatsInputError, match="at least 2 reference streams"):
        random_reference_per_document(systems, {"A": references["A"]}, docs)
    with pytest.raises(StatsInputError, match="at least 2 systems, got 1"):
        reference_subsets({"good": systems["good"]}, references)
    with pytest.raises(StatsInputError, match="same number of segments \\(good: 40, mid: 39"):
        reference_subsets({"good": systems["good"], "mid": systems["mid"][:-1]}, references)
    with pytest.raises(StatsInputError, match="3 document ids for 40 segments"):
        random_reference_per_document(systems, references, ["a", "b", "c"])


def test_mean_kendall_leaves_out_undefined_draws():
    def with_taus(taus: list[float]) -> RandomReferenceResult:
        empty = np.zeros((0, 0))
        return RandomReferenceResult((), (), (), np.zeros(0), empty, empty, np.array(taus), 1)

    assert with_taus([0.5, float("nan"), 1.0]).mean_kendall == pytest.approx(0.75)  # (0.5 + 1) / 2
    assert np.isnan(with_taus([float("nan")]).mean_kendall)
