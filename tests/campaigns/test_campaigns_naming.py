"""The name an ESA or DA campaign's ratings get when they join the open study (one rule for both,
:func:`~bleu_core.campaigns.integration.name_clash`): plain ``esa`` / ``da`` when the study has no such
criterion of its own (joining again replaces them), ``esa (CODE)`` / ``da (CODE)`` beside an expert ESA, a
WMT release's DA or its DA z (which stay untouched), and the campaign code on every criterion of adequacy +
fluency.
"""

from __future__ import annotations

import pytest

from bleu_core.campaigns import CampaignStore, plan_from_study
from bleu_core.campaigns.integration import (
    apply_to_study,
    is_campaign_copy,
    name_clash,
    name_clash_note,
    study_criterion_name,
)
from bleu_core.evaluation.tau_like import study_rule
from bleu_core.study.building import add_ratings
from bleu_core.study.criterion_order import headline_criterion
from bleu_core.study.model import Criterion, Rating, Segment, Study

TEXTS = {"A": ["a cat sat", "a dog ran", "it rains"], "B": ["cat sits", "dog runs", "rain"]}
PLAIN = ("esa", "da")  # the protocols whose one criterion is named as the protocol


def toy_study() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(str(i + 1), source=f"src {i}") for i in range(3)),
        references={"ref": ["the cat sat", "the dog ran", "it rained"]},
        systems={k: list(v) for k, v in TEXTS.items()},
    )


def with_own(study: Study, criterion: str, scale=(0.0, 100.0)) -> Study:
    """*study* with a *criterion* of its own (70 for every translation, rater "expert"), as a WMT release
    brings ``esa`` (WMT24) or ``da`` and ``da_z`` (WMT17-22)."""
    rows = [
        Rating(s, seg, "expert", None, criterion, 70.0) for s in TEXTS for seg in ("1", "2", "3")
    ]
    return add_ratings(study, rows, [Criterion(criterion, scale=scale, description="WMT release")])


def rated(store: CampaignStore, protocol: str, seed: int = 5):
    """A campaign under *protocol* over every (segment, system) of the toy study, rated by Ana."""
    plan = plan_from_study(
        toy_study(),
        systems=["A", "B"],
        n_segments=3,
        seed=seed,
        display="source",
        protocol=protocol,
    )
    created = store.create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    token = store.join(code, "Ana", "bilingual").token
    for item in plan.items:
        scores = {c.name: c.low + (item.position % (c.high - c.low + 1)) for c in plan.criteria}
        store.rate(code, token, item.position, scores, [] if protocol == "esa" else None)
    return created.campaign, store.ratings(code, key)


@pytest.mark.parametrize("protocol", PLAIN)
def test_a_campaign_joins_under_the_plain_name_and_again_replaces_itself(store, protocol):
    campaign, ratings = rated(store, protocol)
    study = toy_study()
    assert name_clash(study, campaign, protocol) is None and name_clash_note(study, campaign) == ""
    assert study_criterion_name(campaign, protocol, study) == protocol
    new = apply_to_study(study, campaign, ratings)
    assert is_campaign_copy(new.criteria[protocol], campaign)
    assert new.criteria[protocol].scale == (0.0, 100.0)  # raw 0-100, as the name promises
    n = len([r for r in new.ratings if r.criterion == protocol])
    assert n == len(ratings) > 0
    # joining again (the study now holds this campaign's copy): still plain, replaced, not doubled
    assert name_clash(new, campaign, protocol) is None
    again = apply_to_study(new, campaign, ratings)
    assert len([r for r in again.ratings if r.criterion == protocol]) == n
    assert [c for c in again.criteria if c.startswith(protocol)] == [protocol]


@pytest.mark.parametrize("protocol", PLAIN)
def test_beside_the_studys_own_criterion_the_campaign_code_tells_them_apart(store, protocol):
    campaign, ratings = rated(store, protocol)
    study = with_own(toy_study(), protocol)
    assert name_clash(study, campaign, protocol) == protocol
    name = study_criterion_name(campaign, protocol, study)
    assert name == f"{protocol} ({campaign.code})"
    article = "an" if protocol == "esa" else "a"
    assert name_clash_note(study, campaign) == (
        f"The study already has {article} {protocol} criterion of its own (a release's ratings or another "
        f"campaign's), so this campaign's is named {name} to keep the two apart."
    )
    new = apply_to_study(study, campaign, ratings)
    own = [r for r in new.ratings if r.criterion == protocol]
    assert len(own) == 6 and {r.rater for r in own} == {"expert"}  # untouched
    assert {r.rater for r in new.ratings if r.criterion == name} == {"Ana"}
    assert new.criteria[protocol].description == "WMT release"


@pytest.mark.parametrize("protocol", PLAIN)
def test_a_second_campaign_does_not_take_the_first_ones_plain_name(store, protocol):
    first, first_ratings = rated(store, protocol, seed=5)
    second, second_ratings = rated(store, protocol, seed=6)
    study = apply_to_study(toy_study(), first, first_ratings)
    assert name_clash(study, second, protocol) == protocol
    new = apply_to_study(study, second, second_ratings)
    assert len([r for r in new.ratings if r.criterion == protocol]) == len(first_ratings)
    assert f"{protocol} ({second.code})" in new.criteria


@pytest.mark.parametrize(
    ("protocol", "own", "clash"),
    [
        ("da", "da_z", "da_z"),  # a WMT release's DA z without its raw DA
        ("da", "z", "z"),  # a name tau-like also reads as DA z
        ("esa", "esa-z", "esa-z"),
        ("esa", "z", None),  # "z" alone is DA z only
        ("esa", "da_z", None),
    ],
)
def test_a_standardised_twin_of_its_own_keeps_the_plain_name_out(store, protocol, own, clash):
    campaign, ratings = rated(store, protocol)
    study = with_own(toy_study(), own, scale=None)
    assert name_clash(study, campaign, protocol) == clash
    new = apply_to_study(study, campaign, ratings)
    if clash is None:
        assert protocol in new.criteria
        return
    name = f"{protocol} ({campaign.code})"
    assert name in new.criteria and protocol not in new.criteria
    assert name_clash_note(study, campaign) == (
        f"The study already has {own}, the standardised scores of a {protocol} of its own, so this "
        f"campaign's is named {name}: a plain {protocol} would be read as their raw scores."
    )
    assert headline_criterion(new.criteria) == own  # no plain twin for it to lead


def test_a_da_campaigns_plain_da_gets_wmts_25_point_tau_like(store):
    campaign, ratings = rated(store, "da")
    new = apply_to_study(toy_study(), campaign, ratings)
    # the 25 DA points of WMT's DARR (mt-metrics-eval KendallLike), right for a raw 0-100 slider score
    rule = study_rule(new, "da")
    assert (rule.threshold, rule.how) == (25.0, "WMT DARR, 0-100 scale")
    assert {r.score for r in new.ratings} <= set(map(float, range(101)))  # raw slider points


def test_adequacy_fluency_keeps_the_campaign_code(store):
    campaign, ratings = rated(store, "adequacy-fluency")
    study = toy_study()
    assert (
        name_clash(study, campaign, "adequacy") is None and name_clash_note(study, campaign) == ""
    )
    new = apply_to_study(study, campaign, ratings)
    assert {f"adequacy ({campaign.code})", f"fluency ({campaign.code})"} <= set(new.criteria)
    assert "adequacy" not in new.criteria
    assert study_criterion_name(campaign, "adequacy") == f"adequacy ({campaign.code})"


@pytest.mark.parametrize("protocol", PLAIN)
def test_without_a_study_the_name_carries_the_code(store, protocol):
    campaign, _ratings = rated(store, protocol)
    assert study_criterion_name(campaign, protocol) == f"{protocol} ({campaign.code})"
    assert name_clash(None, campaign, protocol) is None
