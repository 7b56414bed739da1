"""The metric registry: every metric's system and segment scores, resampling, missing segments."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.engine.bleu import corpus_bleu, sentence_bleu
from bleu_core.errors import BleuOptionError
from bleu_core.metrics.nist import corpus_nist
from bleu_core.metrics.per import corpus_per
from bleu_core.metrics.registry import (
    DEFAULT_METRICS,
    METRICS,
    get_metric,
    metric_names,
    score_study,
)
from bleu_core.metrics.weighted import weighted_scores
from bleu_core.study import Segment, Study

REF_A = [
    "the storm hit the coast at night .",
    "many houses lost their roofs .",
    "the mayor asked people to stay home .",
]
REF_B = [
    "a storm struck the coast overnight .",
    "many homes lost roofs .",
    "the mayor told residents to stay indoors .",
]
SYSTEMS = {
    "S1": [
        "the storm hit the coast at night .",
        "many houses lost roofs .",
        "mayor asked residents to stay home .",
    ],
    "S2": ["a storm hit coast in night", None, "the mayor said stay inside ."],
}


def _study() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(str(i), doc_id="d") for i in range(3)),
        references={"A": REF_A, "B": REF_B},
        systems=SYSTEMS,
    )


@pytest.fixture(scope="module")
def scores():  # noqa: ANN201
    return score_study(_study(), metric_names())


def test_registry_lists_every_metric() -> None:
    assert set(DEFAULT_METRICS) <= set(METRICS)
    assert get_metric("ter").higher_is_better is False
    assert get_metric("PER").higher_is_better is False
    with pytest.raises(BleuOptionError, match="unknown metric 'meteor'; choose one of: BLEU, chrF"):
        get_metric("meteor")


def test_bleu_system_and_segment(scores) -> None:  # noqa: ANN001
    bleu = scores["BLEU"]
    assert bleu.names == ("S1", "S2")
    assert bleu.system_scores()["S1"] == pytest.approx(
        corpus_bleu(SYSTEMS["S1"], [REF_A, REF_B]).score
    )
    s2 = [0, 2]
    expected = corpus_bleu(
        [SYSTEMS["S2"][i] for i in s2], [[REF_A[i] for i in s2], [REF_B[i] for i in s2]]
    )
    assert bleu.system_scores()["S2"] == pytest.approx(expected.score)
    assert bleu.segment[0, 1] == pytest.approx(
        sentence_bleu(SYSTEMS["S1"][1], [REF_A[1], REF_B[1]]).score
    )
    assert math.isnan(bleu.segment[1, 1])  # S2 did not translate segment 2


def test_sacrebleu_and_word_metrics(scores) -> None:  # noqa: ANN001
    refs = [REF_A, REF_B]
    assert scores["chrF"].system_scores()["S1"] == pytest.approx(
        sacrebleu.corpus_chrf(SYSTEMS["S1"], refs).score
    )
    assert scores["TER"].system_scores()["S1"] == pytest.approx(
        sacrebleu.corpus_ter(SYSTEMS["S1"], refs).score
    )
    assert scores["chrF++"].segment[0, 0] == pytest.approx(
        sacrebleu.sentence_chrf(SYSTEMS["S1"][0], [REF_A[0], REF_B[0]], word_order=2).score
    )
    assert scores["NIST"].system_scores()["S1"] == pytest.approx(
        corpus_nist(SYSTEMS["S1"], refs).corpus
    )
    per = corpus_per(SYSTEMS["S1"], refs)
    assert scores["PER"].system_scores()["S1"] == pytest.approx(per.corpus)
    np.testing.assert_allclose(scores["PER"].segment[0], per.segment)


def test_weighted_metrics_use_the_first_reference(scores) -> None:  # noqa: ANN001
    direct = weighted_scores(SYSTEMS["S1"], REF_A, doc_ids=["d", "d", "d"])
    assert scores["recall (tf.idf)"].system_scores()["S1"] == pytest.approx(
        float(direct["tf.idf"].corpus().recall)
    )
    assert scores["F (S-score)"].system_scores()["S1"] == pytest.approx(
        float(direct["s-score"].corpus().f)
    )
    assert scores["precision (unweighted)"].system_scores()["S1"] == pytest.approx(
        float(direct["none"].corpus().precision)
    )
    assert scores["recall (tf.idf)"].notes == ("single reference: A",)
    other = score_study(_study(), ["recall (tf.idf)"], single_reference="B")["recall (tf.idf)"]
    assert other.notes == ("single reference: B",)
    with pytest.raises(BleuOptionError, match="unknown reference stream 'C'"):
        score_study(_study(), ["recall (tf.idf)"], single_reference="C")


@pytest.mark.parametrize("name", metric_names())
def test_resampling_recomputes_from_statistics(scores, name: str) -> None:  # noqa: ANN001
    m = scores[name]
    ones = np.ones((1, 3))
    np.testing.assert_allclose(m.resampled(ones)[0], m.observed(), rtol=1e-9)
    # a resample that draws segment 1 three times: S1's score equals its score on that segment alone
    only_first = np.array([[3.0, 0.0, 0.0]])
    single = m.from_stats(m.stats[0, 0] * 3)
    assert m.resampled(only_first)[0, 0] == pytest.approx(float(single))


def test_observed_is_score_of_summed_rows(scores) -> None:  # noqa: ANN001
    for m in scores.values():
        np.testing.assert_allclose(m.observed(), m.from_stats(m.stats.sum(axis=1)), rtol=1e-12)


def test_validation_messages() -> None:
    with pytest.raises(BleuOptionError, match="unknown system\\(s\\) 'S9'; the study has: S1, S2"):
        score_study(_study(), ["BLEU"], systems=["S9"])


def test_scores_pickle(scores) -> None:  # noqa: ANN001
    import pickle

    for name, m in scores.items():
        back = pickle.loads(pickle.dumps(m))
        np.testing.assert_allclose(back.observed(), m.observed(), err_msg=name)


def test_metric_scores_are_a_score_source_for_the_statistics(scores) -> None:  # noqa: ANN001
    from bleu_core.evaluation.meta import SegmentMeanSource, system_correlations

    chrf = scores["chrF"]
    human = np.array([[3.0, np.nan, 4.0], [1.0, 2.0, 1.5]])  # systems x segments
    res = system_correlations(
        chrf, SegmentMeanSource(chrf.names, human), methods=("pearson",), n_resamples=0
    )
    assert res["pearson"].n == 2  # only two systems: r is undefined, but the source plugs in
    assert chrf.n_segments == 3


def test_vectorised_chrf_equals_sacrebleu_bit_for_bit() -> None:
    # rows of real chrF / chrF++ statistics (sacrebleu 2.6 extraction), plus edge cases: zero rows, sums
    from sacrebleu.metrics import CHRF

    from tests.metrics.sacrebleu_oracle import chrf_from_sacrebleu_metric

    hyps = ["the cat sat on the mat", "", "a dog !", "Das ist gut."]
    refs = [["the cat is on the mat", "a b", "a dog ran", "Das ist sehr gut."]]
    for metric in (CHRF(), CHRF(word_order=2), CHRF(eps_smoothing=True)):
        rows = np.asarray(metric._extract_corpus_statistics(hyps, refs), dtype=np.float64)
        rows = np.vstack([rows, rows.sum(axis=0), np.zeros(rows.shape[1])])
        expected = [metric._compute_score_from_stats(list(r)).score for r in rows]
        assert chrf_from_sacrebleu_metric(rows, metric).tolist() == expected


def test_weighted_counts_cache_gives_the_same_counts() -> None:
    from bleu_core.metrics.weighted import weighted_counts_many
    from bleu_core.metrics.weighting import WordWeights

    w = WordWeights("tf.idf", {"d": {"cat": 3.0, "mat": 1.5}}, n_documents=2)
    refs = [["the", "cat", "sat"], ["on", "the", "mat"]]
    docs = ["d", "d"]
    shared: dict = {}
    for hyps in ([["the", "cat"], ["a", "mat"]], [["cat", "cat", "sat"], ["the", "mat"]]):
        plain = weighted_counts_many(hyps, refs, docs, [w, None])
        cached = weighted_counts_many(hyps, refs, docs, [w, None], cache=shared)
        assert np.array_equal(plain, cached)


_WORDS = st.sampled_from(["a", "b", "c", "the", "cat", "sat"])
_TEXT = st.lists(_WORDS, min_size=1, max_size=6).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_batched_per_equals_the_counter_version_segment_by_segment(data) -> None:  # noqa: ANN001
    """The registry's PER (one batched unigram count per reference stream) = ``segment_per`` on every
    segment: several references, missing ones, empty and missing outputs, ties between references."""
    from bleu_core.metrics.per import per_from_counts, segment_per

    n = data.draw(st.integers(1, 6))
    ref_a = data.draw(st.lists(_TEXT, min_size=n, max_size=n))
    ref_b = data.draw(st.lists(st.one_of(st.none(), _TEXT), min_size=n, max_size=n))
    output = st.one_of(st.none(), st.just(""), _TEXT)
    systems = {s: data.draw(st.lists(output, min_size=n, max_size=n)) for s in ("S1", "S2")}
    study = Study(
        name="toy",
        segments=tuple(Segment(str(i)) for i in range(n)),
        references={"A": ref_a, "B": ref_b},
        systems=systems,
    )
    per = score_study(study, ("PER",))["PER"]
    for k, (name, outputs) in enumerate(systems.items()):
        assert per.names[k] == name
        for i, hyp in enumerate(outputs):
            refs = [r.split() for r in (ref_a[i], ref_b[i]) if r is not None]
            if hyp is None:
                assert math.isnan(per.segment[k, i])
            else:
                assert per.segment[k, i] == per_from_counts(segment_per(hyp.split(), refs))


@pytest.mark.parametrize("metric", ["NIST", "PER", "chrF"])
def test_slow_metrics_report_their_progress_with_what_they_do(metric):
    """The app's background jobs show these reports as a moving bar (work over 2 s says what it
    is doing); the scores do not depend on whether anyone listens."""
    from bleu_core.study.demo import load_demo

    study = load_demo("ted-zh-en")
    seen: list[tuple[int, int, str]] = []
    told = score_study(study, (metric,), progress=lambda d, t, m: seen.append((d, t, m)))[metric]
    quiet = score_study(study, (metric,))[metric]
    np.testing.assert_array_equal(told.stats, quiet.stats)
    assert seen and all(0 <= d <= t for d, t, _ in seen)
    assert all(m.startswith(("NIST:", "PER:", "chrF statistics:")) for _, _, m in seen)
    fractions = [d / t for d, t, _ in seen]
    assert fractions == sorted(fractions)  # never backwards
    if metric == "NIST":
        assert len(seen) == len(study.systems)
