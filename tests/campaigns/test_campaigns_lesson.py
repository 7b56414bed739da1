"""Class mode: a lesson-sized campaign and the projector's live summary of the class's ratings.

Cross-checks: Pearson r and the least-squares line against scipy.stats.linregress, Krippendorff's alpha against
:func:`bleu_core.campaigns.krippendorff_alpha` on the same reliability data, the expert comparison against
``numpy.corrcoef``; the plan against the TED demo (13 MT systems + 1 human translation, MQM).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from bleu_core import corpus_bleu
from bleu_core.campaigns import CampaignError, CampaignStore, JudgeSession, krippendorff_alpha
from bleu_core.campaigns.agreement import reliability_data
from bleu_core.campaigns.lesson import (
    LESSON_MAX_WORDS,
    choose_lesson_systems,
    class_snapshot,
    is_lesson,
    lesson_display,
    lesson_plan,
    lesson_segments,
)


@pytest.fixture(scope="module")
def ted_bleu(ted_zh_en):
    refs = [ted_zh_en.references[r] for r in ted_zh_en.references]
    return {s: corpus_bleu(ted_zh_en.systems[s], refs).score for s in ted_zh_en.systems}


def test_lesson_plan_on_the_ted_demo(ted_zh_en, ted_bleu):
    plan = lesson_plan(ted_zh_en, ted_bleu, seed=7, bleu_signature="nrefs:1|tok:13a")
    assert len(plan.systems) == 5 and len(set(plan.systems)) == 5
    human = [s for s in plan.systems if s in ted_zh_en.human_systems]
    assert human == plan.metadata["human_systems"] and len(human) == 1  # the paper rated humans too
    machines = sorted(
        (s for s in ted_zh_en.systems if s not in ted_zh_en.human_systems), key=ted_bleu.get
    )
    assert machines[0] in plan.systems and machines[-1] in plan.systems  # the whole BLEU range
    assert len(plan.segment_ids) == 10 and len(plan.items) == 50
    index = {seg.id: i for i, seg in enumerate(ted_zh_en.segments)}
    for seg_id in plan.segment_ids:  # short enough for a phone
        i = index[seg_id]
        for s in plan.systems:
            assert len(ted_zh_en.systems[s][i].split()) <= LESSON_MAX_WORDS
    assert plan.metadata["bleu"] == {s: ted_bleu[s] for s in plan.systems}
    assert plan.metadata["bleu_signature"] == "nrefs:1|tok:13a"
    assert [c.name for c in plan.criteria] == ["adequacy", "fluency"]
    experts = plan.metadata["experts"]
    assert experts["mqm"]["higher_is_better"] is ted_zh_en.criteria["mqm"].higher_is_better
    mqm = ted_zh_en.system_scores("mqm")
    assert experts["mqm"]["scores"] == {s: mqm[s] for s in plan.systems}
    # the same seed gives the same lesson
    again = lesson_plan(ted_zh_en, ted_bleu, seed=7, bleu_signature="nrefs:1|tok:13a")
    assert again.items == plan.items


def test_lesson_systems_need_two_scored_systems():
    with pytest.raises(CampaignError, match="at least 2 systems with a BLEU score"):
        choose_lesson_systems({"a": 1.0, "b": math.nan}, set(), 5)
    with pytest.raises(CampaignError, match="a lesson needs at least 2 systems, not 1"):
        choose_lesson_systems({"a": 1.0, "b": 2.0}, set(), 1)


@given(
    bleu=st.dictionaries(
        st.text("abcdefgh", min_size=1, max_size=3),
        st.floats(0, 100, allow_nan=False),
        min_size=2,
        max_size=12,
    ),
    n=st.integers(2, 8),
)
@settings(max_examples=60, deadline=None)
def test_lesson_systems_properties(bleu, n):
    chosen = choose_lesson_systems(bleu, set(), n)
    assert len(chosen) == len(set(chosen)) == min(n, len(bleu))
    assert min(bleu, key=lambda s: (bleu[s], s)) in chosen or bleu[chosen[0]] == min(bleu.values())
    assert max(bleu.values()) in [bleu[s] for s in chosen]


def _class_ratings(store, code, n_students, rng):
    """Students join and rate every item: better systems get higher scores, with noise."""
    campaign = store.get_campaign(code)
    bleu = campaign.metadata["bleu"]
    for k in range(n_students):
        session = JudgeSession.join(store, code, f"student {k}", "class")
        for pos in range(session.n_items):
            item = session.item(pos)
            base = 1 + 4 * bleu[item.system] / max(bleu.values())
            session.submit(
                pos,
                {
                    c: int(np.clip(round(base + rng.normal(0, 0.7)), 1, 5))
                    for c in campaign.criterion_names
                },
            )
    return campaign


def test_snapshot_of_a_stored_lesson_matches_scipy(tmp_path, ted_zh_en, ted_bleu):
    store = CampaignStore(tmp_path / "c.sqlite")
    created = store.create_campaign(lesson_plan(ted_zh_en, ted_bleu, seed=3, n_segments=4))
    code, key = created.campaign.code, created.organiser_key
    campaign = _class_ratings(store, code, 3, np.random.default_rng(0))
    assert is_lesson(campaign)
    ratings = store.ratings(code, key)
    snap = class_snapshot(campaign, ratings, n_joined=4, n_resamples=100, seed=5)
    # "Ratings so far" counts a student's item once, adequacy and fluency together
    assert len(ratings) == 3 * 20 * 2
    assert snap.n_ratings == len({(r.judge, r.position) for r in ratings})
    assert snap.n_ratings == 3 * 20
    assert snap.n_expected == 4 * 20 and snap.progress == pytest.approx(0.75)
    for criterion in ("adequacy", "fluency"):
        fit = snap.fits[criterion]
        assert set(fit.systems) == set(campaign.systems)
        ref = stats.linregress(fit.bleu, fit.human)
        assert fit.statistic == pytest.approx(ref.rvalue)
        assert fit.slope == pytest.approx(ref.slope) and fit.intercept == pytest.approx(
            ref.intercept
        )
        means = {
            s: np.mean([r.score for r in ratings if r.criterion == criterion and r.system == s])
            for s in campaign.systems
        }
        assert snap.system_means[criterion] == pytest.approx(means)
        direct = krippendorff_alpha(
            reliability_data(ratings, criterion).data, n_resamples=100, seed=5
        )
        assert snap.alpha[criterion].statistic == pytest.approx(direct.statistic)
        assert snap.alpha[criterion].confidence_interval == direct.confidence_interval
        expert = campaign.metadata["experts"]["mqm"]["scores"]
        common = [s for s in campaign.systems if s in expert]
        r = np.corrcoef([expert[s] for s in common], [means[s] for s in common])[0, 1]
        assert snap.experts[f"{criterion} vs mqm"]["r"] == pytest.approx(r)
    assert snap.alpha_history and snap.alpha_history[-1][0] == len(ratings)
    last = {c: a for n, c, a in snap.alpha_history if n == len(ratings)}
    assert last["adequacy"] == pytest.approx(snap.alpha["adequacy"].statistic)


def test_snapshot_before_anyone_rated(tmp_path, ted_zh_en, ted_bleu):
    store = CampaignStore(tmp_path / "c.sqlite")
    created = store.create_campaign(lesson_plan(ted_zh_en, ted_bleu, seed=3, n_segments=2))
    snap = class_snapshot(created.campaign, [], n_joined=0)
    assert (snap.n_ratings, snap.progress, snap.alpha_history) == (0, 0.0, ())
    assert all(a is None for a in snap.alpha.values())
    assert all(math.isnan(f.statistic) for f in snap.fits.values())


def test_alpha_history_follows_arrival_order(tmp_path, ted_zh_en, ted_bleu):
    store = CampaignStore(tmp_path / "c.sqlite")
    created = store.create_campaign(lesson_plan(ted_zh_en, ted_bleu, seed=3, n_segments=2))
    campaign = _class_ratings(store, created.campaign.code, 2, np.random.default_rng(1))
    ratings = store.ratings(campaign.code, created.organiser_key)
    shifted = [
        r.__class__(**{**r.__dict__, "updated_at": r.updated_at + timedelta(seconds=i)})
        for i, r in enumerate(ratings)
    ]
    snap = class_snapshot(campaign, shifted[::-1], n_joined=2, n_resamples=0, history_points=4)
    counts = [n for n, _, _ in snap.alpha_history]
    assert counts == sorted(counts) and counts[-1] == len(ratings)
    assert datetime.now(UTC)  # timestamps are timezone-aware in the store


@pytest.mark.parametrize(
    ("reads", "display", "sees"),
    [
        ("target", "reference", "reference translation"),
        ("source", "source", "source sentence"),
        ("both", "both", "source sentence"),
    ],
)
def test_the_lesson_shows_what_the_class_reads_and_asks_about_it(
    ted_zh_en, ted_bleu, reads, display, sees
):
    plan = lesson_plan(ted_zh_en, ted_bleu, seed=7, reads=reads)
    assert plan.display == display
    adequacy = plan.criteria[0]
    assert adequacy.name == "adequacy" and sees in adequacy.question
    assert "original" not in adequacy.question  # the students never see an "original"


def test_what_the_class_reads_must_be_known():
    with pytest.raises(
        CampaignError, match="what the class reads must be one of target, source, both"
    ):
        lesson_display("german", has_reference=True, has_source=True)


def test_the_lesson_size_gives_every_system_enough_ratings_for_r():
    for students in (1, 3, 7, 20, 45, 200):
        segments = lesson_segments(students)
        assert 10 <= segments <= 30
        assert students * segments >= 40 or segments == 30
    with pytest.raises(CampaignError, match="at least 1 student"):
        lesson_segments(0)
