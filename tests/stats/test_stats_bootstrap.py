"""Bootstrap intervals and the paired bootstrap (bleu_core.evaluation.bootstrap) against sacrebleu 2.6 --paired-bs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.evaluation import StatsInputError, bootstrap, paired_bootstrap
from bleu_core.evaluation.bootstrap import resampled_bleu
from bleu_core.evaluation.systems import stack_systems
from bleu_core.maths.resampling import bootstrap_counts, make_rng

# The synthetic corpus of the ``corpus`` fixture (tests/stats/conftest.py): systems that copy the reference
# with a share of words replaced.
CORPUS = {"n_segments": 300, "noise": (0.30, 0.33, 0.50), "seed": 0}


def sacrebleu_paired(systems, refs, test_type, n_samples, monkeypatch, seed):
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    named = list(systems.items())
    _, scores = PairedTest(
        named, {"BLEU": BLEU()}, [refs], test_type=test_type, n_samples=n_samples
    )()
    return scores["BLEU"]


def test_same_seed_gives_sacrebleus_resamples_and_pvalues(corpus, monkeypatch):
    # sacrebleu 2.6.0, BLEU() defaults, PairedTest(test_type="bs", n_samples=1000), SACREBLEU_SEED=12345:
    # with the same seed both draw the same resampled test sets, so p-values are identical and sacrebleu's
    # CI half-width (order statistics n//40 and n-n//40-1) is reproduced from our resampled scores.
    refs, systems, stats = corpus
    ours = bootstrap(stats, n_resamples=1000, seed=12345)
    paired = ours.paired(baseline="sys0")
    theirs = sacrebleu_paired(systems, refs, "bs", 1000, monkeypatch, 12345)
    for k, name in enumerate(systems):
        assert theirs[k].score == pytest.approx(ours.observed[k], abs=1e-9)
        assert theirs[k].mean == pytest.approx(ours.interval(name).mean, abs=1e-5)
        s = np.sort(ours.samples[k])
        assert theirs[k].ci == pytest.approx(0.5 * (s[974] - s[25]), abs=1e-5)
        if k:
            c = paired.get(name, "sys0")
            assert c.sacrebleu_pvalue == pytest.approx(theirs[k].p_value, abs=1e-12)


def test_pvalues_agree_with_sacrebleu_in_distribution(corpus, monkeypatch):
    # Different seeds: our p-value and sacrebleu's are two Monte-Carlo estimates of the same quantity;
    # they must agree within 4.5 standard errors of the difference (sqrt(2 p (1-p) / M)).
    refs, systems, stats = corpus
    m = 2000
    pair = {k: systems[k] for k in ("sys0", "sys1")}
    theirs = sacrebleu_paired(pair, refs, "bs", m, monkeypatch, 777)[1].p_value
    ours = (
        paired_bootstrap({k: stats[k] for k in pair}, n_resamples=m, seed=4242)
        .get("sys1", "sys0")
        .sacrebleu_pvalue
    )
    p = (ours + theirs) / 2
    assert 0.005 < p < 0.995, "pick a pair whose p-value is not at the boundary"
    se = np.sqrt(2 * max(p * (1 - p), 1e-3) / m)
    assert abs(ours - theirs) < 4.5 * se


def test_resampled_bleu_equals_rescoring_the_resampled_rows(corpus):
    refs, _, stats = corpus
    stack = stack_systems(stats)
    rng, _ = make_rng(5)
    counts = bootstrap_counts(stack.n_segments, 4, rng)
    fast = resampled_bleu(stack, counts, BleuOptions())
    for m in range(4):
        idx = np.repeat(np.arange(stack.n_segments), counts[m].astype(int))
        for k in range(stack.n_systems):
            direct = bleu_from_stats(stack.array[k][idx].sum(0), BleuOptions()).score
            assert fast[k, m] == pytest.approx(float(direct), abs=1e-9)


def test_intervals_contain_the_score_and_are_ordered(corpus):
    _, _, stats = corpus
    res = bootstrap(stats, n_resamples=500, seed=1)
    for iv in res.intervals:
        low, high = iv.confidence_interval
        assert low < iv.statistic < high
        assert iv.rsd == pytest.approx(iv.std / iv.mean)
        assert np.mean(res.samples[res.systems.index(iv.system)]) == pytest.approx(iv.mean)
    assert res.seed == 1 and res.n_resamples == 500


def test_verdicts_follow_the_interval_and_its_own_p_value(corpus):
    _, _, stats = corpus
    test = bootstrap(stats, n_resamples=500, seed=3).paired()
    assert len(test.comparisons) == 3
    for c in test.comparisons:
        low, high = c.confidence_interval
        expected = ">" if low > 0 else "<" if high < 0 else "~"
        assert c.verdict == expected
        assert (c.pvalue < 0.05) == (expected != "~")  # the interval's own p-value
    # sys2 (50 % noise) is clearly worse than sys0 (30 %)
    assert test.get("sys2", "sys0").verdict == "<"
    assert test.get("sys0", "sys2").verdict == ">"
    matrix = test.matrix()
    assert matrix[0][2] == ">" and matrix[2][0] == "<" and matrix[0][0] == ""


def test_seeded_runs_repeat_and_seed_none_is_reported(corpus):
    _, _, stats = corpus
    a = bootstrap(stats, n_resamples=200, seed=9)
    b = bootstrap(stats, n_resamples=200, seed=9)
    assert np.array_equal(a.samples, b.samples)
    c = bootstrap(stats, n_resamples=200, seed=None)
    again = bootstrap(stats, n_resamples=200, seed=c.seed)
    assert np.array_equal(c.samples, again.samples)


def test_to_dict_reports_seed_and_intervals(corpus):
    _, _, stats = corpus
    d = bootstrap(stats, n_resamples=100, seed=2).to_dict()
    assert d["seed"] == 2 and d["n_resamples"] == 100
    assert len(d["systems"][0]["confidence_interval"]) == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_resamples": 0}, "number of resamples must be a whole number >= 1"),
        ({"confidence": 95}, "confidence level must be between 0 and 1"),
        ({"seed": -1}, "seed must be a non-negative whole number"),
    ],
)
def test_bad_arguments_are_explained(corpus, kwargs, message):
    _, _, stats = corpus
    with pytest.raises(StatsInputError, match=message):
        bootstrap(stats, **kwargs)


def test_mismatched_systems_are_explained(corpus):
    _, _, stats = corpus
    short = {"a": stats["sys0"], "b": stats["sys1"][:10]}
    with pytest.raises(StatsInputError, match="'b' has 10 segments but 'a' has 300"):
        bootstrap(short)
    with pytest.raises(StatsInputError, match="baseline 'nope' is not one of the systems"):
        paired_bootstrap(stats, n_resamples=10, baseline="nope")
    with pytest.raises(StatsInputError, match="need at least 1 system"):
        bootstrap({})
    with pytest.raises(StatsInputError, match="must be a mapping"):
        bootstrap([stats["sys0"]])


@settings(max_examples=20, deadline=None)
@given(st.randoms(use_true_random=False))
def test_permuting_segments_leaves_block_free_statistics_unchanged(corpus, random):
    # Corpus BLEU and every bootstrap resample (with the counts permuted alongside the segments) do not
    # depend on the order of the segments; block BLEU does (blocks are consecutive segments).
    _, _, stats = corpus
    order = list(range(300))
    random.shuffle(order)
    perm = np.array(order)
    stack = stack_systems(stats)
    shuffled = stack_systems({k: v.array[perm] for k, v in stats.items()})
    rng, _ = make_rng(random.randrange(1000))
    counts = bootstrap_counts(300, 20, rng)
    a = resampled_bleu(stack, counts, BleuOptions())
    b = resampled_bleu(shuffled, counts[:, perm], BleuOptions())
    assert np.allclose(a, b, rtol=0, atol=1e-9)
    assert np.allclose(
        bleu_from_stats(stack.totals(), BleuOptions()).score,
        bleu_from_stats(shuffled.totals(), BleuOptions()).score,
        rtol=0,
        atol=1e-9,
    )


# ------------------------------------------------------------------ the vectorised paths
def paired_oracle(result, alpha: float, baseline: str | None = None) -> list[tuple]:
    """The paired test as it was computed before it was vectorised: one pair at a time (kept here as
    the reference the vectorised :meth:`BootstrapResult.paired` must equal bit for bit)."""
    from bleu_core.evaluation.results import exceedance_pvalue, pairs_to_test
    from bleu_core.maths.resampling import percentile_interval

    out = []
    for i, j in pairs_to_test(result.systems, baseline):
        observed = float(result.observed[i] - result.observed[j])
        diffs = result.samples[i] - result.samples[j]
        low, high = percentile_interval(diffs, 1.0 - alpha)
        magnitude = np.abs(diffs)
        sacrebleu_p = exceedance_pvalue(magnitude - magnitude.mean(), abs(observed))
        verdict = ">" if observed > 0 and low > 0 else "<" if observed < 0 and high < 0 else "~"
        out.append(
            (result.systems[i], result.systems[j], observed, sacrebleu_p, (low, high), verdict)
        )
    return out


def intervals_oracle(result, confidence: float) -> list[tuple]:
    """Per-system summaries as computed before (one :func:`summarise` call per system)."""
    from bleu_core.evaluation.bootstrap import summarise

    return [
        (name, float(result.observed[k]), *summarise(result.samples[k], confidence))
        for k, name in enumerate(result.systems)
    ]


def as_tuples(test) -> list[tuple]:
    return [
        (c.system, c.baseline, c.statistic, c.sacrebleu_pvalue, c.confidence_interval, c.verdict)
        for c in test.comparisons
    ]


@settings(max_examples=40, deadline=None)
@given(
    n_resamples=st.integers(2, 200),
    shift=st.floats(-3.0, 3.0),
    seed=st.integers(0, 2**31 - 1),
    alpha=st.sampled_from([0.01, 0.05, 0.1, 0.3]),
)
def test_the_p_value_is_the_percentile_intervals_own(n_resamples, shift, seed, alpha):
    # Property: p < alpha exactly when numpy's (1 - alpha) percentile interval of the same resampled
    # differences excludes 0 on the observed difference's side (away from the float boundary p == alpha).
    from bleu_core.evaluation.bootstrap import percentile_pvalues

    diffs = np.round(shift + np.random.default_rng(seed).normal(size=(1, n_resamples)), 3)
    observed = np.array([shift if shift else 0.5])
    [p] = percentile_pvalues(diffs, observed)
    assume(abs(p - alpha) > 1e-9)
    low, high = np.quantile(diffs[0], [alpha / 2, 1 - alpha / 2])
    excludes = low > 0 if observed[0] > 0 else high < 0
    assert (p < alpha) == excludes, (p, low, high)


@settings(max_examples=25, deadline=None)
@given(
    n_systems=st.integers(2, 7),
    n_segments=st.integers(3, 60),
    n_resamples=st.integers(2, 120),
    seed=st.integers(0, 2**31 - 1),
    alpha=st.sampled_from([0.01, 0.05, 0.1, 0.3]),
    ties=st.booleans(),
)
def test_vectorised_paired_test_equals_the_pair_by_pair_oracle(
    n_systems, n_segments, n_resamples, seed, alpha, ties
):
    # Property: the P × M array path (paired_statistics, summarise_systems) gives exactly, bit for bit,
    # what the former loop over pairs and systems gave, for random statistics, with and without
    # identical systems (ties: differences of exactly 0).
    rng = np.random.default_rng(seed)
    systems = {}
    for k in range(n_systems):
        array = rng.integers(0, 6, size=(n_segments, 12)).astype(float)
        array[:, 2:4] = array[:, 2:4] + 8  # lengths
        array[:, 5::2] = array[:, 4::2] + rng.integers(
            0, 3, size=(n_segments, 4)
        )  # totals ≥ matches
        systems[f"s{k}"] = array
    if ties:
        systems["copy"] = systems["s0"].copy()
    result = bootstrap(systems, n_resamples=n_resamples, confidence=1 - alpha, seed=seed % 1000)
    assert as_tuples(result.paired(alpha=alpha)) == paired_oracle(result, alpha)
    assert as_tuples(result.paired(alpha=alpha, baseline="s1")) == paired_oracle(
        result, alpha, "s1"
    )
    got = [(iv.system, iv.statistic, iv.mean, iv.std, iv.rsd, iv.confidence_interval)
           for iv in result.intervals]  # fmt: skip
    want = intervals_oracle(result, 1 - alpha)
    assert [g[:3] for g in got] == [w[:3] for w in want]
    assert [g[5] for g in got] == [w[5] for w in want]
    np.testing.assert_array_equal([g[3:5] for g in got], [w[3:5] for w in want])  # NaN == NaN


def test_confidence_and_subset_reread_the_same_resamples(corpus):
    # A cached bootstrap of every system answers another level or fewer systems exactly as a new run.
    _, _, stats = corpus
    every = bootstrap(stats, n_resamples=200, seed=5)
    fewer = {k: stats[k] for k in ("sys2", "sys0")}
    direct = bootstrap(fewer, n_resamples=200, confidence=0.9, seed=5)
    reread = every.with_confidence(0.9).subset(["sys2", "sys0"])
    assert reread.systems == direct.systems and reread.intervals == direct.intervals
    np.testing.assert_array_equal(reread.samples, direct.samples)
    assert as_tuples(reread.paired(alpha=0.1)) == as_tuples(direct.paired(alpha=0.1))
    assert every.with_confidence(0.95) is every
    with pytest.raises(StatsInputError, match="confidence level must be between 0 and 1"):
        every.with_confidence(95)


def test_a_score_function_replaces_bleu(corpus):
    # score= is used for the observed and every resampled score: BLEU passed explicitly equals the default.
    from bleu_core.evaluation.bootstrap import bleu_scorer

    _, _, stats = corpus
    default = bootstrap(stats, n_resamples=50, seed=2)
    explicit = bootstrap(stats, n_resamples=50, seed=2, score=bleu_scorer(None))
    np.testing.assert_array_equal(default.samples, explicit.samples)
    halved = bootstrap(stats, n_resamples=50, seed=2, score=lambda t: bleu_scorer(None)(t) / 2)
    np.testing.assert_allclose(halved.samples, default.samples / 2, rtol=0, atol=1e-12)


def test_a_verdict_never_contradicts_its_interval():
    # Two systems whose sacrebleu --paired-bs p-value falls below alpha while the percentile interval of
    # the difference still holds 0 (the disagreement users saw, issue 39): the verdict follows the
    # interval, the p-value is the interval's own, and sacrebleu's is kept beside them.
    from bleu_core.evaluation.bootstrap import BootstrapResult
    from bleu_core.evaluation.results import with_alpha

    rng = np.random.default_rng(5)
    # B − A ~ N(1.8, 1): the 95 % interval (about -0.16 to 3.76) holds 0; sacrebleu's p-value is
    # P(|d| − mean|d| > 1.8), about P(Z > 1.83) = 0.034; the interval's p about 2 P(Z < -1.8) = 0.072
    samples = np.stack([np.zeros(2000), 1.8 + rng.normal(0, 1.0, 2000)])
    result = BootstrapResult(
        systems=("A", "B"),
        observed=np.array([0.0, 1.8]),
        samples=samples,
        intervals=(),
        n_resamples=2000,
        seed=5,
        confidence_level=0.95,
    )
    test = result.paired(alpha=0.05)
    [c] = test.comparisons
    low, high = c.confidence_interval
    assert low < 0 < high and c.sacrebleu_pvalue < 0.05 <= c.pvalue
    assert c.verdict == "~"
    assert c.pvalue == pytest.approx(2 * np.mean(samples[1] - samples[0] <= 0), abs=2e-3)
    reread = with_alpha(test, 0.1)  # at 0.1 the 90 % interval excludes 0: both say so
    assert (
        reread.comparisons[0].verdict == ">"
        and result.paired(alpha=0.1).comparisons[0].verdict == ">"
    )
    assert result.paired(alpha=0.1).comparisons[0].confidence_interval[0] > 0
