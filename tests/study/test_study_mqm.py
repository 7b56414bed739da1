"""Google MQM TSV loader: scores reproduce Google's published per-segment and per-system MQM exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bleu_core.errors import InputError, StudyError
from bleu_core.study import load_study
from bleu_core.study.formats.mqm import load_mqm_tsv, weighted_penalty_tenths

TED = Path("/work/shared/data/google-mqm-ted2021/ted")
needs_shared = pytest.mark.skipif(not TED.is_dir(), reason="/work/shared TED MQM data not present")

# The avg_seg_scores.tsv files name the human translations ref-A / ref-B (TSV: ref / refB); see the data README.
AVG_NAMES = {"ref": "ref-A", "refB": "ref-B"}


def read_avg_seg_scores(path: Path) -> dict[tuple[str, str], str]:
    """``(system, seg_id) -> score text`` from Google's ``avg_seg_scores.tsv`` (split on any whitespace)."""
    scores = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            system, score, seg_id = line.split()
            scores[(system, seg_id)] = score
    return scores


@needs_shared
@pytest.mark.parametrize(
    ("lp", "reference", "n_systems", "humans", "rated"),
    [
        # data README: en-de 13 MT + ref, 4 raters; zh-en 13 MT + ref + refB, 9 raters; 529 rated segments, 5 talks
        ("ende", "ref", 13, set(), 13 * 529),
        ("zhen", "refB", 14, {"ref"}, 14 * 529),
    ],
)
def test_ted_counts_and_segment_scores_equal_google(
    lp: str, reference: str, n_systems: int, humans: set[str], rated: int
) -> None:
    result = load_study(TED / lp / f"mqm_ted_{lp}.tsv")
    study = result.study
    assert study.n_segments == 529
    assert len(study.doc_ids()) == 5
    assert list(study.references) == [reference]  # default: best-rated human translation
    assert len(study.systems) == n_systems
    assert set(study.human_systems) == humans
    assert study.rated_items("mqm") == rated
    assert "reference-ratings-set-aside" in result.warning_codes()
    published = read_avg_seg_scores(TED / lp / f"mqm_ted_{lp}.avg_seg_scores.tsv")
    scores = study.segment_scores("mqm")
    compared = 0
    for row, system in enumerate(study.systems):
        for col, seg_id in enumerate(study.segment_ids):
            expected = published[(AVG_NAMES.get(system, system), seg_id)]
            assert expected != "None"
            assert scores[row, col] == float(expected), (system, seg_id)  # exact, not approximate
            compared += 1
    assert compared == rated


@needs_shared
def test_zh_en_other_reference_choice_reproduces_ref_b_scores() -> None:
    study = load_study(TED / "zhen" / "mqm_ted_zhen.tsv", reference="ref").study
    assert list(study.references) == ["ref"] and study.human_systems == {"refB"}
    published = read_avg_seg_scores(TED / "zhen" / "mqm_ted_zhen.avg_seg_scores.tsv")
    row = list(study.systems).index("refB")
    expected = [float(published[("ref-B", seg)]) for seg in study.segment_ids]
    assert study.segment_scores("mqm")[row].tolist() == expected


@needs_shared
def test_system_scores_match_the_published_ted_table() -> None:
    # Google's README (SOURCE_README.md, "TED talks / English to German"), MQM rounded to 2 decimals.
    published = {"Facebook-AI": 1.06, "Online-W": 1.12, "VolcTrans-AT": 1.24, "Nemo": 2.14}
    study = load_study(TED / "ende" / "mqm_ted_ende.tsv").study
    scores = study.system_scores("mqm")
    for system, value in published.items():
        assert round(-scores[system], 2) == value
    assert round(-study.metadata["reference_mqm"]["ref"], 2) == 0.91  # ref.A 0.91(1)


@needs_shared
def test_spans_are_stripped_and_derived_criteria_split_the_errors() -> None:
    study = load_study(TED / "ende" / "mqm_ted_ende.tsv").study
    assert not any(
        "<v>" in t or "</v>" in t for texts in study.systems.values() for t in texts if t
    )
    assert not any("<v>" in (s.source or "") for s in study.segments)
    total = study.segment_scores("mqm")
    accuracy = study.segment_scores("mqm_accuracy")
    fluency = study.segment_scores("mqm_fluency")
    # Accuracy and fluency penalties are parts of the total (the rest: terminology, style, locale, other).
    assert np.all(accuracy >= total) and np.all(fluency >= total)
    assert np.all(accuracy + fluency >= total - 1e-9)
    assert np.any(accuracy + fluency > total)


HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def row(system: str, seg: str, target: str, category: str, severity: str, rater: str = "r1") -> str:
    return f"{system}\ttalk.1\t1\t{seg}\t{rater}\tQuelle {seg}\t{target}\t{category}\t{severity}\n"


def test_google_weights_on_a_small_file() -> None:
    text = HEADER + (
        row("ref", "1", "Ref one.", "No-error", "No-error")
        + row("ref", "2", "Ref two.", "No-error", "No-error")
        + row("A", "1", "<v>Sys</v> one.", "Accuracy/Mistranslation", "Major")
        + row("A", "1", "Sys one<v>.</v>", "Fluency/Punctuation", "Minor")
        + row("A", "1", "Sys one.", "Style/Awkward", "Minor", rater="r2")
        + row("A", "2", "Sys two.", "Non-translation!", "Major")
    )
    study = load_mqm_tsv(text, "mqm_toy_deen.tsv").study
    assert study.systems == {"A": ["Sys one.", "Sys two."]}
    assert (study.source_lang, study.target_lang) == ("de", "en")
    # segment 1: rater r1 -(5 + 0.1) = -5.1, rater r2 -1 -> mean -3.05; segment 2: -25
    np.testing.assert_array_equal(study.segment_scores("mqm"), [[-3.05, -25.0]])
    np.testing.assert_array_equal(study.segment_scores("mqm_accuracy"), [[-2.5, 0.0]])
    np.testing.assert_array_equal(study.segment_scores("mqm_fluency"), [[-0.05, 0.0]])


def test_weights() -> None:
    assert (
        weighted_penalty_tenths("Major", "Fluency/Punctuation") == 50
    )  # only Minor punctuation is 0.1
    assert weighted_penalty_tenths("Neutral", "Style/Awkward") == 0
    assert weighted_penalty_tenths("Critical", "Accuracy/Mistranslation") is None


def test_unknown_severity() -> None:
    text = (
        HEADER
        + row("ref", "1", "R.", "No-error", "No-error")
        + row("A", "1", "S.", "Other", "Huge")
    )
    with pytest.raises(
        InputError, match=r"mqm\.tsv, line 3, column severity: unknown severity 'Huge'"
    ):
        load_mqm_tsv(text, "mqm.tsv")


def test_conflicting_target_texts() -> None:
    text = HEADER + (
        row("ref", "1", "R.", "No-error", "No-error")
        + row("A", "1", "First text.", "Other", "Minor")
        + row("A", "1", "Other text.", "Other", "Minor")
    )
    with pytest.raises(
        InputError, match=r"line 4, column target: A has a different target text .* line 3"
    ):
        load_mqm_tsv(text, "mqm.tsv")


def test_missing_columns_list_found() -> None:
    with pytest.raises(
        InputError, match=r"missing required columns 'rater', .* columns found: system, doc"
    ):
        load_mqm_tsv("system\tdoc\tseg_id\nA\tt\t1\n", "mqm.tsv")


def test_unknown_reference_choice() -> None:
    text = (
        HEADER
        + row("ref", "1", "R.", "No-error", "No-error")
        + row("A", "1", "S.", "No-error", "No-error")
    )
    with pytest.raises(
        StudyError,
        match=r"reference 'refX' is not a translation in this file; choose one of: ref, A",
    ):
        load_mqm_tsv(text, "mqm.tsv", reference="refX")


def test_no_human_translation_needs_an_explicit_reference() -> None:
    text = (
        HEADER
        + row("A", "1", "S.", "No-error", "No-error")
        + row("B", "1", "T.", "No-error", "No-error")
    )
    with pytest.raises(StudyError, match="no human translation found"):
        load_mqm_tsv(text, "mqm.tsv")
    study = load_mqm_tsv(text, "mqm.tsv", reference="A").study
    assert list(study.references) == ["A"]
