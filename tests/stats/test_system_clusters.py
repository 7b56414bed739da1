"""WMT25's human significance clusters, BLEU's clusters and a release's own clusters.csv.

The procedure is the organisers' ``humeval/08-compute_clusters.py`` (wmt-conference/wmt25-general-mt):
systems sorted by mean score, one-sided Wilcoxon signed-rank between systems on the items both rated
(p < 0.05/2), rank ranges, a cluster boundary where every range above ends and every range below starts.
The hand cases below are checked against scipy's own test, called here independently.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import wilcoxon

from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.errors import InputError
from bleu_core.evaluation.bootstrap import bootstrap
from bleu_core.evaluation.cluster_report import rank_rows, ranks
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.system_clusters import (
    bleu_clusters,
    cluster_numbers,
    human_clusters,
    rank_ranges,
    wilcoxon_pvalue,
)
from bleu_core.study.formats.release_clusters import read_release_clusters


def hand_scores() -> np.ndarray:
    """Four systems × 12 items: A clearly best, B and C close, D clearly worst; C misses two items."""
    rng = np.random.default_rng(3)
    base = rng.uniform(40, 80, size=12)
    scores = np.stack(
        [base + 15, base + 2 + rng.normal(0, 3, 12), base + rng.normal(0, 3, 12), base - 20]
    )
    scores[2, [0, 5]] = np.nan
    return scores


def test_wilcoxon_pvalue_is_scipys_one_sided_test_on_the_items_both_rated():
    scores = hand_scores()
    p, n = wilcoxon_pvalue(scores[1][None], scores[2][None])
    both = ~np.isnan(scores[1]) & ~np.isnan(scores[2])
    expected = wilcoxon(scores[1][both] - scores[2][both], alternative="greater").pvalue
    assert n == 10 and p == pytest.approx(expected, rel=1e-12)


def test_two_passes_pair_every_pass_of_one_system_with_every_pass_of_the_other():
    a = np.array([[80.0, 70, 60, 90], [82, 71, 58, 91]])
    b = np.array([[70.0, 72, 50, 85], [75, 60, 55, 80]])
    p, n = wilcoxon_pvalue(a, b)
    # the script: a + a against b + b[half:] + b[:half] over the flattened passes
    diffs = np.concatenate([a[0] - b[0], a[1] - b[1], a[0] - b[1], a[1] - b[0]])
    assert n == 4 and p == pytest.approx(wilcoxon(diffs, alternative="greater").pvalue)


def test_human_clusters_follow_the_scipy_tests_between_the_sorted_systems():
    scores = hand_scores()
    result = human_clusters(["A", "B", "C", "D"], scores)
    assert [r.system for r in result.rows] == ["A", "B", "C", "D"]
    # the significance of each pair, recomputed here with scipy alone
    sig = {}
    for i in range(4):
        for j in range(i + 1, 4):
            both = ~np.isnan(scores[i]) & ~np.isnan(scores[j])
            d = scores[i][both] - scores[j][both]
            sig[i, j] = wilcoxon(d, alternative="greater").pvalue < 0.05 / 2
    assert sig[0, 1] and sig[2, 3] and sig[1, 3]
    clusters = [r.cluster for r in result.rows]
    # A beats B and D beaten by all: A alone at the top, D alone at the bottom; B and C share a cluster
    # exactly when scipy finds no difference between them
    assert clusters[0] == 1 and clusters[1] == 2 and clusters[3] == max(clusters)
    assert (clusters[1] == clusters[2]) == (not sig[1, 2])
    assert [(r.rank_start, r.rank_end) for r in result.rows][0] == (1, 1)
    assert result.rows[0].n_items == 12 and result.rows[2].n_items == 10
    assert result.rows[0].score == pytest.approx(np.nanmean(scores[0]))


def test_lower_is_better_criteria_sort_and_test_the_other_way():
    scores = -hand_scores()  # MQM-like: fewer error points is better
    result = human_clusters(["A", "B", "C", "D"], scores, higher_is_better=False)
    assert [r.system for r in result.rows] == ["A", "B", "C", "D"]
    assert result.rows[0].cluster == 1 and result.rows[-1].cluster > 1


def test_rank_ranges_and_cluster_boundaries_as_the_script():
    # 0 beats 2 but not 1; 1 beats nothing; 2 is beaten by 0 only: ranges overlap, one cluster of three
    better = {(0, 2)}
    ranges = rank_ranges(3, lambda i, j: (i, j) in better)
    assert ranges == [(1, 2), (1, 3), (2, 3)]
    assert cluster_numbers(ranges) == [1, 1, 1]
    assert cluster_numbers([(1, 1), (2, 3), (2, 3), (4, 4)]) == [1, 2, 2, 3]


def test_unrated_systems_are_named_not_ranked_and_bad_shapes_refused():
    scores = np.vstack([hand_scores(), np.full(12, np.nan)])
    result = human_clusters(["A", "B", "C", "D", "E"], scores)
    assert "E" not in [r.system for r in result.rows]
    assert result.notes == ("not ranked (no rated item): E",)
    with pytest.raises(StatsInputError, match="human scores must be systems × items: 2 systems"):
        human_clusters(["A", "B"], hand_scores())
    with pytest.raises(StatsInputError, match="alpha must be between 0 and 1, got 1.5"):
        human_clusters(["A", "B", "C", "D"], hand_scores(), alpha=1.5)


def test_bleu_clusters_read_the_paired_bootstrap_verdicts():
    refs = [[f"the cat number {i} sat on the red mat today" for i in range(40)]]
    good = [f"the cat number {i} sat on the red mat today" for i in range(40)]
    mid = [f"the cat number {i} sat on a red mat" for i in range(40)]
    mid2 = [f"the cat number {i} sat on one red mat" for i in range(40)]
    stats = compute_system_statistics({"good": good, "mid": mid, "mid2": mid2}, refs)
    paired = bootstrap(stats, n_resamples=200, seed=1).paired(alpha=0.05)
    result = bleu_clusters(paired)
    assert [r.system for r in result.rows][0] == "good"
    by = {r.system: r for r in result.rows}
    assert by["good"].cluster == 1 and by["mid"].cluster == by["mid2"].cluster == 2
    assert paired.get("good", "mid").verdict == ">"
    one_baseline = bootstrap(stats, n_resamples=50, seed=1).paired(baseline="good")
    with pytest.raises(StatsInputError, match="BLEU clusters need every pair tested"):
        bleu_clusters(one_baseline)


RELEASE = (
    "SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM\n"
    "de en 15 20 1 2 False Borderline.4\n"
    "de en 13 20 1 2 True Online-A.12\n"
    "de en 3 20 3 3 True HUMAN.0\n"
    "zh en 3 20 1 1 True Other.1\n"
)


def test_release_clusters_keep_the_pair_and_match_system_names():
    shipped = read_release_clusters(RELEASE, "clusters.csv", "de-en", ["Borderline", "Online-A"])
    rows = shipped["rows"]
    assert [(r["system"], r["cluster"], r["rank_start"], r["rank_end"]) for r in rows] == [
        ("Borderline", 1, 1, 2),
        ("Online-A", 1, 1, 2),
        ("HUMAN.0", 2, 3, 3),
    ]
    assert rows[0]["score"] == 15 / 20
    assert shipped["notes"][-1] == "not a system of the study: HUMAN.0"
    assert read_release_clusters(RELEASE, "clusters.csv", "cs-en") is None


def test_release_clusters_refuse_other_files_with_file_and_line():
    with pytest.raises(InputError, match="clusters.csv, line 1: expected the columns SRC TRG"):
        read_release_clusters("a b c\n", "clusters.csv", "de-en")
    bad = RELEASE.replace("1 2 True Online-A.12", "1 2 yes Online-A.12")
    with pytest.raises(InputError, match="clusters.csv, line 3: END_OF_CLUSTER is 'yes'"):
        read_release_clusters(bad, "clusters.csv", "de-en")
    short = RELEASE.replace("de en 3 20 3 3 True HUMAN.0", "de en 3 20 3 True HUMAN.0")
    with pytest.raises(InputError, match="clusters.csv, line 4: 7 columns, expected 8"):
        read_release_clusters(short, "clusters.csv", "de-en")
    zero = RELEASE.replace("de en 15 20 1 2", "de en 15 0 1 2")
    with pytest.raises(InputError, match="line 2: WINS, TOTAL, CLUSTER_START and CLUSTER_END"):
        read_release_clusters(zero, "clusters.csv", "de-en")


def test_ranks_share_ties_and_rank_rows_compare_bleu_with_human():
    assert ranks({"a": 3.0, "b": 3.0, "c": 1.0}, ["a", "b", "c"]) == {"a": 1, "b": 1, "c": 3}
    assert ranks({"a": 3.0, "b": float("nan")}, ["a", "b"], higher_is_better=False) == {
        "a": 1,
        "b": None,
    }
    rows = rank_rows(
        ["A", "B", "C", "D"],
        {"A": 30.0, "B": 20.0, "C": 25.0, "D": 10.0},
        {"A": 2.0, "B": 1.0, "C": 3.0, "D": float("nan")},
        human_higher_is_better=False,  # MQM-like
        by_reference={"ref-A": {"A": 1.0, "B": 3.0, "C": 2.0}},
    )
    assert [r["system"] for r in rows] == ["A", "C", "B"]  # D has no human score
    assert [(r["BLEU rank"], r["human rank"], r["rank difference"]) for r in rows] == [
        (1, 2, 1),
        (2, 3, 1),
        (3, 1, -2),
    ]
    assert [r["BLEU rank · ref-A"] for r in rows] == [3, 2, 1]


def test_wmt25s_two_passes_are_tested_crosswise_as_the_organisers_script(tmp_path) -> None:
    import sys
    from pathlib import Path

    from bleu_core.evaluation.cluster_report import pass_scores, study_human_clusters
    from bleu_core.study import load_study

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))
    from genmt_fixture import PAIR, write_wmt25

    study = load_study(write_wmt25(tmp_path), pair=PAIR).study
    names = list(study.systems)
    cube = pass_scores(study, "esa", names)
    assert cube is not None and cube.shape == (2, len(names), study.n_segments)
    a = names.index("SysA")
    assert (cube[0, a, 0], cube[1, a, 0]) == (
        90.0,
        30.0,
    )  # the fixture's human1 / human2 of the item
    result = study_human_clusters(study, "esa", names)
    assert result == human_clusters(names, cube, name="esa")
    assert "2 passes paired crosswise" in result.method
