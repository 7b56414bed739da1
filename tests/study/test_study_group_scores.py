"""One human score per system from one rater group (bleu_core.study.ratings.group_system_scores): the same
aggregation as Study.system_scores, on the group's ratings only."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from bleu_core.errors import StudyError
from bleu_core.study.model import Criterion, Rating, Segment, Study
from bleu_core.study.ratings import group_system_scores


def two_groups() -> Study:
    ratings = (
        Rating("A", "1", "r1", "g1", "adequacy", 4.0),
        Rating("A", "1", "r4", "g1", "adequacy", 3.0),
        Rating("A", "2", "r1", "g1", "adequacy", 5.0),
        Rating("A", "2", "r2", "g2", "adequacy", 2.0),
        Rating("B", "1", "r1", "g1", "adequacy", 3.0),
        Rating("B", None, "r3", "g2", "adequacy", 1.5),
        Rating("B", "2", "r2", "g2", "adequacy", 4.0),
    )
    return Study(
        name="groups",
        segments=tuple(Segment(str(i), doc_id="d") for i in range(1, 4)),
        references={"ref": ["a b c", "d e f", "g h"]},
        systems={"A": ["a b c", "d e", "g h"], "B": ["a", "x y", None]},
        criteria={"adequacy": Criterion("adequacy", scale=(1.0, 5.0))},
        ratings=ratings,
    )


def test_a_group_by_hand():
    study = two_groups()
    # g1: A segment 1 mean (4 + 3) / 2 = 3.5, segment 2: 5 -> (3.5 + 5) / 2; B segment 1: 3
    assert group_system_scores(study, "adequacy", "g1") == {"A": 4.25, "B": 3.0}
    # g2: A segment 2: 2; B has a system-level rating, which wins over its segment's 4
    assert group_system_scores(study, "adequacy", "g2") == {"A": 2.0, "B": 1.5}
    unrated = group_system_scores(study, "adequacy", "nobody")
    assert all(math.isnan(v) for v in unrated.values()) and set(unrated) == {"A", "B"}


def test_with_every_rater_in_the_group_it_is_the_study_s_score():
    study = two_groups()
    everyone = tuple(replace(r, group="all") for r in study.ratings)
    one = replace(study, ratings=everyone)
    assert group_system_scores(one, "adequacy", "all") == study.system_scores("adequacy")


def test_an_unknown_criterion_is_named():
    with pytest.raises(StudyError, match="unknown criterion 'fluency'; this study has: adequacy"):
        group_system_scores(two_groups(), "fluency", "g1")
