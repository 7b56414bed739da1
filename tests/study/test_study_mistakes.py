"""The usual-mistake detectors: each fires on the mistake and stays quiet on clean data."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bleu_core.errors import StudyError
from bleu_core.study import Rating, load_study, study_from_texts
from bleu_core.study.demo import load_demo
from bleu_core.study.mistakes import (
    check_reference_shape,
    detect_case_mismatch,
    detect_identical_to_reference,
    detect_mistakes,
    detect_off_by_one,
    detect_tokenized,
    detect_unrated,
)

SENTENCES = [
    "The committee approved the budget on Tuesday, after a long debate.",
    "Prices rose sharply in March, according to the statistics office.",
    "She didn't expect the train to be late again.",
    "Scientists say the glacier has lost half of its mass since 1950.",
    "The museum will reopen next spring with a new wing.",
    "He said it's too early to draw conclusions.",
    "Farmers are worried about the dry summer.",
    "The match ended in a draw, which surprised the fans.",
]


def test_clean_demo_studies_raise_no_warnings() -> None:
    for demo in ("ted-en-de", "ted-zh-en", "paper-examples"):
        assert detect_mistakes(load_demo(demo)) == [], demo


def test_transposed_references_by_shape() -> None:
    refs_per_segment = [[s, s.upper()] for s in SENTENCES[:3]]  # 3 segments x 2 references
    with pytest.raises(
        StudyError, match=r"references look transposed: got 3 lists .* zip\(\*references\)"
    ):
        check_reference_shape(refs_per_segment, n_segments=3)


def test_single_list_of_strings_instead_of_streams() -> None:
    with pytest.raises(
        StudyError, match=r"a single list of strings was given; wrap it: references=\[refs\]"
    ):
        study_from_texts(systems={"A": SENTENCES[:2]}, references=SENTENCES[:2])


def test_stream_length_mismatch() -> None:
    with pytest.raises(
        StudyError, match=r"reference streams have \[2\] lines, but there are 3 segments"
    ):
        check_reference_shape([SENTENCES[:2]], n_segments=3)


def test_square_transposed_references_warn() -> None:
    # 3 segments, 3 references each; given per segment (rows = segments): rows are paraphrases of one sentence.
    per_segment = [[s, s.replace("the", "a"), s.replace(",", "")] for s in SENTENCES[:3]]
    warnings = check_reference_shape(per_segment, n_segments=3)
    assert [w.code for w in warnings] == ["references-transposed"]
    streams = [list(column) for column in zip(*per_segment, strict=True)]
    assert check_reference_shape(streams, n_segments=3) == []


def _study(systems: dict[str, list[str]], refs: list[str] = SENTENCES):
    return study_from_texts(systems=systems, references=[refs]).study


def test_looks_tokenized() -> None:
    tokenized = [
        s.replace(",", " ,").replace(".", " .").replace("n't", " n't").replace("'s", " 's")
        for s in SENTENCES
    ]
    study = _study({"tok": tokenized, "plain": SENTENCES[::-1]})
    warnings = detect_tokenized(study)
    assert len(warnings) == 1 and "system 'tok' looks already tokenised" in warnings[0].message
    assert warnings[0].code == "looks-tokenized"


def test_lowercased_references_against_cased_systems() -> None:
    refs = [s.lower() for s in SENTENCES] * 4
    study = _study({"A": SENTENCES * 4}, refs)
    assert [w.code for w in detect_case_mismatch(study)] == ["lowercased-references"]
    all_lower = _study({"A": refs}, refs)
    assert [w.code for w in detect_case_mismatch(all_lower)] == ["all-lowercased"]
    lower_system = _study({"A": refs}, SENTENCES * 4)
    assert [w.code for w in detect_case_mismatch(lower_system)] == ["lowercased-systems"]
    assert detect_case_mismatch(_study({"A": SENTENCES * 4}, SENTENCES * 4)) == []


def test_system_identical_to_reference() -> None:
    study = _study({"copy": list(SENTENCES), "other": SENTENCES[::-1]})
    (warning,) = detect_identical_to_reference(study)
    assert warning.code == "system-is-reference" and "'copy'" in warning.message


def test_unrated_share() -> None:
    study = load_demo("ted-en-de")
    rated = {seg for seg in study.segment_ids[:400]}
    partial = replace(study, ratings=tuple(r for r in study.ratings if r.segment_id in rated))
    messages = [w.message for w in detect_unrated(partial)]
    assert messages and messages[0].startswith("24% of segments (129 of 529) have no mqm rating")


def test_ratings_shifted_by_one_segment() -> None:
    # TED en-de: MQM agrees (weakly) with word overlap; shifting every rating to the next segment id
    # breaks that agreement and the detector sees the neighbouring texts fit better.
    study = load_demo("ted-en-de")
    ids = study.segment_ids
    nxt = dict(zip(ids, ids[1:], strict=False))
    shifted = tuple(
        replace(r, segment_id=nxt[r.segment_id])
        for r in study.ratings
        if r.criterion == "mqm" and r.segment_id in nxt
    )
    broken = replace(study, ratings=shifted)
    warnings = detect_off_by_one(broken)
    assert [w.code for w in warnings] == ["ratings-off-by-one"]
    assert "segment before" in warnings[0].message
    assert detect_off_by_one(study) == []


def test_warnings_come_back_from_load_study(tmp_path) -> None:
    (tmp_path / "references").mkdir()
    (tmp_path / "systems").mkdir()
    text = "\n".join(SENTENCES) + "\n"
    (tmp_path / "references" / "ref.txt").write_text(text, encoding="utf-8")
    (tmp_path / "systems" / "copy.txt").write_text(text, encoding="utf-8")
    result = load_study(tmp_path)
    assert result.warning_codes() == ["system-is-reference"]


def test_study_from_texts_with_ratings_uses_known_criteria() -> None:
    result = study_from_texts(
        systems={"A": SENTENCES[:2]},
        references={"gold": SENTENCES[:2]},
        ratings=[Rating("A", "1", None, None, "Adequacy", 4.0)],
    )
    criterion = result.study.criteria["Adequacy"]
    assert criterion.scale == (1.0, 5.0)
    np.testing.assert_array_equal(result.study.segment_scores("Adequacy"), [[4.0, np.nan]])
