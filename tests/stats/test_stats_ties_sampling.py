"""Tie calibration with ``sample_rate < 1`` (MTME's speed-up) is reproducible: without an ``rng`` the pair
sample is drawn from the default seed, which the result reports."""

from __future__ import annotations

import numpy as np

from bleu_core.evaluation.ties import tie_calibrated
from bleu_core.maths.resampling import DEFAULT_SEED


def _scores():
    gen = np.random.default_rng(0)
    human = gen.integers(0, 5, size=(6, 40)).astype(float)
    return human + gen.normal(0, 1.5, size=human.shape), human


def test_a_sampled_tie_calibration_without_rng_is_the_same_every_run_and_reports_its_seed():
    metric, human = _scores()
    runs = [tie_calibrated(metric, human, sample_rate=0.5) for _ in range(3)]
    assert len({(r.statistic, r.threshold, r.n_pairs) for r in runs}) == 1
    assert runs[0].seed == DEFAULT_SEED
    seeded = tie_calibrated(metric, human, sample_rate=0.5, rng=np.random.default_rng(DEFAULT_SEED))
    assert (seeded.statistic, seeded.n_pairs, seeded.seed) == (
        runs[0].statistic,
        runs[0].n_pairs,
        None,
    )
    full = tie_calibrated(metric, human)
    assert full.seed is None and full.n_pairs > runs[0].n_pairs
