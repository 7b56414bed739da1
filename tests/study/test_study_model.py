"""The study model's helpers and the consistency checks of validate_study."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from bleu_core.errors import StudyError
from bleu_core.study import Criterion, Rating, Segment, Study, validate_study
from bleu_core.study.building import add_ratings


def toy() -> Study:
    return Study(
        name="toy",
        segments=(Segment("s1", "d1"), Segment("s2", "d1"), Segment("s3", "d2")),
        references={"ref": ["a b c", "d e f", "g h i"]},
        systems={
            "A": ["a b c", "d e", None],
            "B": ["x", "y", "z"],
            "H": ["a c b", "d f e", "g i h"],
        },
        human_systems=frozenset({"H"}),
        criteria={
            "adequacy": Criterion("adequacy", True, (1.0, 5.0)),
            "errors": Criterion("errors", False),
        },
        ratings=(
            Rating("A", "s1", "r1", "g", "adequacy", 5.0),
            Rating("A", "s1", "r2", "g", "adequacy", 3.0),
            Rating("A", "s2", "r1", "g", "adequacy", 4.0),
            Rating("B", "s3", "r1", "g", "adequacy", 1.0),
            Rating("B", None, "r9", "g", "adequacy", 2.5),
            Rating("B", None, "r8", "g", "adequacy", 1.5),
            Rating("A", "s1", "r1", "g", "errors", 2.0),
        ),
    )


def test_segment_helpers() -> None:
    study = toy()
    assert study.n_segments == 3
    assert study.segment_index("s3") == 2
    with pytest.raises(KeyError):
        study.segment_index("nope")
    assert study.doc_ids() == ["d1", "d2"]
    assert study.machine_systems == ["A", "B"]
    assert study.reference_streams() == [["a b c", "d e f", "g h i"]]


def test_segment_scores_average_raters_and_leave_nan() -> None:
    scores = toy().segment_scores("adequacy")
    expected = np.array([[4.0, 4.0, np.nan], [np.nan, np.nan, 1.0], [np.nan] * 3])
    np.testing.assert_array_equal(scores, expected)


def test_system_scores_prefer_system_level_ratings() -> None:
    scores = toy().system_scores("adequacy")
    assert scores["A"] == 4.0  # mean of segment means 4.0 and 4.0
    assert scores["B"] == 2.0  # system-level ratings 2.5 and 1.5 win over the segment rating 1.0
    assert math.isnan(scores["H"])
    assert toy().rated_items("adequacy") == 3


def test_unknown_criterion_lists_the_known_ones() -> None:
    with pytest.raises(
        StudyError, match="unknown criterion 'fluency'; this study has: adequacy, errors"
    ):
        toy().segment_scores("fluency")


def test_add_ratings_validates_and_adds_criteria() -> None:
    study = add_ratings(
        toy(), [Rating("H", "s2", None, None, "fluency", 3.0)], criteria=[Criterion("fluency")]
    )
    assert study.system_scores("fluency")["H"] == 3.0
    assert len(toy().ratings) == 7  # the original is unchanged
    with pytest.raises(StudyError, match="outside the adequacy scale"):
        add_ratings(toy(), [Rating("H", "s2", None, None, "adequacy", 9.0)])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "the study has no name"),
        ({"segments": ()}, "the study has no segments"),
        (
            {"segments": (Segment("s1"), Segment("s1"), Segment("s3"))},
            "segment id 's1' is used twice",
        ),
        ({"segments": (Segment(""), Segment("s2"), Segment("s3"))}, "segment 1 has an empty id"),
        ({"references": {}}, "no reference translation"),
        (
            {"references": {"ref": ["a", "b"]}},
            "reference 'ref' has 2 texts, but the study has 3 segments",
        ),
        (
            {"references": {"ref": ["a", None, "c"]}},
            "segment 's2' has no reference text in any reference",
        ),
        ({"references": {"A": ["a", "b", "c"]}}, "'A' is both a reference and a system"),
        ({"human_systems": frozenset({"Z"})}, "human_systems names unknown systems: Z"),
        (
            {
                "criteria": {
                    "adequacy": Criterion("adequacy", scale=(5.0, 1.0)),
                    "errors": Criterion("errors"),
                }
            },
            r"invalid scale \(5.0, 1.0\)",
        ),
        (
            {"criteria": {"adequacy": Criterion("fluency"), "errors": Criterion("errors")}},
            "criterion stored under 'adequacy' is named 'fluency'",
        ),
    ],
)
def test_validate_study_cases(change: dict, message: str) -> None:
    with pytest.raises(StudyError, match=message):
        validate_study(replace(toy(), **change))


@pytest.mark.parametrize(
    ("rating", "message"),
    [
        (
            Rating("Q", "s1", None, None, "adequacy", 3.0),
            "unknown system 'Q'; known systems: A, B, H",
        ),
        (Rating("A", "s9", None, None, "adequacy", 3.0), "unknown segment 's9'"),
        (Rating("A", "s1", None, None, "bleu", 3.0), "criterion 'bleu', which is not declared"),
        (Rating("A", "s1", None, None, "adequacy", math.nan), "not a finite number: nan"),
        (
            Rating("A", "s1", None, None, "adequacy", 0.5),
            r"score 0.5, outside the adequacy scale \(1.0, 5.0\)",
        ),
    ],
)
def test_validate_ratings(rating: Rating, message: str) -> None:
    with pytest.raises(StudyError, match=message):
        validate_study(replace(toy(), ratings=(rating,)))


def test_valid_toy_passes() -> None:
    validate_study(toy())
