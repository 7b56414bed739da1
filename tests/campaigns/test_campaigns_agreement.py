"""Inter-annotator agreement and judge calibration against published and hand-computed values."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from bleu_core.campaigns import (
    CampaignError,
    StoredRating,
    judge_calibration,
    krippendorff_alpha,
    pairwise_correlation,
    reliability_data,
)

nan = np.nan
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C (4 observers, 12 units, missing
# data). Published results: nominal .743, ordinal .815, interval .849, ratio .797; 40 pairable values, unit 12
# (rated once) is left out.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
]


@pytest.mark.parametrize(
    ("level", "published"),
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_krippendorff_published_example(level, published):
    res = krippendorff_alpha(KRIPPENDORFF_2011, level=level, n_resamples=0)
    assert round(res.statistic, 3) == published
    assert (res.n_units, res.n_values, res.n_raters) == (11, 40, 4)
    assert np.isnan(res.confidence_interval).all()  # no bootstrap asked for


def test_krippendorff_nominal_hand_computation():
    # Krippendorff (2011) section A: two observers, 10 units, binary data; published alpha = 0.095.
    # By hand: o_00 = 10, o_01 = o_10 = 4, o_11 = 2, n = 20, n_0 = 14, n_1 = 6;
    # alpha = 1 - (n - 1) * o_01 / (n_0 * n_1) = 1 - 19 * 4 / 84 = 0.0952.
    a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]
    res = krippendorff_alpha([a, b], level="nominal", n_resamples=0)
    assert res.statistic == pytest.approx(1 - 19 * 4 / 84)
    assert round(res.statistic, 3) == 0.095


def test_interval_alpha_two_judges_by_hand():
    # two judges, three items: (1, 2), (3, 3), (5, 4).
    # coincidences: each unit contributes both ordered pairs with weight 1; n = 6.
    # D_o = sum over pairs of squared differences / n = (1 + 0 + 1) * 2 / 6 = 2/3
    # D_e = sum over all ordered pairs of the 6 pooled values 1,2,3,3,4,5 of (c-k)^2 / (n (n-1))
    values = np.array([1, 2, 3, 3, 4, 5], dtype=float)
    d_e = sum(
        (c - k) ** 2 for i, c in enumerate(values) for j, k in enumerate(values) if i != j
    ) / (6 * 5)
    expected_alpha = 1 - (2 / 3) / d_e
    res = krippendorff_alpha([[1, 3, 5], [2, 3, 4]], level="interval", n_resamples=0)
    assert res.statistic == pytest.approx(expected_alpha)
    assert res.observed_disagreement == pytest.approx(2 / 3)
    assert res.expected_disagreement == pytest.approx(d_e)


def test_perfect_agreement_is_one_and_systematic_disagreement_is_negative():
    assert krippendorff_alpha(
        [[1, 2, 3, 4], [1, 2, 3, 4]], n_resamples=0
    ).statistic == pytest.approx(1.0)
    assert krippendorff_alpha([[1, 5, 1, 5], [5, 1, 5, 1]], n_resamples=0).statistic < 0


ratings_matrix = st.lists(
    st.lists(st.one_of(st.integers(1, 5), st.just(None)), min_size=6, max_size=6),
    min_size=2,
    max_size=5,
)


@settings(max_examples=80, deadline=None)
@given(ratings_matrix, st.randoms(use_true_random=False))
def test_alpha_does_not_depend_on_judge_order_or_shift(rows, rnd):
    data = np.array([[nan if v is None else v for v in row] for row in rows], dtype=float)
    base = krippendorff_alpha(data, level="interval", n_resamples=0).statistic
    perm = list(range(len(rows)))
    rnd.shuffle(perm)
    shuffled = krippendorff_alpha(data[perm], level="interval", n_resamples=0).statistic
    shifted = krippendorff_alpha(data * 2 + 7, level="interval", n_resamples=0).statistic
    ordinal_shift = krippendorff_alpha(data * 2 + 7, level="ordinal", n_resamples=0).statistic
    ordinal = krippendorff_alpha(data, level="ordinal", n_resamples=0).statistic
    for a, b in [(base, shuffled), (base, shifted), (ordinal, ordinal_shift)]:
        assert (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, abs=1e-9)
    if np.isfinite(base):
        assert base <= 1 + 1e-12


def test_bootstrap_interval_is_seeded_and_reported():
    rng = np.random.default_rng(4)
    truth = rng.integers(1, 6, size=60)
    data = np.clip(truth + rng.integers(-1, 2, size=(4, 60)), 1, 5).astype(float)
    a = krippendorff_alpha(data, n_resamples=300, seed=9)
    b = krippendorff_alpha(data, n_resamples=300, seed=9)
    c = krippendorff_alpha(data, n_resamples=300, seed=10)
    assert a == b and a.seed == 9 and a.n_resamples == 300
    assert a.confidence_interval != c.confidence_interval
    low, high = a.confidence_interval
    assert low < a.statistic < high


def test_empty_or_unpairable_data_gives_nan():
    res = krippendorff_alpha([[1, nan], [nan, 2]], n_resamples=10)
    assert np.isnan(res.statistic) and res.n_units == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: krippendorff_alpha([[1, 2]], level="cardinal"),
            r"level 'cardinal' is unknown; use one of nominal, ordinal, interval, ratio",
        ),
        (
            lambda: krippendorff_alpha([1, 2, 3]),
            r"must be a 2-D table \(judges × items\), got 1 dimension",
        ),
        (lambda: krippendorff_alpha([["a", "b"]]), r"reliability data must be numbers"),
        (
            lambda: krippendorff_alpha([[1, np.inf]]),
            r"infinite value; use nan for a missing rating",
        ),
        (
            lambda: krippendorff_alpha([[1, 2]], confidence_level=95),
            r"confidence level 95 must be between 0 and 1",
        ),
        (
            lambda: krippendorff_alpha([[1, 2]], n_resamples=-1),
            r"n_resamples -1 must be a whole number >= 0",
        ),
        (
            lambda: pairwise_correlation([[1, 2, 3]], ["a", "b"]),
            r"2 rater names for 1 rows of reliability data",
        ),
        (
            lambda: pairwise_correlation([[1, 2, 3]], ["a"], method="kendall"),
            r"method 'kendall' is unknown; use one of pearson, spearman",
        ),
        (lambda: judge_calibration([[1, 2, 3]], []), r"0 rater names for 1 rows"),
    ],
)
def test_agreement_errors(call, message):
    with pytest.raises(CampaignError, match=message):
        call()


def test_pairwise_correlation_matches_scipy_on_shared_items():
    a = [1, 2, 3, 4, 5, nan, 2]
    b = [2, 2, 4, 4, 5, 3, nan]
    c = [5, 4, nan, 2, 1, 1, 1]
    res = pairwise_correlation([a, b, c], ["a", "b", "c"], method="pearson")
    both = [0, 1, 2, 3, 4]
    expected = stats.pearsonr(np.array(a)[both], np.array(b)[both])
    ab = res.pairs[0]
    assert (ab.rater_a, ab.rater_b, ab.n) == ("a", "b", 5)
    assert ab.statistic == pytest.approx(expected.statistic) and ab.pvalue == pytest.approx(
        expected.pvalue
    )
    assert res.matrix[0, 1] == res.matrix[1, 0] == pytest.approx(expected.statistic)
    spear = pairwise_correlation([a, c], ["a", "c"], method="spearman")
    shared = [0, 1, 3, 4, 6]
    assert spear.statistic == pytest.approx(
        stats.spearmanr(np.array(a)[shared], np.array(c)[shared]).statistic
    )


def test_pairwise_correlation_undefined_pairs_are_nan():
    res = pairwise_correlation([[1, 2, nan, nan], [nan, nan, 3, 4], [3, 3, 3, 3]], ["a", "b", "c"])
    assert all(np.isnan(p.statistic) for p in res.pairs)
    assert np.isnan(res.statistic)


def test_calibration_finds_the_liberal_judge():
    # judge "easy" always gives one point more than "strict"; "mid" is in between on shared items
    easy = [4, 5, 3, 4, nan]
    strict = [3, 4, 2, 3, 2]
    mid = [nan, 4.5, 2.5, 3.5, 2]
    cal = {c.rater: c for c in judge_calibration([easy, strict, mid], ["easy", "strict", "mid"])}
    assert cal["easy"].mean == pytest.approx(4.0) and cal["easy"].n == 4
    # easy vs others: item0 +1 (strict only), items 1-3: easy - mean(strict, mid) = 1 - 0.25 ... by hand:
    # item1: 5 - (4 + 4.5)/2 = 0.75; item2: 3 - 2.25 = 0.75; item3: 4 - 3.25 = 0.75 -> mean (1 + 3*0.75)/4
    assert cal["easy"].offset == pytest.approx((1 + 3 * 0.75) / 4)
    assert cal["strict"].offset < 0 < cal["easy"].offset
    assert cal["strict"].n_shared == 5 and cal["easy"].n_shared == 4
    assert cal["strict"].std == pytest.approx(np.std(strict, ddof=1))


def test_reliability_data_from_stored_ratings_by_group():
    t = datetime(2024, 1, 1, tzinfo=UTC)

    def r(judge, group, pos, crit, score):
        return StoredRating("C", judge, group, pos, f"s{pos}", "A", crit, score, t, t)

    rs = [
        r("ana", "mono", 0, "fluency", 4),
        r("ana", "mono", 1, "fluency", 3),
        r("bo", "bi", 1, "fluency", 2),
        r("bo", "bi", 1, "adequacy", 5),
        r("cy", "mono", 2, "fluency", 1),
    ]
    rd = reliability_data(rs, "fluency")
    assert rd.raters == ("ana", "bo", "cy") and rd.groups == ("mono", "bi", "mono")
    assert rd.positions == (0, 1, 2)
    np.testing.assert_array_equal(rd.data, [[4, 3, nan], [nan, 2, nan], [nan, nan, 1]])
    mono = reliability_data(rs, "fluency", group="mono")
    assert mono.raters == ("ana", "cy") and mono.positions == (0, 1, 2)
    assert reliability_data(rs, "adequacy").data.tolist() == [[5.0]]
