"""Paired approximate randomisation (bleu_core.evaluation.randomization) against sacrebleu 2.6 --paired-ar."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.evaluation import StatsInputError, approximate_randomization

# The synthetic corpus of the ``corpus`` fixture (tests/stats/conftest.py).
CORPUS = {"n_segments": 250, "noise": (0.30, 0.34, 0.45), "seed": 1}


def sacrebleu_ar(systems, refs, n, monkeypatch, seed):
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    _, scores = PairedTest(
        list(systems.items()), {"BLEU": BLEU()}, [refs], test_type="ar", n_samples=n
    )()
    return scores["BLEU"]


def test_same_seed_gives_sacrebleus_pvalues(corpus, monkeypatch):
    # sacrebleu 2.6.0 PairedTest(test_type="ar", n_samples=2000), BLEU() defaults, SACREBLEU_SEED=12345:
    # the same swap matrix is drawn, so every p-value is identical.
    refs, systems, stats = corpus
    theirs = sacrebleu_ar(systems, refs, 2000, monkeypatch, 12345)
    ours = approximate_randomization(stats, n_trials=2000, seed=12345, baseline="sys0")
    for k, name in enumerate(systems):
        if k:
            assert ours.get(name, "sys0").pvalue == pytest.approx(theirs[k].p_value, abs=1e-12)
    assert ours.seed == 12345 and ours.n_resamples == 2000


def test_pvalues_agree_with_sacrebleu_in_distribution(corpus, monkeypatch):
    # Independent seeds: two Monte-Carlo estimates of the same p; within 4.5 standard errors of their difference.
    refs, systems, stats = corpus
    n = 4000
    pair = ("sys0", "sys1")
    theirs = sacrebleu_ar({k: systems[k] for k in pair}, refs, n, monkeypatch, 99)[1].p_value
    ours = (
        approximate_randomization({k: stats[k] for k in pair}, n_trials=n, seed=2024)
        .comparisons[0]
        .pvalue
    )
    p = (ours + theirs) / 2
    assert 0.005 < p < 0.995
    assert abs(ours - theirs) < 4.5 * np.sqrt(2 * p * (1 - p) / n)


def test_one_trial_by_hand(corpus):
    # A swap matrix of all ones exchanges every segment: the pseudo-systems are the systems themselves
    # (swapped), so the shuffled difference equals the observed one and is not counted (strict >).
    from bleu_core.evaluation import randomization

    _, _, stats = corpus
    two = {k: stats[k] for k in ("sys0", "sys2")}
    original = randomization.swap_matrix
    try:
        randomization.swap_matrix = lambda r, s, rng: np.ones((r, s), dtype=bool)
        res = approximate_randomization(two, n_trials=5, seed=0)
    finally:
        randomization.swap_matrix = original
    assert res.comparisons[0].pvalue == pytest.approx(1 / 6)
    diff = float(bleu_from_stats(stats["sys2"].total(), BleuOptions()).score) - float(
        bleu_from_stats(stats["sys0"].total(), BleuOptions()).score
    )
    assert res.comparisons[0].statistic == pytest.approx(diff)


def test_all_pairs_and_verdicts(corpus):
    _, _, stats = corpus
    res = approximate_randomization(stats, n_trials=1000, seed=5)
    assert [(c.system, c.baseline) for c in res.comparisons] == [
        ("sys1", "sys0"),
        ("sys2", "sys0"),
        ("sys2", "sys1"),
    ]
    for c in res.comparisons:
        assert c.confidence_interval is None
        if c.pvalue < 0.05:
            assert c.verdict == ("<" if c.statistic < 0 else ">")
        else:
            assert c.verdict == "~"
    assert res.get("sys2", "sys0").verdict == "<"
    assert res.to_dict()["method"] == "approximate-randomization"


def test_identical_systems_are_never_significant(corpus):
    # sacrebleu's strict ">" gives identical systems p = 1/(R+1); the verdict must still be "~".
    _, _, stats = corpus
    res = approximate_randomization({"a": stats["sys0"], "b": stats["sys0"]}, n_trials=200, seed=1)
    assert res.comparisons[0].statistic == 0.0
    assert res.comparisons[0].pvalue == pytest.approx(1 / 201)
    assert res.comparisons[0].verdict == "~"


def test_needs_two_systems_and_valid_counts(corpus):
    _, _, stats = corpus
    with pytest.raises(StatsInputError, match="need at least 2 system"):
        approximate_randomization({"a": stats["sys0"]})
    with pytest.raises(StatsInputError, match="number of trials must be a whole number >= 1"):
        approximate_randomization(stats, n_trials=0)
    with pytest.raises(StatsInputError, match="confidence level must be between 0 and 1"):
        approximate_randomization(stats, alpha=1.5)
