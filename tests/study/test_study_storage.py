"""Saving a study to one file and loading it back unchanged (Hypothesis round trip) and damaged files."""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_core.errors import InputError, StudyError
from bleu_core.study import (
    Criterion,
    Rating,
    Segment,
    Study,
    load_study,
    read_saved_study,
    save_study,
)
from bleu_core.study.demo import load_demo

# Texts: any Unicode except lone surrogates (not encodable in UTF-8 files) — includes tabs, newlines, quotes.
text = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30)
name = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=8)
finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


@st.composite
def studies(draw: st.DrawFn) -> Study:
    n = draw(st.integers(1, 6))
    ids = draw(st.lists(name, min_size=n, max_size=n, unique=True))
    segments = tuple(Segment(seg, draw(st.none() | name), draw(st.none() | text)) for seg in ids)
    stream_names = draw(st.lists(name, min_size=2, max_size=5, unique=True))
    n_refs = draw(st.integers(1, len(stream_names) - 1))
    references = {
        ref: draw(st.lists(text, min_size=n, max_size=n)) for ref in stream_names[:n_refs]
    }
    systems = {
        system: draw(st.lists(st.none() | st.just("") | text, min_size=n, max_size=n))
        for system in stream_names[n_refs:]
    }
    humans = frozenset(draw(st.lists(st.sampled_from(list(systems)), max_size=2)))
    criteria = {}
    for crit in draw(st.lists(name, max_size=3, unique=True)):
        scale = draw(st.none() | st.tuples(st.just(-10.0), st.just(10.0)))
        criteria[crit] = Criterion(crit, draw(st.booleans()), scale, draw(st.text(max_size=10)))
    ratings = []
    if criteria:
        for _ in range(draw(st.integers(0, 12))):
            crit = draw(st.sampled_from(list(criteria)))
            score = draw(st.floats(-10, 10, allow_nan=False) if criteria[crit].scale else finite)
            ratings.append(
                Rating(
                    draw(st.sampled_from(list(systems))),
                    draw(st.none() | st.sampled_from(ids)),
                    draw(st.none() | name),
                    draw(st.none() | name),
                    crit,
                    score,
                )
            )
    metadata = draw(
        st.dictionaries(
            name,
            st.none() | st.booleans() | st.integers() | finite | text | st.lists(text, max_size=3),
            max_size=3,
        )
    )
    return Study(
        name=draw(name),
        segments=segments,
        references=references,
        systems=systems,
        human_systems=humans,
        criteria=criteria,
        ratings=tuple(ratings),
        source_lang=draw(st.none() | st.sampled_from(["en", "de", "zh"])),
        target_lang=draw(st.none() | st.sampled_from(["en", "de", "zh"])),
        metadata=metadata,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(study=studies(), gz=st.booleans())
def test_save_then_load_gives_back_an_equal_study(study: Study, gz: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("s.study.json.gz" if gz else "s.study.json")
        save_study(study, path)
        loaded = read_saved_study(path)
        assert loaded == study
        assert load_study(path, detect=False).study == study
        # Scores keep their exact float value (including -0.0 and subnormals).
        assert [repr(r.score) for r in loaded.ratings] == [repr(r.score) for r in study.ratings]


def test_demo_round_trip(tmp_path: Path) -> None:
    study = load_demo("ted-zh-en")
    save_study(study, tmp_path / "copy.json")
    assert read_saved_study(tmp_path / "copy.json") == study


def _saved(tmp_path: Path) -> dict:
    path = tmp_path / "p.json"
    save_study(load_demo("paper-examples"), path)
    return json.loads(path.read_text(encoding="utf-8"))


def test_not_a_saved_study(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}', encoding="utf-8")
    with pytest.raises(StudyError, match=r'x\.json: not a saved study \(no "format": "bleu-study"'):
        load_study(path)


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{\n  "format": "bleu-study",\n  oops\n}', encoding="utf-8")
    with pytest.raises(StudyError, match=r"x\.json, line 3, column 3: not valid JSON"):
        load_study(path)


def test_unsupported_version(tmp_path: Path) -> None:
    data = _saved(tmp_path)
    data["version"] = 99
    path = tmp_path / "v.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(StudyError, match="format version 99 is not supported"):
        load_study(path)


def test_damaged_rating_columns(tmp_path: Path) -> None:
    data = _saved(tmp_path)
    data["ratings"] = {
        "systems": ["candidate-1"],
        "raters": [],
        "groups": [],
        "criteria": ["x"],
        "system": [0, 0],
        "segment": [0],
        "rater": [-1],
        "group": [-1],
        "criterion": [0],
        "score": [1.0],
    }
    path = tmp_path / "d.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(StudyError, match=r"d\.json: saved study is damaged .*different lengths"):
        load_study(path)


def test_damaged_gzip(tmp_path: Path) -> None:
    path = tmp_path / "x.json.gz"
    path.write_bytes(gzip.compress(b'{"format": "bleu-study"}')[:-6])
    with pytest.raises(StudyError, match=r"x\.json\.gz: damaged gzip file"):
        load_study(path)


def test_saved_study_over_the_cap_once_decompressed(tmp_path: Path) -> None:
    path = tmp_path / "big.json.gz"
    save_study(load_demo("ted-en-de"), path)
    with pytest.raises(
        InputError, match=r"big\.json\.gz \(decompressed\): file is .* over the size cap"
    ):
        read_saved_study(path, max_bytes=path.stat().st_size + 10)


def test_metadata_that_is_not_json(tmp_path: Path) -> None:
    study = load_demo("paper-examples")
    study.metadata = {"when": object()}
    with pytest.raises(
        StudyError, match="cannot save this study as JSON.*metadata must hold only JSON"
    ):
        save_study(study, tmp_path / "x.json")
