"""Our meta-evaluation values equal mt-metrics-eval's own code on real studies.

The expected values below were produced by running google-research/mt-metrics-eval's code (outside this
repository, never copied into it) on the inputs our ranking path builds, for BLEU and chrF:

* the study: the bundled TED en-de demo (``load_demo("ted-en-de")``, built from
  ``shared/data/google-mqm-ted2021/ted/ende/mqm_ted_ende.tsv``; it needs no shared data), WMT21 zh-en
  (``load_study("shared/data/wmt21-newstest2021-mqm-da", pair="zh-en")``: MQM from
  ``wmt-mqm-human-evaluation/newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv``, DA z from
  ``wmt21-news-systems/humaneval/newstest2021-toen/ad-seg-scores-zh-en.csv``) and WMT24 en-ja
  (``load_study("shared/data/wmt24-general-esa", pair="en-ja")``: ESA from ``humeval/esa_generalMT2024_*.csv``);
* the metrics: ``study_metric_scores(study, ["BLEU", "chrF"], systems=study.machine_systems,
  tokenize=tokenizer_for_language(study.target_lang), attached=False)`` (13a, 13a, ja-mecab), the human side
  ``task_from_study(study, tables, criterion)`` (oriented: MQM negated), exactly what ``meta`` ranks;
* packed for MTME as its ``Correlation`` wants (``num_sys`` consecutive rows, ``None`` where our array has
  NaN): system level the human and metric system scores of the ``K`` systems; acc*_eq the segment scores of
  the ``K`` systems, the human score ``None`` wherever a metric has no score (our ``TieCalibratedStatistic``
  uses the same pairs); SPA the segment scores of the systems with a human score, ``None`` on the segments not
  rated for all of them (whole columns, so MTME's ``filter_gold_nones`` + ``_Reshape`` keeps them aligned).

MTME code used: ``mt_metrics_eval/stats.py`` @544e0fc0529d63bd61430061b6e5333720a9d4d8,
``tau_optimization.py`` @0b82d96b9a75ac392ddc44587fff2acae2c3c63e, ``pce.py`` @1b47eab408777108168d4568ebc2665cfe5c8686;
numpy 2.4.6, scipy 1.17.1, x86-64, 2026-11-26. The calls (``gold``/``metric`` the packed vectors):

* ``pearson``: ``stats.Correlation(K, gold_sys, metric_sys).Pearson()`` (scipy.stats.pearsonr);
* ``kendall``: ``stats.Correlation(K, gold_sys, metric_sys).Kendall()`` (scipy.stats.kendalltau, tau-b);
* ``pairwise-accuracy``: ``agree, n = stats.Agreement(gold_sys, metric_sys)``; ``agree / n``;
* ``acc-eq``: ``stats.KendallWithTiesOpt(gold_seg, metric_seg, variant='acc23', num_sys=K,
  average_by='item', sample_rate=1.0)`` -> ``(best_tau, best_threshold)`` (the same value as
  ``Correlation(K, gold_seg, metric_seg).KendallWithTiesOpt(average_by='item', variant='acc23', sample_rate=1.0)``);
* ``spa``: as ``data.CompareMetricsWithPairwiseConfidenceError`` (the ``tasks.Task(corr_fcn='pce')`` path)
  calls it: ``c = stats.Correlation(K_rated, gold_seg, metric_seg)``;
  ``functools.partial(stats.PairwiseConfidenceError, num_sys=c.num_sys, filter_nones=c.none_count > 0)(
  c.gold_scores, c.metric_scores)[0]`` (1,000 permutations, ``pce`` seed 4); with it the sums over the upper
  triangle of the two p-value matrices that call computes (``pce.compute_pairwise_p_values`` of its
  reshaped gold and metric vectors, ``_Reshape(..., num_sys, "sys")``).

**Memory layout.** Boolean column selection (``h[:, common]``) gives a Fortran-ordered array, and float32
sums round by layout: the draws whose null difference equals the observed one in exact arithmetic (MQM: two
systems with equal segment scores; DA on 10 segments: repeated sign patterns) fall on either side of ``>=``
by layout alone. ``pairwise_pvalues`` and ``batched_pairwise_pvalues`` therefore take their scores in C order,
as MTME's ``_Reshape`` of a packed list gives them; the SPA ranking then equals MTME's bit for bit (asserted
below; before that change it differed by up to 6.2e-4 on three of the four cases).

**BLAS kernel.** Both MTME and we get the permutation sums from one float32 matrix product, whose order
of additions is the OpenBLAS kernel's. The values below are those of the ``SkylakeX`` kernel (the one
OpenBLAS picks on an AVX-512 CPU; ``Sandybridge`` gives the same). WMT21 zh-en DA z compares 23 systems
on 10 segments, so about one draw in 1,000 per pair flips no differing segment and its null sum equals
the observed one in exact arithmetic: those ties round by kernel (with ``OPENBLAS_CORETYPE=Haswell`` or
``Zen`` the same product, MTME's computation as ours, gives p-value sums 133.425 / 117.495 / 110.32 and
BLEU's SPA 0.59714). Its bit-for-bit
tests therefore run on the kernel MTME ran with and are skipped, with that reason, on another; the other
cases give MTME's values on every kernel tried (Haswell, SkylakeX, Sandybridge), and the tolerance test
covers DA z everywhere.

MTME cannot compute SPA on WMT21 zh-en DA at all: its segments are rated for a few systems each, so the
``None``\\s are not whole columns and ``PairwiseConfidenceError`` raises ``ValueError: cannot reshape array
of size 36128 into shape (23,newaxis)``; the value asserted is MTME's on the 10 segments rated for all 23
systems (our documented choice), the gold ``None`` on every other segment.

The MTME values depend on our BLEU and chrF scores and on the loaders: ``test_inputs_are_the_ones_mtme_saw``
fails first, with its own message, when those inputs change (then rerun MTME and update the values).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from bleu_core.evaluation.clusters import rank_metrics
from bleu_core.evaluation.multi_pair import Task, task_from_study
from bleu_core.evaluation.pairwise import batched_pairwise_pvalues, pairwise_pvalues, sign_matrix
from bleu_core.metrics.study_scores import study_metric_scores
from bleu_core.tokenize.line_tokenizers import tokenizer_for_language

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
WMT21 = SHARED / "wmt21-newstest2021-mqm-da"
WMT24 = SHARED / "wmt24-general-esa"
METRICS = ("BLEU", "chrF")

CASES = ("ted-en-de/mqm", "wmt21-zh-en/mqm", "wmt21-zh-en/da_z", "wmt24-en-ja/esa")

# Our inputs, as the MTME run saw them (sums over the oriented score arrays, NaN left out).
FINGERPRINT = {
    "ted-en-de/mqm": {
        "systems": 13,
        "rated_sys": 13,
        "h_seg_valid": 6877,
        "h_seg_sum": -10867.400000000001,
        "h_sys_sum": -20.543289224952744,
        "BLEU_sys_sum": 377.53761266938625,
        "BLEU_seg_sum": 198767.59321168723,
        "chrF_sys_sum": 773.4216596503848,
        "chrF_seg_sum": 403940.7282429092,
    },
    "wmt21-zh-en/mqm": {
        "systems": 23,
        "rated_sys": 8,
        "h_seg_valid": 5200,
        "h_seg_sum": -26243.699999999997,
        "h_sys_sum": -40.374923076923075,
        "BLEU_sys_sum": 698.5957748252167,
        "BLEU_seg_sum": 1254936.310562401,
        "chrF_sys_sum": 1367.3591216785094,
        "chrF_seg_sum": 2622519.9451406095,
    },
    "wmt21-zh-en/da_z": {
        "systems": 23,
        "rated_sys": 23,
        "h_seg_valid": 36128,
        "h_seg_sum": -1519.6165084181223,
        "h_sys_sum": -0.968633317020477,
        "BLEU_sys_sum": 698.5957748252167,
        "BLEU_seg_sum": 1254936.310562401,
        "chrF_sys_sum": 1367.3591216785094,
        "chrF_seg_sum": 2622519.9451406095,
    },
    "wmt24-en-ja/esa": {
        "systems": 23,
        "rated_sys": 12,
        "h_seg_valid": 7608,
        "h_seg_sum": 683290.0,
        "h_sys_sum": 1077.744479495268,
        "BLEU_sys_sum": 530.1395731057769,
        "BLEU_seg_sum": 491495.2481059829,
        "chrF_sys_sum": 731.8379048200435,
        "chrF_seg_sum": 704426.5380686077,
    },
}

# (case, statistic): {metric: MTME's value}; the calls are listed in the module docstring.
MTME = {
    # stats.py @544e0fc, Correlation(13, gold_sys, metric_sys).Pearson(); TED en-de demo, mqm
    ("ted-en-de/mqm", "pearson"): {"BLEU": 0.6200225279385717, "chrF": 0.5623180218694968},
    # stats.py @544e0fc, Correlation(13, gold_sys, metric_sys).Kendall(); TED en-de demo, mqm
    ("ted-en-de/mqm", "kendall"): {"BLEU": 0.3846153846153845, "chrF": 0.3589743589743589},
    # stats.py @544e0fc, Agreement(gold_sys, metric_sys) -> agree / num_pairs; TED en-de demo, mqm
    ("ted-en-de/mqm", "pairwise-accuracy"): {
        "BLEU": 0.6923076923076923,
        "chrF": 0.6794871794871795,
    },
    # stats.py @544e0fc + tau_optimization.py @0b82d96, KendallWithTiesOpt(gold_seg, metric_seg,
    # variant='acc23', num_sys=13, average_by='item', sample_rate=1.0) -> (best_tau, best_threshold);
    # TED en-de demo, mqm (BLEU's threshold makes every pair a tie: the constant metric's value)
    ("ted-en-de/mqm", "acc-eq"): {
        "BLEU": (0.4802966409771695, 100.00000000000004),
        "chrF": (0.4802966409771693, 92.5925925925926),
    },
    # stats.py @544e0fc + pce.py @1b47eab, PairwiseConfidenceError(gold_seg, metric_seg, num_sys=13,
    # filter_nones=False) -> (1 - PCE, sum of human p-values, sum of metric p-values); TED en-de demo, mqm,
    # 529 segments
    ("ted-en-de/mqm", "spa"): {
        "BLEU": (0.668923076923077, 29.586999999999996, 34.469),
        "chrF": (0.6687051282051283, 29.586999999999996, 34.04),
    },
    # stats.py @544e0fc, Correlation(23, gold_sys, metric_sys).Pearson(); WMT21 zh-en, mqm (8 systems rated)
    ("wmt21-zh-en/mqm", "pearson"): {"BLEU": 0.7076388557547887, "chrF": 0.7558175667155342},
    # stats.py @544e0fc, Correlation(23, gold_sys, metric_sys).Kendall(); WMT21 zh-en, mqm
    ("wmt21-zh-en/mqm", "kendall"): {"BLEU": 0.2857142857142857, "chrF": 0.3571428571428571},
    # stats.py @544e0fc, Agreement(gold_sys, metric_sys) -> agree / num_pairs; WMT21 zh-en, mqm
    ("wmt21-zh-en/mqm", "pairwise-accuracy"): {
        "BLEU": 0.6428571428571429,
        "chrF": 0.6785714285714286,
    },
    # stats.py @544e0fc + tau_optimization.py @0b82d96, KendallWithTiesOpt(gold_seg, metric_seg,
    # variant='acc23', num_sys=23, average_by='item', sample_rate=1.0); WMT21 zh-en, mqm
    ("wmt21-zh-en/mqm", "acc-eq"): {
        "BLEU": (0.42884615384615365, 0.0),
        "chrF": (0.432032967032967, 0.005520764449059357),
    },
    # stats.py @544e0fc + pce.py @1b47eab, PairwiseConfidenceError(gold_seg, metric_seg, num_sys=8,
    # filter_nones=True); WMT21 zh-en, mqm, 650 segments
    ("wmt21-zh-en/mqm", "spa"): {
        "BLEU": (0.7324642857142858, 14.998, 10.039),
        "chrF": (0.7121785714285713, 14.998, 9.155),
    },
    # stats.py @544e0fc, Correlation(23, gold_sys, metric_sys).Pearson(); WMT21 zh-en, da_z
    ("wmt21-zh-en/da_z", "pearson"): {"BLEU": 0.6778764151026652, "chrF": 0.7202230044658144},
    # stats.py @544e0fc, Correlation(23, gold_sys, metric_sys).Kendall(); WMT21 zh-en, da_z
    ("wmt21-zh-en/da_z", "kendall"): {"BLEU": 0.383399209486166, "chrF": 0.44664031620553357},
    # stats.py @544e0fc, Agreement(gold_sys, metric_sys) -> agree / num_pairs; WMT21 zh-en, da_z
    ("wmt21-zh-en/da_z", "pairwise-accuracy"): {
        "BLEU": 0.691699604743083,
        "chrF": 0.7233201581027668,
    },
    # stats.py @544e0fc + tau_optimization.py @0b82d96, KendallWithTiesOpt(gold_seg, metric_seg,
    # variant='acc23', num_sys=23, average_by='item', sample_rate=1.0); WMT21 zh-en, da_z
    ("wmt21-zh-en/da_z", "acc-eq"): {
        "BLEU": (0.46821982185940686, 0.0),
        "chrF": (0.47825912783232616, 0.0),
    },
    # stats.py @544e0fc + pce.py @1b47eab, PairwiseConfidenceError(gold_seg, metric_seg, num_sys=23,
    # filter_nones=True), gold None outside the 10 segments rated for all 23 systems (on the release's own
    # None pattern it raises ValueError); WMT21 zh-en, da_z, 10 segments
    ("wmt21-zh-en/da_z", "spa"): {
        "BLEU": (0.597209486166008, 133.45399999999998, 117.55),
        "chrF": (0.628494071146245, 133.45399999999998, 110.35300000000001),
    },
    # stats.py @544e0fc, Correlation(23, gold_sys, metric_sys).Pearson(); WMT24 en-ja, esa (12 systems rated)
    ("wmt24-en-ja/esa", "pearson"): {"BLEU": 0.8356137508885101, "chrF": 0.8355454169735674},
    # stats.py @544e0fc, Correlation(23, gold_sys, metric_sys).Kendall(); WMT24 en-ja, esa
    ("wmt24-en-ja/esa", "kendall"): {"BLEU": 0.39393939393939387, "chrF": 0.4242424242424242},
    # stats.py @544e0fc, Agreement(gold_sys, metric_sys) -> agree / num_pairs; WMT24 en-ja, esa
    ("wmt24-en-ja/esa", "pairwise-accuracy"): {
        "BLEU": 0.696969696969697,
        "chrF": 0.7121212121212122,
    },
    # stats.py @544e0fc + tau_optimization.py @0b82d96, KendallWithTiesOpt(gold_seg, metric_seg,
    # variant='acc23', num_sys=23, average_by='item', sample_rate=1.0); WMT24 en-ja, esa
    ("wmt24-en-ja/esa", "acc-eq"): {
        "BLEU": (0.47916069209444634, 0.0),
        "chrF": (0.4905601758914063, 0.0),
    },
    # stats.py @544e0fc + pce.py @1b47eab, PairwiseConfidenceError(gold_seg, metric_seg, num_sys=12,
    # filter_nones=True); WMT24 en-ja, esa, 634 segments
    ("wmt24-en-ja/esa", "spa"): {
        "BLEU": (0.736, 31.962999999999997, 30.391000000000002),
        "chrF": (0.7479393939393939, 31.962999999999997, 30.095),
    },
}

# our SPA ranking path differs from MTME's value on these (see the module docstring): observed
# |difference| 1.2e-4 (TED, BLEU and chrF), 1.1e-4 / 3.6e-5 (WMT21 MQM), 1.7e-4 / 6.2e-4 (WMT21 DA z)
SPA_TOLERANCE = 1e-3
"""Largest SPA difference allowed on the ranking path: every pair's p-value off by one permutation in 1,000."""


@cache
def _tables(study_name: str) -> tuple:
    if study_name == "ted-en-de":
        from bleu_core.study.demo import load_demo

        study = load_demo("ted-en-de")
    else:
        from bleu_core.study import load_study

        folder, pair = {"wmt21-zh-en": (WMT21, "zh-en"), "wmt24-en-ja": (WMT24, "en-ja")}[
            study_name
        ]
        if not folder.is_dir():
            pytest.skip(f"{folder} is absent: the MTME comparison on {study_name} needs it")
        study = load_study(folder, pair=pair).study
    tables = study_metric_scores(
        study,
        list(METRICS),
        systems=study.machine_systems,
        tokenize=tokenizer_for_language(study.target_lang),
        attached=False,
    )
    return study, tables


def _task(case: str) -> Task:
    name, criterion = case.split("/")
    study, tables = _tables(name)
    return task_from_study(study, tables, criterion)


MTME_KERNEL = "SkylakeX"
"""The OpenBLAS kernel (``threadpoolctl``'s ``architecture``) of the MTME run; see the module docstring."""
KERNEL_SENSITIVE = {"wmt21-zh-en/da_z"}
"""Cases whose float32 ties round differently on other kernels (measured; see the module docstring)."""


def _blas_kernel() -> str | None:
    """The OpenBLAS kernel numpy uses here (``None`` when it cannot be told)."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    for info in threadpool_info():
        if info.get("internal_api") == "openblas":
            return info.get("architecture")
    return None


def _exact_on_this_kernel(case: str) -> None:
    kernel = _blas_kernel()
    if case in KERNEL_SENSITIVE and kernel not in (None, MTME_KERNEL, "Sandybridge"):
        pytest.skip(
            f"{case}: MTME's float32 sums were taken with the OpenBLAS {MTME_KERNEL} kernel; this process "
            f"uses {kernel} (OPENBLAS_CORETYPE?), whose ties round otherwise, for MTME's code as for ours"
        )


def _ours(task: Task, statistic: str) -> dict[str, tuple[float, float | None]]:
    r = rank_metrics(task.tables, task.human_system, task.human_segment, statistic, n_resamples=0)
    return {row.metric: (row.statistic, row.threshold) for row in r.rows}


def _fingerprint(task: Task) -> dict[str, float]:
    h, hs = task.human_segment, task.human_system
    out = {
        "systems": hs.size,
        "rated_sys": int((~np.isnan(hs)).sum()),
        "h_seg_valid": int((~np.isnan(h)).sum()),
        "h_seg_sum": float(np.nansum(h)),
        "h_sys_sum": float(np.nansum(hs)),
    }
    for m in METRICS:
        out[f"{m}_sys_sum"] = float(np.nansum(task.tables[m].oriented_system()))
        out[f"{m}_seg_sum"] = float(np.nansum(task.tables[m].oriented_segment()))
    return out


def _spa_matrices(task: Task) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The human and metric segment scores SPA compares, as SoftPairwiseStatistic selects them (rated
    systems; segments rated for all of them and scored by every metric), C-ordered as MTME packs them."""
    h = task.human_segment
    rated = ~np.isnan(task.human_system) & ~np.isnan(h).all(axis=1)
    common = ~np.isnan(h[rated]).any(axis=0)
    for m in METRICS:
        common &= ~np.isnan(task.tables[m].oriented_segment()[rated]).any(axis=0)
    human = np.ascontiguousarray(h[rated][:, common])
    return human, {
        m: np.ascontiguousarray(task.tables[m].oriented_segment()[rated][:, common])
        for m in METRICS
    }


@pytest.mark.parametrize("case", CASES)
def test_inputs_are_the_ones_mtme_saw(case):
    got, expected = _fingerprint(_task(case)), FINGERPRINT[case]
    assert got == pytest.approx(expected, rel=1e-9), (
        f"{case}: our BLEU/chrF or human scores changed since the MTME run: rerun MTME on the new "
        "inputs and update MTME and FINGERPRINT (the other tests of this module then fail for that reason)"
    )


@pytest.mark.parametrize("statistic", ["pearson", "kendall", "pairwise-accuracy"])
@pytest.mark.parametrize("case", CASES)
def test_system_level_equals_mtme(case, statistic):
    ours = _ours(_task(case), statistic)
    for m in METRICS:
        assert ours[m][0] == pytest.approx(MTME[case, statistic][m], abs=1e-9), m


@pytest.mark.parametrize("case", CASES)
def test_acc_eq_equals_mtme_kendall_with_ties_opt(case):
    ours = _ours(_task(case), "acc-eq")
    for m in METRICS:
        value, threshold = MTME[case, "acc-eq"][m]
        assert ours[m][0] == pytest.approx(value, abs=1e-9), m
        assert ours[m][1] == pytest.approx(threshold, rel=1e-12, abs=1e-12), m


@pytest.mark.parametrize("case", CASES)
def test_spa_pvalues_equal_mtme_on_mtme_layout(case):
    _exact_on_this_kernel(case)
    # the same draws (default_rng(4), float32) on C-ordered matrices: MTME's p-values bit for bit
    human, metrics = _spa_matrices(_task(case))
    iu = np.triu_indices(human.shape[0], k=1)
    ph = pairwise_pvalues(human, 1000, 4)
    for m in METRICS:
        spa, human_sum, metric_sum = MTME[case, "spa"][m]
        pm = pairwise_pvalues(metrics[m], 1000, 4)
        assert float(ph[iu].sum()) == pytest.approx(human_sum, abs=1e-9), m
        assert float(pm[iu].sum()) == pytest.approx(metric_sum, abs=1e-9), m
        assert 1.0 - float(np.mean(np.abs(ph - pm)[iu])) == pytest.approx(spa, abs=1e-12), m


@pytest.mark.parametrize("case", CASES)
def test_batched_spa_pvalues_equal_mtme_on_mtme_layout(case):
    _exact_on_this_kernel(case)
    # the p-values of the SPA intervals and tests (batched_pairwise_pvalues), on C-ordered matrices: MTME's.
    # (Fed the Fortran-ordered selection the ranking makes, they give the ranking's, not MTME's, p-values.)
    human, metrics = _spa_matrices(_task(case))
    signs = sign_matrix(1000, human.shape[1], 4)
    expected = {"human": MTME[case, "spa"]["BLEU"][1]} | {
        m: MTME[case, "spa"][m][2] for m in METRICS
    }
    for name, x in {"human": human, **metrics}.items():
        got = float(batched_pairwise_pvalues(x[None], signs).sum())
        assert got == pytest.approx(expected[name], abs=1e-9), name


@pytest.mark.parametrize("case", CASES)
def test_spa_ranking_within_tolerance_of_mtme(case):
    ours = _ours(_task(case), "soft-pairwise-accuracy")
    for m in METRICS:
        assert ours[m][0] == pytest.approx(MTME[case, "spa"][m][0], abs=SPA_TOLERANCE), m


@pytest.mark.parametrize("case", CASES)
def test_spa_ranking_equals_mtme_exactly(case):
    _exact_on_this_kernel(case)
    ours = _ours(_task(case), "soft-pairwise-accuracy")
    for m in METRICS:
        assert ours[m][0] == pytest.approx(MTME[case, "spa"][m][0], abs=1e-12), m
