"""The human ceiling: one human score set against another, or said to be unavailable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.evaluation.ceiling import human_ceiling, rater_split
from bleu_core.evaluation.chance import statistic_value
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.study import Criterion, Rating, Segment, Study
from bleu_core.study.demo import load_demo

WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"


def _study(ratings, n_segments=4, systems=("A", "B", "C", "D")):
    return Study(
        "toy",
        tuple(Segment(str(i + 1)) for i in range(n_segments)),
        {"ref": ["r"] * n_segments},
        {s: ["t"] * n_segments for s in systems},
        frozenset(),
        {
            "da": Criterion("da", scale=(0.0, 100.0)),
            "mqm": Criterion("mqm", higher_is_better=False),
        },
        tuple(ratings),
    )


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_rater_split_puts_two_of_each_items_ratings_on_the_two_sides(seed):
    rng = np.random.default_rng(seed)
    ratings, by_item = [], {}
    for s in "ABCD":
        for g in range(4):
            n = int(rng.integers(1, 4))
            scores = [float(v) for v in rng.integers(0, 100, n)]
            by_item[(s, g)] = scores
            ratings += [Rating(s, str(g + 1), f"r{k}", None, "da", v) for k, v in enumerate(scores)]
    first, second, used = rater_split(_study(ratings), "da", list("ABCD"), seed=seed)
    assert used == seed
    for (s, g), scores in by_item.items():
        a, b = first["ABCD".index(s), g], second["ABCD".index(s), g]
        if len(scores) < 2:
            assert np.isnan(a) and np.isnan(b)
        else:
            assert a in scores and b in scores
            left = list(scores)
            left.remove(a)
            assert b in left  # two different ratings of the item


def test_one_rating_per_item_says_there_is_no_ceiling():
    ratings = [
        Rating(s, "1", "r1", None, "da", v) for s, v in zip("ABCD", (1, 2, 3, 4), strict=True)
    ]
    c = human_ceiling(_study(ratings, 1), "da", "pairwise-accuracy")
    assert not c.available and np.isnan(c.statistic) and c.n_items == 0
    assert "every item has a single da rating" in c.note


def test_ted_demo_has_no_second_rater():
    c = human_ceiling(load_demo("ted-en-de"), "mqm", "acc-eq", seed=2)
    assert not c.available and "single mqm rating" in c.note


def test_a_second_criterion_is_compared_oriented():
    # mqm is lower-is-better: it is negated before it is compared with da
    da = [
        Rating(s, "1", None, None, "da", v) for s, v in zip("ABCD", (10, 20, 30, 40), strict=True)
    ]
    mqm = [Rating(s, "1", None, None, "mqm", v) for s, v in zip("ABCD", (9, 7, 8, 1), strict=True)]
    c = human_ceiling(_study(da + mqm, 1), "da", "pairwise-accuracy", other="mqm")
    expected = statistic_value("pairwise-accuracy", [-9.0, -7, -8, -1], [10.0, 20, 30, 40])
    assert c.available and c.statistic == expected and c.source == "criteria"
    assert "mqm against da, on 4 items" in c.note


def test_ceiling_errors():
    study = _study([Rating("A", "1", None, None, "da", 1.0)], 1)
    with pytest.raises(StatsInputError, match=r"unknown statistic 'bleu'; choose from: "):
        human_ceiling(study, "da", "bleu")
    with pytest.raises(
        StatsInputError, match=r"unknown criterion 'adequacy'; this study has: da, mqm"
    ):
        human_ceiling(study, "adequacy", "pearson")
    c = human_ceiling(study, "da", "pearson", other="mqm")
    assert not c.available and "no item has a score of both da and mqm" in c.note


def test_too_few_systems_with_both_opinions_is_said():
    ratings = [Rating(s, "1", r, None, "da", v) for s, r, v in [("A", "x", 1), ("A", "y", 2)]]
    c = human_ceiling(_study(ratings, 1), "da", "pearson", seed=1)
    assert not c.available and "fewer than 3 systems" in c.note


@pytest.mark.skipif(not WMT21.exists(), reason="the WMT21 release is not beside the repository")
def test_wmt21_mqm_against_da_is_a_ceiling():
    from bleu_core.study import load_study

    study = load_study(WMT21, pair="zh-en").study
    c = human_ceiling(study, "mqm", "pairwise-accuracy", other="da")
    assert c.available and 0.0 <= c.statistic <= 1.0 and c.n_items > 100


def test_a_raters_repeats_are_one_opinion_and_second_opinions_count():
    # r1 rated A/1 twice: one opinion, no ceiling from it; the second opinion kept aside in the metadata
    # (ESA's #incomplete documents) by r2 makes the item a two-rater item
    from dataclasses import replace

    ratings = [Rating("A", "1", "r1", None, "da", 10.0), Rating("A", "1", "r1", None, "da", 30.0)]
    study = _study(ratings, 1)
    first, second, _ = rater_split(study, "da", ["A"], seed=1)
    assert np.isnan(first[0, 0]) and np.isnan(second[0, 0])
    aside = replace(study, metadata={"second_opinions": [["A", "1", "r2", None, "da", 80.0]]})
    first, second, _ = rater_split(aside, "da", ["A"], seed=1)
    assert sorted([first[0, 0], second[0, 0]]) == [20.0, 80.0]  # r1's mean against r2


def test_the_note_says_on_how_many_items_and_systems_it_rests():
    ratings = [
        Rating(s, g, r, None, "da", v)
        for s, base in zip("ABCD", (10, 40, 70, 90), strict=True)
        for g in ("1", "2")
        for r, v in (("x", base), ("y", base + 5))
        if not (s == "D" and g == "2")
    ] + [Rating("D", "2", "x", None, "da", 1.0)]
    c = human_ceiling(_study(ratings, 2), "da", "pairwise-accuracy", seed=3)
    # the raters differ by 5 points, the systems by 20 or more: they order every pair alike
    assert (c.n_items, c.n_systems) == (7, 4) and c.statistic == 1.0
    assert "on 7 items of 4 systems" in c.note and c.to_dict()["n_systems"] == 4
    segment = human_ceiling(_study(ratings, 2), "da", "acc-eq", seed=3)
    assert "acc*_eq compares systems within a segment: 2 segments have 2+ such systems" in (
        segment.note
    )


def test_add_ceiling_with_a_second_criterion_and_an_explicit_criterion():
    from bleu_core.evaluation.ceiling import add_ceiling
    from bleu_core.evaluation.clusters import rank_metrics
    from bleu_core.metrics.study_scores import MetricTable

    da = [
        Rating(s, "1", None, None, "da", v) for s, v in zip("ABCD", (10, 20, 30, 40), strict=True)
    ]
    mqm = [Rating(s, "1", None, None, "mqm", v) for s, v in zip("ABCD", (9, 7, 8, 1), strict=True)]
    study = _study(da + mqm, 1)
    table = MetricTable("m", tuple("ABCD"), np.array([1.0, 2, 3, 4]), None, True, "x")
    ranking = rank_metrics({"m": table}, np.array([10.0, 20, 30, 40]), None, "pairwise-accuracy",
                           criterion="da (xx-yy)", n_resamples=0)  # fmt: skip
    got = add_ceiling(ranking, study, criterion="da", other="mqm").extra["ceiling"]
    assert got["source"] == "criteria" and "mqm against da, on 4 items of 4 systems" in got["note"]
    own = add_ceiling(ranking, study, criterion="mqm", other="mqm").extra["ceiling"]
    assert own["source"] == "raters" and not own["available"]  # its own criterion: raters split


WMT24 = WMT21.parent / "wmt24-general-esa"


@pytest.mark.skipif(not WMT24.exists(), reason="the WMT24 release is not beside the repository")
def test_wmt24_en_ja_rater_split_rests_on_the_incomplete_documents_second_raters(capsys):
    from bleu_core.cli import main
    from bleu_core.study import load_study

    study = load_study(WMT24, pair="en-ja").study
    c = human_ceiling(study, "esa", "pairwise-accuracy", seed=12345)
    # 373 #incomplete ratings by a second rater, 363 of machine systems (12 of the 23), counted with
    # the csv module from the wave files; the value itself depends on the seed's draw
    assert c.available and (c.n_items, c.n_systems) == (363, 12) and 0.0 <= c.statistic <= 1.0
    argv = ["meta", str(WMT24), "--pair", "en-ja", "--statistics", "pairwise-accuracy"]
    assert main([*argv, "--n-resamples", "20"]) == 0
    out = capsys.readouterr().out
    assert f"human ceiling: {c.statistic:.3f} [" in out  # with its interval and n (issue 39)
    assert "(n = 363 items, " in out and "one rater against another" in out
    assert "on 363 items of 12 systems" in out


def test_meta_ceiling_names_a_second_criterion(capsys):
    import json

    from bleu_core.cli import main

    argv = ["meta", "demo:ted-en-de", "--statistics", "pairwise-accuracy", "--n-resamples", "20"]
    assert main([*argv, "--ceiling", "mqm_fluency", "--format", "json"]) == 0
    by = {r["criterion"]: r["ceiling"] for r in json.loads(capsys.readouterr().out)["rankings"]}
    study = load_demo("ted-en-de")
    expected = human_ceiling(study, "mqm", "pairwise-accuracy", other="mqm_fluency")
    assert by["mqm"]["source"] == "criteria" and by["mqm"]["statistic"] == expected.statistic
    assert by["mqm_fluency"]["source"] == "raters"  # its own criterion: the raters are split
    assert main([*argv, "--ceiling", "mqm_fluency"]) == 0
    assert "human ceiling: " in capsys.readouterr().out
    assert "mqm_fluency against mqm, on " in expected.note
    assert main([*argv, "--ceiling", "da"]) == 2
    assert "no criterion 'da' for the human ceiling in this study; it has: mqm" in (
        capsys.readouterr().err
    )
    with pytest.raises(
        StatsInputError, match=r"no criterion 'da' for the human ceiling in this study"
    ):
        from bleu_core.evaluation.ceiling import with_ceilings

        with_ceilings([], study, "da")


@pytest.mark.skipif(not WMT21.exists(), reason="the WMT21 release is not beside the repository")
def test_wmt21_meta_ceiling_da_against_mqm(capsys):
    import json

    from bleu_core.cli import main

    argv = ["meta", str(WMT21), "--pair", "zh-en", "--criteria", "mqm", "--ceiling", "da"]
    argv += ["--statistics", "pairwise-accuracy", "--n-resamples", "20", "--format", "json"]
    assert main(argv) == 0
    (ranking,) = json.loads(capsys.readouterr().out)["rankings"]
    ceiling = ranking["ceiling"]
    assert ceiling["available"] and ceiling["source"] == "criteria"
    assert ceiling["note"].startswith("da against mqm, on ") and ceiling["n_systems"] >= 3


def test_the_tau_like_ceiling_counts_pairs_by_the_rankings_threshold():
    """The ceiling of ``kendall-wmt`` stands beside a ranking whose pairs follow the criterion's rule
    (:mod:`bleu_core.evaluation.tau_like`): the two raters' halves are compared with the same threshold,
    not WMT's 25 points. Raters differ by a few points, so the threshold decides which pairs count."""
    from dataclasses import replace

    from bleu_core.evaluation.ceiling import add_ceiling
    from bleu_core.evaluation.clusters import rank_metrics
    from bleu_core.metrics.study_scores import MetricTable

    rng = np.random.default_rng(5)
    ratings = []
    for g in range(6):
        for s, base in zip("ABCD", (20.0, 35.0, 50.0, 90.0), strict=True):
            for rater in ("r1", "r2"):
                ratings.append(Rating(s, str(g + 1), rater, None, "da", base + rng.normal(0, 8)))
    study = _study(ratings, 6)
    first, second, _ = rater_split(study, "da", list("ABCD"), seed=3)
    table = MetricTable("m", tuple("ABCD"), np.array([1.0, 2, 3, 4]), None, True, "x")
    ranking = rank_metrics({"m": table}, np.nanmean(first, axis=1), first, "kendall-wmt",
                           criterion="da", n_resamples=0, seed=3)  # fmt: skip
    ranking = replace(ranking, extra={**ranking.extra, "tau_like": {"threshold": 5.0}})
    got = add_ceiling(ranking, study, criterion="da", seed=3).extra["ceiling"]
    assert got["statistic"] == pytest.approx(
        statistic_value("kendall-wmt", second, first, (5, None))
    )
    wmt = human_ceiling(study, "da", "kendall-wmt", systems=list("ABCD"), seed=3)
    assert wmt.statistic != pytest.approx(got["statistic"])  # 25 points leave out pairs 5 keep
