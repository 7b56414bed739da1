"""WMT release loader: counts from the data README, and BLEU equal to the organisers' official scores.

The WMT21 data has no redistribution licence, so these tests read it from /work/shared and skip without it;
the small synthetic releases below cover the error cases everywhere.
"""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import numpy as np
import pytest

from bleu_core import corpus_bleu
from bleu_core.errors import InputError, StudyError
from bleu_core.study import load_study

WMT = Path("/work/shared/data/wmt21-newstest2021-mqm-da")
SYSTEMS_DIR = WMT / "wmt21-news-systems"
needs_wmt = pytest.mark.skipif(
    not SYSTEMS_DIR.is_dir(), reason="/work/shared WMT21 data not present"
)


def official_scores(pair: str, metric: str) -> dict[str, float]:
    """``system -> score`` from the organisers' scores/automatic-scores.tsv."""
    with open(SYSTEMS_DIR / "scores" / "automatic-scores.tsv", encoding="utf-8") as handle:
        return {
            row["system"]: float(row["score"])
            for row in csv.DictReader(handle, delimiter="\t")
            if row["pair"] == pair and row["metric"] == metric
        }


@needs_wmt
@pytest.mark.parametrize(
    ("pair", "segments", "mt_systems", "references", "mqm_segments", "mqm_systems", "da_systems"),
    [
        # data README table: en-de 1002 segments, 20 systems, ref.A/C/D, MQM 527 segments x 8 public
        # systems + ref-C, ref-D; zh-en 1948, 23 systems, ref.A, MQM 650 x 8, DA all 23 systems;
        # de-en 1000, 19 systems, ref.A/B, DA 19 systems (+ HUMAN, whose text is not in the release).
        ("en-de", 1002, 20, ["ref-A", "ref-C", "ref-D"], 527, 10, 0),
        ("zh-en", 1948, 23, ["ref-A"], 650, 8, 23),
        ("de-en", 1000, 19, ["ref-A", "ref-B"], 0, 0, 19),
    ],
)
def test_counts_match_the_readme(
    pair: str,
    segments: int,
    mt_systems: int,
    references: list[str],
    mqm_segments: int,
    mqm_systems: int,
    da_systems: int,
) -> None:
    result = load_study(WMT, pair=pair)
    study = result.study
    assert study.n_segments == segments
    assert len(study.machine_systems) == mt_systems
    # Default: ref-A is the reference stream, the other references are human systems.
    assert list(study.references) == ["ref-A"]
    assert sorted(study.human_systems) == references[1:]
    assert study.metadata["all_references"] == references
    assert all(s.source for s in study.segments)
    if mqm_segments:
        scores = study.segment_scores("mqm")
        assert int((~np.isnan(scores)).any(axis=0).sum()) == mqm_segments
        assert int((~np.isnan(scores)).any(axis=1).sum()) == mqm_systems
    else:
        assert "mqm" not in study.criteria
    if da_systems:
        da = study.system_scores("da_z")
        assert sum(1 for name in study.machine_systems if not np.isnan(da[name])) == da_systems
        assert "scores-without-text" in result.warning_codes()  # HUMAN


@needs_wmt
def test_all_references_as_streams() -> None:
    study = load_study(WMT, pair="en-de", reference="all").study
    assert list(study.references) == ["ref-A", "ref-C", "ref-D"]
    assert not study.human_systems


@needs_wmt
@pytest.mark.slow  # 62 systems x 1000-1948 segments: about 10-30 s on the shared 2-core machine
@pytest.mark.parametrize("pair", ["en-de", "zh-en", "de-en"])
def test_bleu_per_system_equals_official_bleu_a(pair: str) -> None:
    # Golden values: the organisers' scores/automatic-scores.tsv, metric bleu-A (sacreBLEU defaults,
    # reference A), as stated in the data README.
    official = official_scores(pair, "bleu-A")
    study = load_study(WMT, pair=pair, detect=False).study
    assert sorted(study.machine_systems) == sorted(official)
    for system in study.machine_systems:
        score = corpus_bleu(study.systems[system], study.reference_streams())
        assert score.score == pytest.approx(official[system], abs=1e-9), system


@needs_wmt
def test_bleu_all_with_every_reference_stream() -> None:
    official = official_scores("en-de", "bleu-all")
    study = load_study(WMT, pair="en-de", reference="all", detect=False).study
    for system in ("VolcTrans-AT", "Facebook-AI", "Online-W"):
        score = corpus_bleu(study.systems[system], study.reference_streams())
        assert score.score == pytest.approx(official[system], abs=1e-9)


@needs_wmt
def test_published_mqm_system_scores() -> None:
    # Google's README (wmt-mqm-human-evaluation/README.md, newstest2021 English to German, expert MQM).
    published = {"ref-C": 0.51, "VolcTrans-GLAT": 1.04, "Facebook-AI": 1.05, "NVIDIA-NeMo": 1.34}
    study = load_study(WMT, pair="en-de", detect=False).study
    scores = study.system_scores("mqm")
    for system, value in published.items():
        assert round(-scores[system], 2) == value


@needs_wmt
def test_da_names_are_matched_to_file_names() -> None:
    study = load_study(WMT, pair="de-en", detect=False).study
    da = study.system_scores("da_z")
    # ad-sys-scores-de-en.csv: "Nemo.7" -> file NVIDIA-NeMo, Z.SCR -0.0104679351687654 (system level)
    assert da["NVIDIA-NeMo"] == -0.0104679351687654
    assert (
        study.rated_items("da") == 18409
    )  # ad-seg-scores-de-en.csv rows without HUMAN (19385 - 976)


# ----------------------------------------------------------------------------- synthetic releases


def make_release(root: Path, *, pairs: tuple[str, ...] = ("de-en",), hyp_lines: int = 3) -> Path:
    for pair in pairs:
        sl, tl = pair.split("-")
        for folder in ("sources", "references", "system-outputs"):
            (root / "txt" / folder).mkdir(parents=True, exist_ok=True)
        (root / "txt" / "sources" / f"test.{pair}.src.{sl}").write_text(
            "a\nb\nc\n", encoding="utf-8"
        )
        (root / "txt" / "references" / f"test.{pair}.ref.A.{tl}").write_text(
            "The cat.\nThe dog.\nThe bird.\n", encoding="utf-8"
        )
        lines = ["A cat.", "A dog.", "A bird."][:hyp_lines]
        (root / "txt" / "system-outputs" / f"test.{pair}.hyp.Sys-1.{tl}").write_text(
            "\n".join(lines) + "\n", encoding="utf-8"
        )
    return root


def test_synthetic_release_folder_and_zip(tmp_path: Path) -> None:
    root = make_release(tmp_path / "release")
    humaneval = root / "humaneval" / "x"
    humaneval.mkdir(parents=True)
    (humaneval / "ad-seg-scores-de-en.csv").write_text(
        "SYS SID RAW.SCR Z.SCR N\nSys-1.4 1 70 0.5 2\nSys-1.4 3 20 -1 1\n", encoding="utf-8"
    )
    study = load_study(root).study
    assert study.systems == {"Sys-1": ["A cat.", "A dog.", "A bird."]}
    np.testing.assert_array_equal(study.segment_scores("da"), [[70.0, np.nan, 20.0]])
    archive = tmp_path / "release.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for file in root.rglob("*"):
            if file.is_file():
                zf.write(file, "wmt/" + file.relative_to(root).as_posix())
    from_zip = load_study(archive).study
    assert from_zip.metadata.pop("release").endswith("release.zip")
    study.metadata.pop("release")
    assert from_zip == study


def test_pair_not_in_release(tmp_path: Path) -> None:
    root = make_release(tmp_path / "r", pairs=("de-en", "zh-en"))
    with pytest.raises(
        StudyError, match=r"has no language pair 'fr-en'; pairs found: de-en, zh-en"
    ):
        load_study(root, pair="fr-en")


def test_several_pairs_need_a_choice(tmp_path: Path) -> None:
    root = make_release(tmp_path / "r", pairs=("de-en", "zh-en"))
    with pytest.raises(StudyError, match=r"several language pairs \(de-en, zh-en\); choose one"):
        load_study(root)


def test_release_line_count_mismatch(tmp_path: Path) -> None:
    root = make_release(tmp_path / "r", hyp_lines=2)
    with pytest.raises(
        InputError, match=r"hyp\.Sys-1\.en, line 3: has 2 lines but .*src\.de has 3"
    ):
        load_study(root)


def test_release_da_for_unknown_segment(tmp_path: Path) -> None:
    root = make_release(tmp_path / "r")
    (root / "ad-seg-scores-de-en.csv").write_text(
        "SYS SID RAW.SCR Z.SCR N\nSys-1.4 9 70 0.5 2\n", encoding="utf-8"
    )
    with pytest.raises(InputError, match=r"line 2, column SID: segment '9' does not exist.*1-3"):
        load_study(root)


def test_release_unknown_reference_letter(tmp_path: Path) -> None:
    root = make_release(tmp_path / "r")
    with pytest.raises(
        StudyError, match=r"no reference 'B'; the human translations are: ref-A \(choose"
    ):
        load_study(root, reference="B")
