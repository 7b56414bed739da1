"""Two human passes as the human ceiling (issue 40): the ceiling of every statistic with its n, against a
hand computation and scipy, and the disagreements over 50 points; ``meta`` prints both."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sp

from bleu_core.evaluation.ceiling import disagreements, human_ceiling, rater_split
from bleu_core.evaluation.human_passes import human_passes
from bleu_core.study import load_study

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))
from genmt_fixture import PAIR, write_wmt25  # noqa: E402


@pytest.fixture()
def study(tmp_path: Path):  # noqa: ANN201 - a Study
    return load_study(write_wmt25(tmp_path), pair=PAIR).study


def _passes(study, system: str) -> tuple[list[float], list[float]]:  # noqa: ANN001
    """The fixture's human1 and human2 scores of ``system`` on the items with both, by group."""
    by_item: dict[str, dict[str, float]] = {}
    for r in study.ratings:
        if r.system == system:
            by_item.setdefault(r.segment_id, {})[r.group] = r.score
    both = [v for v in by_item.values() if len(v) == 2]
    return [v["human1"] for v in both], [v["human2"] for v in both]


def test_pearson_ceiling_is_scipy_on_the_two_passes_system_means(study) -> None:  # noqa: ANN001
    # system level: each system's mean over its items with both passes, pass 1 against pass 2 (the
    # passes are groups human1/human2: no random draw of sides)
    systems = study.machine_systems
    means = [tuple(np.mean(side) for side in _passes(study, s)) for s in systems]
    expected = sp.pearsonr([m[0] for m in means], [m[1] for m in means]).statistic
    got = human_ceiling(study, "esa", "pearson", seed=7)
    assert got.statistic == pytest.approx(expected)
    # items with both passes: SysA 2, SysB 1, SysC 2 (its 140 on doc2 was refused)
    assert (got.n_items, got.n_systems) == (5, 3)
    assert got.note.startswith("one rater against another (human1 against human2), on 5 items")


def test_pairwise_accuracy_ceiling_by_hand(study) -> None:  # noqa: ANN001
    # pass means by hand: SysA (90+80)/2=85 vs (30+85)/2=57.5; SysB 60 vs 65; SysC (20+10)/2=15 vs
    # (40+70)/2=55. Orders: pass 1 A>B>C; pass 2 B>A>C... pairs A-B disagree, A-C and B-C agree: 2/3
    assert human_ceiling(study, "esa", "pairwise-accuracy", seed=7).statistic == pytest.approx(
        2 / 3
    )


def test_rater_split_puts_pass_1_left_and_pass_2_right(study) -> None:  # noqa: ANN001
    first, second, seed = rater_split(study, "esa", study.machine_systems, seed=3)
    both = ~np.isnan(first)
    assert seed == 3 and int(both.sum()) == 5
    for k, system in enumerate(study.machine_systems):
        h1, h2 = _passes(study, system)
        assert sorted(first[k][both[k]]) == sorted(h1) and sorted(second[k][both[k]]) == sorted(h2)


def test_disagreements_over_50_points_largest_first(study) -> None:  # noqa: ANN001
    found = disagreements(study, "esa")
    # |90 - 30| = 60 (SysA, doc1 #0) and |10 - 70| = 60 (SysC, doc1 #1); |20 - 40| = 20 is not listed
    assert [(d.system, d.segment_id, d.gap) for d in found] == [
        ("SysA", f"{PAIR}_#_news_#_doc1_#_0", 60.0),
        ("SysC", f"{PAIR}_#_news_#_doc1_#_1", 60.0),
    ]
    assert found[0].scores == (("human1: a1", 90.0), ("human2: b1", 30.0))
    assert disagreements(study, "esa", threshold=59.0) == found
    assert disagreements(study, "esa", threshold=60.0) == []


def test_human_passes_has_every_statistic_with_n(study) -> None:  # noqa: ANN001
    passes = human_passes(study, seed=1)
    assert list(passes) == ["esa"]
    names = [c["statistic_name"] for c in passes["esa"]["ceilings"]]
    assert {"pearson", "pairwise-accuracy", "acc-eq", "soft-pairwise-accuracy"} <= set(names)
    assert all(c["n_items"] == 5 for c in passes["esa"]["ceilings"])
    n = {c["statistic_name"]: c["n"] for c in passes["esa"]["ceilings"]}
    # system level: the 3 systems; by item: the 5 items; by segment, the segments where 2+ systems have
    # both passes and neither side is constant: doc1 #0 (A, C) and doc1 #1 (A, C); doc2 has SysB only
    assert (n["pearson"], n["acc-eq"], n["pearson (segment, none)"]) == (3, 5, 5)
    assert n["pearson (segment, item)"] == 2
    assert len(passes["esa"]["disagreements"]) == 2


def _meta(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bleu_core", "meta", *args, "--n-resamples", "100"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_meta_prints_the_human_ceiling_and_the_disagreements(tmp_path: Path) -> None:
    folder = write_wmt25(tmp_path)
    done = _meta(str(folder), "--pair", PAIR, "--statistics", "pearson")
    assert done.returncode == 0, done.stderr
    assert "human vs human (esa: one rater against another; the human ceiling)" in done.stdout
    assert "2 item(s) whose raters differ by more than 50 points" in done.stdout
    assert f"SysA  {PAIR}_#_news_#_doc1_#_0  gap 60  (human1: a1 90, human2: b1 30)" in done.stdout
    as_json = _meta(str(folder), "--pair", PAIR, "--statistics", "pearson", "--format", "json")
    data = json.loads(as_json.stdout)
    assert len(data["human_passes"]["esa"]["disagreements"]) == 2


def test_segment_level_ceiling_is_scipy_over_the_items_with_two_passes(study) -> None:  # noqa: ANN001
    pairs = [pair for s in study.machine_systems for pair in zip(*_passes(study, s), strict=True)]
    h1, h2 = [p[0] for p in pairs], [p[1] for p in pairs]
    rows = {r["statistic_name"]: r for r in human_passes(study, seed=1)["esa"]["ceilings"]}
    assert rows["pearson (segment, none)"]["statistic"] == pytest.approx(
        sp.pearsonr(h1, h2).statistic
    )
    assert rows["kendall (segment, none)"]["statistic"] == pytest.approx(
        sp.kendalltau(h1, h2).statistic
    )
    assert rows["pearson (segment, none)"]["note"] == "n = 5 items"
