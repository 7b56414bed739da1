"""The WMT25/WMT26 JSON-lines release layouts (issue 40): fixtures in the organisers' schemas, and the real
WMT25 excerpt (``shared/data/wmt25-general-mt-excerpt``: systems and automatic scores only, read in place;
skipped when absent)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from bleu_core.errors import InputError, StudyError
from bleu_core.evaluation.ceiling import disagreements, human_ceiling
from bleu_core.study import load_study
from bleu_core.study.loading import list_pairs
from bleu_core.tokenize.tokenizers import tokenizer_for_language

sys.path.insert(0, str(Path(__file__).parent))
from genmt_fixture import PAIR, WMT26_SYSTEMS, pearmut_download, write_wmt25, write_wmt26  # noqa: E402

EXCERPT = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt25-general-mt-excerpt"


def test_wmt25_paragraphs_are_segments_with_documents_and_domains(tmp_path: Path) -> None:
    result = load_study(write_wmt25(tmp_path), pair=PAIR)
    study = result.study
    # doc3 has refs {}: left out; doc1 has two paragraphs, doc2 one
    assert study.segment_ids == [f"{PAIR}_#_news_#_doc1_#_0", f"{PAIR}_#_news_#_doc1_#_1",
                                 f"{PAIR}_#_speech_#_doc2_#_0"]  # fmt: skip
    assert study.doc_ids() == [f"{PAIR}_#_news_#_doc1", f"{PAIR}_#_speech_#_doc2"]
    assert [s.domain for s in study.segments] == ["news", "news", "speech"]
    assert study.references == {"ref-A": ["Kočka seděla.", "Bylo teplo.", "Ahoj tam."]}
    assert study.systems["SysA"][1] == "Bylo\nteplo."  # <br> → "\n", as the organisers' scripts
    assert (study.source_lang, study.target_lang) == ("en", "cs_CZ")
    assert tokenizer_for_language(study.target_lang) == "13a"
    assert "documents-without-reference" in result.warning_codes()


def test_wmt25_paragraph_mismatch_is_no_output_with_a_warning_naming_file_and_line(
    tmp_path: Path,
) -> None:
    result = load_study(write_wmt25(tmp_path), pair=PAIR)
    assert result.study.systems["SysB"] == [None, None, "Ahoj."]
    [warning] = [w for w in result.warnings if w.code == "paragraph-mismatch"]
    assert warning.file.endswith("SysB.jsonl") and warning.line == 1
    assert "has 1 paragraphs, the source 2 (paragraphs_match: false)" in warning.message


def test_wmt25_two_human_passes_are_two_raters_with_spans(tmp_path: Path) -> None:
    study = load_study(write_wmt25(tmp_path), pair=PAIR).study
    item = [(r.rater, r.group, r.score) for r in study.ratings
            if r.system == "SysA" and r.segment_id == f"{PAIR}_#_news_#_doc1_#_0"]  # fmt: skip
    assert sorted(item) == [("a1", "human1", 90.0), ("b1", "human2", 30.0)]
    # the item's ESA: the mean of its two passes
    assert study.segment_scores("esa")[list(study.systems).index("SysA"), 0] == pytest.approx(60.0)
    spans = {(s.system, s.rater, s.start, s.end, s.category, s.severity) for s in study.error_spans}
    assert ("SysC", "a1", 9, 9, "Omission", "Minor") in spans  # "missing" at the end of "Pes stál."
    assert ("SysA", "a1", 0, 4, "Error", "Minor") in spans  # "Bylo" in "Bylo\nteplo."
    # the reference's scores are kept aside, as for WMT24
    assert [row[0] for row in study.metadata["reference_ratings"]] == ["ref-A"]


def test_wmt25_bad_human_lines_are_warnings_naming_the_line(tmp_path: Path) -> None:
    result = load_study(write_wmt25(tmp_path), pair=PAIR)
    lines = [w for w in result.warnings if w.code == "humeval-line"]
    assert {w.line for w in lines} == {3}
    assert any("140.0, outside ESA's 0-100" in w.message for w in lines)
    assert any("'Ghost' is not in the release" in w.message for w in lines)
    # the rest of line 3 is read
    assert any(r.system == "SysB" and r.score == 65.0 for r in result.study.ratings)


def test_wmt25_automatic_scores_are_attached_per_paragraph(tmp_path: Path) -> None:
    study = load_study(write_wmt25(tmp_path), pair=PAIR).study
    xcomet = study.metric_scores["XCOMET-XL"]
    assert xcomet.segment["SysA"] == (0.5, 0.6, 0.5)
    assert xcomet.segment["SysB"] == (None, None, 0.5)  # doc1 had no aligned output
    metricx = study.metric_scores["MetricX-24-Hybrid-XL"]
    assert metricx.higher_is_better  # stored negated by the release


def test_wmt25_pairs_are_listed_and_chosen(tmp_path: Path) -> None:
    folder = write_wmt25(tmp_path)
    assert list_pairs(folder) == ["en-cs_CZ", "en-ja_JP"]
    with pytest.raises(StudyError, match="several language pairs"):
        load_study(folder)
    ja = load_study(folder, pair="en-ja_JP").study
    assert tokenizer_for_language(ja.target_lang) == "ja-mecab"


def test_wmt25_zip_opens_like_the_folder(tmp_path: Path) -> None:
    folder = write_wmt25(tmp_path)
    archive = shutil.make_archive(str(tmp_path / "release"), "zip", folder)
    assert (
        load_study(archive, pair=PAIR).study.segment_ids
        == load_study(folder, pair=PAIR).study.segment_ids
    )
    data = Path(archive).read_bytes()
    assert list_pairs([("release.zip", data)]) == ["en-cs_CZ", "en-ja_JP"]


def test_malformed_document_line_names_file_and_line(tmp_path: Path) -> None:
    folder = write_wmt25(tmp_path)
    path = folder / "data" / "wmt25-genmt.jsonl"
    path.write_text(path.read_text(encoding="utf-8") + '{"doc_id": 3}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"wmt25-genmt.jsonl, line 5: 'doc_id' must be a text"):
        load_study(folder, pair=PAIR)


def test_systems_without_the_test_set_say_what_is_missing(tmp_path: Path) -> None:
    folder = write_wmt25(tmp_path)
    (folder / "data" / "wmt25-genmt.jsonl").unlink()
    with pytest.raises(StudyError, match="not the test set with the sources and references"):
        load_study(folder, pair=PAIR)


def test_wmt26_p_paragraphs_script_codes_and_reference_kinds(tmp_path: Path) -> None:
    study = load_study(write_wmt26(tmp_path)).study
    assert study.segment_ids == ["news_###_n1_###_0", "news_###_n1_###_1"]  # Pearmut's item_id
    assert study.systems["SysA"] == ["猫が座りました。", "暖かい<br>です。"]  # as Pearmut shows it
    assert (
        study.target_lang == "jpn_Jpan" and tokenizer_for_language(study.target_lang) == "ja-mecab"
    )
    assert study.metadata["reference_kinds"] == {"ref-A": "from-scratch", "ref-PE": "post-edited"}
    assert study.metadata["reference_sources"]["ref-PE"] == {
        "WMT26_###_news_###_eng_Latn_###_jpn_Jpan_###_n1": "SysA"
    }
    assert "ref-PE" in study.human_systems  # the other reference is a human system
    both = load_study(write_wmt26(tmp_path / "b"), reference="all").study
    assert sorted(both.references) == ["ref-A", "ref-PE"]


def _excerpt_release(tmp_path: Path) -> Path:
    """The real excerpt's systems and automatic scores beside a synthetic test set of the same documents
    and paragraph counts (the excerpt has no sources or references)."""
    release = tmp_path / "release"
    shutil.copytree(EXCERPT / "data", release / "data")
    rows = []
    for line in (
        (EXCERPT / "data" / "systems" / "SRPOL.jsonl").read_text(encoding="utf-8").splitlines()
    ):
        doc = json.loads(line)
        pair, domain, _ = doc["doc_id"].split("_#_")
        n = len(doc["hypothesis"].split("\n\n"))
        text = "\n\n".join(f"Synthetic paragraph {k}." for k in range(n))
        rows.append({"doc_id": doc["doc_id"], "domain": domain, "src_lang": "en",
                     "tgt_lang": pair.split("-")[1], "src_text": text, "refs": {"refA": {"ref": text}}})  # fmt: skip
    (release / "data" / "wmt25-genmt.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )
    return release


@pytest.mark.skipif(not EXCERPT.is_dir(), reason="the WMT25 excerpt is not in shared/data")
def test_real_wmt25_excerpt_alone_says_the_test_set_is_missing() -> None:
    with pytest.raises(StudyError, match="data/wmt25-genmt.jsonl or wmt26-genmt.jsonl"):
        load_study(EXCERPT, pair="en-cs_CZ")


@pytest.mark.skipif(not EXCERPT.is_dir(), reason="the WMT25 excerpt is not in shared/data")
def test_real_wmt25_excerpt_systems_and_five_metrics(tmp_path: Path) -> None:
    release = _excerpt_release(tmp_path)
    cs = load_study(release, pair="en-cs_CZ")
    ja = load_study(release, pair="en-ja_JP").study
    # the README: CUNI-SFT has en-cs only; 113 documents per pair
    assert sorted(cs.study.systems) == ["CUNI-SFT", "Laniqo", "SRPOL"]
    assert sorted(ja.systems) == ["Laniqo", "SRPOL"]
    assert len(cs.study.doc_ids()) == 113 and len(ja.doc_ids()) == 87
    assert {s.domain for s in cs.study.segments} == {
        "dialogue",
        "literary",
        "news",
        "social",
        "speech",
    }
    assert sorted(cs.study.metric_scores) == ["CometKiwi-XL", "GEMBA-ESA-CMDA", "GEMBA-ESA-GPT4.1",
                                              "MetricX-24-Hybrid-XL", "XCOMET-XL"]  # fmt: skip
    # the excerpt's first line of SRPOL's automatic scores: MUL0088, two paragraphs
    first = json.loads(
        (EXCERPT / "data" / "automatic_scores" / "SRPOL.jsonl").read_text().splitlines()[0]
    )
    got = cs.study.metric_scores["XCOMET-XL"].segment["SRPOL"][:2]
    assert list(got) == first["metric_scores"]["XCOMET-XL"]
    assert not [
        w for w in cs.warnings if w.code == "paragraph-mismatch"
    ]  # paragraphs_match is true


def test_study_command_summarises_the_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bleu_core.cli import main

    folder = write_wmt25(tmp_path)
    assert main(["study", str(folder), "--pair", PAIR, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    text = json.dumps(data)
    assert "paragraph-mismatch" in text and "SysB.jsonl" in text
    assert main(["study", str(folder), "--pair", "en-xx"]) == 2
    assert "no language pair 'en-xx'; pairs found: en-cs_CZ, en-ja_JP" in capsys.readouterr().err


def test_wmt26_pearmut_scores_beside_the_release_are_two_annotators(tmp_path: Path) -> None:
    # two Pearmut annotators rate both systems on both items (H40a's Pearmut reader reads the download)
    scores = {
        "u1": {"SysA": [90, 20], "SysB": [30, 40]},
        "u2": {"SysA": [80, 85], "SysB": [20, 50]},
    }
    study = load_study(write_wmt26(tmp_path, pearmut=pearmut_download(WMT26_SYSTEMS, scores))).study
    got = sorted((r.rater, r.system, r.segment_id, r.score) for r in study.ratings)
    assert got == sorted(
        (user, system, f"news_###_n1_###_{k}", float(v))
        for user, by_system in scores.items()
        for system, values in by_system.items()
        for k, v in enumerate(values)
    )
    # |20 - 85| = 65 is the only gap over 50 points
    [found] = disagreements(study, "esa")
    assert (found.system, found.segment_id, found.gap) == ("SysA", "news_###_n1_###_1", 65.0)
    assert found.scores == (("u1", 20.0), ("u2", 85.0))
    ceiling = human_ceiling(study, "esa", "acc-eq", seed=5)
    assert (ceiling.n_items, ceiling.n_systems) == (4, 2)


def test_uploaded_side_by_side_without_folders_asks_for_the_zip(tmp_path: Path) -> None:
    from bleu_core.study.loading import load_files

    folder = write_wmt25(tmp_path) / "data"
    files = [
        (p.name, p.read_bytes())
        for p in (folder / "wmt25-genmt.jsonl", folder / "systems" / "SysA.jsonl")
    ]
    with pytest.raises(StudyError, match="upload the release as one .zip"):
        load_files(files, pair=PAIR)
