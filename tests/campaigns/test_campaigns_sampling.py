"""Sampling and the fixed dispersed order (BLEU paper §4: "randomly ordered to disperse the five translations of
each source sentence"; "All judges ... saw the sentence pairs in the same order")."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.campaigns import (
    CampaignError,
    RatingCriterion,
    dispersed_order,
    min_same_source_gap,
    plan_campaign,
    sample_segments,
)

seg_lists = st.lists(st.text(min_size=1, max_size=4), min_size=1, max_size=40, unique=True)
sys_lists = st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=7, unique=True)
seeds = st.integers(min_value=0, max_value=2**63 - 1)


@settings(max_examples=150, deadline=None)
@given(seg_lists, sys_lists, seeds)
def test_order_is_every_pair_once_and_dispersed(segments, systems, seed):
    order = dispersed_order(segments, systems, seed=seed)
    assert Counter(order) == Counter((s, y) for s in segments for y in systems)
    gap = min_same_source_gap(order)
    if len(systems) == 1:
        assert gap is None
    else:
        assert gap >= len(segments) // 2 + 1
    # each "round" of len(segments) items shows every segment exactly once
    for r in range(len(systems)):
        assert sorted(s for s, _ in order[r * len(segments) : (r + 1) * len(segments)]) == sorted(
            segments
        )


@settings(max_examples=60, deadline=None)
@given(seg_lists, sys_lists, seeds)
def test_same_seed_same_order(segments, systems, seed):
    assert dispersed_order(segments, systems, seed=seed) == dispersed_order(
        segments, systems, seed=seed
    )


def test_different_seeds_give_different_orders():
    segments = [f"s{i}" for i in range(20)]
    orders = {dispersed_order(segments, ["A", "B", "C"], seed=s) for s in range(10)}
    assert len(orders) == 10


def test_order_is_not_the_naive_one():
    # the translations of one source must not come one after another
    segments = [f"s{i}" for i in range(10)]
    order = dispersed_order(segments, ["A", "B", "C", "D", "E"], seed=0)
    assert all(order[i][0] != order[i + 1][0] for i in range(len(order) - 1))
    assert min_same_source_gap(order) >= 6


def test_systems_are_spread_over_rounds():
    # over many seeds every system appears in the first round sometimes (no system is always shown first)
    segments = [f"s{i}" for i in range(6)]
    first_round = Counter()
    for seed in range(50):
        first_round.update(y for _, y in dispersed_order(segments, ["A", "B", "C"], seed=seed)[:6])
    assert set(first_round) == {"A", "B", "C"}


@settings(max_examples=100, deadline=None)
@given(seg_lists, st.data(), seeds)
def test_sample_is_a_subset_in_corpus_order(segments, data, seed):
    n = data.draw(st.integers(min_value=1, max_value=len(segments)))
    chosen = sample_segments(segments, n, seed=seed)
    assert len(chosen) == n and len(set(chosen)) == n
    positions = [segments.index(s) for s in chosen]
    assert positions == sorted(positions)
    assert chosen == sample_segments(segments, n, seed=seed)


def test_sample_uses_the_seed():
    segments = [f"s{i}" for i in range(100)]
    assert sample_segments(segments, 10, seed=1) != sample_segments(segments, 10, seed=2)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: sample_segments(["a"], 2, seed=0),
            r"asked for 2 segments but only 1 can be rated; ask for at most 1",
        ),
        (
            lambda: sample_segments(["a"], 0, seed=0),
            r"number of segments 0 must be a whole number >= 1",
        ),
        (lambda: sample_segments(["a", "a"], 1, seed=0), r"segment 'a' is listed twice"),
        (lambda: sample_segments(["a"], 1, seed=-3), r"seed -3 must be a whole number >= 0"),
        (lambda: sample_segments(["a"], 1, seed=1.5), r"seed 1.5 must be a whole number >= 0"),
        (
            lambda: dispersed_order([], ["A"], seed=0),
            r"no segments to order; sample at least 1 segment",
        ),
        (
            lambda: dispersed_order(["a"], [], seed=0),
            r"no systems to order; choose at least 1 system",
        ),
        (lambda: dispersed_order(["a"], ["A", "A"], seed=0), r"system 'A' is listed twice"),
    ],
)
def test_sampling_errors(call, message):
    with pytest.raises(CampaignError, match=message):
        call()


# ------------------------------------------------------------------------------------------- planning
BASE = dict(
    name="p",
    study_name="toy",
    segment_ids=["s1", "s2", "s3", "s4"],
    translations={"A": ["a1", "a2", None, "a4"], "B": ["b1", "b2", "b3", " "]},
    sources=["x1", "", "x3", "x4"],
    references=["r1", "r2", "r3", "r4"],
    systems=["A", "B"],
    n_segments=1,
    seed=3,
)


def plan(**kw):
    return plan_campaign(**{**BASE, **kw})


def test_only_segments_with_every_text_are_eligible():
    # s3 lacks A, s4 has a blank B: only s1, s2 are eligible; with the source shown, s2 (empty source) drops too
    assert {plan(n_segments=2, display="neither").segment_ids} == {("s1", "s2")}
    assert plan(n_segments=1, display="source").segment_ids == ("s1",)
    p = plan(n_segments=2, display="both", sources=["x1", "x2", "x3", "x4"])
    assert [it.position for it in p.items] == [0, 1, 2, 3]
    assert all(it.source and it.reference for it in p.items)
    assert {(it.segment_id, it.system) for it in p.items} == {
        (s, y) for s in ("s1", "s2") for y in ("A", "B")
    }


def test_default_plan_uses_paper_scales_and_groups():
    p = plan()
    assert [c.name for c in p.criteria] == ["adequacy", "fluency"]
    assert all(
        c.scores == (1, 2, 3, 4, 5) and c.labels[0] == "very bad" and c.labels[4] == "very good"
        for c in p.criteria
    )
    assert p.groups == ("monolingual", "bilingual") and p.display == "neither"


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"n_segments": 3}, r"asked for 3 segments but only 2 can be rated; ask for at most 2"),
        ({"systems": ["A", "Z"]}, r"system\(s\) 'Z' are not in the study; choose from 'A', 'B'"),
        ({"systems": []}, r"no systems chosen; choose at least 1 system"),
        (
            {"display": "all"},
            r"display 'all' is unknown; use one of source, reference, both, neither",
        ),
        (
            {"display": "source", "sources": None},
            r"judges should see the source .* no source texts; choose display 'reference' or 'neither'",
        ),
        (
            {"display": "reference", "references": None},
            r"judges should see a reference .* has no reference; choose display 'source' or 'neither'",
        ),
        ({"criteria": []}, r"no criteria chosen; choose at least 1 criterion"),
        (
            {"criteria": [RatingCriterion.paper("x"), RatingCriterion.paper("x")]},
            r"two criteria have the same name",
        ),
        ({"groups": []}, r"no rater groups; give at least 1 group"),
        ({"groups": ["a", "a "]}, r"a rater group is listed twice"),
        ({"name": ""}, r"campaign name is empty; type a name"),
        ({"references": ["r1"]}, r"references has 1 lines but there are 4 segments"),
        (
            {"translations": {"A": [""] * 4, "B": [""] * 4}},
            r"no segment has a translation from every chosen system; choose fewer systems",
        ),
    ],
)
def test_plan_errors(kw, message):
    with pytest.raises(CampaignError, match=message):
        plan(**kw)


def test_criterion_validation_messages():
    with pytest.raises(
        CampaignError, match=r"criterion 'x' has 1 scale label\(s\); give at least 2"
    ):
        RatingCriterion("x", labels=("only",))
    with pytest.raises(CampaignError, match=r"criterion name is empty"):
        RatingCriterion(" ")
    with pytest.raises(CampaignError, match=r"the lowest score must be a whole number"):
        RatingCriterion("x", low=1.5)
