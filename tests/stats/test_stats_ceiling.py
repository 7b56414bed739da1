"""The human ceiling (issue 28): one human score set against another, or said to be unavailable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.stats.ceiling import human_ceiling, rater_split
from bleu_core.stats.chance import statistic_value
from bleu_core.stats.errors import StatsInputError
from bleu_core.study import Criterion, Rating, Segment, Study
from bleu_core.study.demo import load_demo

WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"


def _study(ratings, n_segments=4, systems=("A", "B", "C", "D")):
    return Study(
        "toy",
        tuple(Segment(str(i + 1)) for i in range(n_segments)),
        {"ref": ["r"] * n_segments},
        {s: ["t"] * n_segments for s in systems},
        frozenset(),
        {
            "da": Criterion("da", scale=(0.0, 100.0)),
            "mqm": Criterion("mqm", higher_is_better=False),
        },
        tuple(ratings),
    )


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_rater_split_puts_two_of_each_items_ratings_on_the_two_sides(seed):
    rng = np.random.default_rng(seed)
    ratings, by_item = [], {}
    for s in "ABCD":
        for g in range(4):
            n = int(rng.integers(1, 4))
            scores = [float(v) for v in rng.integers(0, 100, n)]
            by_item[(s, g)] = scores
            ratings += [Rating(s, str(g + 1), f"r{k}", None, "da", v) for k, v in enumerate(scores)]
    first, second, used = rater_split(_study(ratings), "da", list("ABCD"), seed=seed)
    assert used == seed
    for (s, g), scores in by_item.items():
        a, b = first["ABCD".index(s), g], second["ABCD".index(s), g]
        if len(scores) < 2:
            assert np.isnan(a) and np.isnan(b)
        else:
            assert a in scores and b in scores
            left = list(scores)
            left.remove(a)
            assert b in left  # two different ratings of the item


def test_one_rating_per_item_says_there_is_no_ceiling():
    ratings = [
        Rating(s, "1", "r1", None, "da", v) for s, v in zip("ABCD", (1, 2, 3, 4), strict=True)
    ]
    c = human_ceiling(_study(ratings, 1), "da", "pairwise-accuracy")
    assert not c.available and np.isnan(c.statistic) and c.n_items == 0
    assert "every item has a single da rating" in c.note


def test_ted_demo_has_no_second_rater():
    c = human_ceiling(load_demo("ted-en-de"), "mqm", "acc-eq", seed=2)
    assert not c.available and "single mqm rating" in c.note


def test_a_second_criterion_is_compared_oriented():
    # mqm is lower-is-better: it is negated before it is compared with da
    da = [
        Rating(s, "1", None, None, "da", v) for s, v in zip("ABCD", (10, 20, 30, 40), strict=True)
    ]
    mqm = [Rating(s, "1", None, None, "mqm", v) for s, v in zip("ABCD", (9, 7, 8, 1), strict=True)]
    c = human_ceiling(_study(da + mqm, 1), "da", "pairwise-accuracy", other="mqm")
    expected = statistic_value("pairwise-accuracy", [-9.0, -7, -8, -1], [10.0, 20, 30, 40])
    assert c.available and c.statistic == expected and c.source == "criteria"
    assert "mqm against da, on 4 items" in c.note


def test_ceiling_errors():
    study = _study([Rating("A", "1", None, None, "da", 1.0)], 1)
    with pytest.raises(StatsInputError, match=r"unknown statistic 'bleu'; choose from: "):
        human_ceiling(study, "da", "bleu")
    with pytest.raises(
        StatsInputError, match=r"unknown criterion 'adequacy'; this study has: da, mqm"
    ):
        human_ceiling(study, "adequacy", "pearson")
    c = human_ceiling(study, "da", "pearson", other="mqm")
    assert not c.available and "no item has a score of both da and mqm" in c.note


def test_too_few_systems_with_both_opinions_is_said():
    ratings = [Rating(s, "1", r, None, "da", v) for s, r, v in [("A", "x", 1), ("A", "y", 2)]]
    c = human_ceiling(_study(ratings, 1), "da", "pearson", seed=1)
    assert not c.available and "fewer than 3 systems" in c.note


@pytest.mark.skipif(not WMT21.exists(), reason="the WMT21 release is not beside the repository")
def test_wmt21_mqm_against_da_is_a_ceiling():
    from bleu_core.study import load_study

    study = load_study(WMT21, pair="zh-en").study
    c = human_ceiling(study, "mqm", "pairwise-accuracy", other="da")
    assert c.available and 0.0 <= c.statistic <= 1.0 and c.n_items > 100
