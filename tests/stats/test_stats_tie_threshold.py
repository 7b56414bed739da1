"""acc*_eq (and tau_23) at a tie threshold ε the user chose (bleu_core.evaluation.ties.at_tie_threshold): at the ε
that tie calibration finds it is tie calibration's value, at every ε it is the calibration curve's value there,
and a hand case with its pair counts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.ties import at_tie_threshold, kendall_variant, tie_calibrated

SCORE = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, np.nan])


@st.composite
def scores(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    n_sys, n_items = draw(st.integers(2, 5)), draw(st.integers(1, 4))
    cells = n_sys * n_items
    metric = np.array(draw(st.lists(SCORE, min_size=cells, max_size=cells))).reshape(n_sys, n_items)
    human = np.array(draw(st.lists(SCORE, min_size=cells, max_size=cells))).reshape(n_sys, n_items)
    return metric, human


@settings(max_examples=150)
@given(scores(), st.sampled_from(["acc23", "23"]), st.sampled_from(["item", "sys", "none"]))
def test_at_every_calibration_threshold_it_is_the_calibrated_curve(case, variant, average_by):
    metric, human = case
    cal = tie_calibrated(metric, human, variant, average_by=average_by)
    best = at_tie_threshold(metric, human, cal.threshold, variant, average_by=average_by)
    if cal.n_groups == 0:
        assert np.isnan(best.statistic) and best.n_groups == 0
        return
    assert best.statistic == pytest.approx(cal.statistic, abs=1e-12)
    for eps, value in zip(cal.thresholds, cal.values, strict=True):
        at = at_tie_threshold(metric, human, float(eps), variant, average_by=average_by)
        assert at.statistic == pytest.approx(value, abs=1e-12)
        assert sum(at.counts) == cal.n_pairs


def test_a_hand_case_with_its_pair_counts():
    # Two segments (items), three systems; pairs by hand:
    # item 1: humans 3, 2, 2; metric 10, 9, 4 -> (1,2) C; (1,3) C; (2,3) |Δm| = 5, humans tied
    # item 2: humans 1, 2, 3; metric 5, 5.5, 7 -> (1,2) |Δm| = 0.5 C; (1,3) C; (2,3) |Δm| = 1.5 C
    human = np.array([[3.0, 1.0], [2.0, 2.0], [2.0, 3.0]])
    metric = np.array([[10.0, 5.0], [9.0, 5.5], [4.0, 7.0]])
    exact = at_tie_threshold(metric, human, 0.0)
    assert exact.counts == (5, 0, 1, 0, 0)  # C, D, T_h, T_m, T_hm
    assert exact.statistic == pytest.approx((2 / 3 + 3 / 3) / 2)
    one = at_tie_threshold(metric, human, 1.0)  # item 1: (1,2) |Δm| = 1 -> T_m; item 2: 0.5 -> T_m
    assert one.counts == (3, 0, 1, 2, 0)
    assert one.statistic == pytest.approx((1 / 3 + 2 / 3) / 2)
    five = at_tie_threshold(
        metric, human, 5.0
    )  # item 1: (1,2) T_m, (1,3) C, (2,3) T_hm; item 2: 3 T_m
    assert five.counts == (1, 0, 0, 4, 1)
    assert five.statistic == pytest.approx((2 / 3 + 0 / 3) / 2)
    assert kendall_variant(metric, human, "acc23", average_by="item", epsilon=5.0).statistic == (
        five.statistic
    )


def test_tau_c_takes_no_threshold():
    with pytest.raises(
        StatsInputError, match="a tie threshold applies to the Kendall variants b, 23"
    ):
        at_tie_threshold(np.ones((2, 1)), np.ones((2, 1)), 0.0, "c")
