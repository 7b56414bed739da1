"""Pearmut's files read as human scores (``bleu_core/study/formats/pearmut.py``, ``pearmut_study.py``).

Synthetic fixtures, each golden value worked out by hand from Pearmut 1.1.6's rules (its ``utils.ts``
``contentToCharSpans``: ``data-i`` is the JavaScript (UTF-16) offset in the raw text, a line break keeps its
index; special token k at ``tgt.length + k``; ``utils.get_active_db_log``: a ``__RESET__`` line voids the
user's earlier entries), and the real run in ``shared/data/pearmut-1.1.6-esa-enja`` (skipped without it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_core.errors import InputError
from bleu_core.io.members import open_tree
from bleu_core.study.formats.pearmut import from_pearmut, read_pearmut, to_pearmut, utf16_starts
from bleu_core.study.formats.pearmut_study import (
    PearmutFiles,
    attach_pearmut,
    pearmut_files,
    pearmut_study,
)
from bleu_core.study.loading import load_study
from bleu_core.study.model import Segment, Study

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "pearmut-1.1.6-esa-enja"
# "シソ" on the second line: characters 0-3 "ab😀c", 4 the line break, 5-6 "シソ"; in UTF-16 units (😀 takes
# two) a0 b1 😀2-3 c4 \n5 シ6 ソ7, so Pearmut's [missing] is 8 and [instructions fault] 9
TWO_LINES = "ab😀c\nシソ"
TOKENS = ("[missing]", "[instructions fault]", "[untranslated]")


def entry(
    user: str, item_i: object, answers: dict, *, tgt: dict | None = None, **extra: object
) -> str:
    item = {"item_id": "en-ja_#_news_#_doc7_#_2", "src": "ab c\nshiso", "ref": "ab c\nシソ",
            "tgt": tgt or {"A": TWO_LINES, "B": "ok"}}  # fmt: skip
    return json.dumps({"annotation": [answers], "item": [item], "user_id": user, "item_i": item_i, **extra}, ensure_ascii=False)  # fmt: skip


def answer(score: int, *spans: tuple[int, int, str]) -> dict:
    return {"score": score, "error_spans": [{"start_i": a, "end_i": b, "category": None, "severity": s} for a, b, s in spans]}  # fmt: skip


def test_offsets_are_utf16_units_with_line_breaks_counted() -> None:
    # a0 b1 😀2-3 c4 \n5 シ6 ソ7, end 8
    assert utf16_starts(TWO_LINES) == [0, 1, 2, 4, 5, 6, 7, 8]
    assert from_pearmut(6, 7, TWO_LINES, TOKENS) == (5, 7, "Error")  # "シソ", not "ソ" and beyond
    assert from_pearmut(2, 3, TWO_LINES, TOKENS) == (2, 3, "Error")  # the emoji alone
    last = from_pearmut(7, 7, TWO_LINES, TOKENS)
    assert last == (6, 7, "Error")  # the last character ("ソ"), not [missing]
    assert [from_pearmut(8 + k, 8 + k, TWO_LINES, TOKENS)[2] for k in range(3)] == ["Omission", "Instructions fault", "[untranslated]"]  # fmt: skip
    for start, end in ((0, 7), (2, 3), (5, 7), (3, 4)):
        a, b = to_pearmut(start, end, TWO_LINES)
        assert from_pearmut(a, b, TWO_LINES, TOKENS)[:2] == (start, end)


def test_a_two_line_item_with_emoji_and_both_special_tokens() -> None:
    # A: "シソ" (units 6-7 → characters 5-7), the emoji (2-3 → 2-3), [missing] at 8, [instructions fault] at 9
    line = entry("u1", 0, {"A": answer(40, (6, 7, "major"), (2, 3, "minor"), (8, 8, "minor"), (9, 9, "major")), "B": answer(90)})  # fmt: skip
    got = read_pearmut([("log.jsonl", line + "\n")])
    by = {a.system: a for a in got.answers}
    scores = {s: a.scores for s, a in by.items()}
    assert scores == {"A": {"esa": 40.0}, "B": {"esa": 90.0}}  # contrastive: one rating per system
    spans = [(s.start, s.end, s.category, s.severity) for s in by["A"].spans]
    assert spans == [(5, 7, "Error", "Major"), (2, 3, "Error", "Minor"), (7, 7, "Omission", "Minor"), (7, 7, "Instructions fault", "Major")]  # fmt: skip
    assert TWO_LINES[5:7] == "シソ"
    a = by["A"]
    assert (a.domain, a.document, a.paragraph, a.item_id) == (
        "news",
        "news_#_doc7",
        2,
        "en-ja_#_news_#_doc7_#_2",
    )


def test_reset_resubmission_tutorial_attention_and_a_bad_line() -> None:
    lines = [
        entry("u1", 0, {"A": answer(10), "B": answer(11)}),  # voided by the reset (2 ratings)
        json.dumps({"user_id": "u1", "annotation": "__RESET__"}),
        entry("u1", 0, {"A": answer(20), "B": answer(21)}),
        entry(
            "u2", 0, {"A": answer(30), "B": answer(31)}
        ),  # replaced by u2's later submission (2 ratings)
        "{oops",  # line 5: not JSON
        entry("u2", 0, {"A": answer(35), "B": answer(36)}),
        entry("u2", "welcome_0", {"A": answer(50)}, validations=[False]),
        entry("u2", "random_0", {"A": answer(5)}, validations=[False]),
        entry("u1", "welcome_0", {"A": answer(50)}, validations=[True]),
        entry(
            "u1", 1, {"A": answer(70, (20, 20, "major"))}
        ),  # line 10: a span outside "ab😀c\nシソ"
    ]
    got = read_pearmut([("log.jsonl", "\n".join(lines) + "\n")])
    assert sorted((a.user, a.system, a.scores["esa"]) for a in got.answers) == [("u1", "A", 20.0), ("u1", "B", 21.0)]  # fmt: skip
    assert (got.voided, got.replaced) == (2, 2)
    assert got.left_out == {"tutorial": 2, "attention": 1}
    # u2 failed 2 of 2 checks (Pearmut's default threshold 0 allows none): left out; u1 passed 1 of 1
    assert got.excluded == ("u2",)
    messages = [w.message for w in got.warnings()]
    assert any(m.startswith("log.jsonl, line 5: not valid JSON") for m in messages)
    assert any(m.startswith("log.jsonl, line 10: system 'A' of segment 'en-ja_#_news_#_doc7_#_2': span 20-20 lies outside") for m in messages)  # fmt: skip
    assert "judge 'u2' failed 2 of 2 checks: left out" in messages[-1]
    kept = read_pearmut([("log.jsonl", "\n".join(lines))], keep=["u2"])
    assert sorted(a.scores["esa"] for a in kept.answers if a.user == "u2") == [35.0, 36.0]
    assert read_pearmut([("log.jsonl", "\n".join(lines))], validation_threshold=0.5).excluded == (
        "u2",
    )
    assert read_pearmut([("log.jsonl", "\n".join(lines))], validation_threshold=2).excluded == ()


def test_the_download_form_and_a_study_from_it() -> None:
    download = {
        "c1": [json.loads(entry("u1", 0, {"A": answer(40, (6, 7, "major")), "B": answer(90)}))]
    }
    files = PearmutFiles((), (("annotations.json", json.dumps(download, ensure_ascii=False)),))
    result = pearmut_study(files)
    study = result.study
    assert (study.segment_ids, sorted(study.systems), study.metadata["pair"]) == (["en-ja_#_news_#_doc7_#_2"], ["A", "B"], "en-ja")  # fmt: skip
    assert study.segments[0].doc_id == "news_#_doc7" and study.segments[0].domain == "news"
    (span,) = study.error_spans
    assert study.systems["A"][0][span.start : span.end] == "シソ"


def test_attach_needs_the_text_pearmut_showed() -> None:
    study = Study("s", (Segment("2"),), {"ref": ["x"]}, {"A": [TWO_LINES], "B": ["not ok"]})
    got = read_pearmut([("log.jsonl", entry("u1", 0, {"A": answer(40), "B": answer(90)}))])
    result = attach_pearmut(study, got)  # segment "2" from the id's last part "_#_2"
    assert [(r.system, r.segment_id, r.score) for r in result.study.ratings] == [("A", "2", 40.0)]
    assert any(
        "the study's translation is not the text Pearmut showed" in w.message
        for w in result.warnings
    )


@pytest.mark.skipif(
    not DATA.exists(), reason="shared/data/pearmut-1.1.6-esa-enja is not beside the clone"
)
def test_the_real_run() -> None:
    log = read_pearmut(
        [("annotations.jsonl", (DATA / "annotations.jsonl").read_text(encoding="utf-8"))]
    )
    download = read_pearmut(
        [("d.json", (DATA / "download-annotations.json").read_text(encoding="utf-8"))]
    )
    # 24 lines: 2 of ann-a voided by the reset (line 3) = 6 ratings; ann-b's item 3 submitted twice
    # (lines 17 and 24) = 3 replaced; 20 final submissions x 3 systems = 60 ratings
    assert (len(log.answers), log.voided, log.replaced) == (60, 6, 3)
    assert {(a.user, a.item_id, a.system): a.scores for a in log.answers} == {(a.user, a.item_id, a.system): a.scores for a in download.answers}  # fmt: skip
    by = {(a.user, a.item_id, a.system): a for a in log.answers}
    assert by[("ann-b", "en-ja_#_155", "GPT-4")].scores == {
        "esa": 17.0
    }  # line 24's score, not line 17's 69
    multi = by[("ann-a", "synthetic_multiline", "GPT-4")]  # line 13: spans 13-14 and 36-36 major
    assert [multi.tgt[s.start : s.end] for s in multi.spans] == [
        "シソ",
        "に",
    ]  # the last character, not [missing]
    fault = by[
        ("ann-b", "en-ja_#_1", "Claude-3.5")
    ]  # line 14: 26-26 on a 25-character text = token 1
    assert [s.category for s in fault.spans] == ["Error", "Instructions fault"]
    with open_tree(DATA) as tree:
        files = pearmut_files(tree)
    assert files is not None and [n.rsplit("/", 1)[-1] for n, _ in files.logs] == [
        "download-annotations.json"
    ]
    result = load_study(DATA)
    assert (result.study.n_segments, len(result.study.ratings)) == (10, 60)


def test_the_esa_option_reads_a_pearmut_log_and_still_reads_appraise(tmp_path: Path) -> None:
    from bleu_core.cli.options import with_esa_files
    from bleu_core.study.model import LoadResult

    study = Study(
        "s", (Segment("en-ja_#_news_#_doc7_#_2"),), {"ref": ["x"]}, {"A": [TWO_LINES], "B": ["ok"]}
    )
    (tmp_path / "log.jsonl").write_text(
        entry("u1", 0, {"A": answer(40, (6, 7, "major")), "B": answer(90)}) + "\n"
    )
    got = with_esa_files(LoadResult(study, ()), [str(tmp_path / "log.jsonl")]).study
    assert sorted((r.system, r.rater, r.score) for r in got.ratings) == [
        ("A", "u1", 40.0),
        ("B", "u1", 90.0),
    ]
    assert [TWO_LINES[s.start : s.end] for s in got.error_spans] == ["シソ"]
    # an Appraise row (12 columns) still goes to the ESA CSV reader: its message is that reader's
    (tmp_path / "esa.csv").write_text("r1,A,1,TGT,eng,jpn,70,d,False,[],0,1\n")
    with pytest.raises(InputError, match=r"line 1 is beyond the en-ja test set"):
        with_esa_files(LoadResult(study, ()), [str(tmp_path / "esa.csv")], pair="en-ja")


@pytest.mark.skipif(
    not DATA.exists(), reason="shared/data/pearmut-1.1.6-esa-enja is not beside the clone"
)
def test_the_real_download_added_to_the_study_of_its_texts() -> None:
    from dataclasses import replace

    from bleu_core.cli.options import with_esa_files
    from bleu_core.study.model import LoadResult

    full = load_study(DATA).study
    bare = replace(full, ratings=(), error_spans=(), criteria={})
    got = with_esa_files(LoadResult(bare, ()), [str(DATA / "download-annotations.json")]).study
    assert set(got.ratings) == set(full.ratings) and len(got.ratings) == 60
    assert set(got.error_spans) == set(full.error_spans) and len(got.error_spans) == len(
        full.error_spans
    )


def test_keep_judge_on_the_command_line(tmp_path: Path) -> None:
    # u2 failed their one tutorial check: left out of `study --esa`, kept with --keep-judge u2
    import subprocess
    import sys

    from bleu_core.study.storage import save_study

    study = Study(
        "s", (Segment("en-ja_#_news_#_doc7_#_2"),), {"ref": ["x"]}, {"A": [TWO_LINES], "B": ["ok"]}
    )
    save_study(study, tmp_path / "s.json")
    lines = [entry("u2", "welcome_0", {"A": answer(50)}, validations=[False]), entry("u2", 0, {"A": answer(40), "B": answer(90)})]  # fmt: skip
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "bleu_core", "study", str(tmp_path / "s.json"), "--esa", str(tmp_path / "log.jsonl"), "--format", "json"]  # fmt: skip
    left = subprocess.run(command, capture_output=True, text=True, timeout=300)
    kept = subprocess.run(
        command + ["--keep-judge", "u2"], capture_output=True, text=True, timeout=300
    )
    left_out, kept_in = json.loads(left.stdout), json.loads(kept.stdout)
    assert "judge 'u2' failed 1 of 1 checks: left out" in left_out["warnings"][0]["message"]
    assert left_out["criteria"] == [] and [c["name"] for c in kept_in["criteria"]] == ["esa"]
    assert "judge 'u2' failed 1 of 1 checks: kept as asked" in kept_in["warnings"][0]["message"]


def test_keep_judge_on_a_pearmut_study(tmp_path: Path) -> None:
    import subprocess
    import sys

    lines = [entry("u2", "welcome_0", {"A": answer(50)}, validations=[False]), entry("u2", 0, {"A": answer(40, (6, 7, "major")), "B": answer(90)})]  # fmt: skip
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "bleu_core", "study", str(tmp_path / "log.jsonl"), "--format", "json"]  # fmt: skip
    left = json.loads(subprocess.run(command, capture_output=True, text=True, timeout=300).stdout)
    kept = json.loads(subprocess.run(command + ["--keep-judge", "u2", "--keep-judge", "zoe"], capture_output=True, text=True, timeout=300).stdout)  # fmt: skip
    assert left["criteria"] == [] and [c["name"] for c in kept["criteria"]] == ["esa"]
    messages = [w["message"] for w in kept["warnings"]]
    assert "--keep-judge zoe: no such judge was left out of this study" in messages
    assert "kept u2 as asked: 2 rating(s) back" in messages
    study = pearmut_study(PearmutFiles((), (("log.jsonl", "\n".join(lines)),))).study
    from bleu_core.study.formats.pearmut_study import keep_pearmut_judges

    back = keep_pearmut_judges(study, ["u2"]).study
    assert [back.systems["A"][0][s.start : s.end] for s in back.error_spans] == ["シソ"]


def test_two_campaigns_of_one_download_are_counted_apart() -> None:
    # u1 is reset in c1 only: their c2 rating stays; the same item in both campaigns is no resubmission
    download = {
        "c1": [
            json.loads(entry("u1", 0, {"A": answer(10)})),
            {"user_id": "u1", "annotation": "__RESET__"},
        ],
        "c2": [json.loads(entry("u1", 0, {"A": answer(20)}))],
    }
    got = read_pearmut([("annotations.json", json.dumps(download, ensure_ascii=False))])
    assert [(a.campaign, a.scores["esa"]) for a in got.answers] == [("c2", 20.0)]
    assert (got.voided, got.replaced) == (1, 0)


WMT24 = DATA.parent / "wmt24-general-esa"


@pytest.mark.skipif(
    not (DATA.exists() and WMT24.exists()), reason="shared/data is not beside the clone"
)
def test_the_real_download_on_the_wmt24_release_it_was_made_from() -> None:
    # 9 of the 10 items are WMT24 en-ja lines (en-ja_#_L is segment L, the texts equal): 9 x 3 systems x 2
    # annotators = 54 ratings attached; the synthetic two-line item is not in the release (6 warnings)
    from bleu_core.cli.options import with_esa_files

    release = load_study(WMT24, pair="en-ja")
    got = with_esa_files(release, [str(DATA / "download-annotations.json")])
    added = [r for r in got.study.ratings if r.rater in ("ann-a", "ann-b")]
    assert len(added) == 54 and {r.segment_id for r in added} >= {"1", "6", "11"}
    missing = [w for w in got.warnings if "its segment is not in the study" in w.message]
    assert len(missing) == 6 and all("synthetic_multiline" in w.message for w in missing)
    span = next(s for s in got.study.error_spans if (s.rater, s.segment_id, s.system) == ("ann-a", "1", "GPT-4"))  # fmt: skip
    assert (
        got.study.systems["GPT-4"][got.study.segment_ids.index("1")][span.start : span.end]
        == "シソ"
    )


def test_a_span_pearmut_cannot_show_is_refused() -> None:
    with pytest.raises(ValueError, match=r"span 3-3 \(Error\) covers no character of the text"):
        to_pearmut(3, 3, TWO_LINES)
    with pytest.raises(
        ValueError, match=r"is none of the campaign's special tokens \(\[missing\]\)"
    ):
        to_pearmut(7, 7, TWO_LINES, "Instructions fault", ("[missing]",))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[1]", "log.jsonl, line 1: not a JSON object; this entry is not read"),
        ('{"user_id": "u"}', "log.jsonl, line 1: missing 'item_i', 'item', 'annotation'"),
        (
            '{"user_id": "u", "item_i": 0, "item": [], "annotation": [{}]}',
            "'item' and 'annotation' must be lists of the same length",
        ),  # fmt: skip
        (
            entry("u", 0, {"Z": answer(5)}),
            "system 'Z' of segment 'en-ja_#_news_#_doc7_#_2': the item has no translation of this system",
        ),  # fmt: skip
        (entry("u", 0, {"A": {"score": "high"}}), "score 'high' is not a number"),
        (entry("u", 0, {"A": {"score": 5, "error_spans": {"x": 1}}}), "error_spans is not a list"),
        (
            entry("u", 0, {"A": {"score": 5, "error_spans": [{"start_i": 1}]}}),
            "an error span needs start_i and end_i",
        ),  # fmt: skip
        (
            entry("u", 0, {"A": {"score": 5, "error_spans": [{"start_i": 1, "end_i": 1}]}}),
            "error span 1-1 has no severity",
        ),  # fmt: skip
        (
            entry("u", 0, {"A": answer(5, ("1", 2, "minor"))}),
            "span offsets '1'-2 are not whole numbers",
        ),
    ],
)
def test_each_bad_entry_is_one_warning_naming_its_line(line: str, message: str) -> None:
    good = entry("u2", 0, {"B": answer(90)})
    got = read_pearmut([("log.jsonl", line + "\n" + good + "\n")])
    assert [a.user for a in got.answers] == ["u2"]  # the rest is read
    (problem,) = [w.message for w in got.problems]
    assert problem.startswith("log.jsonl, line 1: ") and message in problem
