"""Attached metric scores: loaders, validation messages, saving, the unified metric view."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bleu_core.errors import BleuOptionError, InputError
from bleu_core.metrics.study_scores import study_metric_scores
from bleu_core.study.metric_scores import (
    attach_metric_scores,
    parse_metric_scores,
    read_metric_scores,
)
from bleu_core.study.model import Segment, Study
from bleu_core.study.storage import read_saved_study, save_study


@pytest.fixture
def study() -> Study:
    return Study(
        "toy",
        (Segment("s1", "d1"), Segment("s2", "d1"), Segment("s3", "d2")),
        {"ref": ["a b c", "d e f", "g h i"]},
        {"A": ["a b c", "d e", "g"], "B": ["a", "d e f", "g h"], "C": ["x", None, "g h i"]},
        metadata={"pair": "zh-en"},
    )


SEG = "A\t0.9\nB\t0.1\nC\t0.2\nA\t0.8\nB\t0.7\nC\tNone\nA\t0.5\nB\t0.4\nC\t0.3\n"


def test_mtme_seg_file(study: Study) -> None:
    [m] = parse_metric_scores(SEG, "zh-en.COMET-20-refA.seg.score", study)
    assert m.name == "COMET-20-refA" and m.levels == ("seg",)
    assert m.segment["C"] == (0.2, None, 0.3)  # None only where C has no translation
    assert m.system_scores(study)["A"] == pytest.approx((0.9 + 0.8 + 0.5) / 3)


@pytest.mark.parametrize(
    "text, name, message",
    [
        ("A\t0.9\nZ\t0.1\n", "M.sys.score", r"M.sys.score, line 2: unknown system 'Z'"),
        ("A\t0.9\nB\tnan\n", "M.sys.score", r"line 2: 'nan' is not a finite number; NaN/inf"),
        (
            "A\t０.９\n",
            "M.sys.score",
            r"line 1: '０.９' is not a number; write a plain decimal number with ASCII digits",
        ),
        ("A\t0.9 1\n", "M.sys.score", r"line 1: expected 'SYSTEM<TAB>SCORE', found 3 fields"),
        ("A\t1\nB\t2\n", "M.sys.score", r"no scores for system\(s\) 'C'"),
        ("A\t1\nA\t2\n", "M.sys.score", r"line 2: system 'A' appears twice"),
        ("A\t1\nB\t1\nC\t1\n", "M.seg.score", r"system 'A' has 1 segment scores, the study has 3"),
        ("A\tNone\n", "M.seg.score", r"line 1: score None for system 'A' on segment 's1'"),
        ("A\t1\n", "M.level.score", r"must be named \[xx-yy.\]NAME-REF.LEVEL.score"),
        (
            "A\t1\n",
            "en-de.M.sys.score",
            r"this file is for language pair en-de, the study is zh-en",
        ),
    ],
)
def test_mtme_errors(study: Study, text: str, name: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_metric_scores(text, name, study)


LONG = "system,segment_id,metric,score\nA,,BLEURT,0.5\nB,,BLEURT,0.4\nC,,BLEURT,0.3\n" + "".join(
    f"{s},{g},COMET,{v}\n"
    for s, g, v in [
        ("A", "s1", 1),
        ("A", "s2", 2),
        ("A", "s3", 3),
        ("B", "s1", 1),
        ("B", "s2", 1),
        ("B", "s3", 1),
        ("C", "s1", 0),
        ("C", "s3", 0),
    ]
)


def test_long_table(study: Study) -> None:
    got = {m.name: m for m in parse_metric_scores(LONG, "scores.csv", study)}
    assert got["BLEURT"].system == {"A": 0.5, "B": 0.4, "C": 0.3}
    assert got["COMET"].segment["C"] == (0.0, None, 0.0)


@pytest.mark.parametrize(
    "extra, message",
    [
        ("A,s9,COMET,1\n", r"line 13, column segment_id: unknown segment id 's9'"),
        ("A,s1,COMET,1\n", r"line 13: second score of metric 'COMET' for system 'A'"),
        ("A,s1,,1\n", r"line 13, column metric: empty metric name"),
        ("A,s1,X,inf\n", r"line 13, column score: 'inf' is not a finite number"),
    ],
)
def test_long_table_errors(study: Study, extra: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_metric_scores(LONG + extra, "scores.csv", study)


def test_long_table_missing_segment(study: Study) -> None:
    text = LONG.replace("B,s2,COMET,1\n", "")
    with pytest.raises(
        InputError, match=r"metric 'COMET', system 'B': no score for 1 segment\(s\), first 's2'"
    ):
        parse_metric_scores(text, "scores.csv", study)


def test_wmt_automatic_scores(study: Study) -> None:
    text = "pair\tsystem\tid\tis_constrained\tmetric\tscore\n" + "".join(
        f"{p}\t{s}\t1\tTrue\tbleu-A\t{v}\n"
        for p, s, v in [
            ("zh-en", "A", 30),
            ("zh-en", "B", 20),
            ("zh-en", "C", 10),
            ("en-de", "A", 1),
        ]
    )
    [m] = parse_metric_scores(text, "automatic-scores.tsv", study)
    assert m.system == {"A": 30.0, "B": 20.0, "C": 10.0}
    study.metadata["pair"] = "ru-en"
    with pytest.raises(InputError, match=r"no scores for the study's language pair 'ru-en'"):
        parse_metric_scores(text, "automatic-scores.tsv", study)


def test_read_folder_merges_levels_and_saves(study: Study, tmp_path: Path) -> None:
    (tmp_path / "zh-en.COMET-refA.seg.score").write_text(SEG)
    (tmp_path / "zh-en.COMET-refA.sys.score").write_text("A\t0.7\nB\t0.4\nC\t0.25\n")
    (tmp_path / "zh-en.TER-refA.sys.score").write_text("A\t30\nB\t40\nC\t50\n")
    scores = read_metric_scores([tmp_path], study)
    assert scores["COMET-refA"].levels == ("sys", "seg")
    assert not scores["TER-refA"].higher_is_better
    attached = attach_metric_scores(study, scores)
    path = tmp_path / "toy.study.json.gz"
    save_study(attached, path)
    again = read_saved_study(path)
    assert again.metric_scores == attached.metric_scores
    with pytest.raises(InputError, match="no such file or folder"):
        read_metric_scores([tmp_path / "missing"], study)


def test_old_saved_study_still_loads(study: Study, tmp_path: Path) -> None:
    path = tmp_path / "old.study.json"
    save_study(study, path)
    assert "metric_scores" not in json.loads(path.read_text())  # unchanged layout without them
    assert read_saved_study(path).metric_scores == {}


def test_unified_view_and_subset(study: Study) -> None:
    [m] = parse_metric_scores(SEG, "BLEU-refA.seg.score", study)
    [b] = parse_metric_scores("A\t1\nB\t2\nC\t3\n", "BLEU.sys.score", study)
    s = attach_metric_scores(study, [m, b])
    tables = study_metric_scores(s, ["BLEU", "TER"])
    assert list(tables) == ["BLEU", "TER", "BLEU-refA", "BLEU (attached)"]
    assert tables["BLEU-refA"].segment.shape == (3, 3) and np.isnan(
        tables["BLEU-refA"].segment[2, 1]
    )
    assert tables["BLEU (attached)"].segment is None
    assert tables["TER"].oriented_system()[0] == -tables["TER"].system[0]
    small = s.subset(["A", "B"], 2)
    assert small.metric_scores["BLEU-refA"].segment == {"A": (0.9, 0.8), "B": (0.1, 0.7)}


def test_choosing_attached_metrics(study: Study) -> None:
    [b] = parse_metric_scores("A\t1\nB\t2\nC\t3\n", "BLEU.sys.score", study)
    s = attach_metric_scores(study, [b])
    assert list(study_metric_scores(s, None, attached=["BLEU"])) == ["BLEU"]  # no clash: own name
    assert list(study_metric_scores(s, ["TER"], attached=False)) == ["TER"]
    with pytest.raises(BleuOptionError, match=r"no attached metric 'COMET'; the study has: BLEU$"):
        study_metric_scores(s, None, attached=["COMET"])
    with pytest.raises(
        BleuOptionError, match=r"the study has: none \(load them with --metric-scores\)"
    ):
        study_metric_scores(study, None, attached=["COMET"])


def test_cli_study_and_meta(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bleu_core.cli import main
    from bleu_core.study.demo import load_demo

    demo = load_demo("ted-en-de").subset(["Nemo", "UEdin", "Online-W", "HuaweiTSC"], 40)
    save_study(demo, tmp_path / "d.study.json")
    rng = np.random.default_rng(0)
    mqm = demo.segment_scores("mqm")
    lines = [
        f"{name}\t{(0 if np.isnan(mqm[k, i]) else mqm[k, i]) + rng.normal(0, 0.1):.4f}"
        for k, name in enumerate(demo.systems)
        for i in range(demo.n_segments)
    ]
    (tmp_path / "Noisy-ref.seg.score").write_text("\n".join(lines) + "\n")
    assert (
        main(
            [
                "study",
                str(tmp_path / "d.study.json"),
                "--metric-scores",
                str(tmp_path / "Noisy-ref.seg.score"),
            ]
        )
        == 0
    )
    assert "attached metric Noisy-ref: levels seg" in capsys.readouterr().out
    code = main(
        [
            "meta",
            str(tmp_path / "d.study.json"),
            "--metric-scores",
            str(tmp_path / "Noisy-ref.seg.score"),
            "--criteria",
            "mqm",
            "--n-resamples",
            "50",
            "--format",
            "json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    stats = {(r["criterion"], r["statistic"]) for r in data["rankings"]}
    assert stats == {("mqm", "pairwise-accuracy"), ("mqm", "acc-eq")}
    acc = next(r for r in data["rankings"] if r["statistic"] == "acc-eq")
    assert acc["metrics"][0]["metric"] == "Noisy-ref" and acc["metrics"][0]["rank"] == 1
    assert main(["meta", str(tmp_path / "d.study.json"), "--statistics", "bogus"]) == 2


def test_public_merge_and_uploaded_files(study: Study) -> None:
    from dataclasses import replace

    from bleu_core.study.metric_scores import merge_metric_scores, metric_scores_from_files

    files = [
        ("zh-en.COMET-refA.seg.score", SEG.encode()),
        ("zh-en.COMET-refA.sys.score", b"A\t0.7\nB\t0.4\nC\t0.25\n"),
    ]
    got = metric_scores_from_files(files, study)
    assert list(got) == ["COMET-refA"] and got["COMET-refA"].levels == ("sys", "seg")
    assert got["COMET-refA"].source == "zh-en.COMET-refA.seg.score; zh-en.COMET-refA.sys.score"
    parsed = parse_metric_scores(SEG, "COMET-refA.seg.score", study)
    assert merge_metric_scores(parsed)["COMET-refA"] is parsed[0]
    with pytest.raises(
        InputError,
        match=r"b\.seg\.score: metric 'COMET-refA' has seg-level scores in two files "
        r"\(COMET-refA\.seg\.score and b\.seg\.score\); keep one",
    ):
        merge_metric_scores([parsed[0], replace(parsed[0], source="b.seg.score")])
    with pytest.raises(InputError, match="no metric score file given"):
        metric_scores_from_files([], study)
    with pytest.raises(InputError, match=r"big\.score: file is .* over the size cap"):
        metric_scores_from_files([("big.score", b"A 1\n" * 100)], study, max_bytes=10)
    with pytest.raises(InputError, match=r"x\.seg\.score, line 1: .*'Z'"):
        metric_scores_from_files([("x.seg.score", b"Z\t0.5\n")], study)
