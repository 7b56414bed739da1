"""BLEU vs error spans in four modules: the public names stay importable from ``study.error_agreement``,
and the study-wide count says what is wrong with its arguments."""

from __future__ import annotations

import pytest

from bleu_core.errors import BleuOptionError, StudyError
from bleu_core.study import agreement_counts, error_agreement, segment_tokens
from bleu_core.study.model import Segment, Study
from bleu_core.study.spans import ErrorSpan


def _toy() -> Study:
    spans = (ErrorSpan("A", "1", "r1", "target", 4, 7, "Accuracy/Mistranslation", "Major"),)
    return Study(
        "toy",
        (Segment("1"), Segment("2")),
        {"ref": ["the dog barks", "a cat"]},
        {"A": ["the cat barks", None]},
        error_spans=spans,
    )


def test_public_names_are_the_siblings_objects() -> None:
    for name in ("COUNT_NAMES", "AgreementCounts"):
        assert getattr(error_agreement, name) is getattr(agreement_counts, name)
    for name in (
        "SegmentTokens",
        "TextPiece",
        "TokenRecord",
        "token_records",
        "segment_token_records",
    ):
        assert getattr(error_agreement, name) is getattr(segment_tokens, name)
    assert set(error_agreement.__all__) >= set(agreement_counts.__all__)


def test_the_study_count_equals_the_token_by_token_count() -> None:
    study = _toy()
    table = error_agreement.error_agreement(study).systems["A"]
    by_tokens = segment_tokens.segment_token_records(study, "A", "1").counts()
    assert (
        table.counts == by_tokens
    )  # "cat" is the error, unmatched; "the" and "barks" matched and clean
    assert by_tokens.as_tuple() == (0, 2, 1, 0)
    assert table.by_severity == {"Major": by_tokens} and table.by_category == {
        "Accuracy": by_tokens
    }
    assert table.segment_counts[1].tolist() == [-1, -1, -1, -1]  # no translation of segment 2


def test_bad_arguments_are_named() -> None:
    study = _toy()
    with pytest.raises(BleuOptionError, match="give at least one max order"):
        error_agreement.error_agreement_by_order(study, ())
    with pytest.raises(
        BleuOptionError, match="max order must be a whole number from 1 to 9, got 10"
    ):
        error_agreement.error_agreement_by_order(study, (1, 10))
    with pytest.raises(StudyError, match="system 'A' has no translation of segment '2'"):
        segment_tokens.segment_token_records(study, "A", "2")
    with pytest.raises(StudyError, match="unknown system 'B'; the study has: A"):
        error_agreement.error_agreement(study, systems=["B"])
