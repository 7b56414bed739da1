"""Study.segment_scores is computed once per criterion and recomputed when the ratings change."""

from __future__ import annotations

import math

import numpy as np

from bleu_core.study import Criterion, Rating, Segment, Study


def _study() -> Study:
    return Study(
        name="toy",
        segments=(Segment("1"), Segment("2")),
        references={"ref": ["a", "b"]},
        systems={"A": ["a", "b"], "B": ["x", "y"]},
        criteria={"mqm": Criterion("mqm")},
        ratings=(
            Rating("A", "1", "r1", None, "mqm", -1.0),
            Rating("A", "1", "r2", None, "mqm", -3.0),
            Rating("B", "2", "r1", None, "mqm", -5.0),
        ),
    )


def test_cached_scores_are_copies_and_follow_new_ratings() -> None:
    study = _study()
    first = study.segment_scores("mqm")
    assert first[0, 0] == -2.0 and first[1, 1] == -5.0 and math.isnan(first[0, 1])
    first[0, 0] = 99.0  # the caller's copy: the cache is not changed
    assert study.segment_scores("mqm")[0, 0] == -2.0
    study.ratings = (*study.ratings, Rating("A", "2", "r1", None, "mqm", -4.0))
    again = study.segment_scores("mqm")
    assert again[0, 1] == -4.0
    assert study.system_scores("mqm")["A"] == -3.0  # mean of segment means -2 and -4
    study.systems["C"] = ["c", "d"]
    assert study.segment_scores("mqm").shape == (3, 2)
    np.testing.assert_array_equal(study.segment_scores("mqm")[:2], again)
