"""The name an ESA campaign's ratings get when they join the open study: plain ``esa`` when the study has no
``esa`` of its own (joining again replaces them), ``esa (CODE)`` beside an expert ESA (which stays untouched),
and the campaign code on every criterion of the other protocols.
"""

from __future__ import annotations

from bleu_core.campaigns import CampaignStore, plan_from_study
from bleu_core.campaigns.integration import (
    apply_to_study,
    esa_name_clash,
    is_campaign_copy,
    study_criterion_name,
)
from bleu_core.study.building import add_ratings
from bleu_core.study.model import Criterion, Rating, Segment, Study

TEXTS = {"A": ["a cat sat", "a dog ran", "it rains"], "B": ["cat sits", "dog runs", "rain"]}


def toy_study() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(str(i + 1), source=f"src {i}") for i in range(3)),
        references={"ref": ["the cat sat", "the dog ran", "it rained"]},
        systems={k: list(v) for k, v in TEXTS.items()},
    )


def with_expert_esa(study: Study) -> Study:
    """*study* with an expert ``esa`` criterion (70 for every translation), as a WMT24 release brings."""
    rows = [Rating(s, seg, "expert", None, "esa", 70.0) for s in TEXTS for seg in ("1", "2", "3")]
    return add_ratings(study, rows, [Criterion("esa", scale=(0.0, 100.0), description="WMT24 ESA")])


def rated(store: CampaignStore, protocol: str = "esa", seed: int = 5):
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


def test_an_esa_campaign_joins_as_plain_esa_and_again_replaces_itself(store):
    campaign, ratings = rated(store)
    study = toy_study()
    assert not esa_name_clash(study, campaign)
    assert study_criterion_name(campaign, "esa", study) == "esa"
    new = apply_to_study(study, campaign, ratings)
    assert "esa" in new.criteria and is_campaign_copy(new.criteria["esa"], campaign)
    n = len([r for r in new.ratings if r.criterion == "esa"])
    assert n == len(ratings) > 0
    # joining again (the study now holds this campaign's "esa"): still plain, replaced, not doubled
    assert not esa_name_clash(new, campaign)
    again = apply_to_study(new, campaign, ratings)
    assert len([r for r in again.ratings if r.criterion == "esa"]) == n
    assert [c for c in again.criteria if c.startswith("esa")] == ["esa"]


def test_beside_an_expert_esa_the_campaign_code_tells_them_apart(store):
    campaign, ratings = rated(store)
    study = with_expert_esa(toy_study())
    assert esa_name_clash(study, campaign)
    name = study_criterion_name(campaign, "esa", study)
    assert name == f"esa ({campaign.code})"
    new = apply_to_study(study, campaign, ratings)
    expert = [r for r in new.ratings if r.criterion == "esa"]
    assert len(expert) == 6 and {r.rater for r in expert} == {"expert"}  # untouched
    assert {r.rater for r in new.ratings if r.criterion == name} == {"Ana"}
    assert new.criteria["esa"].description == "WMT24 ESA"


def test_a_second_campaign_does_not_take_the_first_ones_plain_name(store):
    first, first_ratings = rated(store, seed=5)
    second, second_ratings = rated(store, seed=6)
    study = apply_to_study(toy_study(), first, first_ratings)
    assert esa_name_clash(study, second)
    new = apply_to_study(study, second, second_ratings)
    assert {r.rater for r in new.ratings if r.criterion == "esa"} == {"Ana"}
    assert len([r for r in new.ratings if r.criterion == "esa"]) == len(first_ratings)
    assert f"esa ({second.code})" in new.criteria


def test_other_protocols_keep_the_campaign_code(store):
    campaign, ratings = rated(store, protocol="adequacy-fluency")
    study = toy_study()
    assert not esa_name_clash(study, campaign)
    new = apply_to_study(study, campaign, ratings)
    assert {f"adequacy ({campaign.code})", f"fluency ({campaign.code})"} <= set(new.criteria)
    assert study_criterion_name(campaign, "adequacy") == f"adequacy ({campaign.code})"
