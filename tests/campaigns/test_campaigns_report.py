"""The organiser's agreement report (bleu_core.campaigns.report), the organiser's form choices
(bleu_core.campaigns.planning.split_names / criteria_from_choices), and the tables the Campaigns page draws from
the report (ui.campaigns.frames)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bleu_core.campaigns import (
    CampaignError,
    JudgeProgress,
    RatingCriterion,
    StoredRating,
    agreement_report,
    criteria_from_choices,
    split_names,
)
from ui.campaigns.frames import agreement_frame, calibration_frame, pairwise_frames, progress_frame
from ui.campaigns.session import campaign_study_key

T = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12 units, None =
# missing. Published: ordinal alpha .815, interval .849; unit 12 is rated once, so 11 units are pairable.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]
OBSERVERS = ["A", "B", "C", "D"]


def stored(judge: str, group: str, position: int, criterion: str, score: int) -> StoredRating:
    return StoredRating(
        "K7P2QX", judge, group, position, f"s{position}", "sys", criterion, score, T, T
    )


def krippendorff_ratings(criterion: str = "fluency") -> list[StoredRating]:
    return [
        stored(judge, "mono" if judge in "AB" else "bi", pos, criterion, score)
        for judge, row in zip(OBSERVERS, KRIPPENDORFF_2011, strict=True)
        for pos, score in enumerate(row)
        if score is not None
    ]


CRITERIA = (RatingCriterion.paper("adequacy"), RatingCriterion.paper("fluency"))


def test_report_reproduces_krippendorffs_published_alphas():
    [report] = agreement_report(CRITERIA, krippendorff_ratings(), n_resamples=0, seed=1)
    assert report.criterion == "fluency"  # adequacy has no ratings: left out
    assert report.raters == tuple(OBSERVERS) and report.groups == ("mono", "mono", "bi", "bi")
    assert round(report.alphas["ordinal"].statistic, 3) == 0.815
    assert round(report.alphas["interval"].statistic, 3) == 0.849
    assert report.n_units == 11
    assert report.group_of("C") == "bi"
    assert len(report.calibration) == 4 and len(report.pairwise.pairs) == 6


def test_report_by_group_and_bootstrap_settings():
    ratings = krippendorff_ratings("fluency") + krippendorff_ratings("adequacy")
    report = agreement_report(CRITERIA, ratings, group="mono", n_resamples=50, seed=9)
    assert [r.criterion for r in report] == ["adequacy", "fluency"]
    for crit in report:
        assert crit.raters == ("A", "B")
        for res in crit.alphas.values():
            assert res.seed == 9 and res.n_resamples == 50
            low, high = res.confidence_interval
            assert low <= high
        # A and B both rated units 1-9 (they differ only on unit 6: 1 vs 2); B alone rated 10 and 12
        assert crit.n_units == 9
    assert agreement_report(CRITERIA, ratings, group="nobody", n_resamples=0) == ()
    assert agreement_report(CRITERIA, [], n_resamples=0) == ()


def test_frames_carry_the_report():
    ratings = krippendorff_ratings()
    report = agreement_report(CRITERIA, ratings, n_resamples=0, seed=1)
    agreement = agreement_frame(report)
    assert list(agreement.columns) == [
        "criterion",
        "alpha (interval)",
        "interval 95% CI",
        "alpha (ordinal)",
        "ordinal 95% CI",
        "mean pairwise r",
        "items rated by ≥ 2",
        "judges",
    ]
    row = agreement.iloc[0]
    assert round(row["alpha (interval)"], 3) == 0.849 and row["interval 95% CI"] == "—"
    assert row["items rated by ≥ 2"] == 11 and row["judges"] == 4
    assert row["mean pairwise r"] == pytest.approx(report[0].pairwise.statistic)

    calibration = calibration_frame(report)
    assert list(calibration["judge"]) == OBSERVERS
    assert list(calibration["group"]) == ["mono", "mono", "bi", "bi"]
    # observer A rated 9 units (row 1 of the table): 1+2+3+3+2+1+4+1+2 = 19
    a = calibration.iloc[0]
    assert a["items"] == 9 and a["mean"] == pytest.approx(19 / 9)

    [(name, matrix)] = pairwise_frames(report).items()
    assert name == "fluency" and list(matrix.index) == OBSERVERS == list(matrix.columns)
    assert all(matrix.loc[j, j] == 1.0 for j in OBSERVERS)

    with_ci = agreement_frame(agreement_report(CRITERIA, ratings, n_resamples=30, seed=2))
    low, high = (float(x) for x in with_ci.iloc[0]["interval 95% CI"].split(" – "))
    assert low <= high


def test_progress_frame():
    progress = [
        JudgeProgress("ana", "mono", 3, 1, 4, 4, T),
        JudgeProgress("bo", "bi", 0, 0, 4, 0, None),
    ]
    frame = progress_frame(progress)
    assert list(frame["done"]) == [0.75, 0.0]
    assert list(frame["last activity (UTC)"]) == ["2024-05-01 12:00:00", ""]
    assert list(frame["rated"]) == [3, 0] and list(frame["skipped"]) == [1, 0]


def test_split_names_and_criteria_from_choices():
    assert split_names("a, b ,,c , ") == ["a", "b", "c"] and split_names("") == []
    crits = criteria_from_choices(
        ["adequacy", "fluency"], ["no", "yes"], extra_name=" overall ", extra_question=" ok? "
    )
    assert [(c.name, c.question, c.low, c.high) for c in crits] == [
        (
            "adequacy",
            "How much of the meaning of the original is expressed in the translation?",
            1,
            2,
        ),
        ("fluency", "How readable and fluent is the translation?", 1, 2),
        ("overall", "ok?", 1, 2),
    ]
    assert criteria_from_choices(["fluency"], ["a", "b"], extra_name="  ") == [
        RatingCriterion("fluency", "How readable and fluent is the translation?", ("a", "b"))
    ]
    with pytest.raises(
        CampaignError, match=r"criterion 'fluency' has 1 scale label\(s\); give at least 2"
    ):
        criteria_from_choices(["fluency"], ["only"])
    with pytest.raises(CampaignError, match="criterion name contains a line break"):
        criteria_from_choices([], ["a", "b"], extra_name="two\nlines")


def test_campaign_study_key_replaces_an_earlier_campaign():
    assert campaign_study_key("test:toy", "ABC", "d1") == "test:toy|campaign:ABC:d1"
    assert campaign_study_key("test:toy|campaign:ABC:d1", "ABC", "d2") == "test:toy|campaign:ABC:d2"
