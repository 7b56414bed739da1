"""ESA error spans in the long table's ``spans`` column: the same error spans, ratings and
error-agreement tables as the same annotations read from Appraise's ESA CSV, and one clear error for bad
spans. All texts and annotations are invented for the tests."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.cli import main
from bleu_core.errors import InputError
from bleu_core.study import load_study, save_study
from bleu_core.study.error_agreement import error_agreement
from bleu_core.study.formats.esa import ESA_SEVERITIES, attach_esa
from bleu_core.study.formats.long_table import load_long_table
from bleu_core.study.model import Study

COLUMNS = ["segment_id", "system", "role", "text", "rater", "criterion", "score", "spans"]
REFERENCE = ["The dog barks.", "It is raining today.", "She reads a long book."]
TEXTS = {
    "A": ["The dog is barking.", "Today it rains.", "She is reading a long book."],
    "B": ["A dog barks loud.", "It rains today, yes.", "She read the book long."],
    "H": ["The dog barks loudly.", "It is raining today.", "She is reading a thick book."],
}
MINOR_4_7 = {"start_i": 4, "end_i": 7, "severity": "minor"}
#: (rater, system, segment index, score, spans): the invented annotations both files hold.
ANNOTATIONS: list[tuple[str, str, int, int, list[dict[str, Any]]]] = [
    ("r1", "A", 0, 70, [MINOR_4_7, {"start_i": 8, "end_i": 18, "severity": "major"}]),
    ("r1", "A", 1, 85, []),
    ("r1", "B", 0, 40, [{"start_i": 0, "end_i": 5, "severity": "major", "error_type": "Style"}]),
    ("r1", "B", 2, 30, [{"start_i": "missing", "end_i": "missing", "severity": "major"}]),
    ("r2", "A", 0, 65, [MINOR_4_7]),
    ("r2", "B", 1, 55, [{"start_i": 15, "end_i": 19, "severity": "undecided"}]),
    ("r2", "H", 2, 90, [{"start_i": 17, "end_i": 22, "severity": "minor"}]),
    ("r2", "A", 2, 80, []),
]


def _csv(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def _role(system: str) -> str:
    return {"ref-A": "reference", "H": "human"}.get(system, "system")


def _text_rows() -> list[list[str]]:
    """One row per (segment, translation) with its text and no rating."""
    rows = [
        [str(i + 1), "ref-A", "reference", text, "", "", "", ""] for i, text in enumerate(REFERENCE)
    ]
    for system, texts in TEXTS.items():
        rows += [
            [str(i + 1), system, _role(system), t, "", "", "", ""] for i, t in enumerate(texts)
        ]
    return rows


def long_table(annotations: list[tuple[str, str, int, int, list[dict[str, Any]]]]) -> str:
    """The long table of the texts with ``annotations`` as rating rows (criterion ``esa``, ``spans``)."""
    ratings = [
        [str(i + 1), system, _role(system), "", rater, "esa", str(score), json.dumps(spans)]
        for rater, system, i, score, spans in annotations
    ]
    return _csv([COLUMNS, *_text_rows(), *ratings])


def esa_csv() -> str:
    """The same annotations as Appraise's header-less ESA export (line = 0-based segment index)."""
    return _csv(
        [
            [
                rater,
                system,
                str(i),
                "TGT",
                "eng",
                "deu",
                str(score),
                "doc1",
                "False",
                json.dumps(spans),
            ]
            + ["1724108643.0", "1724108650.0"]
            for rater, system, i, score, spans in ANNOTATIONS
        ]
    )


def from_esa_csv() -> Study:
    """The texts as a long table, with the ESA CSV attached as for ``--esa``."""
    plain = load_long_table(long_table([]), "texts.csv").study
    plain = replace(plain, metadata={**plain.metadata, "pair": "en-de"})
    return attach_esa(plain, esa_csv(), "esa.csv").study


def test_spans_column_gives_the_esa_files_spans_and_ratings() -> None:
    study = load_long_table(long_table(ANNOTATIONS), "study.csv").study
    expected = from_esa_csv()
    assert study.error_spans == expected.error_spans
    assert study.ratings == expected.ratings
    assert study.criteria["esa"] == expected.criteria["esa"]
    assert [(s.rater, s.start, s.end, s.category, s.severity) for s in study.error_spans[:4]] == [
        ("r1", 4, 7, "Error", "Minor"),
        ("r1", 8, 18, "Error", "Major"),
        ("r1", 0, 5, "Style", "Major"),
        ("r1", 23, 23, "Omission", "Major"),  # "missing": empty, at the end of the text
    ]
    assert {s.severity for s in study.error_spans} == {"Minor", "Major", "Undecided"}


@pytest.mark.parametrize(
    "options", [{}, {"max_order": 2}, {"severities": ["Major"]}, {"raters": ["r2"]}]
)
def test_error_agreement_counts_are_the_esa_files(options: dict[str, Any]) -> None:
    got = error_agreement(load_long_table(long_table(ANNOTATIONS), "study.csv").study, **options)
    expected = error_agreement(from_esa_csv(), **options)
    assert set(got.systems) == set(expected.systems) == {"A", "B", "H"}
    for name, agreement in expected.systems.items():
        mine = got.systems[name]
        assert mine.counts == agreement.counts
        assert mine.by_severity == agreement.by_severity
        assert mine.by_category == agreement.by_category
    assert sum(a.counts.matched_in_error for a in got.systems.values()) > 0


def test_spans_command_reads_the_spans_column(tmp_path: Path, capsys) -> None:
    table = tmp_path / "study.csv"
    table.write_text(long_table(ANNOTATIONS), encoding="utf-8")
    saved = tmp_path / "esa.json"
    save_study(from_esa_csv(), saved)
    assert load_study(table).study.error_spans == from_esa_csv().error_spans
    outputs = []
    for path in (table, saved):
        assert main(["spans", str(path), "--format", "json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out)["overall"])
    assert outputs[0] == outputs[1]
    assert set(outputs[0]["by_severity"]) == {"Minor", "Major", "Undecided"}


def test_spans_repeated_on_a_raters_other_rows_count_once() -> None:
    fluency = [["1", "A", "", "", "r1", "fluency", "4", json.dumps([MINOR_4_7])]]
    empty = [["1", "A", "", "", "r1", "adequacy", "3", ""]]  # an empty cell says nothing
    rows = [COLUMNS, *_text_rows(), ["1", "A", "", "", "r1", "esa", "70", json.dumps([MINOR_4_7])]]
    study = load_long_table(_csv(rows + fluency + empty), "study.csv").study
    assert [(s.rater, s.start, s.end) for s in study.error_spans] == [("r1", 4, 7)]


def test_documented_spans_example_loads(tmp_path: Path) -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    section = docs.split("## 2. Long table", 1)[1].split("\n## ", 1)[0]
    block = section.split("```")[3].split("\n", 1)[1]  # the second example: ESA with spans
    path = tmp_path / "esa.csv"
    path.write_text(block, encoding="utf-8")
    study = load_study(path).study
    assert study.system_scores("esa") == {"google": 60.0}
    assert [(s.rater, s.start, s.end, s.category, s.severity) for s in study.error_spans] == [
        ("r1", 8, 18, "Error", "Major"),  # "is barking"
        ("r2", 4, 7, "Error", "Minor"),
        ("r2", 19, 19, "Omission", "Minor"),
    ]


def _bad(spans: str, *, system: str = "A", segment: str = "1", rater: str = "r1") -> str:
    """The long table with one more row (line 14): ``rater``'s ESA rating of ``system`` with ``spans``."""
    score = "" if system == "ref-A" else "50"
    row = [segment, system, _role(system), "", rater, "esa" if score else "", score, spans]
    return _csv([COLUMNS, *_text_rows(), row])


def _span(start: Any, end: Any, severity: str | None = "minor") -> str:
    item = {"start_i": start, "end_i": end}
    return json.dumps([item if severity is None else {**item, "severity": severity}])


BAD_SPANS = [
    ('[{"start_i": 0,', r"the spans are not valid JSON \(Expecting property name"),
    ("[" * 5000 + "]" * 5000, r"the spans are JSON nested too deeply to read \(over Python's recursion limit\)"),
    ('{"start_i": 0}', r"the spans must be a JSON list of objects with start_i, end_i and severity"),
    (_span(0, 99), r"span 0-99 lies outside the translation, which has 19 characters"),
    (_span(-1, 3), r"span -1-3 lies outside the translation, which has 19 characters"),
    (_span(5, 3), r"span 5-3 ends before it starts \(end_i 3 < start_i 5\)"),
    (_span(0, 3, "critical"), r"unknown severity 'critical'; ESA severities are minor, major, undecided"),
    (_span(0, 3, None), r"a span has no severity"),
    (_span("2", 3), r"span start_i is '2'; character offsets must be whole numbers"),
    (_span(0, 2.5), r"span end_i is 2\.5; character offsets must be whole numbers"),
]  # fmt: skip


@pytest.mark.parametrize(("spans", "message"), BAD_SPANS)
def test_bad_spans_are_one_clear_error(spans: str, message: str) -> None:
    with pytest.raises(InputError, match=r"^study\.csv, line 14, column spans: " + message):
        load_long_table(_bad(spans), "study.csv")


BAD_PLACES = [
    ({"system": "ref-A"}, r"spans on the reference 'ref-A': a reference is not rated; give it role 'human'"),
    ({"segment": ""}, r"spans without a segment_id; spans mark a segment's translation"),
    ({"system": "C"}, r"spans, but 'C' has no text for segment '1'; add the translation"),
]  # fmt: skip


@pytest.mark.parametrize(("where", "message"), BAD_PLACES)
def test_spans_need_a_rated_translation(where: dict[str, str], message: str) -> None:
    with pytest.raises(InputError, match=r"^study\.csv, line 14, column spans: " + message):
        load_long_table(_bad(_span(0, 3), **where), "study.csv")


@pytest.mark.parametrize(
    ("rater", "who"), [("r1", "rater 'r1'"), ("", "the unnamed rater")], ids=["named", "unnamed"]
)
def test_a_rater_gives_one_set_of_spans_per_translation(rater: str, who: str) -> None:
    first = ["1", "A", "", "", rater, "esa", "50", _span(0, 3)]
    again = ["1", "A", "", "", rater, "fluency", "4", _span(0, 4)]
    text = _csv([COLUMNS, *_text_rows(), first, again])
    message = rf"^study\.csv, line 15, column spans: {who} marks other spans in 'A''s segment '1' than on line 14"
    with pytest.raises(InputError, match=message):
        load_long_table(text, "study.csv")


offsets = st.tuples(st.integers(0, 10), st.integers(0, 10)).map(sorted)


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet="ab ,\"'猫ä\t", min_size=10, max_size=24).filter(str.strip),
    spans=st.lists(st.tuples(offsets, st.sampled_from(ESA_SEVERITIES)), max_size=4),
    omission=st.booleans(),
)
def test_spans_inside_any_text_round_trip(text, spans, omission) -> None:
    items = [{"start_i": a, "end_i": b, "severity": sev} for (a, b), sev in spans]
    if omission:
        items.append({"start_i": "missing", "end_i": "missing", "severity": "major"})
    rows = [
        COLUMNS,
        ["1", "ref-A", "reference", "a reference", "", "", "", ""],
        ["1", "A", "system", text, "r1", "esa", "50", json.dumps(items)],
    ]
    study = load_long_table(_csv(rows), "study.csv").study
    assert study.systems["A"] == [text]
    got = [(s.start, s.end, s.severity) for s in study.error_spans]
    expected = [(a, b, sev.capitalize()) for (a, b), sev in spans]
    assert got == expected + ([(len(text), len(text), "Major")] if omission else [])
    for span, ((a, b), _) in zip(study.error_spans, spans, strict=False):
        assert text[span.start : span.end] == text[a:b]
