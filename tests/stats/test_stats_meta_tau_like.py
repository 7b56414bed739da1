"""WMT's tau-like (``kendall-wmt``) with a threshold that follows the criterion.

Raw DA and ESA keep WMT's 25 points; DA z takes WMT's own pairs from the raw DA of the same items
(and is ordered by z where z agrees), or a stated z threshold without raw DA; MQM a stated 1 point.
The rule is said beside the number in ``meta``'s rows and JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bleu_core.cli import main
from bleu_core.evaluation import StatsInputError, meta_evaluate
from bleu_core.evaluation.correlation import wmt_pair_counts
from bleu_core.evaluation.tau_like import (
    DA_Z_THRESHOLD,
    MQM_THRESHOLD,
    study_rule,
    tau_like_counts,
    tau_like_rule,
)
from bleu_core.study import Criterion, Rating, Segment, Study
from bleu_core.study.storage import save_study

WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"


@pytest.mark.parametrize(
    ("name", "scale", "threshold", "said"),
    [
        ("da", (0.0, 100.0), 25.0, "WMT DARR, 0-100 scale"),
        ("esa", (0.0, 100.0), 25.0, "WMT DARR, 0-100 scale"),
        ("adequacy", (1.0, 5.0), 1.0, "a quarter of the 1-5 scale"),
        ("da_z", None, DA_Z_THRESHOLD, "no raw DA"),
        ("mqm", None, MQM_THRESHOLD, "one minor error"),
        ("mqm_fluency", None, MQM_THRESHOLD, "WMT reports no tau-like on MQM"),
    ],
)
def test_the_threshold_follows_the_criterion(name, scale, threshold, said):
    rule = tau_like_rule(name, scale)
    assert rule.threshold == pytest.approx(threshold)
    assert said in rule.describe() and f"≥ {threshold:.4g}" in rule.describe()
    assert rule.to_dict()["threshold"] == pytest.approx(threshold)


def test_a_criterion_without_scale_takes_a_quarter_of_its_observed_range():
    rule = tau_like_rule("human", None, scores=np.array([[2.0, np.nan], [10.0, 6.0]]))
    assert rule.threshold == pytest.approx(2.0)  # (10 - 2) / 4
    assert "observed range 2 to 10" in rule.describe()
    flat = tau_like_rule("human", None, scores=np.array([[3.0, 3.0]]))
    assert flat.threshold == 25.0 and "WMT's 25 kept" in flat.describe()


def tau_like_counts_oracle(metric, gold, select, threshold):
    """Every pair of systems of every segment, counted one at a time (the definition)."""
    c = d = left_out = 0
    k, s = metric.shape
    for j in range(s):
        for a in range(k):
            for b in range(a + 1, k):
                dg, dh, dm = (x[a, j] - x[b, j] for x in (select, gold, metric))
                if np.isnan(dg) or np.isnan(dh) or np.isnan(dm) or abs(dg) < threshold:
                    continue
                if np.sign(dh) != np.sign(dg):
                    left_out += 1
                elif np.sign(dm) == np.sign(dh):
                    c += 1
                else:
                    d += 1  # the metric orders it the other way or ties it
    return c, d, left_out


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_pairs_chosen_by_raw_da_and_ordered_by_z_match_the_definition(seed):
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 101, size=(5, 12)).astype(float)
    z = (raw - 50) / 30 + rng.normal(0, 0.6, raw.shape)  # other raters: z may disagree
    metric = rng.integers(0, 4, size=raw.shape).astype(float)  # many metric ties
    raw[rng.random(raw.shape) < 0.2] = np.nan
    z[np.isnan(raw)] = np.nan
    c, d, left_out = tau_like_counts(metric, z, 25.0, raw)
    assert (int(c.sum()), int(d.sum()), left_out) == tau_like_counts_oracle(metric, z, raw, 25.0)
    # without a selecting criterion: WMT's own counts on the gold's differences
    c0, d0, none = tau_like_counts(metric, raw, 25.0)
    assert none == 0 and np.array_equal(c0, wmt_pair_counts(metric, raw, 25.0)[0])
    assert np.array_equal(d0, wmt_pair_counts(metric, raw, 25.0)[1])


def test_selecting_scores_of_another_shape_are_refused():
    with pytest.raises(StatsInputError, match=r"of one shape, got \(2, 3\), \(2, 3\) and \(2, 2\)"):
        tau_like_counts(np.zeros((2, 3)), np.zeros((2, 3)), 25.0, np.zeros((2, 2)))


def da_study(with_raw: bool, seed: int = 5) -> Study:
    """6 systems × 20 segments; raw DA and its z (other raters: noise), rated on the same items."""
    rng = np.random.default_rng(seed)
    words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away"]
    refs = [" ".join(rng.choice(words, 6)) for _ in range(20)]
    systems, ratings = {}, []
    for k in range(6):
        name = f"S{k}"
        outs = []
        for i, ref in enumerate(refs):
            toks = ref.split()
            keep = rng.random(len(toks)) < 0.3 + 0.1 * k
            outs.append(
                " ".join(
                    t if ok else str(rng.choice(words)) for t, ok in zip(toks, keep, strict=True)
                )
            )
            raw = float(np.clip(100 * keep.mean() + rng.normal(0, 15), 0, 100))
            if with_raw:
                ratings.append(Rating(name, str(i), None, None, "da", raw))
            ratings.append(Rating(name, str(i), None, None, "da_z", (raw - 50) / 30))
        systems[name] = outs
    criteria = {"da_z": Criterion("da_z")}
    if with_raw:
        criteria["da"] = Criterion("da", scale=(0.0, 100.0))
    return Study(
        name="da-toy",
        segments=tuple(Segment(str(i)) for i in range(20)),
        references={"ref": refs},
        systems=systems,
        criteria=criteria,
        ratings=tuple(ratings),
    )


def wmt_row(result, criterion):
    (row,) = [
        r for r in result.rows if r.criterion == criterion and r.result.method == "kendall-wmt"
    ]
    return row


def test_da_z_takes_wmts_pairs_from_the_raw_da_of_the_same_items():
    study = da_study(with_raw=True)
    assert study_rule(study, "da_z").select == "da"
    res = meta_evaluate(study, n_resamples=0, seed=1)
    z, raw = wmt_row(res, "da_z"), wmt_row(res, "da")
    assert [r.criterion for r in res.rows].count("da_z") == 6  # da_z first, listed once
    assert z.tau_like["select"] == "da" and z.tau_like["threshold"] == 25.0
    # z here is a monotone function of raw DA: the same pairs, the same order, the same value
    assert z.result.n == raw.result.n > 0
    assert z.result.statistic == pytest.approx(raw.result.statistic)
    assert "pairs with |Δda| ≥ 25 DA points (WMT DARR), ordered by da_z" in z.result.note
    assert raw.tau_like["select"] is None


def test_da_z_without_raw_da_uses_a_stated_z_threshold():
    res = meta_evaluate(da_study(with_raw=False), n_resamples=0, seed=1)
    row = wmt_row(res, "da_z")
    assert row.tau_like["threshold"] == pytest.approx(DA_Z_THRESHOLD)
    assert row.result.n > 0 and "≥ 0.8333 z" in row.result.note


def test_meta_json_and_text_say_the_threshold_beside_the_number(tmp_path, capsys):
    path = tmp_path / "da-toy.json"
    save_study(da_study(with_raw=True), path)  # JSON
    assert (
        main(["meta", str(path), "--statistics", "none", "--n-resamples", "20", "--format", "json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    rows = [r for r in out["correlations"] if r["method"] == "kendall-wmt"]
    assert {r["criterion"]: r["tau_like"]["threshold"] for r in rows} == {"da_z": 25.0, "da": 25.0}
    assert all("≥ 25" in r["note"] for r in rows)
    assert main(["meta", str(path), "--statistics", "none", "--n-resamples", "20"]) == 0
    text = capsys.readouterr().out
    assert "pairs with |Δda| ≥ 25 DA points (WMT DARR), ordered by da_z where it agrees" in text


@pytest.mark.skipif(not WMT21.exists(), reason="WMT21 data (shared/data) not available")
def test_wmt21_zh_en_da_z_has_pairs_now():
    from bleu_core.study import load_study

    study = load_study(WMT21, pair="zh-en").study
    res = meta_evaluate(study, criteria=["da_z"], n_resamples=0, seed=1)
    row = wmt_row(res, "da_z")
    # WMT21 zh-en: 128,331 pairs of translations differ by ≥ 25 raw DA points; 11,973 of them are
    # ordered the other way by the mean DA z (measured on the release, 2026-11-26); 116,358 remain
    assert row.result.n == 116_358
    assert "11973 pairs left out where da_z and da disagree" in row.result.note
    assert row.chance["constant"] == -1.0
