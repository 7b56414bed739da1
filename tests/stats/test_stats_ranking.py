"""Metric rankings: bootstrap intervals of every row, clusters of soft pairwise accuracy,
and ``meta`` reading TER from its cache directory."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.cli.ranking_command import format_rankings, value_with_interval
from bleu_core.evaluation.clusters import rank_metrics
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.pairwise import pairwise_accuracy, soft_pairwise_accuracy
from bleu_core.evaluation.permutation_both import soft_pairwise_perm_both
from bleu_core.evaluation.ranking_intervals import (
    item_intervals,
    soft_pairwise_intervals,
    system_intervals,
)
from bleu_core.evaluation.ties import tie_calibrated
from bleu_core.metrics.study_scores import MetricTable


def _segment_tables(seed: int = 5, k: int = 6, s: int = 40):
    """Human segment scores with a system effect; a close metric, a noisy one and a twin."""
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(k, s)) + 0.6 * np.arange(k)[:, None]
    names = tuple(f"s{i}" for i in range(k))
    metrics = {
        "good": human + rng.normal(0, 0.2, (k, s)),
        "twin": human + rng.normal(0, 0.2, (k, s)),
        "bad": rng.normal(size=(k, s)),
    }
    tables = {n: MetricTable(n, names, m.mean(1), m, True, "attached") for n, m in metrics.items()}
    return tables, human


# ------------------------------------------------------------------------------ intervals


def test_every_row_has_an_interval_around_its_statistic() -> None:
    tables, human = _segment_tables()
    for statistic in (
        "pairwise-accuracy",
        "pearson",
        "kendall",
        "acc-eq",
        "soft-pairwise-accuracy",
    ):
        r = rank_metrics(tables, human.mean(1), human, statistic, n_resamples=100, seed=3)
        assert r.interval and "100 resamples, seed 3" in r.interval, statistic
        for row in r.rows:
            lo, hi = row.confidence_interval
            assert lo <= hi and lo - 1e-9 <= row.statistic <= hi + 1e-9, (statistic, row)
        d = r.to_dict()
        assert d["confidence"] == 0.95 and len(d["metrics"][0]["confidence_interval"]) == 2
    none = rank_metrics(tables, human.mean(1), human, "acc-eq", n_resamples=0)
    assert all(row.confidence_interval is None and row.rank is None for row in none.rows)
    assert "without significance clusters or intervals" in none.note


def test_intervals_are_reproducible_and_narrow_with_more_data() -> None:
    tables, human = _segment_tables()
    a = rank_metrics(tables, human.mean(1), human, "acc-eq", n_resamples=100, seed=9)
    b = rank_metrics(tables, human.mean(1), human, "acc-eq", n_resamples=100, seed=9)
    assert [r.confidence_interval for r in a.rows] == [r.confidence_interval for r in b.rows]
    big_tables, big_human = _segment_tables(s=400)
    c = rank_metrics(big_tables, big_human.mean(1), big_human, "acc-eq", n_resamples=100, seed=9)
    width = {r.metric: np.diff(r.confidence_interval)[0] for r in a.rows}
    assert all(np.diff(r.confidence_interval)[0] < width[r.metric] for r in c.rows)


def test_item_interval_resamples_the_per_item_values_of_the_calibrated_statistic() -> None:
    # the ranking's observed acc*_eq is the mean of the per-item values its interval resamples
    tables, human = _segment_tables()
    r = rank_metrics(tables, human.mean(1), human, "acc-eq", n_resamples=50, seed=1)
    good = next(row for row in r.rows if row.metric == "good")
    assert good.statistic == pytest.approx(
        tie_calibrated(tables["good"].segment, human, "acc23", average_by="item").statistic
    )
    constant = {"c": np.full(30, 0.7), "half": np.r_[np.full(15, 1.0), np.full(15, np.nan)]}
    got = item_intervals(constant, n_resamples=50, seed=1)
    assert got["c"][0] == pytest.approx((0.7, 0.7)) and got["half"][0] == (1.0, 1.0)


def test_pairwise_accuracy_interval_counts_pairs_of_different_systems_only() -> None:
    # a metric that orders every pair as the humans do keeps accuracy 1 on every resample (pairs of
    # two draws of one system would count as ties, not agreement, if they were counted)
    human = np.arange(8.0)
    (ci, note) = system_intervals({"m": human * 2}, human, "pairwise-accuracy", seed=2)["m"]
    assert ci == (1.0, 1.0) and note == ""
    two = system_intervals({"m": np.array([1.0, 1.0])}, np.array([1.0, 2.0]), "pearson", seed=2)
    assert two["m"][0] is None and "undefined" in two["m"][1]
    with pytest.raises(StatsInputError, match="no system-level interval for 'acc-eq'"):
        system_intervals({"m": human}, human, "acc-eq")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=4, max_size=9), st.integers(0, 10_000))
def test_pairwise_accuracy_interval_within_the_possible_range(scores: list[int], seed: int) -> None:
    human = np.arange(len(scores), dtype=np.float64)
    metric = np.array(scores, dtype=np.float64)
    ci, _ = system_intervals({"m": metric}, human, "pairwise-accuracy", n_resamples=60, seed=seed)[
        "m"
    ]
    observed = pairwise_accuracy(metric, human).statistic
    assert ci is not None and 0.0 <= ci[0] <= ci[1] <= 1.0
    assert ci[0] <= 1.0 and (observed == 1.0) <= (ci == (1.0, 1.0))


def test_soft_pairwise_interval_at_the_full_test_set_is_the_statistic() -> None:
    # resampling every segment once (the identity) gives back soft_pairwise_accuracy exactly
    rng = np.random.default_rng(0)
    human = rng.normal(size=(4, 25)) + np.arange(4)[:, None]
    metric = human + rng.normal(0, 1.0, (4, 25))
    spa = soft_pairwise_accuracy(metric, human, n_permutations=300).statistic
    import bleu_core.evaluation.ranking_intervals as ri

    identity = np.tile(np.arange(25), (3, 1))
    orig = ri._draws
    try:
        ri._draws = lambda n, m, seed: (identity, np.ones((3, 25)))  # type: ignore[assignment]
        (lo, hi), _ = soft_pairwise_intervals(
            {"m": metric}, human, n_resamples=3, n_permutations=300
        )["m"]
    finally:
        ri._draws = orig
    assert lo == pytest.approx(spa) and hi == pytest.approx(spa)


def test_text_and_value_formats() -> None:
    tables, human = _segment_tables()
    r = rank_metrics(tables, human.mean(1), human, "pairwise-accuracy", n_resamples=50, seed=1)
    text = format_rankings([r])
    assert "pairwise accuracy [95% CI]" in text and "bootstrap over the 6 systems" in text
    good = next(row for row in r.rows if row.metric == "good")
    assert value_with_interval(good.statistic, good.confidence_interval) in text
    assert value_with_interval(math.nan, (0.1, 0.2)) == "n/a"


# ------------------------------------------------------------------------------ soft PA clusters


def test_soft_pairwise_accuracy_is_clustered() -> None:
    tables, human = _segment_tables()
    r = rank_metrics(
        tables, human.mean(1), human, "soft-pairwise-accuracy", n_resamples=100, seed=1
    )
    ranks = {row.metric: row.rank for row in r.rows}
    assert ranks["good"] == ranks["twin"] == 1 and ranks["bad"] == 2, r.to_dict()
    assert r.test.startswith("perm-both (segment scores swapped")
    assert not np.isnan(r.pvalues[0, 1])


def test_soft_pairwise_perm_both_is_symmetric_and_validates() -> None:
    tables, human = _segment_tables(k=4, s=20)
    good, bad = tables["good"].segment, tables["bad"].segment
    ab = soft_pairwise_perm_both(bad, good, human, n_resamples=100, n_permutations=200, seed=2)
    ba = soft_pairwise_perm_both(good, bad, human, n_resamples=100, n_permutations=200, seed=2)
    assert ab.statistic == pytest.approx(-ba.statistic) and ab.pvalue < 0.05 < ba.pvalue
    assert ab.statistic2 == pytest.approx(
        soft_pairwise_accuracy(good, human, n_permutations=200).statistic
    )
    # MTME's early stopping (WMT tasks): a clear result stops after the first block of 100, with
    # the p-value of those 100 resamples (the same draws as a run of 100)
    early = dict(n_resamples=1000, n_permutations=200, seed=2, early_stop=(100, 0.02, 0.5))
    stopped = soft_pairwise_perm_both(bad, good, human, **early)
    assert stopped.n_resamples == 100
    assert (
        stopped.pvalue
        == soft_pairwise_perm_both(
            bad, good, human, n_resamples=100, n_permutations=200, seed=2
        ).pvalue
    )
    assert soft_pairwise_perm_both(good, bad, human, **early).n_resamples == 100  # p > 0.5
    twin = soft_pairwise_perm_both(good, good * 1.0001, human, **early)
    assert twin.n_resamples == 1000 or not 0.02 <= twin.pvalue <= 0.5
    with pytest.raises(StatsInputError, match="arrays of one shape"):
        soft_pairwise_perm_both(good[:, :5], bad, human)
    holed = good.copy()
    holed[0, 0] = np.nan
    with pytest.raises(StatsInputError, match="needs every segment scored"):
        soft_pairwise_perm_both(holed, bad, human)


# ------------------------------------------------------------------------------ meta and TER's cache


def test_meta_reads_ter_from_its_cache_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bleu_core.metrics.ter as ter
    from bleu_core.cli import main
    from bleu_core.study.demo import load_demo
    from bleu_core.study.storage import save_study

    demo = load_demo("ted-en-de").subset(["Nemo", "UEdin", "Online-W", "HuaweiTSC"], 15)
    save_study(demo, tmp_path / "d.study.json")
    cache = tmp_path / "ter-cache"
    argv = [
        "meta",
        str(tmp_path / "d.study.json"),
        "--metrics",
        "BLEU,TER",
        "--criteria",
        "mqm",
        "--n-resamples",
        "20",
        "--format",
        "json",
        "--ter-cache",
        str(cache),
    ]
    assert main(argv) == 0
    first = capsys.readouterr()
    assert "to score (computing; cached for next time)" in first.err
    assert len(list(cache.glob("*.npz"))) == 4

    def no_scoring(*args: object, **kwargs: object) -> None:
        raise AssertionError("TER was recomputed")

    monkeypatch.setattr(ter, "_segment_rows", no_scoring)
    assert main(argv) == 0
    second = capsys.readouterr()
    assert "TER" not in second.err  # silent when everything comes from the cache

    def ter_rows(out: str) -> list:
        rankings = json.loads(out)["rankings"]
        return [m for r in rankings for m in r["metrics"] if m["metric"] == "TER"]

    assert ter_rows(first.out) == ter_rows(second.out)
    with pytest.raises(AssertionError, match="TER was recomputed"):  # no cache: computed again
        main([*argv[:-2], "--no-ter-cache"])


def test_generated_score_file_is_sentence_and_corpus_chrf1(tmp_path: Path) -> None:
    import importlib.util

    from sacrebleu.metrics import CHRF

    from bleu_core.study.demo import load_demo
    from bleu_core.study.metric_scores import read_metric_scores

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "metric_score_file", root / "benchmarks" / "metric_score_file.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    demo = load_demo("ted-en-de").subset(["Nemo", "UEdin", "Online-W"], 12)
    paths = module.write_score_files(demo, tmp_path, None)
    assert [p.name for p in paths] == ["chrF1-ref.seg.score", "chrF1-ref.sys.score"]
    got = read_metric_scores([tmp_path], demo)["chrF1-ref"]
    ref = demo.references[next(iter(demo.references))]
    hyps = demo.systems["UEdin"]
    chrf1 = CHRF(beta=1)  # the golden values: sacrebleu's own sentence and corpus chrF1
    assert got.segment["UEdin"][3] == pytest.approx(
        chrf1.sentence_score(hyps[3], [ref[3]]).score, abs=5e-5
    )
    assert got.system["UEdin"] == pytest.approx(
        chrf1.corpus_score(list(hyps), [list(ref)]).score, abs=5e-5
    )
