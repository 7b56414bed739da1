"""Error-free detection per system set (issue 41: "per system set and domain"): human translations out
and in side by side (:func:`bleu_core.evaluation.error_free.error_free_by_system_set`), in ``meta``'s text,
JSON and LaTeX."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bleu_core.cli import main
from bleu_core.evaluation.error_free import (
    detection_system_sets,
    error_free_by_system_set,
    error_free_detection,
    set_label,
)
from bleu_core.study.model import Criterion, Rating, Segment, Study

WMT21 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt21-newstest2021-mqm-da"


class _Table:
    def __init__(self, systems: tuple[str, ...], segment: np.ndarray) -> None:
        self.systems, self._segment = systems, segment

    def oriented_segment(self) -> np.ndarray:
        return self._segment


def _study() -> Study:
    segments = (
        Segment("1", domain="news"),
        Segment("2", domain="news"),
        Segment("3", domain="talk"),
    )
    texts = {name: ["a", "b", "c"] for name in ("A", "B", "H")}
    # MQM 0 = error-free; H (the human translation) is error-free everywhere, A on segment 1, B nowhere
    scores = {"A": (0, -5, -1), "B": (-2, -1, -3), "H": (0, 0, 0)}
    ratings = tuple(
        Rating(s, seg, "r1", None, "mqm", float(v))
        for s, row in scores.items()
        for seg, v in zip("123", row, strict=True)
    )
    return Study("toy", segments, {"ref": ["a", "b", "c"]}, texts,
                 criteria={"mqm": Criterion("mqm", scale=(-25, 0))}, ratings=ratings,
                 human_systems=frozenset({"H"}))  # fmt: skip


def test_human_translations_out_and_in_are_two_sets_each_as_detection_on_its_systems() -> None:
    study = _study()
    metric = np.array([[5.0, 1.0, 2.0], [3.0, 4.0, 0.0], [6.0, 6.0, 6.0]])
    tables = {"M": _Table(("A", "B", "H"), metric)}
    _, by_set, _ = error_free_by_system_set(study, tables, ["A", "B", "H"])
    assert [found.systems for found, _ in by_set] == [("A", "B"), ("A", "B", "H")]
    assert [set_label(found) for found, _ in by_set] == [
        "2 systems, human translations out",
        "3 systems, human translations in",
    ]
    for (
        found,
        rows,
    ) in by_set:  # each set: the detection on its own systems, over all and per domain
        _, alone, _ = error_free_detection(study, tables, found.systems)
        assert [r.to_dict(False) for r in rows] == [r.to_dict(False) for r in alone]  # NaN: None
    out, with_humans = (dict((r.group, r.curve) for r in rows) for _, rows in by_set)
    assert out["all"].n == 6 and with_humans["all"].n == 9
    assert out["all"].chance == 1 / 6 and with_humans["all"].chance == 4 / 9  # H: 3 error-free


def test_without_a_human_translation_there_is_one_set() -> None:
    study = _study()
    sets = detection_system_sets(study, ["A", "B"])
    assert [(s.systems, s.human_included) for s in sets] == [(("A", "B"), False)]
    plain = Study("x", (Segment("1"),), {"ref": ["a"]}, {"A": ["a"], "B": ["b"]})
    assert [set_label(s) for s in detection_system_sets(plain, ["A", "B"])] == ["2 systems"]


@pytest.mark.skipif(not WMT21.is_dir(), reason="needs ../shared/data/wmt21-newstest2021-mqm-da")
def test_meta_shows_each_system_set_in_text_json_and_latex(capsys) -> None:
    base = ["meta", str(WMT21), "--pair", "en-de", "--include-human", "--statistics", "none"]
    base += ["--n-resamples", "20"]
    assert main([*base, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)["error_free"]
    labels = [s["label"] for s in data["system_sets"]]
    assert len(labels) == 2 and labels[0].endswith("out") and labels[1].endswith("in")
    humans = set(data["human_translations"])
    assert humans and not humans & set(data["system_sets"][0]["systems"])
    assert humans <= set(data["system_sets"][1]["systems"])
    pairs = [(r["metric"], r["group"], r["system_set"]) for r in data["rows"]]
    assert pairs[:2] == [("BLEU", "all", labels[0]), ("BLEU", "all", labels[1])]  # side by side
    by = {(r["metric"], r["system_set"]): r for r in data["rows"] if r["group"] == "all"}
    assert by["BLEU", labels[0]]["n"] < by["BLEU", labels[1]]["n"]
    assert main(base) == 0
    text = capsys.readouterr().out
    assert f"BLEU    all    {labels[0]}" in text and f"BLEU    all    {labels[1]}" in text
    latex = [*base[:-4], "--statistics", "pearson", "--n-resamples", "20", "--latex"]
    assert main(latex) == 0
    assert "Metric & Group & Systems & AP" in capsys.readouterr().out
