"""Chen & Cherry (2014) smoothing methods 1-7 against NLTK's SmoothingFunction (nltk.translate.bleu_score).

NLTK's sentence_bleu is the reference definition we reproduce (see bleu_core.engine.smoothing); nltk is a test-only
dependency.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

from bleu_core import BleuOptions, bleu_from_stats, compute_statistics  # noqa: E402

WORDS = st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "dog", "is"])


def ours(hyp: list[str], refs: list[list[str]], method: int, order: int = 4) -> float:
    options = BleuOptions(smooth=f"chen-cherry-{method}", tokenize="none", max_order=order)
    stats = compute_statistics(
        [" ".join(hyp)],
        [[" ".join(r)] for r in refs],
        max_order=options.statistics_order,
        tokenize="none",
    )
    return float(bleu_from_stats(stats.array[0], options).bleu)


def theirs(hyp: list[str], refs: list[list[str]], method: int, order: int = 4) -> float:
    sf = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(
            nltk_bleu.sentence_bleu(refs, hyp, weights=(1 / order,) * order, smoothing_function=sf)
        )


@pytest.mark.parametrize("method", [1, 2, 3, 4, 5, 7])
@settings(max_examples=40, deadline=None)
@given(
    hyp=st.lists(WORDS, min_size=1, max_size=10),
    refs=st.lists(st.lists(WORDS, min_size=1, max_size=10), min_size=1, max_size=3),
)
def test_chen_cherry_matches_nltk(method, hyp, refs):
    assert ours(hyp, refs, method) == pytest.approx(theirs(hyp, refs, method), rel=1e-9, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    ref=st.lists(WORDS, min_size=3, max_size=10),
    extra=st.lists(WORDS, min_size=0, max_size=6),
    others=st.lists(st.lists(WORDS, min_size=1, max_size=10), min_size=0, max_size=2),
)
def test_chen_cherry_6_matches_nltk_when_defined(ref, extra, others):
    # NLTK's method 6 asserts a non-zero trigram precision: the hypothesis starts with 3 words of a reference.
    hyp, refs = ref[:3] + extra, [ref, *others]
    assert ours(hyp, refs, 6) == pytest.approx(theirs(hyp, refs, 6), rel=1e-9, abs=1e-12)


def test_paper_example_with_method_1():
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands".split(),
        "It is the guiding principle which guarantees the military forces always being under the command of the "
        "Party".split(),
    ]
    assert ours(hyp, refs, 1) == pytest.approx(theirs(hyp, refs, 1), rel=1e-12)
