"""Real releases loaded faithfully: human translations keep their scores, every reference is
usable (``--references A,B | all`` everywhere), WMT file names anywhere, user's file names in messages,
byte-order marks reported.

The WMT21 release has no redistribution licence: those tests read it from /work/shared and skip without
it. The small WMT22-style releases are generated here.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from bleu_core.cli import main
from bleu_core.errors import InputError, StudyError
from bleu_core.study import load_study
from bleu_core.study.file_roles import recognise_files
from bleu_core.study.loading import list_pairs, load_files
from bleu_core.study.reference_choice import choose_references, reference_letter

WMT21 = Path("/work/shared/data/wmt21-newstest2021-mqm-da/wmt21-news-systems")
needs_wmt = pytest.mark.skipif(not WMT21.is_dir(), reason="/work/shared WMT21 data not present")

SOURCE = ["Der Hund bellt .", "Die Katze schläft .", "Ein Vogel singt ."]
REF_B = ["The dog barks .", "The cat sleeps .", "A bird sings ."]
REF_C = ["The dog is barking .", "The cat is sleeping .", "A bird is singing ."]
SYS_1 = ["The dog barks loudly .", "A cat sleeps .", "A bird sings ."]
SYS_2 = ["Dog bark .", "The cat is sleeping .", "Bird sing ."]
SYS_3 = ["The dog barks .", "Cat sleeps .", "A bird is singing ."]


def write(path: Path, lines: list[str], *, bom: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + ("\n".join(lines) + "\n").encode())


def make_wmt22(root: Path, *, human: str = "HUMAN-B.12", bom: bool = False) -> Path:
    """A WMT22-style de-en release: references B and C, DA naming the human translations."""
    write(root / "txt/sources/generaltest2022.de-en.src.de", SOURCE)
    write(root / "txt/references/generaltest2022.de-en.ref.B.en", REF_B)
    write(root / "txt/references/generaltest2022.de-en.ref.C.en", REF_C)
    write(root / "txt/system-outputs/generaltest2022.de-en.hyp.sys1.en", SYS_1, bom=bom)
    write(root / "txt/system-outputs/generaltest2022.de-en.hyp.sys2.en", SYS_2)
    write(root / "txt/system-outputs/generaltest2022.de-en.hyp.sys3.en", SYS_3)
    rows = ["SYS SID RAW.SCR Z.SCR N"]
    for seg in (1, 2, 3):
        rows += [
            f"sys1.3 {seg} {60 + seg} 0.1 1",
            f"sys2.4 {seg} {40 + seg} -0.2 1",
            f"sys3.5 {seg} {50 + seg * 3} 0.0 1",
            f"{human} {seg} {90 + seg} 0.5 1",
            f"HUMAN-C {seg} {80 + seg} 0.4 1",
        ]
    write(root / "humaneval/generaltest2022-toen/ad-seg-scores-de-en.csv", rows)
    return root


# ------------------------------------------------------------------------ names of human translations


@pytest.mark.parametrize(
    ("name", "letter"),
    [("HUMAN-B", "B"), ("HUMAN-C", "C"), ("HUMAN-B.12", "B"), ("Human-A.0", "A"), ("ref-B", "B"),
     ("refB", "B"), ("ref.B", "B"), ("HUMAN", ""), ("HUMAN.0", ""), ("Online-B", None),
     ("UEdin", None)],
)  # fmt: skip
def test_reference_letters(name: str, letter: str | None) -> None:
    assert reference_letter(name) == letter


def test_human_b_is_set_aside_when_b_is_the_reference(tmp_path: Path) -> None:
    result = load_study(make_wmt22(tmp_path / "r"), detect=False)
    study = result.study
    assert list(study.references) == ["ref-B"]
    assert sorted(study.human_systems) == ["ref-C"]
    # HUMAN-C's DA is the human system ref-C's: mean of 81, 82, 83
    assert study.system_scores("da")["ref-C"] == pytest.approx(82.0)
    (aside,) = [w for w in result.warnings if w.code == "reference-ratings-set-aside"]
    assert aside.message == (
        "human scores of ref-B (3 da, 3 da_z) were set aside: ref-B is a reference stream, and a "
        "translation cannot be scored against itself; to study ref-B as a human system, choose other "
        "references without it (e.g. ref-C; command line: --references ref-C)"
    )
    assert "scores-without-text" not in result.warning_codes()


def test_choosing_c_makes_human_b_a_system_with_its_scores(tmp_path: Path) -> None:
    result = load_study(make_wmt22(tmp_path / "r"), reference="C", detect=False)
    study = result.study
    assert list(study.references) == ["ref-C"] and sorted(study.human_systems) == ["ref-B"]
    assert study.system_scores("da")["ref-B"] == pytest.approx(92.0)  # HUMAN-B.12: 91, 92, 93


def test_a_view_needs_no_rereading_and_equals_a_fresh_load(tmp_path: Path) -> None:
    root = make_wmt22(tmp_path / "r")
    full = load_study(root, reference="all", detect=False)
    assert list(full.study.references) == ["ref-B", "ref-C"] and not full.study.human_systems
    assert [w.code for w in full.warnings] == ["reference-ratings-set-aside"] * 2
    for choice in ("B", "C", ["C", "B"]):
        view = choose_references(full.study, choice).study
        fresh = load_study(root, reference=choice, detect=False).study
        assert view.references == fresh.references
        assert view.systems == fresh.systems
        assert view.human_systems == fresh.human_systems
        assert sorted(view.ratings, key=repr) == sorted(fresh.ratings, key=repr)


def test_bare_human_means_the_only_reference(tmp_path: Path) -> None:
    root = tmp_path / "r"
    make_wmt22(root, human="HUMAN")
    (root / "txt/references/generaltest2022.de-en.ref.C.en").unlink()
    result = load_study(root, detect=False)
    (aside,) = [w for w in result.warnings if w.code == "reference-ratings-set-aside"]
    assert "ref-B is the only reference of this study" in aside.message
    # HUMAN-C has no text now: its scores are reported, truthfully
    (left,) = [w for w in result.warnings if w.code == "scores-without-text"]
    assert left.message.startswith("scores for HUMAN-C were left out: their translations are not")


def test_bare_human_with_two_references_is_reported(tmp_path: Path) -> None:
    result = load_study(make_wmt22(tmp_path / "r", human="HUMAN.0"), detect=False)
    (left,) = [w for w in result.warnings if w.code == "scores-without-text"]
    assert left.message == (
        "scores for HUMAN were left out: the name says a human translation but not which one, and "
        "de-en has 2 references (ref-B, ref-C), so the scores cannot be attached to a text"
    )


def test_unknown_reference_says_what_exists(tmp_path: Path) -> None:
    with pytest.raises(
        StudyError, match=r"no reference 'D'; the human translations are: ref-B, ref-C"
    ):
        load_study(make_wmt22(tmp_path / "r"), reference="B,D")
    with pytest.raises(StudyError, match=r"'all' cannot be combined with other references"):
        load_study(make_wmt22(tmp_path / "r2"), reference=["all", "B"])


# ------------------------------------------------------------------------ byte-order marks, user's names


BOM_MESSAGE = (
    r"the file starts with a UTF-8 byte-order mark, which was removed; sacrebleu keeps the mark "
    r"inside the first word of the first line, so an official \(sacrebleu\) score"
)


def test_bom_warning_names_the_member_of_the_uploaded_zip(tmp_path: Path) -> None:
    root = make_wmt22(tmp_path / "r", bom=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for file in sorted(root.rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(root).as_posix())
    result = load_files([("wmt22-upload.zip", buffer.getvalue())], detect=False)
    (bom,) = [w for w in result.warnings if w.code == "byte-order-mark"]
    assert bom.file == "wmt22-upload.zip!txt/system-outputs/generaltest2022.de-en.hyp.sys1.en"
    assert re.match(rf"wmt22-upload\.zip!txt/system-outputs/\S+: {BOM_MESSAGE}", str(bom))
    assert all("bleu-study-upload" not in str(w) for w in result.warnings)
    assert list_pairs([("wmt22-upload.zip", buffer.getvalue())]) == ["de-en"]


def test_errors_in_uploads_name_the_upload(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"^my table\.csv, line 1: missing required") as info:
        load_files([("my table.csv", b"a,b\n1,2\n")])
    assert "bleu-study-upload" not in str(info.value)


def test_bom_in_study_folder_and_score_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_wmt22(tmp_path / "r", bom=True)
    assert main(["study", str(root), "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    (bom,) = [w for w in summary["warnings"] if w["code"] == "byte-order-mark"]
    assert bom["file"].endswith("generaltest2022.de-en.hyp.sys1.en")
    hyp = root / "txt/system-outputs/generaltest2022.de-en.hyp.sys1.en"
    ref = root / "txt/references/generaltest2022.de-en.ref.B.en"
    assert main(["score", "-r", str(ref), "-i", str(hyp)]) == 0
    err = capsys.readouterr().err
    assert f"warning: {hyp}: the file starts with a UTF-8 byte-order mark" in err


# ------------------------------------------------------------------------ any file names


def test_wmt_named_files_side_by_side(tmp_path: Path) -> None:
    names = {
        "newstest2021.de-en.src.de": SOURCE,
        "newstest2021.de-en.ref.A.en": REF_B,
        "newstest2021.de-en.hyp.sys1.en": SYS_1,
        "newstest2021.de-en.hyp.sys2.en": SYS_2,
    }
    uploads = [(n, ("\n".join(lines) + "\n").encode()) for n, lines in names.items()]
    study = load_files(uploads, detect=False).study  # a WMT release without folders
    assert list(study.references) == ["ref-A"] and list(study.systems) == ["sys1", "sys2"]
    # without a source, the plain-text loader takes the same names
    study = load_files(uploads[1:], detect=False).study
    assert list(study.references) == ["ref-A"] and study.target_lang == "en"
    folder = tmp_path / "flat"
    for n, lines in names.items():
        write(folder / n, lines)
    assert list(load_study(folder, detect=False).study.systems) == ["sys1", "sys2"]


def test_unrecognised_names_say_how_to_assign(tmp_path: Path) -> None:
    uploads = [("mine.txt", b"a b\n"), ("theirs.txt", b"a c\n")]
    assert recognise_files([n for n, _ in uploads]).unrecognised == ("mine.txt", "theirs.txt")
    with pytest.raises(
        StudyError,
        match=r"^the upload: the role of 'mine\.txt', 'theirs\.txt' is not known from the name; names that "
        r"work: WMT names .*assign each file a role",
    ):
        load_files(uploads)
    study = load_files(uploads, roles={"mine.txt": "reference", "theirs.txt": "system"}).study
    assert list(study.references) == ["mine"] and list(study.systems) == ["theirs"]
    folder = tmp_path / "f"
    for n, data in uploads:
        (folder / n).parent.mkdir(exist_ok=True)
        (folder / n).write_bytes(data)
    with pytest.raises(StudyError, match=r"the role of mine\.txt, theirs\.txt is not known"):
        load_study(folder)
    with pytest.raises(StudyError, match=r"unknown role 'ref' for 'mine\.txt'; roles: reference"):
        load_files(uploads, roles={"mine.txt": "ref"})


# ------------------------------------------------------------------------ the command line


def test_every_command_takes_references(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(make_wmt22(tmp_path / "r"))
    for argv in (
        ["study", root, "--references", "all", "--format", "json"],
        ["study", root, "--reference", "B", "C", "--format", "json"],
    ):
        assert main(argv) == 0
        assert json.loads(capsys.readouterr().out)["references"] == ["ref-B", "ref-C"]
    assert (
        main(["meta", root, "--references", "all", "--n-resamples", "20", "--format", "json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["references"] == ["ref-B", "ref-C"]
    argv = ["significance", root, "--references", "C", "--include-human", "--n-resamples", "20"]
    assert main([*argv, "--format", "json"]) == 0
    systems = [iv["system"] for iv in json.loads(capsys.readouterr().out)["bootstrap"]["systems"]]
    assert "ref-B" in systems and "ref-C" not in systems
    assert main(["meta", root, "--references", "D"]) == 2
    assert "no reference 'D'" in capsys.readouterr().err


# ------------------------------------------------------------------------ WMT21: official scores


def official(metric: str) -> dict[str, float]:
    with open(WMT21 / "scores" / "automatic-scores.tsv", encoding="utf-8") as handle:
        return {
            row["system"]: float(row["score"])
            for row in csv.DictReader(handle, delimiter="\t")
            if row["pair"] == "de-en" and row["metric"] == metric
        }


@needs_wmt
@pytest.mark.parametrize(
    ("choice", "metric"), [("A", "bleu-A"), ("B", "bleu-B"), ("all", "bleu-all")]
)
def test_wmt21_de_en_official_bleu_through_references(
    choice: str, metric: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Golden values: the organisers' scores/automatic-scores.tsv (sacreBLEU defaults), de-en, metric
    # bleu-A / bleu-B / bleu-all; reproduced through the command line's --references.
    assert (
        main(["study", str(WMT21), "--pair", "de-en", "--references", choice, "--format", "json"])
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    expected = official(metric)
    ours = {s["name"]: s["bleu"] for s in summary["systems"] if not s["human_translation"]}
    assert sorted(ours) == sorted(expected)
    for system, value in expected.items():
        assert ours[system] == pytest.approx(value, abs=1e-9), system
    human = [s["name"] for s in summary["systems"] if s["human_translation"]]
    assert human == ({"A": ["ref-B"], "B": ["ref-A"], "all": []}[choice])
    # the DA files name the human translation plain HUMAN although de-en has two references
    (left,) = [w for w in summary["warnings"] if w["code"] == "scores-without-text"][:1]
    assert left["message"].startswith("scores for HUMAN were left out: the name says a human")
