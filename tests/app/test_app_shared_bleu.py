"""The analysis pages' BLEU comes from the statistics every page shares, and equals the registry's own.

Before: Metrics, Correlation and Export scored BLEU with :func:`bleu_core.metrics.registry.score_study`, a
second count of the whole study beside the sidebar's (:func:`ui.app.shared_cache.system_statistics`); on WMT21 a
tokenizer change on Metrics counted 24 systems × 1,948 segments twice.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from bleu_core.metrics.registry import bleu_scores_from_statistics, score_study
from bleu_core.study.demo import load_demo
from bleu_core.study.model import Segment, Study
from ui.app import analysis_cache, shared_cache
from ui.app.context import STATISTICS_ORDER


def assert_same(ours, theirs) -> None:
    assert ours.names == theirs.names and ours.metric == theirs.metric == "BLEU"
    np.testing.assert_array_equal(ours.stats, theirs.stats)
    np.testing.assert_allclose(ours.segment, theirs.segment, rtol=0, atol=1e-9, equal_nan=True)
    np.testing.assert_allclose(ours.observed(), theirs.observed(), rtol=0, atol=1e-9)
    counts = np.random.default_rng(7).multinomial(
        ours.n_segments, [1 / ours.n_segments] * ours.n_segments, 5
    )
    np.testing.assert_allclose(ours.resampled(counts), theirs.resampled(counts), rtol=0, atol=1e-9)
    assert ours.higher_is_better == theirs.higher_is_better


@pytest.mark.parametrize("tokenize, lowercase", [("13a", False), ("intl", True)])
def test_shared_bleu_equals_the_registry_on_the_demo(tokenize: str, lowercase: bool) -> None:
    study = load_demo("ted-zh-en")
    shared_cache.STATISTICS.clear()
    shared_cache.SCORES.clear()
    ours = analysis_cache.shared_bleu_scores(f"demo-{tokenize}", study, tokenize, lowercase)
    assert ours is not None
    assert_same(ours, score_study(study, ("BLEU",), tokenize=tokenize, lowercase=lowercase)["BLEU"])
    # the statistics came from the shared store: the sidebar's own entry for these settings
    order = STATISTICS_ORDER  # what study_statistics counts for the sidebar, whatever its N
    key = shared_cache._statistics_key(
        f"demo-{tokenize}", tuple(study.references), tokenize, lowercase, order
    )
    assert shared_cache.STATISTICS.ready(key) and len(shared_cache.STATISTICS) == 1


def test_missing_translations_count_nothing_and_have_no_sentence_score() -> None:
    study = load_demo("ted-zh-en")
    first = next(iter(study.systems))
    texts = list(study.systems[first])
    texts[0] = texts[5] = None
    study = dataclasses.replace(study, systems={**study.systems, first: texts})
    shared_cache.STATISTICS.clear()
    shared_cache.SCORES.clear()
    ours = analysis_cache.shared_bleu_scores("demo-missing", study, "13a", False)
    theirs = score_study(study, ("BLEU",))["BLEU"]
    assert_same(ours, theirs)
    assert np.isnan(ours.segment[0, [0, 5]]).all() and not ours.stats[0, [0, 5]].any()


def test_a_segment_without_any_reference_leaves_bleu_to_the_registry() -> None:
    study = Study(
        "gap",
        (Segment("1"), Segment("2")),
        {"A": ["a b c", None], "B": [None, "d e f"]},
        {"sys": ["a b c", "d e"]},
    )
    assert analysis_cache.shared_bleu_scores("gap", study, "13a", False) is not None
    study = dataclasses.replace(study, references={"A": ["a b c", None]})
    assert analysis_cache.shared_bleu_scores("gap2", study, "13a", False) is None


def test_bleu_scores_from_statistics_zeroes_rows_without_a_translation() -> None:
    stats = np.ones((1, 2, 12))
    m = bleu_scores_from_statistics(["A"], stats, np.array([[True, False]]))
    assert m.stats[0, 1].sum() == 0 and m.stats[0, 0].sum() == 12
    assert np.isnan(m.segment[0, 1]) and not np.isnan(m.segment[0, 0])
