"""Every human translation can be a reference, in the formats beyond WMT releases: plain-text
ratings naming ``HUMAN-B`` and Google's MQM TSV keep a reference's own scores, so the app's reference picker
(:func:`bleu_core.study.reference_choice.choose_references`) switches without reading a file again.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bleu_core.errors import InputError, StudyError
from bleu_core.study import load_study
from bleu_core.study.formats.mqm import load_mqm_tsv
from bleu_core.study.loading import load_files
from bleu_core.study.reference_choice import choose_references

TED = Path("/work/shared/data/google-mqm-ted2021/ted")
needs_shared = pytest.mark.skipif(not TED.is_dir(), reason="/work/shared TED MQM data not present")


def text(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


PLAIN = [
    ("ref-B.ref", text("the dog barks", "the cat sleeps")),
    ("ref-C.ref", text("a dog is barking", "a cat is asleep")),
    ("mt.hyp", text("dog barks", "the cat sleeps")),
]


@pytest.mark.parametrize("human", ["HUMAN-B", "HUMAN-B.12", "Human-B.0", "refB", "ref.B", "ref-B"])
def test_plain_text_ratings_name_human_translations_by_letter(human: str) -> None:
    ratings = text(
        "system,segment_id,da", f"{human},1,90", f"{human},2,94", "HUMAN-C,1,80", "mt,1,50"
    )
    result = load_files([*PLAIN, ("ratings.csv", ratings)], detect=False)
    study = result.study
    assert list(study.references) == ["ref-B", "ref-C"] and list(study.systems) == ["mt"]
    assert study.system_scores("da") == {"mt": 50.0}
    set_aside = [str(w) for w in result.warnings if w.code == "reference-ratings-set-aside"]
    assert len(set_aside) == 2 and set_aside[0].startswith(
        "human scores of ref-B (2 da) were set aside"
    )
    view = choose_references(study, "C").study  # B is a human system now, with its own DA
    assert view.system_scores("da") == {"mt": 50.0, "ref-B": 92.0}
    assert view.human_systems == {"ref-B"} and list(view.references) == ["ref-C"]


def test_a_bare_human_means_the_only_human_translation() -> None:
    ratings = text("system,segment_id,da", "HUMAN,1,88", "mt,1,50")
    result = load_files([*PLAIN[::2], ("ratings.csv", ratings)], detect=False)
    assert result.study.metadata["reference_ratings"] == [["ref-B", "1", None, None, "da", 88.0]]


def test_a_letter_without_a_translation_is_an_unknown_system() -> None:
    ratings = text("system,segment_id,da", "HUMAN-D,1,88")
    with pytest.raises(
        InputError,
        match=r"^ratings\.csv, line 2, column system: rating for unknown system 'HUMAN-D'",
    ):
        load_files([*PLAIN, ("ratings.csv", ratings)], detect=False)


HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def row(system: str, seg: str, target: str, category: str, severity: str) -> str:
    return f"{system}\ttalk.1\t1\t{seg}\tr1\tQuelle {seg}\t{target}\t{category}\t{severity}\n"


MQM = HEADER + (
    row("ref", "1", "Ref one.", "Accuracy/Mistranslation", "Major")  # ref: -5
    + row("refB", "1", "Other ref.", "Fluency/Grammar", "Minor")  # refB: -1, the best: the default
    + row("A", "1", "Sys one.", "No-error", "No-error")
)


def test_mqm_keeps_the_reference_scores_for_another_choice() -> None:
    study = load_mqm_tsv(MQM, "mqm_toy_deen.tsv").study
    assert list(study.references) == ["refB"] and study.metadata["all_references"] == [
        "ref",
        "refB",
    ]
    assert ["refB", "1", "r1", None, "mqm", -1.0] in study.metadata["reference_ratings"]
    view = choose_references(study, "ref").study
    fresh = load_mqm_tsv(MQM, "mqm_toy_deen.tsv", reference="ref").study
    assert list(view.references) == ["ref"] and view.human_systems == {"refB"}
    for criterion in ("mqm", "mqm_accuracy", "mqm_fluency"):
        assert view.system_scores(criterion) == fresh.system_scores(criterion)
    assert view.system_scores("mqm") == {"A": 0.0, "refB": -1.0}


def test_mqm_takes_all_and_reference_letters() -> None:
    both = load_mqm_tsv(MQM, "mqm_toy_deen.tsv", reference="all").study
    assert list(both.references) == ["ref", "refB"] and list(both.systems) == ["A"]
    assert list(load_mqm_tsv(MQM, "m.tsv", reference="B").study.references) == ["refB"]
    with pytest.raises(StudyError, match=r"reference 'C' is not a translation in this file"):
        load_mqm_tsv(MQM, "m.tsv", reference="C")
    no_humans = (
        HEADER
        + row("A", "1", "S.", "No-error", "No-error")
        + row("B", "1", "T.", "No-error", "No-error")
    )
    with pytest.raises(StudyError, match=r"reference='all' needs human translations"):
        load_mqm_tsv(no_humans, "m.tsv", reference="all")


@needs_shared
def test_ted_zh_en_view_equals_a_fresh_load() -> None:
    path = TED / "zhen" / "mqm_ted_zhen.tsv"
    default = load_study(path, detect=False).study  # refB: the best-rated human translation
    view = choose_references(default, "ref").study
    fresh = load_study(path, reference="ref", detect=False).study
    assert list(view.references) == ["ref"] and view.human_systems == {"refB"}
    order = list(fresh.systems)
    rows = [list(view.systems).index(s) for s in order]
    np.testing.assert_array_equal(view.segment_scores("mqm")[rows], fresh.segment_scores("mqm"))


def test_set_aside_counts_are_the_rows_of_the_file_system_scores_apart() -> None:
    # two rated segments of ref-B and its one system-level score: "2 da + 1 system score", not "3 da"
    ratings = text(
        "system,segment_id,da", "HUMAN-B,1,90", "HUMAN-B,2,94", "HUMAN-B,,92", "mt,1,50", "mt,2,40"
    )
    result = load_files([*PLAIN, ("ratings.csv", ratings)], detect=False)
    set_aside = [str(w) for w in result.warnings if w.code == "reference-ratings-set-aside"]
    assert set_aside[0].startswith("human scores of ref-B (2 da + 1 system score) were set aside")


WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"


@pytest.mark.skipif(not WMT21.is_dir(), reason="WMT21 release not present (research use only)")
def test_set_aside_counts_match_the_wmt21_file() -> None:
    seg_file = WMT21 / "wmt21-news-systems/humaneval/newstest2021-toen/ad-seg-scores-zh-en.csv"
    rows = sum(1 for line in seg_file.read_text().splitlines() if line.startswith("HUMAN.0 "))
    result = load_study(str(WMT21), pair="zh-en")
    [warning] = [str(w) for w in result.warnings if w.code == "reference-ratings-set-aside"]
    assert f"({rows} da + 1 system score, {rows} da_z + 1 system score," in warning
