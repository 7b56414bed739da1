"""A class's ESA spans against BLEU and among students: per-token marks, the agreement table, span overlap,
and Krippendorff's alpha of the 0-100 scores checked against the ``krippendorff`` package."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bleu_core.campaigns import krippendorff_alpha
from bleu_core.campaigns.class_spans import class_span_overlap, item_marks, span_overlap
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
from bleu_core.study.segment_tokens import token_records
from bleu_core.study.spans import ErrorSpan

krippendorff = pytest.importorskip("krippendorff")

WORDS = ["the", "cat", "sat", "on", "mat", "dog", "a", "."]


def stored(judge: str, start: int | None, end: int | None, *, missing: bool = False, pos: int = 0):
    return StoredSpan("K", judge, "g", pos, "1", "A", MarkedSpan(start, end, "major", missing))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=12),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=12),
    st.data(),
)
def test_one_students_marks_give_the_error_span_views_table(hyp_words, ref_words, data):
    """With one student, the class's table is the table of :func:`token_records` with that student's spans
    as MQM spans: the two definitions are one."""
    hyp, ref = " ".join(hyp_words), " ".join(ref_words)
    cuts = sorted(
        data.draw(st.lists(st.integers(0, len(hyp)), min_size=0, max_size=4, unique=True))
    )
    pairs = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]
    spans = [stored("ana", a, b) for a, b in pairs]
    order = data.draw(st.integers(1, 4))
    ours = item_marks(hyp, [ref], spans, ["ana"], max_order=order).counts()
    mqm = [ErrorSpan("A", "1", "ana", "target", a, b, "Error", "Major") for a, b in pairs]
    assert ours == token_records(hyp, [ref], mqm, max_order=order).counts()


def test_a_word_is_in_error_for_the_class_when_half_marked_it():
    spans = [
        stored("ana", 4, 7),
        stored("bo", 4, 7),
        stored("cy", 0, 3),
        stored("cy", None, None, missing=True),
    ]
    marks = item_marks("the cat sat", ["a dog sat"], spans, ["ana", "bo", "cy", "dee"])
    assert [(t.text, t.n_marked, marks.in_error(t)) for t in marks.tokens] == [
        ("the", 1, False),
        ("cat", 2, True),
        ("sat", 0, False),
    ]
    assert marks.n_missing == 1 and marks.n_students == 4
    # "cat": unmatched and marked (BLEU and the class agree); "the": unmatched, not marked by the majority
    assert (marks.counts().unmatched_in_error, marks.counts().unmatched_clean) == (1, 1)


def test_span_overlap_is_a_jaccard_index_per_pair():
    assert span_overlap([stored("a", 0, 4), stored("b", 0, 4)], ["a", "b"]) == 1.0
    assert span_overlap([stored("a", 0, 4), stored("b", 4, 8)], ["a", "b"]) == 0.0
    assert span_overlap([stored("a", 0, 4), stored("b", 2, 6)], ["a", "b"]) == pytest.approx(2 / 6)
    assert span_overlap([], ["a", "b"]) == 1.0  # nobody marked anything: they agree
    assert math.isnan(span_overlap([], ["a"]))
    spans = [stored("a", 0, 4, pos=0), stored("b", 4, 8, pos=0), stored("a", 0, 2, pos=1)]
    # item 0: one pair, 0.0; item 1: three pairs (a-b 0, a-c 0, b-c 1)
    assert class_span_overlap(spans, {0: ["a", "b"], 1: ["a", "b", "c"]}) == pytest.approx(1 / 4)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda n_raters: st.lists(
            st.lists(
                st.one_of(st.none(), st.integers(0, 100)), min_size=n_raters, max_size=n_raters
            ),
            min_size=2,
            max_size=12,
        )
    )
)
def test_alpha_of_esa_scores_equals_the_krippendorff_package(units):
    data = np.array([[np.nan if v is None else v for v in unit] for unit in units], dtype=float).T
    pairable = [col[~np.isnan(col)] for col in data.T if np.sum(~np.isnan(col)) >= 2]
    values = np.concatenate(pairable) if pairable else np.array([])
    assume(len(values) >= 2 and len(set(values.tolist())) >= 2)
    ours = krippendorff_alpha(data, level="interval", n_resamples=0).statistic
    theirs = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    assert ours == pytest.approx(theirs, abs=1e-9)


def test_an_esa_lesson_keeps_the_experts_spans_of_its_items():
    from bleu_core.campaigns.class_spans import class_vs_experts, esa_lesson
    from bleu_core.campaigns.planning import plan_campaign
    from bleu_core.study.model import Segment, Study

    study = Study(
        "toy", (Segment("1"), Segment("2")), {"ref": ["the cat sat", "a dog"]},
        {"A": ["the cat sat", "a dog ran"], "B": ["cat", "dog"]},
        error_spans=(
            ErrorSpan("A", "1", "e1", "target", 4, 7, "Accuracy", "Major"),
            ErrorSpan("A", "2", "e1", "source", 0, 1, "Accuracy/Omission", "Major"),
            ErrorSpan("B", "1", "e1", "target", 0, 3, "Fluency", "Minor"),
        ),
    )  # fmt: skip
    plan = plan_campaign(
        name="lesson", study_name="toy", segment_ids=["1", "2"], translations={"A": study.systems["A"]},
        sources=None, references=None, systems=["A"], n_segments=2, seed=0,
    )  # fmt: skip
    lesson = esa_lesson(plan, study)
    assert lesson.protocol == "esa" and lesson.metadata["expert_spans"] == {"A\t1": [[4, 7]]}
    marks = item_marks("the cat sat", ["the cat"], [stored("ana", 8, 11)], ["ana"])
    agreement = class_vs_experts(marks, lesson.metadata["expert_spans"]["A\t1"])
    assert (agreement.both, agreement.class_only, agreement.experts_only, agreement.neither) == (
        0,
        1,
        1,
        1,
    )
