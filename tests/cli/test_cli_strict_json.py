"""Every ``--format json`` of the command line is strict JSON: an undefined number is ``null``,
never ``NaN`` or ``Infinity`` (which JavaScript, jq and RFC 8259 reject)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bleu_core.cli import main
from bleu_core.cli.strict_json import dumps, strict
from bleu_core.study import Criterion, Rating, Segment, Study
from bleu_core.study.storage import save_study


def refuse(name: str) -> None:
    raise ValueError(f"not strict JSON: {name}")


def strict_loads(text: str):
    """``json.loads`` that fails on NaN, Infinity and -Infinity."""
    return json.loads(text, parse_constant=refuse)


def test_the_helper_writes_null_for_every_non_finite_number():
    value = {
        "r": float("nan"),
        "ci": (np.float64(np.inf), -np.inf),
        "n": np.int64(3),
        "a": np.array([1.0, np.nan]),
    }
    with pytest.raises(ValueError, match="not strict JSON: NaN"):
        strict_loads(json.dumps(value["r"]))  # what json.dumps alone writes
    assert strict_loads(dumps(value)) == {"r": None, "ci": [None, None], "n": 3, "a": [1.0, None]}
    assert strict(("x", [float("nan")])) == ["x", [None]]


def flat_study() -> Study:
    """3 systems × 4 segments, every human score 50: every correlation with it is undefined."""
    refs = ["the cat sat on the mat", "a dog ran far", "it was a sunny day", "we went home"]
    systems = {
        "A": refs,
        "B": ["the cat sat", "a dog ran", "it was sunny", "we home"],
        "C": ["cat", "dog", "day", "home"],
    }
    ratings = tuple(Rating(s, str(i), None, None, "da", 50.0) for s in systems for i in range(4))
    return Study(
        name="flat",
        segments=tuple(Segment(str(i)) for i in range(4)),
        references={"ref": refs},
        systems=systems,
        criteria={"da": Criterion("da", scale=(0.0, 100.0))},
        ratings=ratings,
    )


@pytest.fixture
def flat_path(tmp_path):
    path = tmp_path / "flat.json"
    save_study(flat_study(), path)
    return path


def run_json(argv, capsys):
    assert main([*argv, "--format", "json"]) == 0
    text = capsys.readouterr().out
    return text, strict_loads(text)


def test_meta_writes_null_for_undefined_correlations(flat_path, capsys):
    text, out = run_json(
        ["meta", str(flat_path), "--n-resamples", "20", "--statistics", "none"], capsys
    )
    assert "NaN" not in text
    pearson = [
        c for c in out["correlations"] if c["method"] == "pearson" and c["level"] == "system"
    ]
    assert pearson[0]["statistic"] is None  # constant human scores: r undefined


def test_meta_rankings_are_strict(flat_path, capsys):
    _, out = run_json(
        ["meta", str(flat_path), "--n-resamples", "20", "--statistics", "pearson"], capsys
    )
    assert out["rankings"][0]["statistic"] == "pearson"


def test_study_summary_is_strict(flat_path, capsys):
    _, out = run_json(["study", str(flat_path)], capsys)
    assert out


def test_significance_is_strict(flat_path, capsys):
    _, out = run_json(["significance", str(flat_path), "--n-resamples", "20"], capsys)
    assert out["bootstrap"]


def test_score_is_strict(tmp_path, capsys):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat sat\nhello there\n", encoding="utf-8")
    hyp.write_text("\nhello\n", encoding="utf-8")  # an empty hypothesis: BLEU 0, ratio 0
    _, out = run_json(["score", "-r", str(ref), "-i", str(hyp), "--sentence-level"], capsys)
    assert len(out) == 2


def test_spans_summary_is_strict(capsys):
    _, out = run_json(["spans", "demo:ted-en-de", "--examples", "1"], capsys)
    assert out
