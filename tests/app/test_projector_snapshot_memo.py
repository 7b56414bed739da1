"""The projector's numbers are computed once per state of the ratings and shared by its refreshes (and by a
second projector of the same lesson): the same numbers as computing them afresh, new ones as soon as any
rating changes."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bleu_core.campaigns import Campaign, StoredRating
from bleu_core.campaigns.lesson import class_snapshot
from bleu_core.campaigns.model import RatingCriterion
from ui.campaigns import projector_parts as parts
from ui.campaigns.projector_access import ClassData

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def lesson(code: str = "K7") -> Campaign:
    return Campaign(
        code, "lesson", "toy", ("a", "b", "c"), ("1", "2"), (RatingCriterion("esa", "q"),),
        "neither", ("class",), 1, 6, T0,
        metadata={"lesson": True, "bleu": {"a": 10.0, "b": 20.0, "c": 30.0}},
    )  # fmt: skip


def ratings(code: str = "K7") -> list[StoredRating]:
    scores = {"ana": (20, 50, 80, 30, 60, 90), "bo": (10, 55, 70, 25, 65, 95)}
    return [
        StoredRating(code, judge, "class", p, "12"[p // 3], "abc"[p % 3], "esa", v, T0, T0)
        for judge, values in scores.items()
        for p, v in enumerate(values)
    ]


@pytest.fixture(autouse=True)
def no_kept_snapshots():
    parts._kept.clear()
    yield
    parts._kept.clear()


def test_a_refresh_with_the_same_ratings_reuses_the_numbers():
    data = ClassData(lesson(), ratings(), [])
    first = parts.snapshot(data)
    assert parts.snapshot(ClassData(lesson(), ratings(), [])) is first
    fresh = class_snapshot(lesson(), ratings(), 0, n_resamples=parts.ALPHA_RESAMPLES, seed=1)
    assert first == fresh


def test_any_changed_rating_gives_new_numbers():
    before = parts.snapshot(ClassData(lesson(), ratings(), []))
    changed = ratings()
    changed[0] = replace(changed[0], score=99, updated_at=datetime(2026, 1, 2, tzinfo=UTC))
    after = parts.snapshot(ClassData(lesson(), changed, []))
    assert after is not before
    assert after.system_means["esa"]["a"] != before.system_means["esa"]["a"]
    assert after == class_snapshot(lesson(), changed, 0, n_resamples=parts.ALPHA_RESAMPLES, seed=1)


def test_only_the_latest_snapshots_are_kept():
    for n in range(parts.KEPT_SNAPSHOTS + 3):
        parts.snapshot(ClassData(lesson(f"L{n}"), ratings(f"L{n}"), []))
    assert len(parts._kept) == parts.KEPT_SNAPSHOTS
    assert [key[0] for key in parts._kept][0] == "L3"  # the three oldest went first
