"""The Metric ranking page's release view: each column's human ceiling, from the multi-pair result."""

from __future__ import annotations

import math

import numpy as np

from bleu_core.evaluation.multi_pair import Task, multi_pair_meta, task_from_study
from bleu_core.metrics.study_scores import MetricTable
from bleu_core.study import Criterion, Rating, Segment, Study
from ui.analysis.release_ceiling import release_ceiling_frame


def _study(two_raters: bool) -> Study:
    systems = ("A", "B", "C", "D")
    ratings = [
        Rating(s, str(g), r, None, "da", float(base + (5 if r == "y" else 0)))
        for s, base in zip(systems, (10, 40, 70, 90), strict=True)
        for g in (1, 2)
        for r in (("x", "y") if two_raters else ("x",))
    ]
    return Study(
        "toy", (Segment("1"), Segment("2")), {"ref": ["r", "r"]},
        {s: ["t", "t"] for s in systems}, frozenset(),
        {"da": Criterion("da", scale=(0.0, 100.0))}, tuple(ratings),
        source_lang="en", target_lang="de",
    )  # fmt: skip


def _tables(study: Study) -> dict[str, MetricTable]:
    m = np.array([[1.0, 2], [3, 4], [5, 6], [7, 8]])
    return {"m": MetricTable("m", tuple(study.systems), m.mean(1), m, True, "x")}


def test_each_column_has_its_ceiling_and_what_it_rests_on():
    two, one = _study(True), _study(False)
    tasks = [
        task_from_study(two, _tables(two), "da", "two"),
        task_from_study(one, _tables(one), "da", "one"),
    ]
    res = multi_pair_meta(tasks, ("pairwise-accuracy",), n_resamples=20, seed=5)
    frame = release_ceiling_frame(res)
    assert list(frame["column"]) == ["two pairwise accuracy", "one pairwise accuracy"]
    # the raters differ by 5 points, the systems by 20 or more: they order every pair alike
    assert frame["human ceiling"][0] == 1.0 and (frame["items"][0], frame["systems"][0]) == (8, 4)
    assert math.isnan(frame["human ceiling"][1]) and "single da rating" in frame["rests on"][1]
    assert math.isnan(res.global_ceiling())


def test_tasks_without_a_study_have_no_ceiling_rows():
    study = _study(True)
    human = np.array([[10.0, 10], [40, 40], [70, 70], [90, 90]])
    task = Task("bare", "da", _tables(study), human.mean(1), human)
    res = multi_pair_meta([task], ("pairwise-accuracy",), n_resamples=20, seed=5)
    assert release_ceiling_frame(res).empty and res.ceiling(0) is None
