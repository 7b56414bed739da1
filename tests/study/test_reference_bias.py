"""Reference bias (issue 41 point 4): BLEU and rank under each reference, rank change, closest system.

Checked three ways: a hand-built fixture whose expected values follow from the definitions (a system whose
output *is* the post-edited reference scores 100 against it and is 100 away from it as closeness), every
score against sacrebleu's own ``corpus_bleu`` (the other tool, not our reading of it), and WMT21 en-de's
three references against the organisers' own BLEU per reference (``scores/automatic-scores.tsv``,
``bleu-A``/``bleu-C``/``bleu-D``, computed by sacrebleu) when the shared data is present.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu

from bleu_core.cli.study_command import format_text
from bleu_core.errors import StudyError
from bleu_core.study.model import Segment, Study
from bleu_core.study.reference_bias import bias_summary, format_bias_lines, reference_bias

ROOT = Path(__file__).resolve().parents[2]
WMT21 = ROOT / ".." / "shared" / "data" / "wmt21-newstest2021-mqm-da"

REF_A = ["the cat sat on the mat today", "it was a warm day in june", "we went home early"]
PE = ["a cat sat on a mat today", "it was a warm day in june", "we walked home early"]
SYSTEMS = {
    "X": ["a cat sat on a mat today", "it was a warm day in june", "we walked home early"],  # = PE
    "Y": ["the cat sat on the mat today", "it was warm in june", "we went home"],
    "Z": ["cat on mat", "warm day", None],  # no output for segment 3: not counted
}


def _study(metadata: dict[str, object] | None = None) -> Study:
    return Study(
        "toy",
        tuple(Segment(str(i + 1)) for i in range(3)),
        {"ref-A": REF_A},
        {**SYSTEMS, "ref-PE": PE},
        human_systems=frozenset({"ref-PE"}),
        metadata={"all_references": ["ref-A", "ref-PE"], **(metadata or {})},
    )


def _sacrebleu(hyps: list[str | None], refs: list[str | None]) -> float:
    kept = [(h, r) for h, r in zip(hyps, refs, strict=True) if h is not None and r is not None]
    return sacrebleu.corpus_bleu([h for h, _ in kept], [[r for _, r in kept]]).score


def test_scores_ranks_and_closeness_match_sacrebleu_and_the_definitions() -> None:
    bias = reference_bias(_study())
    assert bias.systems == ("X", "Y", "Z") and bias.references == ("ref-A", "ref-PE")
    refs = {"ref-A": REF_A, "ref-PE": PE}
    nearest: dict[str, dict[str, float]] = {"ref-A": {}, "ref-PE": {}}
    for k, system in enumerate(bias.systems):
        for r, ref in enumerate(bias.references):
            expected = _sacrebleu(SYSTEMS[system], refs[ref])
            assert bias.scores[k, r] == pytest.approx(expected, abs=1e-9)
            # closeness: the reference as the hypothesis, the system's output as the reference
            swapped = _sacrebleu(
                [
                    t if h is not None else None
                    for t, h in zip(refs[ref], SYSTEMS[system], strict=True)
                ],
                SYSTEMS[system],
            )
            assert bias.closeness[r, k] == pytest.approx(swapped, abs=1e-9)
            nearest[ref][system] = swapped
    # by hand: X's output is the post-edit, so it scores 100 against it and is closest to it
    assert bias.scores[0, 1] == pytest.approx(100.0) and bias.closeness[1, 0] == pytest.approx(
        100.0
    )
    assert bias.ranks[:, 1].tolist() == [1, 2, 3]  # under ref-PE: X first
    assert bias.ranks[:, 0].tolist() == [2, 1, 3]  # under ref-A: Y (nearly ref-A) first
    assert bias.baseline == "ref-A"  # no kinds recorded: the first reference
    assert bias.rank_changes()[:, 1].tolist() == [-1, 1, 0]
    assert bias.closest("ref-PE") == "X"
    assert bias.closest("ref-A") == max(nearest["ref-A"], key=nearest["ref-A"].__getitem__)
    assert bias.may_favour("ref-PE") and bias.may_favour(
        "ref-A"
    )  # kinds unknown: every one measured


def test_kinds_and_sources_from_the_release_label_and_flag() -> None:
    meta = {
        "reference_kinds": {"ref-PE": "post-edited", "ref-A": "from-scratch"},
        "reference_sources": {"ref-PE": {"doc1": "Y"}},  # the release says Y; the text says X
    }
    bias = reference_bias(_study(meta))
    rows = {row["reference"]: row for row in bias.reference_rows()}
    assert rows["ref-PE"]["may_favour"] == "X" and rows["ref-PE"]["matches_source"] is False
    assert rows["ref-A"]["may_favour"] is None  # from scratch: nearest shown, not flagged
    text = "\n".join(format_bias_lines(bias.to_dict()))
    assert (
        "ref-PE (post-edited; post-edited from Y): may favour X (not the documented source)" in text
    )
    assert f"ref-A (from scratch): nearest system {bias.closest('ref-A')}," in text


def test_a_segment_missing_in_a_reference_is_left_out_for_every_reference() -> None:
    study = _study()
    pe = list(PE)
    pe[1] = None
    study = Study(study.name, study.segments, study.references, {**SYSTEMS, "ref-PE": pe},
                  human_systems=study.human_systems, metadata=study.metadata)  # fmt: skip
    bias = reference_bias(study)
    assert (bias.n_segments, bias.segments_total) == (2, 3)
    kept = [0, 2]
    y_under_a = _sacrebleu([SYSTEMS["Y"][i] for i in kept], [REF_A[i] for i in kept])
    assert bias.scores[1, 0] == pytest.approx(y_under_a, abs=1e-9)


def test_too_few_references_or_systems_are_refused() -> None:
    one = Study("one", (Segment("1"),), {"ref-A": ["a b"]}, {"X": ["a"], "Y": ["b"]})
    with pytest.raises(StudyError, match="needs at least two human translations; one has 1"):
        reference_bias(one)
    assert bias_summary(one) is None
    apart = Study(
        "apart",
        (Segment("1"), Segment("2")),
        {"ref-A": ["a b", None], "ref-B": [None, "c d"]},
        {"X": ["a", "c"], "Y": ["b", "d"]},
    )
    with pytest.raises(StudyError, match="no segment has a text in every reference"):
        reference_bias(apart)
    note = bias_summary(apart)  # the study command says so instead of failing
    assert note == {
        "note": "no segment has a text in every reference: reference bias cannot be measured"
    }
    assert format_bias_lines(note)[-1].startswith("reference bias: not measured: no segment")
    lone = Study("lone", (Segment("1"),), {"ref-A": ["a b"], "ref-B": ["a c"]}, {"X": ["a"]})
    with pytest.raises(StudyError, match="needs at least two machine systems, got 1"):
        reference_bias(lone)


@pytest.mark.skipif(not WMT21.is_dir(), reason="shared WMT21 data not present")
def test_wmt21_en_de_matches_the_organisers_bleu_per_reference() -> None:
    from bleu_core.study import load_study

    study = load_study(WMT21, pair="en-de").study
    bias = reference_bias(study)
    assert bias.references == ("ref-A", "ref-C", "ref-D") and len(bias.systems) == 20
    attached = study.metric_scores
    for r, ref in enumerate(bias.references):
        theirs = attached[f"bleu-{ref[-1]}"].system  # the organisers' sacrebleu, one reference
        ours = dict(zip(bias.systems, bias.scores[:, r].tolist(), strict=True))
        assert ours == pytest.approx({s: theirs[s] for s in bias.systems}, abs=1e-9)
    assert np.all(bias.rank_changes()[:, 0] == 0)
    assert bias.rank_changes()[:, 1:].any()  # the ranking does move between references


def test_the_study_command_prints_it_in_text_and_json(tmp_path: Path) -> None:
    meta = {
        "reference_kinds": {"ref-PE": "post-edited"},
        "reference_sources": {"ref-PE": {"d": "X"}},
    }
    from bleu_core.study.storage import save_study

    path = tmp_path / "toy.json"
    save_study(_study(meta), path)
    run = [sys.executable, "-m", "bleu_core", "study", str(path)]
    out = subprocess.run([*run, "--format", "json"], capture_output=True, text=True, check=True)
    summary = json.loads(out.stdout)["reference_bias"]
    expected = reference_bias(_study(meta))
    assert summary["reference_summary"][1]["may_favour"] == expected.closest("ref-PE") == "X"
    assert [row["rank"]["ref-PE"] for row in summary["systems"]] == expected.ranks[:, 1].tolist()
    text = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    assert "reference bias: BLEU and rank under each reference alone" in text
    assert "ref-PE (post-edited; post-edited from X): may favour X (the documented source)" in text
    assert "reference bias" not in format_text({**json.loads(out.stdout), "reference_bias": None})


def test_a_wmt26_release_names_the_post_edit_source_beside_the_measured_one(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from genmt_fixture import write_wmt26

    from bleu_core.study import load_study

    study = load_study(write_wmt26(tmp_path)).study  # ref-A the stream, ref-PE a human system
    bias = reference_bias(study)
    assert bias.references == ("ref-A", "ref-PE") and bias.systems == ("SysA", "SysB")
    row = {r["reference"]: r for r in bias.reference_rows()}["ref-PE"]
    # the release: ref-PE post-edited from SysA; the text: ref-PE shares SysA's first paragraph
    assert row["kind"] == "post-edited" and row["post_edited_from"] == ["SysA"]
    assert row["may_favour"] == "SysA" and row["matches_source"] is True
    assert bias.baseline == "ref-A"  # the from-scratch reference
