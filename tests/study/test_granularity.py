"""Documents and domains (bleu_core.study.granularity): grouped statistics, document BLEU against sacrebleu,
domain parts of a study."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.errors import StudyError
from bleu_core.study.demo import load_demo
from bleu_core.study.granularity import (
    group_bleu,
    group_means,
    group_statistics,
    grouping,
    restrict_to_domain,
)
from bleu_core.study.metric_scores import AttachedMetricScores, attach_metric_scores
from bleu_core.study.model import Segment, Study

# Invented domains for the TED demo's five talks (the demo has none): two domains of two talks, one of one.
TED_DOMAINS = {"talk.1": "science", "talk.3": "science", "talk.4": "arts", "talk.5": "arts"}


def ted_with_domains(systems: int = 4) -> Study:
    study = load_demo("ted-en-de")
    study = study.subset(list(study.systems)[:systems])
    return replace(
        study,
        segments=tuple(
            replace(s, domain=TED_DOMAINS.get(s.doc_id or "", "society")) for s in study.segments
        ),
    )


def statistics(study: Study) -> np.ndarray:
    stats = compute_system_statistics(study.systems, study.reference_streams(), max_order=4)
    return np.stack([stats[name].array for name in study.systems])


def test_document_bleu_is_sacrebleu_corpus_bleu_of_the_documents_segments():
    # Oracle: sacrebleu 2.6 corpus_bleu(hypotheses of the document, [reference of the document]), 13a, exp.
    study = ted_with_domains(3)
    docs = grouping(study.segments, "document")
    result = group_bleu(statistics(study), docs, BleuOptions())
    assert result.names == tuple(study.doc_ids()) and len(result.names) == 5
    reference = study.references[next(iter(study.references))]
    for i, system in enumerate(study.systems):
        for k, doc in enumerate(result.names):
            rows = docs.positions(doc)
            oracle = sacrebleu.corpus_bleu(
                [study.systems[system][p] for p in rows], [[reference[p] for p in rows]]
            )
            assert result.bleu.score[i, k] == pytest.approx(oracle.score, abs=1e-9)
            assert result.bleu.matches[i, k].tolist() == oracle.counts


def test_documents_are_not_the_mean_of_sentence_bleu():
    study = ted_with_domains(1)
    docs = grouping(study.segments, "document")
    stats = statistics(study)
    sentence_mean = bleu_from_stats(stats[0, docs.positions("talk.1")], BleuOptions()).score.mean()
    document = group_bleu(stats, docs, BleuOptions()).bleu.score[0, 0]
    assert document != pytest.approx(sentence_mean, abs=0.1)


def test_grouping_names_groups_in_order_of_first_appearance_and_leaves_out_the_unnamed():
    segments = (
        Segment("1", domain="b"),
        Segment("2"),
        Segment("3", domain="a"),
        Segment("4", domain="b"),
    )
    groups = grouping(segments, "domain")
    assert groups.names == ("b", "a")
    assert groups.codes.tolist() == [0, -1, 1, 0]
    assert groups.positions("b").tolist() == [0, 3]


def test_an_unknown_grouping_level_is_refused():
    with pytest.raises(
        StudyError, match="unknown grouping level 'talk': use 'document' or 'domain'"
    ):
        grouping((Segment("1"),), "talk")


def test_statistics_of_another_length_are_refused():
    groups = grouping((Segment("1", "d"),), "document")
    with pytest.raises(StudyError, match="statistics cover 2 segments but the grouping has 1"):
        group_statistics(np.zeros((1, 2, 6)), groups)


@st.composite
def labelled_statistics(draw):
    systems = draw(st.integers(1, 3))
    segments = draw(st.integers(1, 30))
    labels = draw(st.lists(st.sampled_from("abcd"), min_size=segments, max_size=segments))
    counts = draw(
        st.lists(
            st.integers(0, 50), min_size=systems * segments * 12, max_size=systems * segments * 12
        )
    )
    stats = np.array(counts, dtype=float).reshape(systems, segments, 12)
    return stats, tuple(Segment(str(i), domain=label) for i, label in enumerate(labels))


@settings(max_examples=60, deadline=None)
@given(labelled_statistics())
def test_per_domain_statistics_add_up_to_the_corpus(data):
    stats, segments = data
    groups = grouping(segments, "domain")
    per_domain = group_statistics(stats, groups)
    assert np.array_equal(per_domain.sum(axis=1), stats.sum(axis=1))
    for k, name in enumerate(groups.names):
        assert np.array_equal(per_domain[:, k], stats[:, groups.positions(name)].sum(axis=1))


@settings(max_examples=60, deadline=None)
@given(labelled_statistics())
def test_group_means_are_the_means_of_the_rated_segments(data):
    stats, segments = data
    scores = np.where(stats[:, :, 0] % 3 == 0, np.nan, stats[:, :, 1])
    groups = grouping(segments, "domain")
    means = group_means(scores, groups)
    for k, name in enumerate(groups.names):
        part = scores[:, groups.positions(name)]
        for i in range(scores.shape[0]):
            rated = part[i][np.isfinite(part[i])]
            if rated.size:
                assert means[i, k] == pytest.approx(rated.mean())
            else:
                assert np.isnan(means[i, k])


def test_a_domain_of_a_study_keeps_its_segments_ratings_spans_and_metric_scores():
    study = load_demo("ted-en-de").subset(["Nemo", "UEdin"])
    study = replace(
        study,
        segments=tuple(
            replace(s, domain=TED_DOMAINS.get(s.doc_id or "", "society")) for s in study.segments
        ),
    )
    n = study.n_segments
    study = attach_metric_scores(
        study,
        [
            AttachedMetricScores(
                "COMET", segment={s: tuple(float(k) for k in range(n)) for s in study.systems}
            ),
            AttachedMetricScores("sys-only", system={"Nemo": 1.0, "UEdin": 2.0}),
        ],
    )
    part = restrict_to_domain(study, "arts")
    positions = [i for i, s in enumerate(study.segments) if s.domain == "arts"]
    assert [s.id for s in part.segments] == [study.segments[p].id for p in positions]
    assert part.systems["Nemo"] == [study.systems["Nemo"][p] for p in positions]
    ids = {s.id for s in part.segments}
    assert part.ratings and all(r.segment_id in ids for r in part.ratings)
    assert len(part.ratings) == sum(r.segment_id in ids for r in study.ratings)
    assert part.error_spans and all(s.segment_id in ids for s in part.error_spans)
    assert part.metric_scores["COMET"].segment["UEdin"] == tuple(float(p) for p in positions)
    assert "sys-only" not in part.metric_scores  # system level describes the whole test set
    assert part.system_scores("mqm")["Nemo"] == pytest.approx(
        np.nanmean(study.segment_scores("mqm")[0, positions])
    )


def test_an_unknown_domain_is_refused_with_the_domains_named():
    with pytest.raises(
        StudyError, match=r"unknown domain 'sports'; the study's domains: science, arts, society"
    ):
        restrict_to_domain(ted_with_domains(1), "sports")
    with pytest.raises(StudyError, match="no segment names a domain"):
        restrict_to_domain(load_demo("ted-en-de"), "news")
