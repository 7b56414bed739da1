"""The Corpus page shows the reference bias of a study with two human translations (issue 41 point 4):
the table of BLEU, rank and Δ rank under each reference, the closest-system table and the flag line, with the
numbers of :func:`bleu_core.study.reference_bias.reference_bias`; a one-reference study shows no such section.
"""

from __future__ import annotations

from app_runs import markdown_text, start_app

from bleu_core.study.model import Segment, Study
from bleu_core.study.reference_bias import reference_bias

TITLE = "Reference bias: the ranking under each reference"


def _study(n_refs: int) -> Study:
    pe = ["a cat sat on a mat today", "it was a warm day in june"]
    systems = {
        "X<b>": list(pe),  # a name with markup: shown escaped
        "Y": ["the cat sat on the mat today", "it was warm in june"],
        "Z": ["cat on mat", "warm day"],
    }
    extra = {"ref-PE": pe} if n_refs == 2 else {}
    return Study(
        f"bias{n_refs}",
        (Segment("1"), Segment("2")),
        {"ref-A": ["the cat sat on the mat today", "it was a warm day in june"]},
        {**systems, **extra},
        human_systems=frozenset(extra),
        metadata={
            "all_references": ["ref-A", *extra],
            "reference_kinds": {"ref-A": "from-scratch", "ref-PE": "post-edited"},
            "reference_sources": {"ref-PE": {"d1": "X<b>"}},
        },
    )


def test_the_corpus_page_shows_each_reference_ranking_and_the_favoured_system() -> None:
    study = _study(2)
    at = start_app("corpus", study=study)
    assert TITLE in [s.value for s in at.subheader]
    expected = reference_bias(study)
    frames = [d.value for d in at.dataframe]
    table = next(f for f in frames if "rank · ref-PE" in f.columns).set_index("system")
    for k, system in enumerate(expected.systems):
        assert table.loc[system, "BLEU · ref-PE"] == expected.scores[k, 1]
        assert table.loc[system, "Δ rank · ref-PE"] == expected.rank_changes()[k, 1]
    refs = next(f for f in frames if "may favour" in f.columns).set_index("reference")
    assert refs.loc["ref-PE", "may favour"] == "X<b>" == expected.closest("ref-PE")
    assert refs.loc["ref-A", "may favour"] == "—"  # from scratch: not flagged
    assert "**ref\\-PE** (post-edited from X\\<b\\>) may favour **X\\<b\\>**" in markdown_text(at)


def test_a_study_with_one_reference_has_no_bias_section() -> None:
    at = start_app("corpus", study=_study(1))
    assert TITLE not in [s.value for s in at.subheader]
