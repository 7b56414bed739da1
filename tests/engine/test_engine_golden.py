"""Golden values with provenance: the BLEU paper's worked examples, the lecture seed, sacrebleu's README."""

from __future__ import annotations

import math

import pytest

from bleu_core import BleuOptions, compute_statistics, corpus_bleu, match_provenance, sentence_bleu

# Papineni et al. (2002), §2.1 Example 1 (seeds/000_*.txt).
EX1_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands.",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
    "It is the practical guide for the army always to heed the directions of the party.",
]
EX1_CAND1 = "It is a guide to action which ensures that the military always obeys the commands of the party."
EX1_CAND2 = "It is to insure the troops forever hearing the activity guidebook that party direct."
# §2.1 Example 2
EX2_CAND = "the the the the the the the."
EX2_REFS = ["The cat is on the mat.", "There is a cat on the mat."]
# §2.2 Example 3 (references are Example 1's)
EX3_CAND = "of the"


def unigram_and_bigram(
    candidate: str, references: list[str]
) -> tuple[tuple[int, int], tuple[int, int]]:
    stats = compute_statistics(
        [candidate], [[r] for r in references], max_order=2, tokenize="paper"
    )
    m, t = stats.matches[0], stats.totals[0]
    return (int(m[0]), int(t[0])), (int(m[1]), int(t[1]))


@pytest.mark.parametrize(
    ("candidate", "references", "expected"),
    [
        (
            EX1_CAND1,
            EX1_REFS,
            (17, 18),
        ),  # paper §2.1: "Candidate 1 achieves a modified unigram precision of 17/18"
        (EX1_CAND2, EX1_REFS, (8, 14)),  # paper §2.1: "whereas Candidate 2 achieves ... 8/14"
        (
            EX2_CAND,
            EX2_REFS,
            (2, 7),
        ),  # paper §2.1: "the modified unigram precision in Example 2 is 2/7"
        (EX3_CAND, EX1_REFS, (2, 2)),  # paper §2.2: "the modified unigram precision is 2/2"
    ],
)
def test_paper_modified_unigram_precision(candidate, references, expected):
    assert unigram_and_bigram(candidate, references)[0] == expected


def test_paper_example3_bigram_precision():
    # paper §2.2, Example 3: "and the modified bigram precision is 1/1"
    assert unigram_and_bigram(EX3_CAND, EX1_REFS)[1] == (1, 1)


def test_paper_example2_standard_precision_would_be_7_of_7():
    # The point of clipping (paper §2.1): without it every "the" would count.
    m = match_provenance(EX2_CAND, EX2_REFS, max_order=1, tokenize="paper")
    assert sum(o.clip > 0 for o in m.occurrences) == 7
    assert m.counts(1) == (2, 7)


def test_paper_example4_brevity():
    # paper §2.2.2, Example 4: Candidate 2 "I always do." equals Reference 1 -> BLEU 1 with N <= 3 (3 tokens).
    refs = [["I always do."], ["I invariably do."], ["I perpetually do."]]
    s = corpus_bleu(["I always do."], refs, tokenize="paper", max_order=3, smooth="none")
    assert s.bleu == pytest.approx(1.0)
    s1 = corpus_bleu(
        ["I always invariably perpetually do."], refs, tokenize="paper", max_order=3, smooth="none"
    )
    assert s1.bleu < s.bleu


def test_lecture_seed_camels_example():
    # seeds/003_*.txt (lecture wiki), corrected as the seed README says: modified precisions are 5/5, 4/4, 3/3, 2/2
    # (the wiki divides by the reference's counts), so BLEU = BP = exp(1 - 6/5) = 0.8187.
    s = corpus_bleu(
        ["The happiness of dreaming camels"],
        [["On the happiness of dreaming camels"]],
        lowercase=True,
        smooth="none",
    )
    assert s.counts == (5, 4, 3, 2) and s.totals == (5, 4, 3, 2)
    assert s.bp == pytest.approx(math.exp(1 - 6 / 5), abs=1e-15)
    assert s.bleu == pytest.approx(0.8187, abs=5e-5)


def test_sacrebleu_readme_example():
    # sacrebleu README (v2.x, "Using the Python API"): BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944
    # hyp_len = 17 ref_len = 18) with default settings (13a, exp smoothing, 2 references).
    refs = [
        ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
        ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
    ]
    hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
    s = corpus_bleu(hyps, refs)
    assert f"{s.score:.2f}" == "48.53"
    assert "/".join(f"{100 * p:.1f}" for p in s.precisions) == "82.4/50.0/45.5/37.5"
    assert (f"{s.bp:.3f}", f"{s.ratio:.3f}", s.hyp_len, s.ref_len) == ("0.943", "0.944", 17, 18)
    assert s.signature.startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:")


def test_closest_reference_ties_go_to_shorter():
    # paper §2.2.2 "best match length"; sacrebleu breaks ties toward the shorter reference.
    stats = compute_statistics(["a b c d e"], [["a b c d"], ["a b c d e f"]], max_order=1)
    assert stats.ref_len("closest")[0] == 4
    assert stats.ref_len("shortest")[0] == 4
    assert stats.ref_len("average")[0] == 5


def test_reference_length_policies_change_bp():
    refs = [["a b c d e f g h"], ["a b c d"]]
    hyp = ["a b c d e"]
    closest = corpus_bleu(hyp, refs, max_order=1, ref_length="closest")  # r = 4 -> BP 1
    shortest = corpus_bleu(hyp, refs, max_order=1, ref_length="shortest")  # r = 4
    average = corpus_bleu(hyp, refs, max_order=1, ref_length="average")  # r = 6 -> BP exp(1 - 6/5)
    assert closest.bp == 1.0 and shortest.bp == 1.0
    assert average.bp == pytest.approx(math.exp(1 - 6 / 5))


def test_weights_change_the_mean():
    hyp, refs = ["the cat sat on the mat"], [["the cat is on the mat"]]
    uni = corpus_bleu(hyp, refs, max_order=2, weights=(1.0, 0.0), smooth="none")
    assert uni.bleu == pytest.approx(5 / 6)  # only the unigram precision counts
    both = corpus_bleu(hyp, refs, max_order=2, smooth="none")
    assert both.bleu == pytest.approx(math.sqrt(5 / 6 * 3 / 5))


def test_sentence_bleu_of_identity_is_one():
    assert sentence_bleu("a b c d e", ["a b c d e"]).bleu == pytest.approx(1.0)


def test_options_hashable_for_caching():
    assert hash(BleuOptions()) == hash(BleuOptions())
