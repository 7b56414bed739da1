"""The end-of-class summary names each criterion's own scale on its axis: 0-100 in an ESA lesson."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bleu_core.campaigns import Campaign, RatingCriterion, StoredRating
from bleu_core.campaigns.lesson import class_snapshot
from ui.campaigns import class_results

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def axis_titles(spec: dict) -> list[str]:
    found = []
    for panel in spec["hconcat"]:
        for layer in panel["layer"]:
            y = layer.get("encoding", {}).get("y", {})
            if "title" in y:
                found.append(y["title"])
    return found


def esa_lesson() -> tuple[Campaign, list[StoredRating]]:
    esa = RatingCriterion("esa", "q", tuple(str(v) for v in range(101)), 0)
    campaign = Campaign(
        "K7", "lesson", "toy", ("a", "b", "c"), ("1",), (esa,), "neither", ("class",), 1, 3, T0,
        metadata={"lesson": True, "bleu": {"a": 10.0, "b": 20.0, "c": 30.0}}, protocol="esa",
    )  # fmt: skip
    ratings = [
        StoredRating("K7", "ana", "class", p, "1", s, "esa", v, T0, T0)
        for p, (s, v) in enumerate(zip("abc", (20, 55, 90), strict=True))
    ]
    return campaign, ratings


def test_an_esa_lesson_summary_reads_0_to_100():
    campaign, ratings = esa_lesson()
    snap = class_snapshot(campaign, ratings, 1, n_resamples=0)
    spec = json.loads(class_results.summary_chart(campaign, snap).to_json())
    assert set(axis_titles(spec)) == {"class esa (0-100)"}


def test_the_projectors_fit_chart_reads_0_to_100_in_an_esa_lesson():
    from ui.campaigns.class_mode import fit_chart

    campaign, ratings = esa_lesson()
    snap = class_snapshot(campaign, ratings, 1, n_resamples=0)
    spec = json.dumps(json.loads(fit_chart(campaign, snap, "esa").to_json()))
    assert "class esa (mean, 0-100)" in spec and "1-5" not in spec


def test_the_class_ratings_table_names_the_criterion_as_the_joined_study_does():
    """Joined to a study without ESA of its own, the class's ESA is the study's ``esa``: the zip's
    class-ratings table says the same name."""
    from bleu_core.study.demo import load_demo

    campaign, ratings = esa_lesson()
    study = load_demo("ted-en-de")
    frame = class_results.class_ratings_frame(campaign, ratings, study)
    assert set(frame["criterion"]) == {"esa"}
