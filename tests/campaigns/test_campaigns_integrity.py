"""A rating exists only when the judge gave it, to the item they saw: a save names its item, and the store
takes it only for the item the judge is on (a second tap on "Save and next" is ignored and says so); a lesson
keeps where its study came from.

The ``store`` fixture is a SQLite store (``conftest.py``).
"""

from __future__ import annotations

import pytest

from bleu_core.campaigns import AlreadySaved, CampaignError, JudgeSession
from bleu_core.campaigns.lesson import lesson_plan, lesson_study_source
from bleu_core.campaigns.planning import plan_campaign, with_protocol
from bleu_core.campaigns.protocols import MarkedSpan
from bleu_core.study.model import Segment, Study


def esa_campaign(store):
    plan = plan_campaign(
        name="integrity", study_name="toy", segment_ids=["s1", "s2"],
        translations={"A": ["a one", "a two"], "B": ["b one", "b two"]}, sources=None, references=None,
        systems=["A", "B"], n_segments=2, seed=0,
    )  # fmt: skip
    return store.create_campaign(with_protocol(plan, "esa"))


def test_a_second_save_of_the_same_item_is_ignored_and_the_next_item_stays_unrated(store):
    created = esa_campaign(store)
    code, key = created.campaign.code, created.organiser_key
    session = JudgeSession.join(store, code, "ana", "monolingual")
    assert session.submit(0, {"esa": 70}, [MarkedSpan(0, 1, "minor")], at_cursor=True) == 1
    with pytest.raises(
        AlreadySaved, match=r"item 1 is already saved; this second save changed nothing"
    ):
        session.submit(0, {"esa": 20}, [], at_cursor=True)  # the late second tap
    ratings = store.ratings(code, key)
    assert [(r.position, r.score) for r in ratings] == [(0, 70)]  # item 2 was never rated
    assert session.position == 1 and store.resume(code, session.token).cursor == 1
    assert store.my_spans(code, session.token)[0] == (MarkedSpan(0, 1, "minor"),)


def test_a_save_for_an_item_the_judge_is_not_on_is_refused(store):
    created = esa_campaign(store)
    session = JudgeSession.join(store, created.campaign.code, "bo", "monolingual")
    with pytest.raises(
        CampaignError, match=r"item 3 is not the item you are on \(item 1\); nothing was saved"
    ):
        session.submit(2, {"esa": 50}, [], at_cursor=True)
    assert store.ratings(created.campaign.code, created.organiser_key) == []


def test_going_back_makes_an_item_the_current_one_again(store):
    created = esa_campaign(store)
    session = JudgeSession.join(store, created.campaign.code, "cy", "monolingual")
    session.submit(0, {"esa": 40}, [], at_cursor=True)
    session.back()
    assert session.submit(0, {"esa": 90}, [], at_cursor=True) == 1  # a deliberate change is a save
    assert [r.score for r in store.ratings(created.campaign.code, created.organiser_key)] == [90]


def test_without_at_cursor_any_item_may_be_saved(store):
    created = esa_campaign(store)
    session = JudgeSession.join(store, created.campaign.code, "di", "monolingual")
    assert session.submit(3, {"esa": 10}, []) == 4  # the storage layer's tools and load tests


def test_a_lesson_keeps_where_its_study_came_from():
    segments = tuple(Segment(str(i), source=f"quelle {i}") for i in range(4))
    systems = {s: [f"{s} says {i}" for i in range(4)] for s in ("a", "b", "c")}
    study = Study("toy", segments, {"ref": [f"says {i}" for i in range(4)]}, systems)
    bleu = {"a": 10.0, "b": 20.0, "c": 30.0}
    plan = lesson_plan(study, bleu, seed=1, n_segments=2, study_source="demo:ted-zh-en")
    assert plan.metadata["study_source"] == "demo:ted-zh-en"
    from bleu_core.campaigns import CampaignStore

    store = CampaignStore("sqlite://")
    campaign = store.create_campaign(plan).campaign
    assert lesson_study_source(campaign) == "demo:ted-zh-en"
    older = store.create_campaign(lesson_plan(study, bleu, seed=1, n_segments=2)).campaign
    assert lesson_study_source(older) is None
