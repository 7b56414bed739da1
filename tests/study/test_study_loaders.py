"""Plain-text folders, long tables, ratings tables and zips: what loads, and every bad-input message."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from bleu_core.errors import BleuStudyError, InputError, StudyError
from bleu_core.io import ZipTree
from bleu_core.study import load_study, plain_text_study

REFS = ["The cat sat on the mat.", "A dog barked at the postman.", "It rained all day."]
SYS_A = ["The cat sat on the mat.", "A dog barked at the mailman.", "It rained the whole day."]
SYS_B = ["Cat mat sat.", "Dog barks postman.", "Rain day."]


def write_folder(
    root: Path,
    *,
    refs: dict[str, list[str]] | None = None,
    systems: dict[str, list[str]] | None = None,
    ratings: str | None = None,
    ratings_name: str = "ratings.csv",
    raw: dict[str, bytes] | None = None,
) -> Path:
    """A plain-text study folder (references/, systems/, ratings.csv) under ``root``."""
    (root / "references").mkdir(parents=True, exist_ok=True)
    (root / "systems").mkdir(exist_ok=True)
    for name, lines in (refs if refs is not None else {"ref-A": REFS}).items():
        (root / "references" / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, lines in (systems if systems is not None else {"A": SYS_A, "B": SYS_B}).items():
        (root / "systems" / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if ratings is not None:
        (root / ratings_name).write_text(ratings, encoding="utf-8")
    for rel, data in (raw or {}).items():
        (root / rel).write_bytes(data)
    return root


RATINGS_LONG = (
    "system,segment_id,rater,group,criterion,score\n"
    "A,1,r1,experts,adequacy,5\n"
    "A,1,r2,experts,adequacy,4\n"
    "B,1,r1,experts,adequacy,2\n"
    "A,2,r1,experts,fluency,4\n"
    "B,,r1,experts,adequacy,1.5\n"
)


# ----------------------------------------------------------------------------- what loads


def test_plain_text_folder_loads_texts_ratings_and_criteria(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", ratings=RATINGS_LONG)
    result = load_study(folder)
    study = result.study
    assert study.segment_ids == ["1", "2", "3"]
    assert study.references == {"ref-A": REFS}
    assert study.systems == {"A": SYS_A, "B": SYS_B}
    assert set(study.criteria) == {"adequacy", "fluency"}
    assert study.criteria["adequacy"].scale == (1.0, 5.0)  # KNOWN_CRITERIA default
    scores = study.segment_scores("adequacy")
    np.testing.assert_array_equal(scores[0], [4.5, np.nan, np.nan])  # mean of raters r1=5, r2=4
    np.testing.assert_array_equal(scores[1], [2.0, np.nan, np.nan])
    # B has a system-level score, which wins over its segment mean; A gets the mean of segment means.
    assert study.system_scores("adequacy") == {"A": 4.5, "B": 1.5}
    assert study.rated_items("adequacy") == 2
    assert "unrated-segments" in result.warning_codes()


def test_bom_and_crlf_are_handled_silently(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", systems={})
    data = ("\ufeff" + "\r\n".join(SYS_A) + "\r\n").encode("utf-8")
    (folder / "systems" / "A.txt").write_bytes(data)
    study = load_study(folder).study
    assert study.systems["A"] == SYS_A


def test_wide_ratings_source_segments_and_humans(tmp_path: Path) -> None:
    folder = write_folder(
        tmp_path / "s",
        ratings="system,segment_id,rater,adequacy,fluency\nA,s1,r1,4,5\nH,s3,r1,5,\n",
    )
    (folder / "humans").mkdir()
    (folder / "humans" / "H.txt").write_text("\n".join(REFS[::-1]) + "\n", encoding="utf-8")
    (folder / "source.txt").write_text("Die Katze.\nEin Hund.\nRegen.\n", encoding="utf-8")
    (folder / "segments.tsv").write_text(
        "segment_id\tdoc_id\ns1\td1\ns2\td1\ns3\td2\n", encoding="utf-8"
    )
    result = load_study(folder)
    study = result.study
    assert study.segment_ids == ["s1", "s2", "s3"]
    assert study.doc_ids() == ["d1", "d2"]
    assert study.sources() == ["Die Katze.", "Ein Hund.", "Regen."]
    assert study.human_systems == {"H"}
    assert len(study.ratings) == 3  # the empty fluency cell of H is skipped ...
    assert "empty-scores" in result.warning_codes()  # ... and reported


def test_plain_text_api_with_named_files(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s")
    result = plain_text_study(
        references={"gold": folder / "references" / "ref-A.txt"},
        systems=[folder / "systems" / "A.txt"],
        name="api",
    )
    assert list(result.study.references) == ["gold"]
    assert list(result.study.systems) == ["A"]


LONG = (
    "segment_id,doc_id,source,system,role,text,rater,criterion,score\n"
    "1,d1,Der Hund bellt.,ref-A,reference,The dog barks.,,,\n"
    "1,d1,Der Hund bellt.,A,system,The dog is barking.,r1,adequacy,5\n"
    "1,d1,Der Hund bellt.,A,system,The dog is barking.,r2,adequacy,4\n"
    "2,d2,Die Katze schläft.,ref-A,reference,The cat sleeps.,,,\n"
    '2,d2,Die Katze schläft.,A,system,"The cat, it sleeps.",r1,adequacy,3\n'
    "2,d2,,H,human,The cat is asleep.,r1,adequacy,5\n"
    ",,,A,system,,r3,adequacy,4.25\n"
)


def test_long_table_loads_everything(tmp_path: Path) -> None:
    path = tmp_path / "study.csv"
    path.write_text(LONG, encoding="utf-8")
    study = load_study(path).study
    assert study.segment_ids == ["1", "2"]
    assert [s.doc_id for s in study.segments] == ["d1", "d2"]
    assert study.references == {"ref-A": ["The dog barks.", "The cat sleeps."]}
    assert study.systems == {
        "A": ["The dog is barking.", "The cat, it sleeps."],
        "H": [None, "The cat is asleep."],
    }
    assert study.human_systems == {"H"}
    assert study.system_scores("adequacy") == {"A": 4.25, "H": 5.0}
    np.testing.assert_array_equal(study.segment_scores("adequacy")[0], [4.5, 3.0])


def test_long_table_tsv_with_declared_criterion(tmp_path: Path) -> None:
    path = tmp_path / "study.tsv"
    path.write_text(
        "segment_id\tsystem\trole\ttext\tcriterion\tscore\thigher_is_better\tscale_min\tscale_max\n"
        "1\tR\treference\tA text.\t\t\t\t\t\n"
        "1\tS\tsystem\tA text!\terrors\t3\tfalse\t0\t10\n",
        encoding="utf-8",
    )
    study = load_study(path).study
    criterion = study.criteria["errors"]
    assert (criterion.higher_is_better, criterion.scale) == (False, (0.0, 10.0))


def test_zip_of_the_folder_itself(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "my-study")
    archive = tmp_path / "wrapped.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for file in folder.rglob("*"):
            if file.is_file():
                zf.write(file, file.relative_to(tmp_path).as_posix())  # my-study/references/...
    study = load_study(archive).study
    assert study.name == "my-study" and list(study.systems) == ["A", "B"]


def test_plain_text_folder_from_zip(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", ratings=RATINGS_LONG)
    archive = tmp_path / "s.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for file in folder.rglob("*"):
            if file.is_file():
                zf.write(file, file.relative_to(folder).as_posix())
    from_zip = load_study(archive).study
    from_folder = load_study(folder).study
    assert from_zip.systems == from_folder.systems
    assert from_zip.ratings == from_folder.ratings


# ----------------------------------------------------------------------------- bad input


def test_line_count_mismatch_names_file_and_line(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", systems={"A": SYS_A[:2]})
    with pytest.raises(
        InputError, match=r"systems/A\.txt, line 3: has 2 lines but .*ref-A\.txt has 3"
    ):
        load_study(folder)


def test_extra_trailing_blank_line_is_explained(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s")
    (folder / "systems" / "A.txt").write_text("\n".join(SYS_A) + "\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="delete the trailing empty line"):
        load_study(folder)


def test_empty_file(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s")
    (folder / "systems" / "A.txt").write_bytes(b"")
    with pytest.raises(InputError, match=r"A\.txt: empty file"):
        load_study(folder)


def test_blank_reference_line(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", refs={"ref-A": [REFS[0], "  ", REFS[2]]})
    with pytest.raises(InputError, match=r"ref-A\.txt, line 2: blank line"):
        load_study(folder)


def test_blank_system_line_is_a_warning(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", systems={"A": [SYS_A[0], "", SYS_A[2]]})
    result = load_study(folder)
    (warning,) = [w for w in result.warnings if w.code == "blank-output-lines"]
    assert warning.line == 2 and warning.file.endswith("A.txt")


def test_undecodable_bytes_name_line_and_column(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s")
    (folder / "systems" / "A.txt").write_bytes(b"ok\nna\xefve caf\xe9\nthree\n")
    with pytest.raises(InputError, match=r"A\.txt, line 2, column 3: bytes that are not UTF-8"):
        load_study(folder)


def test_duplicate_names_across_references_and_systems(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", systems={"ref-A": SYS_A})
    with pytest.raises(StudyError, match="duplicate reference or system name 'ref-A'"):
        load_study(folder)


def test_duplicate_system_names_in_api(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "A.txt").write_text("\n".join(SYS_B) + "\n", encoding="utf-8")
    with pytest.raises(StudyError, match="duplicate system name 'A'"):
        plain_text_study(
            references=[folder / "references" / "ref-A.txt"],
            systems=[folder / "systems" / "A.txt", tmp_path / "other" / "A.txt"],
        )


def test_rating_for_unknown_system(tmp_path: Path) -> None:
    folder = write_folder(
        tmp_path / "s",
        ratings="system,segment_id,criterion,score\nA,1,adequacy,3\nC,1,adequacy,3\n",
    )
    with pytest.raises(
        InputError, match=r"ratings\.csv, line 3, column system: rating for unknown system 'C'"
    ):
        load_study(folder)


def test_rating_for_unknown_segment_suggests_zero_based_ids(tmp_path: Path) -> None:
    folder = write_folder(
        tmp_path / "s", ratings="system,segment_id,criterion,score\nA,0,adequacy,3\n"
    )
    with pytest.raises(
        InputError, match=r"line 2, column segment_id: .*'0' \(your ids look 0-based"
    ):
        load_study(folder)


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ("good", r"line 2, column score: 'good' is not a number"),
        ("nan", r"line 2, column score: 'nan' is not a finite number"),
        ("inf", r"'inf' is not a finite number"),
        ("7", r"line 2, column score: score 7 is outside the adequacy scale \[1, 5\]"),
    ],
)
def test_bad_scores(tmp_path: Path, score: str, message: str) -> None:
    folder = write_folder(
        tmp_path / "s", ratings=f"system,segment_id,criterion,score\nA,1,adequacy,{score}\n"
    )
    with pytest.raises(InputError, match=message):
        load_study(folder)


def test_bad_score_in_wide_form_names_the_criterion_column(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", ratings="system,segment_id,fluency\nA,1,n/a\n")
    with pytest.raises(InputError, match=r"line 2, column fluency: 'n/a' is not a number"):
        load_study(folder)


def test_missing_required_columns_lists_columns_found(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", ratings="sys,seg,adequacy\nA,1,4\n")
    with pytest.raises(
        InputError,
        match=r"ratings\.csv, line 1: missing required columns 'system', 'segment_id'; "
        r"columns found: sys, seg, adequacy",
    ):
        load_study(folder)


def test_long_form_needs_criterion_and_score(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", ratings="system,segment_id,score\nA,1,4\n")
    with pytest.raises(InputError, match=r"missing required column 'criterion'; columns found"):
        load_study(folder)


def test_wrong_number_of_cells(tmp_path: Path) -> None:
    folder = write_folder(
        tmp_path / "s", ratings="system,segment_id,criterion,score\nA,1,adequacy,4,extra\n"
    )
    with pytest.raises(InputError, match=r"line 2: 5 cells, but the header has 4 columns"):
        load_study(folder)


def test_unknown_table_layout_lists_columns(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"missing required columns .* columns found: a, b"):
        load_study(path)


def test_long_table_conflicting_texts(tmp_path: Path) -> None:
    path = tmp_path / "study.csv"
    path.write_text(
        "segment_id,system,role,text\n1,R,reference,a b\n1,A,system,x\n1,A,system,y\n",
        encoding="utf-8",
    )
    with pytest.raises(
        InputError, match=r"line 4, column text: 'A' has a different text .* line 3"
    ):
        load_study(path)


def test_long_table_without_reference(tmp_path: Path) -> None:
    path = tmp_path / "study.csv"
    path.write_text("segment_id,system,text\n1,A,x\n", encoding="utf-8")
    with pytest.raises(InputError, match="no reference: mark at least one translation with role"):
        load_study(path)


def test_long_table_bad_role(tmp_path: Path) -> None:
    path = tmp_path / "study.csv"
    path.write_text("segment_id,system,role,text\n1,A,referee,x\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2, column role: unknown role 'referee'"):
        load_study(path)


def test_long_table_rating_of_a_reference(tmp_path: Path) -> None:
    path = tmp_path / "study.csv"
    path.write_text(
        "segment_id,system,role,text,criterion,score\n1,R,reference,a b,adequacy,4\n1,A,,a c,,\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="ratings for the reference 'R'.*give it role 'human'"):
        load_study(path)


def test_file_over_size_cap(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s")
    with pytest.raises(
        InputError, match=r"over the size cap of 0\.0 MiB.*raise the cap with max_bytes"
    ):
        load_study(folder, max_bytes=20)


def test_table_over_size_cap(tmp_path: Path) -> None:
    path = tmp_path / "study.csv"
    path.write_text(LONG, encoding="utf-8")
    with pytest.raises(InputError, match=r"study\.csv: file is .* over the size cap"):
        load_study(path, max_bytes=100)


def _zip_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def test_zip_with_path_traversal(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    archive.write_bytes(_zip_bytes({"references/r.txt": b"a\n", "../../etc/passwd": b"x"}))
    with pytest.raises(
        StudyError, match=r"evil\.zip: archive member '\.\./\.\./etc/passwd' points outside"
    ):
        load_study(archive)


def test_zip_with_absolute_member(tmp_path: Path) -> None:
    archive = tmp_path / "abs.zip"
    archive.write_bytes(_zip_bytes({"/tmp/x.txt": b"x"}))
    with pytest.raises(StudyError, match="points outside the archive"):
        load_study(archive)


def test_zip_bomb_is_refused_before_reading(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.zip"
    archive.write_bytes(
        _zip_bytes({"systems/a.txt": b"0" * 5_000_000})
    )  # 5 MB, compresses to ~5 KB
    assert archive.stat().st_size < 20_000
    with pytest.raises(StudyError, match=r"archive decompresses to more than 1\.0 MiB.*zip bomb"):
        load_study(archive, max_bytes=1024 * 1024)


def test_zip_member_lying_about_its_size(tmp_path: Path) -> None:
    archive = tmp_path / "liar.zip"
    archive.write_bytes(_zip_bytes({"big.txt": b"x" * 5000}))
    tree = ZipTree(archive, max_bytes=10_000)
    tree.max_bytes = 1000  # as if the header had claimed a small size
    with pytest.raises(InputError, match=r"liar\.zip!big\.txt: file is .* over the size cap"):
        tree.read_bytes("big.txt")


def test_not_a_study_folder(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notes.md").write_text("hello", encoding="utf-8")
    with pytest.raises(StudyError, match=r"not a study folder: .* found: notes\.md"):
        load_study(tmp_path / "x")


def test_missing_path_and_single_text_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file or folder"):
        load_study(tmp_path / "nope")
    single = tmp_path / "hyp.txt"
    single.write_text("a\n", encoding="utf-8")
    with pytest.raises(StudyError, match="a single text file is not a study"):
        load_study(single)


def test_every_error_is_a_value_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such file"):
        load_study(tmp_path / "nope")
    assert issubclass(StudyError, BleuStudyError)


def _doc_block(heading: str, index: int = 0) -> str:
    """The ``index``-th fenced code block after ``heading`` in docs/formats.md."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    return section.split("```")[2 * index + 1].split("\n", 1)[1]


def test_documented_long_table_example_loads(tmp_path: Path) -> None:
    path = tmp_path / "study.csv"
    path.write_text(_doc_block("## 2. Long table"), encoding="utf-8")
    study = load_study(path).study
    assert list(study.references) == ["ref-A"] and study.human_systems == {"trans2"}
    assert study.system_scores("adequacy") == {"google": 4.4, "trans2": 5.0}


def test_documented_saved_study_example_loads(tmp_path: Path) -> None:
    path = tmp_path / "toy.json"
    path.write_text(_doc_block("## 5. Saved study"), encoding="utf-8")
    study = load_study(path, detect=False).study
    assert study.system_scores("adequacy") == {"google": 4.4}
    assert study.segment_scores("adequacy")[0, 0] == 5.0


def test_documented_ratings_examples_load(tmp_path: Path) -> None:
    refs = ["The cat sat on the mat.", "A dog barked at the postman."]
    for index in (3, 4, 5):  # long form, wide form, declared criterion
        folder = write_folder(
            tmp_path / f"s{index}",
            refs={"ref-A": refs},
            systems={"google": refs[::-1], "deepl": refs},
            ratings=_doc_block("## 1. Plain-text folder", index),
        )
        assert load_study(folder).study.ratings


def test_ratings_table_under_another_name_is_read(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", ratings=RATINGS_LONG, ratings_name="my_scores.csv")
    assert len(load_study(folder).study.ratings) == 5


def test_two_ratings_tables_are_refused(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s", ratings=RATINGS_LONG)
    (folder / "more.tsv").write_text("system\tsegment_id\tadequacy\nA\t1\t3\n", encoding="utf-8")
    with pytest.raises(StudyError, match=r"several ratings tables .*\(more\.tsv, ratings\.csv\)"):
        load_study(folder)


def test_stray_text_file_is_not_silently_ignored(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "s")
    (folder / "deepl.txt").write_text("\n".join(SYS_A) + "\n", encoding="utf-8")
    with pytest.raises(
        StudyError, match=r"text file 'deepl\.txt' is at the top .* move it to references/"
    ):
        load_study(folder)
