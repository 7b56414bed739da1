"""The WMT24+ release layout and ESA human scores: the committed invented release
``tests/study/data/wmt24-mini`` (layout of ``wmt-conference/wmt24-news-systems``, text written for the tests)
and, where it is present, the real WMT24 en-ja / en-hi release in ``shared/data/wmt24-general-esa``
(read in place, never copied)."""

from __future__ import annotations

import csv
import math
import shutil
import zipfile
from pathlib import Path

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core import corpus_bleu
from bleu_core.errors import InputError, StudyError
from bleu_core.study import load_study, read_saved_study, save_study
from bleu_core.study.formats.esa import esa_system_scores, looks_like_esa, read_esa
from bleu_core.study.formats.wmt24 import is_wmt24_release, wmt24_pairs
from bleu_core.study.loading import list_pairs

MINI = Path(__file__).resolve().parent / "data" / "wmt24-mini"
REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"
needs_real = pytest.mark.skipif(
    not REAL.is_dir(), reason="the WMT24 release is not in shared/data/wmt24-general-esa"
)


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "release"
    shutil.copytree(MINI, target)
    return target


def _add_esa_row(release: Path, cells: list[str]) -> str:
    with (release / "humeval" / "esa_mini.csv").open("a", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerow(cells + ["1.0", "2.0"])
    return str(release / "humeval" / "esa_mini.csv")


# ----------------------------------------------------------------------------------------- layout


def test_release_is_recognised_with_its_pairs() -> None:
    files = [p.relative_to(MINI).as_posix() for p in MINI.rglob("*") if p.is_file()]
    assert is_wmt24_release(files)
    assert wmt24_pairs(files) == ["en-de", "en-ja"]
    assert list_pairs(MINI) == ["en-de", "en-ja"]


def test_several_pairs_need_a_choice() -> None:
    with pytest.raises(StudyError, match=r"several language pairs \(en-de, en-ja\)"):
        load_study(MINI)
    with pytest.raises(StudyError, match=r"no language pair 'en-fr'; pairs found: en-de, en-ja"):
        load_study(MINI, pair="en-fr")


def test_canary_line_is_dropped_with_a_note() -> None:
    result = load_study(MINI, pair="en-ja")
    study = result.study
    assert study.n_segments == 6  # 7 lines in every file, the first one a canary line
    assert study.segments[0].source == "The cat sleeps in the garden."
    assert all("CANARY" not in (t or "") for t in study.systems["sysA"])
    assert "canary-line" in result.warning_codes()


def test_segments_carry_document_and_domain() -> None:
    study = load_study(MINI, pair="en-ja").study
    assert [(s.id, s.doc_id, s.domain) for s in study.segments[:3]] == [
        ("1", "doc-news-1", "news"),
        ("2", "doc-news-1", "news"),
        ("3", "doc-news-2", "news"),
    ]
    assert study.segments[5].domain == "literary"


def test_domains_come_from_the_metadata_without_docs_file() -> None:
    study = load_study(MINI, pair="en-de").study  # en-de has metadata/en-de.jsonl only
    assert [s.domain for s in study.segments] == ["news", "news", "news"]
    assert study.segments[2].doc_id == "doc-news-2"


def test_txt_is_preferred_over_txt_ts() -> None:
    # txt-ts/ has one more line per file (a test suite); loading it would give 7 segments
    assert load_study(MINI, pair="en-ja").study.n_segments == 6


def test_only_txt_ts_is_read_when_there_is_no_txt(tmp_path: Path) -> None:
    release = tmp_path / "ts-only"
    shutil.copytree(MINI / "txt-ts", release / "txt-ts")
    lines = (release / "txt-ts/references/en-ja.refA.txt").read_text(encoding="utf-8")
    (release / "txt-ts/system-outputs/en-ja").mkdir(parents=True)
    (release / "txt-ts/system-outputs/en-ja/sysT.txt").write_text(lines, encoding="utf-8")
    study = load_study(release, pair="en-ja").study
    assert study.n_segments == 7  # the test-suite line is a segment here
    assert study.segments[-1].source == "A test-suite sentence."


def test_references_default_first_and_others_are_human_systems() -> None:
    study = load_study(MINI, pair="en-ja").study
    assert list(study.references) == ["ref-A"]
    assert study.human_systems == {"ref-B"}
    assert study.system_scores("esa")["ref-B"] == 94.0  # rows 10-11 of esa_mini.csv: 90 and 98


@pytest.mark.parametrize(
    ("choice", "streams", "humans"),
    [
        ("B", ["ref-B"], {"ref-A"}),
        ("all", ["ref-A", "ref-B"], set()),
        ("refA", ["ref-A"], {"ref-B"}),
    ],
)
def test_every_reference_letter_can_be_chosen(choice, streams, humans) -> None:
    study = load_study(MINI, pair="en-ja", reference=choice).study
    assert list(study.references) == streams
    assert study.human_systems == humans
    assert all(span.system in study.systems for span in study.error_spans)


def test_a_zip_loads_like_the_folder(tmp_path: Path) -> None:
    archive = tmp_path / "wmt24-mini.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in sorted(MINI.rglob("*")):
            if path.is_file():
                z.write(path, "wmt24-mini/" + path.relative_to(MINI).as_posix())
    from_zip = load_study(archive, pair="en-ja").study
    from_folder = load_study(MINI, pair="en-ja").study
    assert from_zip.segments == from_folder.segments
    assert from_zip.systems == from_folder.systems
    assert sorted(from_zip.ratings, key=repr) == sorted(from_folder.ratings, key=repr)
    assert from_zip.error_spans == from_folder.error_spans


def test_a_file_without_the_canary_line_is_an_error(tmp_path: Path) -> None:
    release = _copy(tmp_path)
    system = release / "txt" / "system-outputs" / "en-ja" / "sysB.txt"
    system.write_text("\n".join(system.read_text(encoding="utf-8").split("\n")[1:]), "utf-8")
    with pytest.raises(InputError, match=r"sysB\.txt, line 1: line 1 is not the canary line"):
        load_study(release, pair="en-ja")


def test_a_bad_documents_line_is_an_error(tmp_path: Path) -> None:
    release = _copy(tmp_path)
    docs = release / "txt" / "documents" / "en-ja.docs"
    lines = docs.read_text(encoding="utf-8").split("\n")
    lines[3] = "news only"
    docs.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(
        InputError, match=r"en-ja\.docs, line 4: 1 tab-separated fields, expected 2"
    ):
        load_study(release, pair="en-ja")


def test_bad_metadata_json_is_an_error(tmp_path: Path) -> None:
    release = _copy(tmp_path)
    meta = release / "txt" / "metadata" / "en-de.jsonl"
    lines = meta.read_text(encoding="utf-8").split("\n")
    lines[2] = '{"domain": "news",'
    meta.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError, match=r"en-de\.jsonl, line 3: not valid JSON"):
        load_study(release, pair="en-de")


def test_deeply_nested_metadata_json_is_an_error_naming_the_line(tmp_path: Path) -> None:
    release = _copy(tmp_path)
    meta = release / "txt" / "metadata" / "en-de.jsonl"
    lines = meta.read_text(encoding="utf-8").split("\n")
    lines[2] = "[" * 5000 + "]" * 5000
    meta.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(
        InputError,
        match=r"en-de\.jsonl, line 3: JSON nested too deeply to read .*; expected one object",
    ):
        load_study(release, pair="en-de")


def test_a_pair_without_reference_is_an_error(tmp_path: Path) -> None:
    release = _copy(tmp_path)
    (release / "txt" / "references" / "en-de.refA.txt").unlink()
    with pytest.raises(StudyError, match=r"no reference file for en-de \(expected txt/references"):
        load_study(release, pair="en-de")


def test_saved_study_keeps_domains_and_spans(tmp_path: Path) -> None:
    study = load_study(MINI, pair="en-ja").study
    path = tmp_path / "saved.json"
    save_study(study, path)
    again = read_saved_study(path)
    assert again.segments == study.segments
    assert again.error_spans == study.error_spans
    assert again.system_scores("esa") == study.system_scores("esa")


# ----------------------------------------------------------------------------------------- ESA


def test_esa_ratings_keep_their_raters() -> None:
    study = load_study(MINI, pair="en-ja").study
    got = {(r.system, r.segment_id, r.rater): r.score for r in study.ratings}
    # esa_mini.csv rows 2-3 (r1 rates sysA on lines 1-2) and row 12 (r3 on line 6)
    assert got[("sysA", "1", "r1")] == 95.0 and got[("sysA", "6", "r3")] == 100.0
    assert study.criteria["esa"].scale == (0.0, 100.0) and study.criteria["esa"].higher_is_better


def test_a_repeated_rating_counts_once_with_the_mean() -> None:
    result = load_study(MINI, pair="en-ja")
    repeated = [r for r in result.study.ratings if (r.system, r.segment_id) == ("sysB", "4")]
    assert [(r.rater, r.score) for r in repeated] == [("r2", 45.0)]  # rows 7-8: 40 and 50
    spans = [s for s in result.study.error_spans if (s.system, s.segment_id) == ("sysB", "4")]
    assert [(s.start, s.end) for s in spans] == [(2, 5)]  # the spans of the last rating
    [warning] = [w for w in result.warnings if w.code == "esa-rows-left-out"]
    assert "1 item rated more than once" in warning.message


def test_quality_control_rows_are_left_out_and_counted() -> None:
    result = load_study(MINI, pair="en-ja")
    [warning] = [w for w in result.warnings if w.code == "esa-rows-left-out"]
    for part in ("1 tutorial", "1 BAD", "1 #dup", "1 #incomplete"):
        assert part in warning.message
    rated = {(r.system, r.segment_id) for r in result.study.ratings}
    assert ("sysB", "3") not in rated and ("sysA", "3") not in rated and ("sysA", "5") not in rated


def test_spans_become_error_spans_with_severity_and_omissions() -> None:
    study = load_study(MINI, pair="en-ja").study
    spans = [s for s in study.error_spans if (s.system, s.segment_id) == ("sysB", "1")]
    text = study.systems["sysB"][0]
    assert [(s.start, s.end, s.severity, s.category) for s in spans] == [
        (0, 3, "Major", "Error"),
        (len(text), len(text), "Major", "Omission"),  # "missing" in the file: covers no character
    ]
    assert text[0:3] == "庭の猫"
    assert {s.rater for s in study.error_spans} == {"r1", "r2", "r3"}


def test_system_score_is_the_mean_and_wmt24_figure_the_mean_over_domains() -> None:
    scores = {s.system: s for s in esa_system_scores(load_study(MINI, pair="en-ja").study)}
    sys_b = scores["sysB"]
    # sysB's kept ratings (esa_mini.csv): news 60, 30; social mean(40, 50) = 45; literary 20
    assert sys_b.mean == pytest.approx((60 + 30 + 45 + 20) / 4)
    assert sys_b.domains == pytest.approx({"news": 45.0, "social": 45.0, "literary": 20.0})
    assert sys_b.wmt == pytest.approx((45 + 45 + 20) / 3)
    assert scores["ref-A"].reference and scores["ref-A"].mean == 100.0  # a reference still shows


def test_the_other_pair_of_the_release_gets_its_own_rows() -> None:
    study = load_study(MINI, pair="en-de").study
    assert study.system_scores("esa") == {"sysC": 81.5}  # esa_mini.csv rows 17-18: 88 and 75


BAD_ROWS = [
    (["r9", "sysA", "1", "TGT", "eng", "jpn", "50", "d"], r"line 19: 8 fields, expected 12 \(annotator, system, line"),
    (
        ["r9", "sysA", "9", "TGT", "eng", "jpn", "50", "d", "False", "[]"],
        r"line 19, column line: line 9 is beyond the en-ja test set, whose segments are lines 1-6",
    ),
    (
        ["r9", "sysA", "x1", "TGT", "eng", "jpn", "50", "d", "False", "[]"],
        r"line 19, column line: line 'x1' is not a line number",
    ),
    (
        ["r9", "sysZ", "1", "TGT", "eng", "jpn", "50", "d", "False", "[]"],
        r"line 19, column system: system 'sysZ' is not in the release",
    ),
    (
        ["r9", "sysA", "1", "TGT", "eng", "jpn", "50", "d", "False", '[{"start_i": 0, "end_i": 99}]'],
        r"line 19, column spans: a span has no severity",
    ),
    (
        ["r9", "sysA", "1", "TGT", "eng", "jpn", "50", "d", "False",
         '[{"start_i": 0, "end_i": 99, "severity": "minor"}]'],
        r"line 19, column spans: span 0-99 lies outside the translation, which has 9 characters",
    ),
    (
        ["r9", "sysA", "1", "TGT", "eng", "jpn", "50", "d", "False", '[{"start_i": 0,'],
        r"line 19, column spans: the spans are not valid JSON",
    ),
    (
        ["r9", "sysA", "1", "TGT", "eng", "jpn", "50", "d", "False", "[" * 5000 + "]" * 5000],
        r"line 19, column spans: the spans are JSON nested too deeply to read",
    ),
    (
        ["r9", "sysA", "1", "TGT", "eng", "jpn", "50", "d", "False", '{"start_i": 0}'],
        r"line 19, column spans: the spans must be a JSON list of objects",
    ),
    (
        ["r9", "sysA", "1", "TGT", "eng", "jpn", "50", "d", "False",
         '[{"start_i": "2", "end_i": 3, "severity": "minor"}]'],
        r"line 19, column spans: span start_i is '2'; character offsets must be whole numbers",
    ),
    (
        ["r9", "sysA", "1", "TGT", "eng", "jpn", "101", "d", "False", "[]"],
        r"line 19, column score: score 101 is outside ESA's 0-100",
    ),
    (
        ["r9", "sysA", "1", "TGT", "eng", "jpn", "good", "d", "False", "[]"],
        r"line 19, column score: 'good' is not a number",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("cells", "message"), BAD_ROWS)
def test_bad_esa_rows_are_one_clear_error(tmp_path: Path, cells: list[str], message: str) -> None:
    release = _copy(tmp_path)
    if len(cells) < 10:
        with (release / "humeval" / "esa_mini.csv").open("a", encoding="utf-8") as f:
            f.write(",".join(cells) + "\n")
    else:
        _add_esa_row(release, cells)
    with pytest.raises(InputError, match=r"esa_mini\.csv, " + message):
        load_study(release, pair="en-ja")


def test_rows_of_other_pairs_in_a_release_file_are_skipped_and_counted(tmp_path: Path) -> None:
    release = _copy(tmp_path)  # a release's ESA file holds the rows of all its pairs (WMT24: ~20)
    _add_esa_row(release, ["r9", "sysQ", "1", "TGT", "eng", "ces", "50", "d", "False", "[]"])
    result = load_study(release, pair="en-ja")
    [warning] = [w for w in result.warnings if w.code == "esa-rows-left-out"]
    assert "(3 rows of the release's other language pairs not read)" in warning.message  # 2 en-de


def test_superseded_files_in_humeval_old_are_not_read(tmp_path: Path) -> None:
    release = _copy(tmp_path)  # WMT24 keeps its off-by-one ESA files in humeval/old/
    (release / "humeval" / "old").mkdir()
    old = "r1,sysA,1,TGT,eng,jpn,0,doc-news-1,False,[],0,1\n"  # read, it would lower sysA's score
    (release / "humeval" / "old" / "wave1.csv").write_text(old, encoding="utf-8")
    assert load_study(release, pair="en-ja").study.system_scores("esa") == load_study(
        MINI, pair="en-ja"
    ).study.system_scores("esa")


def test_bad_rows_left_out_as_quality_control_are_not_checked(tmp_path: Path) -> None:
    release = _copy(tmp_path)  # a BAD row's spans lie on the damaged text, not the release's
    _add_esa_row(
        release,
        ["r9", "sysA", "1", "BAD", "eng", "jpn", "5", "d#bad", "False",
         '[{"start_i": 0, "end_i": 999, "severity": "major"}]'],
    )  # fmt: skip
    assert load_study(release, pair="en-ja").study.n_segments == 6


def test_looks_like_esa_needs_the_shape() -> None:
    row = (MINI / "humeval" / "esa_mini.csv").read_text(encoding="utf-8").split("\n")[1]
    assert looks_like_esa(row)
    assert not looks_like_esa("annotator,system,line,type")
    assert not looks_like_esa('a,"b')


offsets = st.tuples(st.integers(0, 12), st.integers(0, 12)).map(sorted)


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet="猫犬はがのを。、 abc", min_size=12, max_size=20),
    spans=st.lists(offsets, max_size=4),
    score=st.integers(0, 100),
)
def test_every_span_inside_the_text_is_kept_as_written(text, spans, score) -> None:
    cell = (
        "["
        + ",".join(f'{{"start_i": {a}, "end_i": {b}, "severity": "minor"}}' for a, b in spans)
        + "]"
    )
    row = ["r", "s", "1", "TGT", "eng", "jpn", str(score), "d", "False", cell, "0", "1"]
    import io

    buffer = io.StringIO()
    csv.writer(buffer).writerow(row)
    got = read_esa(buffer.getvalue(), "x.csv", pair="en-ja", segment_ids=["1"], texts={"s": [text]})
    assert [(s.start, s.end) for s in got.spans] == [tuple(x) for x in spans]
    assert [r.score for r in got.ratings] == [float(score)]


# ----------------------------------------------------------------------------------------- real data


def _independent_esa_means(pair: str) -> dict[str, float]:
    """Each translation's mean ESA, straight from the CSVs by the rules of the data folder's README:
    rows of the pair, not BAD, doc id not ending #bad/#dup/#incomplete, no 'tutorial'; a rater's repeats
    of one item averaged first."""
    target = {"en-ja": "jpn", "en-hi": "hin"}[pair]
    items: dict[tuple[str, str, str], list[float]] = {}
    for path in sorted((REAL / "humeval").glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as f:
            for row in csv.reader(f):
                doc = row[7]
                if row[5] != target or row[3] == "BAD" or "tutorial" in doc:
                    continue
                if doc.endswith(("#bad", "#dup", "#incomplete")):
                    continue
                items.setdefault((row[1], row[2], row[0]), []).append(float(row[6]))
    per_system: dict[str, list[float]] = {}
    for (system, _, _), scores in items.items():
        per_system.setdefault(system, []).append(sum(scores) / len(scores))
    return {s: sum(v) / len(v) for s, v in per_system.items()}


@needs_real
@pytest.mark.parametrize("pair", ["en-ja", "en-hi"])
def test_real_release_esa_means(pair: str) -> None:
    study = load_study(REAL, pair=pair).study
    expected = _independent_esa_means(pair)
    got = {s.system: s.mean for s in esa_system_scores(study)}
    assert set(got) == {("ref-A" if s == "refA" else s) for s in expected}
    for system, mean in expected.items():
        assert math.isclose(got["ref-A" if system == "refA" else system], mean, rel_tol=1e-12)
    assert study.error_spans and all(span.system in study.systems for span in study.error_spans)


@needs_real
@pytest.mark.parametrize(("pair", "systems"), [("en-ja", 23), ("en-hi", 19)])  # data README table
def test_real_release_shape_and_sacrebleu_parity(pair: str, systems: int) -> None:
    from bleu_core.tokenize.tokenizers import tokenizer_for_language

    study = load_study(REAL, pair=pair).study
    assert study.n_segments == 997 and len(study.systems) == systems  # README: 998 lines (canary)
    assert {s.domain for s in study.segments} == {"news", "social", "speech", "literary"}
    tokenize = tokenizer_for_language(study.target_lang)
    assert tokenize == {"en-ja": "ja-mecab", "en-hi": "13a"}[pair]  # sacrebleu's CLI choice
    ref = (REAL / f"txt/references/{pair}.refA.txt").read_text(encoding="utf-8").split("\n")[1:-1]
    for system in ("GPT-4", "ONLINE-B"):
        path = REAL / f"txt/system-outputs/{pair}/{system}.txt"
        hyp = path.read_text(encoding="utf-8").split("\n")[1:-1]
        expected = sacrebleu.corpus_bleu(hyp, [ref], tokenize=tokenize)
        ours = corpus_bleu(study.systems[system], [study.references["ref-A"]], tokenize=tokenize)
        assert ours.score == pytest.approx(expected.score, abs=1e-12)
        assert list(ours.counts) == expected.counts


# ----------------------------------------------------------------------------------------- more ways in


def test_uploaded_files_load_like_the_folder() -> None:
    from bleu_core.study.loading import load_files

    files = [
        (p.relative_to(MINI).as_posix(), p.read_bytes())
        for p in sorted(MINI.rglob("*"))
        if p.is_file()
    ]
    assert list_pairs(files) == ["en-de", "en-ja"]
    uploaded = load_files(files, pair="en-ja").study
    assert uploaded.segments == load_study(MINI, pair="en-ja").study.segments
    assert uploaded.system_scores("esa") == load_study(MINI, pair="en-ja").study.system_scores(
        "esa"
    )


def test_an_esa_file_given_for_a_study_without_canary() -> None:
    from bleu_core.study import study_from_texts
    from bleu_core.study.formats.esa import attach_esa

    study = study_from_texts(
        {"sysA": ["猫は庭で寝ている。", "雨。"]},
        {"refA": ["猫が寝ている。", "雨だ。"]},
        source_lang="en",
        target_lang="ja",
    ).study
    rows = (
        'r1,sysA,0,TGT,eng,jpn,80,d,False,"[{""start_i"":0,""end_i"":1,""severity"":""major""}]",0,1\n'
        "r1,refA,1,TGT,eng,jpn,100,d,False,[],0,1\n"
    )  # no canary line in these texts: line 0 is the first segment
    result = attach_esa(study, rows, "given.csv")
    assert result.study.system_scores("esa") == {"sysA": 80.0}
    [span] = result.study.error_spans
    assert (span.segment_id, span.start, span.end, span.severity) == ("1", 0, 1, "Major")
    assert result.study.metadata["reference_ratings"] == [["refA", "2", "r1", None, "esa", 100.0]]
    with pytest.raises(InputError, match=r"given\.csv, line 1, column line: line 2 is beyond"):
        attach_esa(study, "r1,sysA,2,TGT,eng,jpn,80,d,False,[],0,1\n", "given.csv")
    with pytest.raises(
        InputError, match=r"line 1, column source language: this row is for eng-hin"
    ):
        attach_esa(study, "r1,sysA,0,TGT,eng,hin,80,d,False,[],0,1\n", "given.csv")


def test_esa_scores_in_a_long_table_get_the_esa_scale() -> None:
    from bleu_core.study.formats.long_table import load_long_table

    head = "segment_id,system,role,text,rater,criterion,score\n1,ref,reference,a dog,,,\n"
    study = load_long_table(head + "1,A,system,the dog,r1,esa,77\n", "esa.csv").study
    assert study.criteria["esa"].scale == (0.0, 100.0) and study.system_scores("esa") == {"A": 77.0}
    with pytest.raises(
        InputError, match=r"line 3, column score: score 150 is outside the esa scale"
    ):
        load_long_table(head + "1,A,system,the dog,r1,esa,150\n", "esa.csv")


def test_a_subset_can_switch_references_with_its_spans() -> None:
    from bleu_core.study.reference_choice import choose_references
    from bleu_core.study.validation import validate_study

    small = load_study(MINI, pair="en-ja", reference="all").study.subset(n_segments=2)
    view = choose_references(small, "A").study  # ref-B becomes a human system again
    validate_study(view)
    assert view.system_scores("esa")["ref-B"] == 98.0  # esa_mini.csv row 11; row 10 is segment 4
    assert {s.segment_id for s in view.error_spans} <= {"1", "2"}


def test_an_item_rated_again_in_another_file_counts_once(tmp_path: Path) -> None:
    release = _copy(tmp_path)
    again = 'r1,sysA,1,TGT,eng,jpn,75,doc-news-1,False,"[{""start_i"":0,""end_i"":1,""severity"":""minor""}]",0,1\n'
    (release / "humeval" / "wave9.csv").write_text(again, encoding="utf-8")
    result = load_study(release, pair="en-ja")
    [rating] = [
        r for r in result.study.ratings if (r.system, r.segment_id, r.rater) == ("sysA", "1", "r1")
    ]
    assert rating.score == 85.0  # esa_mini.csv row 2 (95) and wave9.csv (75)
    spans = [s for s in result.study.error_spans if (s.system, s.segment_id) == ("sysA", "1")]
    assert [(s.start, s.end, s.severity) for s in spans] == [(0, 1, "Minor")]  # the last file's
    assert any(
        "1 item rated by the same rater in several files" in w.message for w in result.warnings
    )
