"""BLEU vs human per domain and at the sentence, document and corpus granularities (bleu_core.evaluation.domains)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from scipy import stats as sps

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.errors import StudyError
from bleu_core.evaluation.domains import bleu_human_pairs, compare_by_domain
from bleu_core.study import load_study
from bleu_core.study.demo import load_demo
from bleu_core.study.granularity import group_statistics, grouping
from bleu_core.study.model import Study

# Invented domains for the TED demo's five talks (the demo has none).
TED_DOMAINS = {"talk.1": "science", "talk.3": "science", "talk.4": "arts", "talk.5": "arts"}


@pytest.fixture(scope="module")
def study() -> Study:
    ted = load_demo("ted-en-de")
    ted = ted.subset(list(ted.systems)[:5])
    return replace(
        ted,
        segments=tuple(
            replace(s, domain=TED_DOMAINS.get(s.doc_id or "", "society")) for s in ted.segments
        ),
    )


@pytest.fixture(scope="module")
def stats(study: Study) -> np.ndarray:
    counted = compute_system_statistics(study.systems, study.reference_streams(), max_order=4)
    return np.stack([counted[name].array for name in study.systems])


def test_domain_bleu_is_sacrebleu_on_the_domains_segments(study, stats):
    # Oracle: sacrebleu 2.6 corpus_bleu of each system's segments of the domain against reference A.
    result = compare_by_domain(study, stats, BleuOptions(), "mqm")
    assert result.domains == ("science", "arts", "society")
    reference = study.references[next(iter(study.references))]
    for i, system in enumerate(result.systems):
        for k, domain in enumerate(result.domains):
            rows = [p for p, s in enumerate(study.segments) if s.domain == domain]
            oracle = sacrebleu.corpus_bleu(
                [study.systems[system][p] for p in rows], [[reference[p] for p in rows]]
            )
            assert result.bleu[i, k] == pytest.approx(oracle.score, abs=1e-9)


def test_domain_human_scores_and_their_correlation_with_bleu(study, stats):
    result = compare_by_domain(study, stats, BleuOptions(), "mqm", method="kendall")
    segment = study.segment_scores("mqm")
    for k, domain in enumerate(result.domains):
        rows = [p for p, s in enumerate(study.segments) if s.domain == domain]
        expected = np.nanmean(segment[:, rows], axis=1)
        assert result.human[:, k] == pytest.approx(expected)
        tau = sps.kendalltau(result.bleu[:, k], expected).statistic
        assert result.correlations[domain].statistic == pytest.approx(tau)
        assert result.correlations[domain].method == "kendall"


def test_a_study_without_ratings_has_per_domain_bleu_and_no_correlation(study, stats):
    result = compare_by_domain(study, stats, BleuOptions(), None, systems=["Nemo", "UEdin"])
    assert result.systems == ("Nemo", "UEdin") and np.isnan(result.human).all()
    assert np.isfinite(result.bleu).all()
    assert all(np.isnan(c.statistic) for c in result.correlations.values())


def test_the_three_granularities_pair_bleu_with_the_matching_human_score(study, stats):
    options = BleuOptions()
    sentence = bleu_human_pairs(study, stats, options, "mqm", level="sentence")
    document = bleu_human_pairs(study, stats, options, "mqm", level="document")
    corpus = bleu_human_pairs(study, stats, options, "mqm", level="corpus")
    reference = study.references[next(iter(study.references))]
    assert sentence.units == 5 * study.n_segments
    # Oracle: sacrebleu 2.6 sentence_bleu (its effective order) of the first rated segment of the first system.
    first = int(np.flatnonzero(np.isfinite(study.segment_scores("mqm")[0]))[0])
    oracle = sacrebleu.sentence_bleu(
        study.systems[next(iter(study.systems))][first], [reference[first]]
    )
    assert sentence.metric[0] == pytest.approx(oracle.score, abs=1e-9)
    assert sentence.metric.size == np.isfinite(study.segment_scores("mqm")).sum()
    assert document.units == 5 * 5 and corpus.units == 5
    nemo = list(study.systems).index("Nemo")
    rows = [p for p, s in enumerate(study.segments) if s.doc_id == "talk.3"]
    oracle = sacrebleu.corpus_bleu(
        [study.systems["Nemo"][p] for p in rows], [[reference[p] for p in rows]]
    )
    assert document.metric[nemo * 5 + 1] == pytest.approx(oracle.score, abs=1e-9)
    scores = study.system_scores("mqm")
    assert corpus.human.tolist() == pytest.approx([scores[s] for s in study.systems])
    assert corpus.correlation("pearson").n == 5


def test_untranslated_documents_are_left_out(study, stats):
    texts = dict(study.systems)
    rows = [p for p, s in enumerate(study.segments) if s.doc_id == "talk.6"]
    texts["Nemo"] = [None if p in rows else t for p, t in enumerate(texts["Nemo"])]
    holes = replace(study, systems=texts)
    pairs = bleu_human_pairs(holes, stats, BleuOptions(), "mqm", level="document", systems=["Nemo"])
    assert pairs.units == 5 and pairs.metric.size == 4


def test_bad_requests_are_refused(study, stats):
    with pytest.raises(
        StudyError, match="unknown granularity 'paragraph': use one of sentence, document, corpus"
    ):
        bleu_human_pairs(study, stats, BleuOptions(), "mqm", level="paragraph")
    with pytest.raises(StudyError, match="unknown system 'Nobody'; the study has: "):
        compare_by_domain(study, stats, BleuOptions(), "mqm", systems=["Nobody"])
    flat = replace(
        study, segments=tuple(replace(s, domain=None, doc_id=None) for s in study.segments)
    )
    with pytest.raises(
        StudyError, match="no segment names a domain: per-domain scores need domains"
    ):
        compare_by_domain(flat, stats, BleuOptions(), "mqm")
    with pytest.raises(
        StudyError, match="no segment names a document: document-level BLEU needs document ids"
    ):
        bleu_human_pairs(flat, stats, BleuOptions(), "mqm", level="document")


WMT24 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"


@pytest.mark.skipif(not WMT24.is_dir(), reason=f"WMT24 ESA data not found at {WMT24}")
def test_wmt24_en_ja_domains_add_up_and_match_sacrebleu():
    study = load_study(WMT24, pair="en-ja").study.subset(["GPT-4", "ONLINE-B", "Aya23"])
    counted = compute_system_statistics(study.systems, study.reference_streams(), max_order=4)
    array = np.stack([counted[name].array for name in study.systems])
    result = compare_by_domain(study, array, BleuOptions(), "esa")
    assert result.domains == ("news", "social", "speech", "literary")  # txt/documents/en-ja.docs
    assert np.array_equal(
        group_statistics(array, grouping(study.segments, "domain")).sum(axis=1), array.sum(axis=1)
    )
    reference = study.references[next(iter(study.references))]
    rows = [p for p, s in enumerate(study.segments) if s.domain == "speech"]
    # Oracle: sacrebleu 2.6 corpus_bleu (13a, as compute_system_statistics' default) on the domain.
    oracle = sacrebleu.corpus_bleu(
        [study.systems["GPT-4"][p] or "" for p in rows], [[reference[p] for p in rows]]
    )
    assert result.bleu[0, 2] == pytest.approx(oracle.score, abs=1e-9)
    assert np.isfinite(result.human).all()  # every system is rated in every domain
