"""A catalog of bad inputs: every one answered with our own error and a clear message.

Each case names the input and the exact outcome: for the command line, exit code 2 and a message
(``cli.main(argv)`` run in-process, stderr searched with a regex); for the Python API, the exception type
and a ``match`` regex. No case may end in a traceback of a Python built-in error, and no case may be
accepted silently. A Hypothesis fuzz test at the end feeds generated files to every loader and checks that
only :class:`~bleu_core.errors.BleuStudyError` subclasses ever come out.
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import re
import stat
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_core import cli, limits
from bleu_core.errors import (
    BleuStudyError,
    InputError,
    OptionError,
    StudyError,
    WrongTypeError,
)
from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.system_table import parse_system_table
from bleu_core.io.cells import number
from bleu_core.io.text import read_lines
from bleu_core.limits import check_resamples, check_text, max_bytes_from_mb, parse_max_mb
from bleu_core.study import load_study, plain_text_study, read_saved_study, study_from_texts
from bleu_core.study.loading import load_files
from bleu_core.study.model import Criterion, Rating, Segment, Study
from bleu_core.study.storage import study_from_dict
from bleu_core.study.tables import parse_table
from bleu_core.study.validation import validate_study

# ------------------------------------------------------------------------------------ building blocks

REF = "the cat sat on the mat\na dog barked at the postman\nit rained all day\n"
SYS_A = "the cat sat on a mat\na dog barks at the postman\nit rained the whole day\n"
SYS_B = "cat mat\ndog postman\nrain day\n"


def plain(prefix: str = "s", **files: str | bytes | None) -> dict[str, str | bytes]:
    """A plain-text study folder under ``prefix``; keyword names spell ``/`` and ``.txt`` as ``__`` and
    ``__txt`` (``systems__A__txt`` = ``systems/A.txt``); a value None drops the file."""
    base: dict[str, str | bytes | None] = {
        "references/ref.txt": REF,
        "systems/A.txt": SYS_A,
        "systems/B.txt": SYS_B,
    }
    base.update({k.replace("__txt", ".txt").replace("__", "/"): v for k, v in files.items()})
    return {f"{prefix}/{k}": v for k, v in base.items() if v is not None}


def ratings(*rows: str, header: str = "system,segment_id,rater,criterion,score") -> str:
    return "\n".join((header, *rows)) + "\n"


def zip_bytes(members: dict[str, bytes | str], compression: int = zipfile.ZIP_STORED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def plain_zip(**files: str | bytes | None) -> bytes:
    return zip_bytes(plain("study", **files))


def symlink_zip(link: str, target: str) -> bytes:
    """A plain-text study zip whose member ``link`` is stored as a symbolic link to ``target`` (as
    ``zip -y`` stores links: Unix mode S_IFLNK in the external attributes, the target path as the data)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in plain("study", **{link: None}).items():
            archive.writestr(name, data)
        info = zipfile.ZipInfo(f"study/{link.replace('__txt', '.txt').replace('__', '/')}")
        info.create_system = 3  # Unix
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, target)
    return buffer.getvalue()


def crc_corrupt_zip() -> bytes:
    data = plain_zip()
    # Flip one byte inside the stored reference text: the member's CRC-32 no longer matches.
    at = data.index(b"the cat sat on the mat")
    return data[:at] + b"T" + data[at + 1 :]


def false_size_zip() -> bytes:
    """The reference member's local and central headers claim 4 bytes more than it holds."""
    data = bytearray(plain_zip())
    size = len(REF.encode()).to_bytes(4, "little")
    bigger = (len(REF.encode()) + 4).to_bytes(4, "little")
    count = 0
    start = 0
    while (at := data.find(size + size, start)) >= 0:  # compressed size, then file size (stored)
        data[at : at + 8] = bigger + bigger
        start = at + 8
        count += 1
    assert count == 2  # local header and central directory
    return bytes(data)


def unknown_method_zip() -> bytes:
    data = bytearray(plain_zip())
    # compression method 99 (AES, unsupported) in every local header and central directory entry
    for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        start = 0
        while (at := data.find(signature, start)) >= 0:
            data[at + offset : at + offset + 2] = (99).to_bytes(2, "little")
            start = at + 4
    return bytes(data)


def wmt(
    da: str | bytes | None = None, hyp: str | bytes = "A cat.\nA dog.\nA bird.\n"
) -> dict[str, str | bytes]:
    """A tiny WMT release (de-en, one system) with an optional DA segment-score file."""
    files: dict[str, str | bytes] = {
        "w/txt/sources/test.de-en.src.de": "a\nb\nc\n",
        "w/txt/references/test.de-en.ref.A.en": "The cat.\nThe dog.\nThe bird.\n",
        "w/txt/system-outputs/test.de-en.hyp.Sys-1.en": hyp,
    }
    if da is not None:
        files["w/ad-seg-scores-de-en.csv"] = da
    return files


DA_HEADER = "SYS SID RAW.SCR Z.SCR N\n"


def saved(**changes: Any) -> dict[str, Any]:
    """A valid saved study (two segments, two systems, two ratings) with ``changes`` applied.

    Keys are dotted paths (``ratings__score`` = ``data["ratings"]["score"]``).
    """
    data: dict[str, Any] = copy.deepcopy(SAVED)
    for key, value in changes.items():
        *parents, last = key.split("__")
        target = data
        for part in parents:
            target = target[part]
        if value is _DROP:
            del target[last]
        else:
            target[last] = value
    return data


_DROP = object()
SAVED: dict[str, Any] = {
    "format": "bleu-study",
    "version": 1,
    "name": "toy",
    "source_lang": None,
    "target_lang": None,
    "segments": {"id": ["1", "2"], "doc_id": ["d1", "d1"], "source": ["Die Katze", "Ein Hund"]},
    "references": {"ref": ["the cat", "a dog"]},
    "systems": {"A": ["the cat", "a dog"], "B": ["cat", "dog"]},
    "human_systems": [],
    "criteria": [
        {"name": "adequacy", "higher_is_better": True, "scale": [1.0, 5.0], "description": ""}
    ],
    "ratings": {
        "systems": ["A", "B"],
        "raters": ["r1"],
        "groups": ["g"],
        "criteria": ["adequacy"],
        "system": [0, 1],
        "segment": [0, 1],
        "rater": [0, 0],
        "group": [-1, 0],
        "criterion": [0, 0],
        "score": [4.0, 2.0],
    },
    "metadata": {},
}


def js(data: Any) -> str:
    return json.dumps(data)


def deep_json(depth: int) -> str:
    return '{"format": "bleu-study", "version": 1, "metadata": ' + "[" * depth + "]" * depth + "}"


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            path.write_bytes(data.encode("utf-8"))
        else:
            path.write_bytes(data)


# ------------------------------------------------------------------------------------ the command line


@dataclass(frozen=True)
class Cli:
    """``bleu-study ARGV`` (``{d}`` = the folder holding ``files``) must exit 2 with stderr matching."""

    id: str
    argv: str
    match: str
    files: dict[str, str | bytes] = field(default_factory=dict)


SCORE = "score -r {d}/ref.txt -i {d}/hyp.txt"
GOOD = {"ref.txt": REF, "hyp.txt": SYS_A}


def score_files(ref: str | bytes = REF, hyp: str | bytes = SYS_A) -> dict[str, str | bytes]:
    return {"ref.txt": ref, "hyp.txt": hyp}


SYSTEM_TABLE = "system,BLEU,adequacy\nA,30.1,4.1\nB,25.0,3.2\nC,20.4,2.9\n"

CLI_CASES = [
    # --- score: files
    Cli(
        "score-missing-ref",
        "score -r {d}/nope.txt -i {d}/hyp.txt",
        r"nope\.txt: file not found",
        GOOD,
    ),
    Cli("score-ref-is-folder", "score -r {d} -i {d}/hyp.txt", r": file not found", GOOD),
    Cli("score-empty-hyp", SCORE, r"hyp\.txt: the file is empty", score_files(hyp="")),
    Cli("score-empty-ref", SCORE, r"ref\.txt: the file is empty", score_files(ref="")),
    Cli(
        "score-blank-only-ref",
        SCORE,
        r"ref\.txt, line 1: blank line; every line must hold the text of one segment",
        score_files(ref="\n\n\n"),
    ),
    Cli(
        "score-whitespace-ref-line",
        SCORE,
        r"ref\.txt, line 2: blank line",
        score_files(ref="the cat\n \t \nit rained\n"),
    ),
    Cli(
        "score-nbsp-only-ref-line",
        SCORE,
        r"ref\.txt, line 3: blank line",
        score_files(ref="the cat\na dog\n\u00a0\u3000\n"),
    ),
    Cli(
        "score-nul-in-hyp",
        SCORE,
        r"hyp\.txt, line 2, column 3: NUL byte \(\\x00\) in the text",
        score_files(hyp="the cat\na \x00dog\nrain\n"),
    ),
    Cli(
        "score-nul-in-ref",
        SCORE,
        r"ref\.txt, line 1, column 1: NUL byte",
        score_files(ref=b"\x00the cat\na dog\nrain\n"),
    ),
    Cli(
        "score-utf16-file",
        SCORE,
        r"hyp\.txt, line 1, column 1: bytes that are not UTF-8 \(0xff at byte offset 0\)",
        score_files(hyp=SYS_A.encode("utf-16")),
    ),
    Cli(
        "score-latin1-file",
        SCORE,
        r"hyp\.txt, line 2, column 4: bytes that are not UTF-8 \(0xe9",
        score_files(hyp="the cat\nan \u00e9t\u00e9\nrain\n".encode("latin-1")),
    ),
    Cli(
        "score-lone-surrogate-bytes",
        SCORE,
        r"hyp\.txt, line 1, column 1: bytes that are not UTF-8 \(0xed",
        score_files(hyp=b"\xed\xa0\x80\nb\nc\n"),
    ),
    Cli(
        "score-line-count-mismatch",
        SCORE,
        r"ref\.txt has 3 lines but .*hyp\.txt has 2",
        score_files(hyp="a\nb\n"),
    ),
    Cli(
        "score-over-long-line",
        SCORE,
        r"hyp\.txt, line 2: line is 1,000,001 characters long, over the limit of 1,000,000 "
        r"characters per line",
        score_files(hyp="a\n" + "x" * 1_000_001 + "\nc\n"),
    ),
    Cli(
        "score-file-over-max-mb",
        SCORE + " --max-mb 0.00001",
        r"ref\.txt: file is 0\.0 MiB, over the size cap of 0\.0 MiB; split it, or raise the cap",
        GOOD,
    ),
    # --- score: options
    Cli(
        "score-max-mb-nan",
        SCORE + " --max-mb nan",
        r"argument --max-mb: must be a finite number of megabytes above 0 \(e\.g\. 200\), got 'nan'",
        GOOD,
    ),
    Cli(
        "score-max-mb-inf",
        SCORE + " --max-mb inf",
        r"argument --max-mb: must be a finite number .* got 'inf'",
        GOOD,
    ),
    Cli("score-max-mb-minus-one", SCORE + " --max-mb -1", r"argument --max-mb: .* got '-1'", GOOD),
    Cli("score-max-mb-zero", SCORE + " --max-mb 0", r"argument --max-mb: .* got '0'", GOOD),
    Cli("score-max-mb-word", SCORE + " --max-mb lots", r"argument --max-mb: .* got 'lots'", GOOD),
    Cli("score-max-mb-huge", SCORE + " --max-mb 1e300", r"argument --max-mb: .* got '1e300'", GOOD),
    Cli(
        "score-unknown-tokenizer",
        SCORE + " --tokenize moses",
        r"unknown tokenizer 'moses'; choose one of: 13a, intl",
        GOOD,
    ),
    Cli(
        "score-max-order-zero",
        SCORE + " --max-order 0",
        r"max order must be from 1 to 9, got 0",
        GOOD,
    ),
    Cli(
        "score-max-order-word",
        SCORE + " --max-order four",
        r"argument --max-order: invalid int value",
        GOOD,
    ),
    Cli(
        "score-unknown-smoothing",
        SCORE + " --smooth magic",
        r"unknown smoothing 'magic'; choose one of: none, floor",
        GOOD,
    ),
    Cli(
        "score-weights-do-not-sum",
        SCORE + " --weights 0.5 0.5 0.5 0.5",
        r"weights must sum to 1, they sum to 2",
        GOOD,
    ),
    Cli(
        "score-unknown-format", SCORE + " --format xml", r"argument --format: invalid choice", GOOD
    ),
    # --- significance / meta: counts
    *[
        Cli(
            f"significance-n-resamples-{label}",
            f"significance -r {{d}}/ref.txt -i {{d}}/hyp.txt {{d}}/hyp.txt --n-resamples {value}",
            r"argument --n-resamples: must be a whole number from 1 to 100,000, got " + expected,
            GOOD,
        )
        for label, value, expected in [
            ("zero", "0", "0"),
            ("negative", "-5", "'-5'"),
            ("billion", "1000000000", "1000000000"),
            ("just-over", "100001", "100001"),
            ("float", "1e3", "'1e3'"),
            ("word", "many", "'many'"),
            ("underscore", "1_000", "'1_000'"),
            ("arabic-indic", "\u0663\u0660", "'\u0663\u0660'"),
            ("fullwidth", "\uff14", "'\uff14'"),
        ]
    ],
    Cli(
        "significance-n-trials-zero",
        "significance -r {d}/ref.txt -i {d}/hyp.txt {d}/hyp.txt --test ar --n-trials 0",
        r"argument --n-trials: must be a whole number from 1 to 100,000, got 0",
        GOOD,
    ),
    Cli(
        "significance-n-trials-huge",
        "significance -r {d}/ref.txt -i {d}/hyp.txt {d}/hyp.txt --test ar --n-trials 2000000",
        r"argument --n-trials: must be a whole number from 1 to 100,000, got 2000000",
        GOOD,
    ),
    Cli(
        "significance-max-mb-nan",
        "significance -r {d}/ref.txt -i {d}/hyp.txt {d}/hyp.txt --max-mb nan",
        r"argument --max-mb: must be a finite number",
        GOOD,
    ),
    Cli(
        "significance-one-system",
        "significance -r {d}/ref.txt -i {d}/hyp.txt --n-resamples 10",
        r"significance tests need at least 2 systems, got 1",
        GOOD,
    ),
    Cli(
        "significance-path-and-files",
        "significance {d} -r {d}/ref.txt -i {d}/hyp.txt",
        r"give either a study PATH or -r/-i files, not both",
        GOOD,
    ),
    *[
        Cli(
            f"significance-{flag}-{value}",
            f"significance -r {{d}}/ref.txt -i {{d}}/hyp.txt {{d}}/hyp.txt --{flag} {value}",
            rf"argument --{flag}: must be a number strictly between 0 and 1 \(e\.g\. 0\.05 or "
            rf"0\.95\), got '{value}'",
            GOOD,
        )
        for flag, value in [("alpha", "2"), ("alpha", "nan"), ("alpha", "0"), ("confidence", "95")]
    ],
    Cli(
        "significance-seed-negative",
        "significance -r {d}/ref.txt -i {d}/hyp.txt {d}/hyp2.txt --n-resamples 10 --seed -1",
        r"seed must be a non-negative whole number or None, got -1",
        {**GOOD, "hyp2.txt": SYS_B},
    ),
    Cli(
        "significance-systems-with-files",
        "significance -r {d}/ref.txt -i {d}/hyp.txt {d}/hyp.txt --systems x",
        r"--systems chooses from a study PATH; with -r/-i files, list only the files you want",
        GOOD,
    ),
    Cli(
        "meta-confidence-inf",
        "meta demo:ted-en-de --confidence inf",
        r"argument --confidence: must be a number strictly between 0 and 1",
    ),
    Cli("significance-nothing", "significance", r"give reference files with -r", GOOD),
    Cli(
        "significance-same-file-twice",
        "significance -r {d}/ref.txt -i {d}/hyp.txt {d}/hyp.txt",
        r"significance tests need at least 2 systems, got 1",
        score_files(hyp="\n\n\n"),
    ),
    Cli(
        "meta-n-resamples-zero",
        "meta demo:ted-en-de --n-resamples 0",
        r"argument --n-resamples: must be a whole number from 1 to 100,000, got 0",
    ),
    Cli(
        "meta-n-resamples-huge",
        "meta demo:ted-en-de --n-resamples 500000",
        r"argument --n-resamples: .* got 500000",
    ),
    Cli("meta-nothing", "meta", r"give a study PATH, or --system-scores TABLE\.csv"),
    Cli(
        "meta-table-and-path",
        "meta {d} --system-scores {d}/t.csv",
        r"give either a study PATH or --system-scores TABLE\.csv, not both",
        {"t.csv": SYSTEM_TABLE},
    ),
    *[
        Cli(
            f"meta-table-{label}",
            "meta --system-scores {d}/t.csv",
            expected,
            {"t.csv": table},
        )
        for label, table, expected in [
            (
                "underscore-number",
                SYSTEM_TABLE.replace("30.1", "3_0"),
                r"t\.csv, line 2, column BLEU: '3_0' is not a number",
            ),
            (
                "arabic-indic",
                SYSTEM_TABLE.replace("30.1", "\u0663\u0660"),
                r"t\.csv, line 2, column BLEU: '\u0663\u0660' is not a number",
            ),
            (
                "fullwidth",
                SYSTEM_TABLE.replace("4.1", "\uff14"),
                r"t\.csv, line 2, column adequacy: '\uff14' is not a number",
            ),
            (
                "nul-in-cell",
                SYSTEM_TABLE.replace("B,", "B\x00,"),
                r"t\.csv, line 3, column 2: NUL byte",
            ),
            (
                "infinity",
                SYSTEM_TABLE.replace("25.0", "inf"),
                r"t\.csv, line 3, column BLEU: 'inf' is not a finite number",
            ),
            ("empty", "", r"t\.csv: the table is empty"),
            (
                "stray-carriage-return",
                "system,BLEU,adequacy\r\x01\n",
                r"t\.csv, line 2: 1 cells but the header has 3 columns",
            ),
            (
                "two-systems",
                "system,BLEU,adequacy\nA,1,2\nB,2,3\n",
                r"2 system row\(s\); a correlation needs at least 3",
            ),
            ("duplicate-column", "system,BLEU,bleu\nA,1,2\n", r"column 'bleu' appears twice"),
            (
                "ragged-row",
                SYSTEM_TABLE + "D,1\n",
                r"t\.csv, line 5: 2 cells but the header has 3 columns",
            ),
            (
                "duplicate-system",
                SYSTEM_TABLE + "A,1,2\n",
                r"t\.csv, line 5: system 'A' appears twice",
            ),
        ]
    ],
    # --- study: options and files
    Cli(
        "study-max-mb-inf",
        "study {d}/s --max-mb inf",
        r"argument --max-mb: must be a finite number",
        plain(),
    ),
    Cli(
        "study-max-mb-negative",
        "study {d}/s --max-mb -1",
        r"argument --max-mb: .* got '-1'",
        plain(),
    ),
    Cli("study-missing", "study {d}/nothing", r"nothing: no such file or folder", {}),
    Cli("study-unknown-demo", "study demo:nope", r"no bundled study named 'nope'"),
    Cli(
        "study-crc-corrupt-zip",
        "study {d}/s.zip",
        r"s\.zip: archive member 'study/references/ref\.txt' is damaged \(Bad CRC-32",
        {"s.zip": crc_corrupt_zip()},
    ),
    Cli(
        "study-false-size-zip",
        "study {d}/s.zip",
        r"s\.zip: archive member 'study/references/ref\.txt' is damaged",
        {"s.zip": false_size_zip()},
    ),
    Cli(
        "study-deep-json",
        "study {d}/deep.json",
        r"deep\.json: JSON nested too deeply to be a saved study",
        {"deep.json": deep_json(100_000)},
    ),
    Cli(
        "study-number-as-text-json",
        "study {d}/s.json",
        r"s\.json: saved study: references\['ref'\]\[1\] must be a text or null, got the number 5",
        {"s.json": js(saved(references={"ref": ["the cat", 5]}))},
    ),
    Cli(
        "study-ratings-5_0",
        "study {d}/s",
        r"ratings\.csv, line 2, column score: '5_0' is not a number; write a plain decimal",
        plain(ratings__csv=None, **{"ratings.csv": ratings("A,1,r1,da,5_0")}),
    ),
]


def _run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse's option errors
        code = exc.code if isinstance(exc.code, int) else 1
    return code, capsys.readouterr().err


@pytest.mark.parametrize("case", CLI_CASES, ids=lambda c: c.id)
def test_command_line_rejects_bad_input_with_exit_2_and_a_clear_message(
    case: Cli, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(tmp_path, case.files)
    argv = [part.replace("{d}", str(tmp_path)) for part in case.argv.split(" ")]
    code, err = _run_cli(argv, capsys)
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("error:") == 1, err
    assert re.search(case.match, err), err


# ------------------------------------------------------------------------------------ the Python API


@dataclass(frozen=True)
class Api:
    """``call(folder)`` (``files`` written into ``folder``) must raise ``error`` matching ``match``."""

    id: str
    call: Callable[[Path], Any]
    error: type[BaseException]
    match: str
    files: dict[str, str | bytes] = field(default_factory=dict)


def load(rel: str, **kwargs: Any) -> Callable[[Path], Any]:
    return lambda d: load_study(d / rel, **kwargs)


def rated(
    *rows: str, header: str = "system,segment_id,rater,criterion,score"
) -> dict[str, str | bytes]:
    return plain(**{"ratings.csv": ratings(*rows, header=header)})


def saved_case(name: str, data: Any, match: str, error: type[BaseException] = StudyError) -> Api:
    text = data if isinstance(data, (str, bytes)) else js(data)
    return Api(f"saved-{name}", load("s.json"), error, match, {"s.json": text})


API_CASES = [
    # --- load_study arguments
    Api(
        "load-none",
        lambda d: load_study(None),
        WrongTypeError,
        r"load_study\(\) takes a path .* not NoneType",
    ),
    Api("load-int", lambda d: load_study(123), WrongTypeError, r"not int 123"),
    Api("load-float", lambda d: load_study(1.5), WrongTypeError, r"not float 1\.5"),
    Api(
        "load-bytes",
        lambda d: load_study(b"demo:ted-en-de"),
        WrongTypeError,
        r"not bytes; to load uploaded bytes, write them to a file first",
    ),
    Api("load-bytearray", lambda d: load_study(bytearray(b"x")), WrongTypeError, r"not bytearray"),
    Api("load-list", lambda d: load_study(["a.json"]), WrongTypeError, r"not list"),
    Api("load-none-is-a-typeerror-too", lambda d: load_study(None), TypeError, r"takes a path"),
    Api(
        "load-reference-int",
        load("w", reference=3),
        WrongTypeError,
        r"load_study\(reference=\.\.\.\) takes a reference name \('A', 'refB'\), a list of names or "
        r"'all', not int 3",
        wmt(),
    ),
    Api(
        "load-reference-int-is-a-typeerror", load("w", reference=3), TypeError, r"not int 3", wmt()
    ),
    Api(
        "load-reference-list-with-int",
        load("w", reference=["A", 3]),
        WrongTypeError,
        r"takes a reference name .* not int 3",
        wmt(),
    ),
    Api(
        "load-reference-bytes",
        load("w", reference=b"A"),
        WrongTypeError,
        r"takes a reference name .* not bytes b'A'",
        wmt(),
    ),
    Api(
        "load-pair-int",
        load("w", pair=3),
        WrongTypeError,
        r"load_study\(pair=\.\.\.\) takes a language pair such as 'en-de', not int 3",
        wmt(),
    ),
    Api(
        "load-name-int",
        load("w", name=7),
        WrongTypeError,
        r"load_study\(name=\.\.\.\) takes the study's name as text, not int 7",
        wmt(),
    ),
    Api(
        "load-files-reference-int",
        lambda d: load_files([("a.ref", b"x\n"), ("b.hyp", b"y\n")], reference=3),
        WrongTypeError,
        r"takes a reference name .* not int 3",
    ),
    Api(
        "load-nul-in-path",
        lambda d: load_study(str(d) + "/a\x00b.json"),
        InputError,
        r"the path contains a NUL character",
    ),
    Api("load-missing", load("nothing.json"), InputError, r"nothing\.json: no such file or folder"),
    Api(
        "load-text-file",
        load("notes.txt"),
        StudyError,
        r"notes\.txt: unrecognised study file",
        {"notes.txt": "hello"},
    ),
    Api(
        "load-empty-folder",
        lambda d: load_study(d / "empty"),
        StudyError,
        r"not a study folder: .* found: \(empty\)",
        {"empty/.keep": ""},
    ),
    Api("load-bad-demo", lambda d: load_study("demo:"), StudyError, r"no bundled study named ''"),
    # --- plain-text study folders
    Api(
        "folder-blank-reference-line",
        load("s"),
        InputError,
        r"references/ref\.txt, line 2: blank line",
        plain(references__ref__txt="a\n\nc\n"),
    ),
    Api(
        "folder-whitespace-reference-line",
        load("s"),
        InputError,
        r"references/ref\.txt, line 3: blank line",
        plain(references__ref__txt="a\nb\n  \t\n"),
    ),
    Api(
        "folder-blank-only-reference",
        load("s"),
        InputError,
        r"references/ref\.txt, line 1: blank line",
        plain(references__ref__txt="\n\n\n"),
    ),
    Api(
        "folder-empty-reference",
        load("s"),
        InputError,
        r"references/ref\.txt: empty file",
        plain(references__ref__txt=""),
    ),
    Api(
        "folder-nul-in-reference",
        load("s"),
        InputError,
        r"references/ref\.txt, line 2, column 5: NUL byte",
        plain(references__ref__txt="a\nb c \x00d\ne\n"),
    ),
    Api(
        "folder-nul-in-system",
        load("s"),
        InputError,
        r"systems/A\.txt, line 3, column 1: NUL byte",
        plain(systems__A__txt="a\nb\n\x00\n"),
    ),
    Api(
        "folder-utf16-system",
        load("s"),
        InputError,
        r"systems/B\.txt, line 1, column 1: bytes that are not UTF-8",
        plain(systems__B__txt=SYS_B.encode("utf-16")),
    ),
    Api(
        "folder-cp1252-reference",
        load("s"),
        InputError,
        r"references/ref\.txt, line 1, column 5: bytes that are not UTF-8 \(0x93",
        plain(references__ref__txt=b"the \x93cat\x94\nb\nc\n"),
    ),
    Api(
        "folder-line-count-mismatch",
        load("s"),
        InputError,
        r"systems/A\.txt, line 3: has 2 lines but .*ref\.txt has 3",
        plain(systems__A__txt="a\nb\n"),
    ),
    Api(
        "folder-extra-blank-last-line",
        load("s"),
        InputError,
        r"has 4 lines .* \(the extra last line is blank: delete the trailing empty line\)",
        plain(systems__A__txt=SYS_A + "\n"),
    ),
    Api(
        "folder-over-long-line",
        load("s"),
        InputError,
        r"systems/B\.txt, line 1: line is 1,000,001 characters long, over the limit of 1,000,000",
        plain(systems__B__txt="y" * 1_000_001 + "\nb\nc\n"),
    ),
    Api(
        "folder-cr-only-line-ends",
        lambda d: _with_line_limit(lambda: load_study(d / "s"), 40),
        InputError,
        r"references/ref\.txt, line 1: line is \d+ characters long, over the limit of 40 .*CR-only",
        plain(references__ref__txt=REF.replace("\n", "\r")),
    ),
    Api(
        "folder-no-systems",
        load("s"),
        StudyError,
        r"not a study folder",
        plain(systems__A__txt=None, systems__B__txt=None),
    ),
    Api(
        "folder-stray-text-file",
        load("s"),
        StudyError,
        r"text file 'notes\.txt' is at the top of the study folder",
        plain(**{"notes.txt": "x"}),
    ),
    Api(
        "folder-two-ratings-tables",
        load("s"),
        StudyError,
        r"several ratings tables",
        plain(**{"a.csv": "x", "b.csv": "y"}),
    ),
    Api(
        "folder-duplicate-stream-names",
        load("s"),
        StudyError,
        r"duplicate reference or system name 'A'",
        plain(references__A__txt=REF),
    ),
    Api(
        "folder-segments-wrong-count",
        load("s"),
        InputError,
        r"segments\.tsv: has 2 segment rows but the text files have 3 lines",
        plain(**{"segments.tsv": "segment_id\tdoc_id\n1\td\n2\td\n"}),
    ),
    Api(
        "folder-segments-duplicate-id",
        load("s"),
        InputError,
        r"segments\.tsv, line 4, column segment_id: segment_id '1' already used on line 2",
        plain(**{"segments.tsv": "segment_id\n1\n2\n1\n"}),
    ),
    Api(
        "folder-segments-empty-id",
        load("s"),
        InputError,
        r"segments\.tsv, line 3, column segment_id: empty segment_id",
        plain(**{"segments.tsv": "segment_id\tdoc_id\n1\td\n\td\n3\td\n"}),
    ),
    # --- ratings tables: numbers
    *[
        Api(
            f"rating-value-{label}",
            load("s"),
            InputError,
            r"ratings\.csv, line 2, column score: " + expected,
            rated(f"A,1,r1,da,{value}"),
        )
        for label, value, expected in [
            (
                "underscore",
                "5_0",
                r"'5_0' is not a number; write a plain decimal number with ASCII digits",
            ),
            ("arabic-indic", "\u0663\u0660", r"'\u0663\u0660' is not a number"),
            ("extended-arabic-indic", "\u06f3", r"'\u06f3' is not a number"),
            ("devanagari", "\u0967", r"'\u0967' is not a number"),
            ("fullwidth", "\uff14", r"'\uff14' is not a number"),
            ("superscript", "\u00b2", r"'\u00b2' is not a number"),
            ("decimal-comma", '"4,5"', r"'4,5' is not a number"),
            ("hex", "0x10", r"'0x10' is not a number"),
            ("percent", "50%", r"'50%' is not a number"),
            ("word", "good", r"'good' is not a number"),
            ("nan", "nan", r"'nan' is not a finite number"),
            ("minus-inf", "-inf", r"'-inf' is not a finite number"),
            ("infinity", "Infinity", r"'Infinity' is not a finite number"),
            ("overflow", "1e400", r"'1e400' is not a finite number"),
            ("unicode-minus", "\u22125", r"'\u22125' is not a number"),
        ]
    ],
    Api(
        "rating-value-nul",
        load("s"),
        InputError,
        r"ratings\.csv, line 2, column 12: NUL byte",
        rated("A,1,r1,da,4\x00"),
    ),
    Api(
        "rating-outside-scale",
        load("s"),
        InputError,
        r"ratings\.csv, line 2, column score: score 6 is outside the adequacy scale \[1, 5\]",
        rated("A,1,r1,adequacy,6"),
    ),
    Api(
        "rating-da-outside-scale",
        load("s"),
        InputError,
        r"score 101 is outside the da scale \[0, 100\]",
        rated("A,1,r1,da,101"),
    ),
    Api(
        "rating-unknown-system",
        load("s"),
        InputError,
        r"line 2, column system: rating for unknown system 'C'",
        rated("C,1,r1,da,50"),
    ),
    Api(
        "rating-unknown-segment",
        load("s"),
        InputError,
        r"line 2, column segment_id: rating for unknown segment '7'",
        rated("A,7,r1,da,50"),
    ),
    Api(
        "rating-zero-based-segment",
        load("s"),
        InputError,
        r"your ids look 0-based",
        rated("A,0,r1,da,50"),
    ),
    Api(
        "rating-segment-superscript",
        load("s"),
        InputError,
        r"column segment_id: rating for unknown segment '\u00b2'; known segments: 1, 2, 3",
        rated("A,\u00b2,r1,da,50"),
    ),
    Api(
        "rating-segment-arabic-indic",
        load("s"),
        InputError,
        r"rating for unknown segment '\u0664'; known segments",
        rated("A,\u0664,r1,da,50"),
    ),
    Api(
        "rating-no-criterion",
        load("s"),
        InputError,
        r"line 2, column criterion: score without a criterion",
        rated("A,1,r1,,50"),
    ),
    Api(
        "rating-no-system",
        load("s"),
        InputError,
        r"line 2, column system: score without a system",
        rated(",1,r1,da,50"),
    ),
    Api(
        "rating-same-rater-twice-different",
        load("s"),
        InputError,
        r"ratings\.csv, line 3: rater 'r1' scores system 'A', segment '1', da twice \(40 on line 2, 60 "
        r"here\): different scores for the same item",
        rated("A,1,r1,da,40", "A,1,r1,da,60"),
    ),
    Api(
        "rating-same-rater-twice-identical",
        load("s"),
        InputError,
        r"line 4: rater 'r1' scores system 'A', segment '2', da twice \(40 on line 2, 40 here\): a "
        r"duplicated row",
        rated("A,2,r1,da,40", "A,2,r2,da,60", "A,2,r1,da,40"),
    ),
    Api(
        "rating-same-rater-twice-system-level",
        load("s"),
        InputError,
        r"rater 'r1' scores system 'B', system level, da twice",
        rated("B,,r1,da,40", "B,,r1,da,41"),
    ),
    Api(
        "rating-same-rater-twice-wide-form",
        load("s"),
        InputError,
        r"line 3: rater 'r1' scores system 'A', segment '1', adequacy twice",
        rated("A,1,r1,4", "A,1,r1,2", header="system,segment_id,rater,adequacy"),
    ),
    # --- ratings tables: structure
    Api(
        "ratings-no-system-column",
        load("s"),
        InputError,
        r"ratings\.csv, line 1: missing required column 'system'",
        rated("1,r1,da,4", header="segment_id,rater,criterion,score"),
    ),
    Api(
        "ratings-score-without-criterion-column",
        load("s"),
        InputError,
        r"missing required column 'criterion'",
        rated("A,1,4", header="system,segment_id,score"),
    ),
    Api(
        "ratings-only-key-columns",
        load("s"),
        InputError,
        r"missing required columns 'criterion', 'score'",
        rated("A,1,r1", header="system,segment_id,rater"),
    ),
    Api(
        "ratings-duplicate-column",
        load("s"),
        InputError,
        r"line 1, column 3: column name 'system' appears twice",
        rated("A,1,A,da,4", header="system,segment_id,System,criterion,score"),
    ),
    Api(
        "ratings-empty-header-cell",
        load("s"),
        InputError,
        r"line 1, column 3: column 3 of the header is empty",
        rated("A,1,,da,4", header="system,segment_id,,criterion,score"),
    ),
    Api(
        "ratings-ragged-row",
        load("s"),
        InputError,
        r"ratings\.csv, line 3: 4 cells, but the header has 5 columns",
        rated("A,1,r1,da,4", "A,2,r1,da"),
    ),
    Api(
        "ratings-unclosed-quote",
        load("s"),
        InputError,
        r"ratings\.csv, line 2: .*cells|cannot parse",
        rated('A,1,"r1,da,4'),
    ),
    Api(
        "ratings-empty-file",
        load("s"),
        InputError,
        r"ratings\.csv: empty file; a header line and at least one row are needed",
        plain(**{"ratings.csv": " \n"}),
    ),
    Api(
        "ratings-nul-in-rater",
        load("s"),
        InputError,
        r"ratings\.csv, line 2, column 6: NUL byte",
        rated("A,1,r\x001,da,4"),
    ),
    Api(
        "ratings-bad-direction",
        load("s"),
        InputError,
        r"column higher_is_better: higher_is_better must be true or false, not 'maybe'",
        rated(
            "A,1,r1,q,4,maybe", header="system,segment_id,rater,criterion,score,higher_is_better"
        ),
    ),
    Api(
        "ratings-inverted-scale",
        load("s"),
        InputError,
        r"column scale_min: scale_min 5\.0 must be below scale_max 1\.0",
        rated(
            "A,1,r1,q,4,5,1", header="system,segment_id,rater,criterion,score,scale_min,scale_max"
        ),
    ),
    Api(
        "ratings-half-scale",
        load("s"),
        InputError,
        r"give both scale_min and scale_max",
        rated(
            "A,1,r1,q,4,1,", header="system,segment_id,rater,criterion,score,scale_min,scale_max"
        ),
    ),
    Api(
        "ratings-fullwidth-scale",
        load("s"),
        InputError,
        r"column scale_max: '\uff15' is not a number",
        rated(
            "A,1,r1,q,4,1,\uff15",
            header="system,segment_id,rater,criterion,score,scale_min,scale_max",
        ),
    ),
    Api(
        "ratings-latin1",
        load("s"),
        InputError,
        r"ratings\.csv, line 2, column 8: bytes that are not UTF-8 \(0xe9",
        plain(
            **{
                "ratings.csv": "system,segment_id,rater,criterion,score\nA,1,Ren\u00e9,da,4\n".encode(
                    "latin-1"
                )
            }
        ),
    ),
    # --- zips
    Api(
        "zip-crc-corrupt",
        load("s.zip"),
        StudyError,
        r"s\.zip: archive member 'study/references/ref\.txt' is damaged \(Bad CRC-32 for file 'study/references/ref\.txt'\)",
        {"s.zip": crc_corrupt_zip()},
    ),
    Api(
        "zip-false-size",
        load("s.zip"),
        StudyError,
        r"s\.zip: archive member 'study/references/ref\.txt' is damaged",
        {"s.zip": false_size_zip()},
    ),
    Api(
        "zip-unknown-compression",
        load("s.zip"),
        StudyError,
        r"archive member 'study/references/ref\.txt' cannot be read \(.*compression",
        {"s.zip": unknown_method_zip()},
    ),
    Api(
        "zip-not-a-zip",
        load("s.zip"),
        StudyError,
        r"s\.zip: neither a folder nor a zip archive",
        {"s.zip": "hello, I am text"},
    ),
    Api(
        "zip-truncated",
        load("s.zip"),
        StudyError,
        r"s\.zip: neither a folder nor a zip archive|not a valid zip",
        {"s.zip": plain_zip()[:-30]},
    ),
    Api(
        "zip-empty-file",
        load("s.zip"),
        StudyError,
        r"s\.zip: neither a folder nor a zip archive",
        {"s.zip": b""},
    ),
    Api(
        "zip-empty-archive",
        load("s.zip"),
        StudyError,
        r"not a study folder: .* found: \(empty\)",
        {"s.zip": zip_bytes({})},
    ),
    Api(
        "zip-parent-path",
        load("s.zip"),
        StudyError,
        r"archive member '\.\./evil\.txt' points outside the archive",
        {"s.zip": zip_bytes({"../evil.txt": "x"})},
    ),
    Api(
        "zip-absolute-path",
        load("s.zip"),
        StudyError,
        r"archive member '/etc/passwd' points outside the archive",
        {"s.zip": zip_bytes({"/etc/passwd": "x"})},
    ),
    Api(
        "zip-symlink-member",
        load("s.zip"),
        StudyError,
        r"s\.zip: archive member 'study/references/ref\.txt' is a symbolic link, not a file",
        {"s.zip": symlink_zip("references__ref__txt", "/etc/passwd")},
    ),
    Api(
        "zip-symlink-member-is-not-followed-in-an-upload",
        lambda d: load_files([("up.zip", (d / "s.zip").read_bytes())]),
        StudyError,
        r"up\.zip: archive member 'study/systems/A\.txt' is a symbolic link",
        {"s.zip": symlink_zip("systems__A__txt", "../../../../etc/hostname")},
    ),
    Api(
        "zip-drive-path",
        load("s.zip"),
        StudyError,
        r"archive member 'C:/x\.txt' points outside",
        {"s.zip": zip_bytes({"C:/x.txt": "x"})},
    ),
    Api(
        "zip-bomb",
        load("s.zip", max_bytes=5_000),
        StudyError,
        r"archive decompresses to more than 0\.0 MiB .*zip bomb",
        {"s.zip": zip_bytes({"big.txt": "0" * 100_000}, zipfile.ZIP_DEFLATED)},
    ),
    Api(
        "zip-nul-in-member",
        load("s.zip"),
        InputError,
        r"s\.zip!study/systems/A\.txt, line 1, column 2: NUL byte",
        {"s.zip": plain_zip(systems__A__txt="a\x00\nb\nc\n")},
    ),
    Api(
        "zip-blank-reference-line",
        load("s.zip"),
        InputError,
        r"s\.zip!study/references/ref\.txt, line 2: blank line",
        {"s.zip": plain_zip(references__ref__txt="a\n \nc\n")},
    ),
    # --- WMT releases
    Api(
        "wmt-da-underscore",
        load("w"),
        InputError,
        r"ad-seg-scores-de-en\.csv, line 2, column RAW\.SCR: '7_0' is not a number",
        wmt(DA_HEADER + "Sys-1.4 1 7_0 0.5 2\n"),
    ),
    Api(
        "wmt-da-arabic-indic",
        load("w"),
        InputError,
        r"line 2, column Z\.SCR: '\u0660\.5' is not a number",
        wmt(DA_HEADER + "Sys-1.4 1 70 \u0660.5 2\n"),
    ),
    Api(
        "wmt-da-nul",
        load("w"),
        InputError,
        r"ad-seg-scores-de-en\.csv, line 2, column 9: NUL byte",
        wmt(DA_HEADER + "Sys-1.4 \x001 70 0.5 2\n"),
    ),
    Api(
        "wmt-da-over-100",
        load("w"),
        InputError,
        r"line 2, column RAW\.SCR: DA score 170 outside 0-100",
        wmt(DA_HEADER + "Sys-1.4 1 170 0.5 2\n"),
    ),
    Api(
        "wmt-da-unknown-segment",
        load("w"),
        InputError,
        r"line 2, column SID: segment '9' does not exist",
        wmt(DA_HEADER + "Sys-1.4 9 70 0.5 2\n"),
    ),
    Api(
        "wmt-hyp-nul",
        load("w"),
        InputError,
        r"test\.de-en\.hyp\.Sys-1\.en, line 2, column 1: NUL byte",
        wmt(hyp="A cat.\n\x00\nA bird.\n"),
    ),
    Api(
        "wmt-hyp-short", load("w"), InputError, r"test\.de-en\.hyp\.Sys-1\.en", wmt(hyp="A cat.\n")
    ),
    # --- saved studies (JSON)
    saved_case(
        "broken-json", '{"format": "bleu-study", ', r"s\.json, line 1, column \d+: not valid JSON"
    ),
    saved_case("empty-file", "", r"s\.json, line 1, column 1: not valid JSON"),
    saved_case("a-list", "[1, 2]", r'not a saved study \(no "format": "bleu-study" entry\)'),
    saved_case("a-number", "42", r"not a saved study"),
    saved_case("wrong-format", saved(format="other"), r"not a saved study"),
    saved_case(
        "wrong-version", saved(version=99), r"saved-study format version 99 is not supported"
    ),
    saved_case("deep-nesting", deep_json(100_000), r"JSON nested too deeply to be a saved study"),
    saved_case(
        "raw-nul-byte",
        b'{"format": "bleu-\x00study"}',
        r"not valid JSON \(Invalid control character",
    ),
    saved_case(
        "latin1",
        json.dumps(saved(name="caf\u00e9"), ensure_ascii=False).encode("latin-1"),
        r"s\.json, line 1, column \d+: bytes that are not UTF-8",
        InputError,
    ),
    saved_case("name-number", saved(name=7), r"saved study: name must be a text, got the number 7"),
    saved_case("name-missing", saved(name=_DROP), r"saved study has no valid 'name' entry"),
    saved_case(
        "segment-id-number",
        saved(segments__id=[1, "2"]),
        r"segments\.id\[0\] must be a text, got the number 1",
    ),
    saved_case(
        "segment-id-null",
        saved(segments__id=["1", None]),
        r"segments\.id\[1\] must be a text, got null",
    ),
    saved_case(
        "doc-id-bool",
        saved(segments__doc_id=[True, "d"]),
        r"segments\.doc_id\[0\] must be a text or null, got the boolean true",
    ),
    saved_case(
        "source-object",
        saved(segments__source=[{}, "x"]),
        r"segments\.source\[0\] must be a text or null, got an object",
    ),
    saved_case(
        "segments-id-missing", saved(segments__id=_DROP), r"saved study: segments\.id is missing"
    ),
    saved_case(
        "segments-list", saved(segments=["1", "2"]), r"saved study has no valid 'segments' entry"
    ),
    saved_case(
        "reference-number",
        saved(references={"ref": ["the cat", 5]}),
        r"references\['ref'\]\[1\] must be a text or null, got the number 5",
    ),
    saved_case(
        "reference-a-string",
        saved(references={"ref": "the cat"}),
        r"references\['ref'\] must be a list of texts \(one per segment\), got the text 'the cat'",
    ),
    saved_case(
        "system-list-in-list",
        saved(systems={"A": [["x"], "y"], "B": ["a", "b"]}),
        r"systems\['A'\]\[0\] must be a text or null, got a list of 1 items",
    ),
    saved_case(
        "systems-too-short",
        saved(systems={"A": ["x"], "B": ["a", "b"]}),
        r"system 'A' has 1 text, but the study has 2 segments",
    ),
    saved_case(
        "human-systems-number",
        saved(human_systems=[1]),
        r"human_systems\[0\] must be a text, got the number 1",
    ),
    saved_case(
        "human-systems-unknown",
        saved(human_systems=["Z"]),
        r"human_systems names unknown systems: Z",
    ),
    saved_case(
        "criterion-name-number",
        saved(criteria=[{"name": 3, "higher_is_better": True, "scale": None}]),
        r"criteria\[0\]\.name must be a text, got the number 3",
    ),
    saved_case(
        "criterion-direction-text",
        saved(criteria=[{"name": "adequacy", "higher_is_better": "yes", "scale": None}]),
        r"criteria\[0\]\.higher_is_better must be true or false, got the text 'yes'",
    ),
    saved_case(
        "criterion-scale-texts",
        saved(criteria=[{"name": "adequacy", "higher_is_better": True, "scale": ["1", "5"]}]),
        r"criteria\[0\]\.scale must be null or a list of two numbers",
    ),
    saved_case(
        "criterion-scale-inverted",
        saved(criteria=[{"name": "adequacy", "higher_is_better": True, "scale": [5, 1]}]),
        r"criterion 'adequacy' has an invalid scale",
    ),
    saved_case(
        "criterion-not-object",
        saved(criteria=["adequacy"]),
        r"criteria\[0\] must be an object, got the text 'adequacy'",
    ),
    saved_case(
        "criteria-object",
        saved(criteria={"adequacy": {}}),
        r"saved study has no valid 'criteria' entry",
    ),
    saved_case(
        "score-text",
        saved(ratings__score=["4", 2.0]),
        r"ratings\.score\[0\] must be a number, got the text '4'",
    ),
    saved_case(
        "score-bool",
        saved(ratings__score=[True, 2.0]),
        r"ratings\.score\[0\] must be a number, got the boolean true",
    ),
    saved_case(
        "score-null",
        saved(ratings__score=[None, 2.0]),
        r"ratings\.score\[0\] must be a number, got null",
    ),
    saved_case(
        "score-outside-scale",
        saved(ratings__score=[9.0, 2.0]),
        r"rating 1 \(A, segment 1\) has score 9, outside the adequacy scale",
    ),
    saved_case(
        "code-float",
        saved(ratings__system=[0.0, 1]),
        r"ratings\.system\[0\] must be a whole-number code, got the number 0\.0",
    ),
    saved_case(
        "code-bool",
        saved(ratings__rater=[False, 0]),
        r"ratings\.rater\[0\] must be a whole-number code, got the boolean false",
    ),
    saved_case(
        "code-out-of-range", saved(ratings__system=[0, 9]), r"saved study is damaged \(IndexError"
    ),
    saved_case(
        "code-negative",
        saved(ratings__system=[-1, 0]),
        r"saved study is damaged \(ValueError: negative code",
    ),
    saved_case(
        "columns-uneven", saved(ratings__score=[4.0]), r"rating columns have different lengths"
    ),
    saved_case(
        "rater-names-number",
        saved(ratings__raters=[5]),
        r"ratings\.raters\[0\] must be a text or null, got the number 5",
    ),
    saved_case(
        "metadata-list",
        saved(metadata=[1]),
        r"metadata must be an object or null, got a list of 1 items",
    ),
    saved_case(
        "language-number",
        saved(source_lang=1),
        r"source_lang must be a text or null, got the number 1",
    ),
    saved_case(
        "segments-uneven",
        saved(segments__doc_id=["d1"]),
        r"saved study is damaged \(ValueError: zip\(\)",
    ),
    Api(
        "saved-gzip-damaged",
        load("s.json.gz"),
        StudyError,
        r"s\.json\.gz: damaged gzip file",
        {"s.json.gz": gzip.compress(js(SAVED).encode())[:-12]},
    ),
    Api(
        "saved-gzip-garbage",
        load("s.json.gz"),
        StudyError,
        r"s\.json\.gz: damaged gzip file",
        {"s.json.gz": b"\x1f\x8b" + b"garbage" * 5},
    ),
    Api(
        "saved-gzip-bomb",
        load("s.json.gz", max_bytes=20_000),
        InputError,
        r"s\.json\.gz \(decompressed\): file is 0\.0 MiB, over the size cap",
        {"s.json.gz": gzip.compress(b" " * 200_000)},
    ),
    Api(
        "saved-read-directly-deep",
        lambda d: read_saved_study(d / "s.json"),
        StudyError,
        r"nested too deeply",
        {"s.json": deep_json(50_000)},
    ),
    Api(
        "saved-dict-number-text",
        lambda d: study_from_dict(saved(systems={"A": [1, 2], "B": ["a", "b"]})),
        StudyError,
        r"systems\['A'\]\[0\] must be a text or null",
    ),
    # --- tables given as studies
    Api(
        "table-unknown-header",
        load("t.csv"),
        InputError,
        r"t\.csv, line 1: missing required columns? .*a study table is either the long table",
        {"t.csv": "foo,bar\n1,2\n"},
    ),
    Api("table-empty-tsv", load("t.tsv"), InputError, r"t\.tsv: empty file", {"t.tsv": ""}),
    Api(
        "table-nul",
        load("t.csv"),
        InputError,
        r"t\.csv, line 2, column 3: NUL byte",
        {"t.csv": "segment_id,system,text\n1,\x00A,hello\n"},
    ),
    # --- one key, one value: a fact repeated differently names both lines (bleu_core.io.FirstSeen)
    Api(
        "long-table-role-differs",
        load("t.csv"),
        InputError,
        r"t\.csv, line 3, column role: 'A' has a different role than on line 2; a name is either a "
        r"reference or a system$",
        {"t.csv": "segment_id,system,role,text\n1,A,system,x\n2,A,reference,y\n"},
    ),
    Api(
        "long-table-doc-differs",
        load("t.csv"),
        InputError,
        r"t\.csv, line 4, column doc_id: segment '1' has a different doc_id than on line 2; a segment "
        r"has one doc_id$",
        {
            "t.csv": "segment_id,doc_id,system,role,text\n1,d1,R,reference,x\n1,d1,A,system,y\n1,d2,B,system,z\n"
        },
    ),
    Api(
        "long-table-source-differs",
        load("t.csv"),
        InputError,
        r"t\.csv, line 3, column source: segment '1' has a different source than on line 2",
        {"t.csv": "segment_id,source,system,role,text\n1,Hund,R,reference,x\n1,Katze,A,system,y\n"},
    ),
    Api(
        "long-table-criterion-declared-differently",
        load("t.csv"),
        InputError,
        r"t\.csv, line 4: criterion 'q' is declared differently here than on line 3; declare each "
        r"criterion the same way \(direction and scale\) on every row$",
        {
            "t.csv": "segment_id,system,role,text,criterion,score,higher_is_better\n"
            "1,R,reference,x,,,\n1,A,system,y,q,1,true\n1,B,system,z,q,2,false\n"
        },
    ),
    Api(
        "mqm-source-differs",
        load("mqm_x_ende.tsv"),
        InputError,
        r"mqm_x_ende\.tsv, line 3, column source: segment 1 has a different source text than on "
        r"line 2; a segment has one source$",
        {
            "mqm_x_ende.tsv": "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
            "A\td\t1\t1\tr1\tHund\tdog\tNo-error\tNo-error\n"
            "refA\td\t1\t1\tr1\tKatze\tthe dog\tNo-error\tNo-error\n"
        },
    ),
    Api(
        "mqm-target-differs",
        load("mqm_x_ende.tsv"),
        InputError,
        r"mqm_x_ende\.tsv, line 3, column target: A has a different target text for segment 1 than on "
        r"line 2; the texts are compared after removing the <v></v> marks",
        {
            "mqm_x_ende.tsv": "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
            "A\td\t1\t1\tr1\tHund\t<v>dog</v>\tAccuracy/Mistranslation\tMajor\n"
            "A\td\t1\t1\tr2\tHund\ta <v>dog</v>\tAccuracy/Mistranslation\tMinor\n"
        },
    ),
    Api(
        "table-parse-direct-nul",
        lambda d: parse_table("a,b\n1,\x002\n", "x.csv"),
        InputError,
        r"x\.csv, line 2, column 3: NUL byte",
    ),
    Api(
        "table-parse-long-row",
        lambda d: _with_line_limit(lambda: parse_table("a,b\n1," + "2" * 50 + "\n", "x.csv"), 20),
        InputError,
        r"x\.csv, line 2: line is 52 characters long, over the limit of 20",
    ),
    # --- study_from_texts
    Api(
        "texts-systems-list",
        lambda d: study_from_texts(["a"], [["a"]]),
        WrongTypeError,
        r"systems must be a mapping name -> list of texts.* got list",
    ),
    Api(
        "texts-systems-none",
        lambda d: study_from_texts(None, [["a"]]),
        WrongTypeError,
        r"got NoneType",
    ),
    Api(
        "texts-hypothesis-number",
        lambda d: study_from_texts({"A": ["a", 3]}, [["a", "b"]]),
        WrongTypeError,
        r"systems\['A'\]\[1\] must be a str \(or None where missing\), got int 3",
    ),
    Api(
        "texts-hypothesis-bytes",
        lambda d: study_from_texts({"A": [b"a"]}, [["a"]]),
        WrongTypeError,
        r"systems\['A'\]\[0\] must be a str .* got bytes",
    ),
    Api(
        "texts-hypotheses-a-string",
        lambda d: study_from_texts({"A": "the cat"}, [["a"]]),
        WrongTypeError,
        r"systems\['A'\] must be a list of texts .* got str",
    ),
    Api(
        "texts-hypothesis-is-a-typeerror",
        lambda d: study_from_texts({"A": [1.5]}, [["a"]]),
        TypeError,
        r"got float 1\.5",
    ),
    Api(
        "texts-system-name-number",
        lambda d: study_from_texts({1: ["a"]}, [["a"]]),
        WrongTypeError,
        r"system names must be str, got int 1",
    ),
    Api(
        "texts-reference-number",
        lambda d: study_from_texts({"A": ["a", "b"]}, [["a", 2]]),
        WrongTypeError,
        r"references\[0\]\[1\] must be a str",
    ),
    Api(
        "texts-reference-mapping-number",
        lambda d: study_from_texts({"A": ["a"]}, {"r": [7]}),
        WrongTypeError,
        r"references\['r'\]\[0\] must be a str",
    ),
    Api(
        "texts-references-none",
        lambda d: study_from_texts({"A": ["a"]}, None),
        WrongTypeError,
        r"references must be a list of reference streams .* got NoneType",
    ),
    Api(
        "texts-references-string",
        lambda d: study_from_texts({"A": ["a"]}, "a"),
        WrongTypeError,
        r"references must be a list of reference streams",
    ),
    Api(
        "texts-references-flat-list",
        lambda d: study_from_texts({"A": ["a", "b"]}, ["a", "b"]),
        StudyError,
        r"a single list of strings was given; wrap it",
    ),
    Api(
        "texts-no-systems", lambda d: study_from_texts({}, [["a"]]), StudyError, r"no systems given"
    ),
    Api(
        "texts-uneven-systems",
        lambda d: study_from_texts({"A": ["a"], "B": ["a", "b"]}, [["a"]]),
        StudyError,
        r"systems have different numbers of texts \(A: 1, B: 2\)",
    ),
    Api(
        "texts-blank-reference",
        lambda d: study_from_texts({"A": ["a", "b"]}, [["a", " \t"]]),
        StudyError,
        r"reference 'ref-1', segment 2 is blank",
    ),
    Api(
        "texts-empty-reference",
        lambda d: study_from_texts({"A": ["a"]}, {"r": [""]}),
        StudyError,
        r"reference 'r', segment 1 is blank",
    ),
    Api(
        "texts-rating-score-bool",
        lambda d: study_from_texts(
            {"A": ["a"]}, [["a"]], ratings=[Rating("A", "1", None, None, "da", True)]
        ),
        WrongTypeError,
        r"rating 1's score must be a number, got bool True",
    ),
    Api(
        "texts-rating-system-number",
        lambda d: study_from_texts(
            {"A": ["a"]}, [["a"]], ratings=[Rating(1, "1", None, None, "da", 5.0)]
        ),
        WrongTypeError,
        r"rating 1's system must be a str, got int 1",
    ),
    Api(
        "texts-rater-repeats-item",
        lambda d: study_from_texts(
            {"A": ["a"]},
            [["a"]],
            ratings=[
                Rating("A", "1", "r1", None, "da", 40.0),
                Rating("A", "1", "r1", None, "da", 60.0),
            ],
        ),
        InputError,
        r"rater 'r1' scores system 'A', segment '1', da twice \(40 on rating 1, 60 on rating 2\): "
        r"different scores",
    ),
    Api(
        "folder-unreadable-file",
        lambda d: _denied(lambda: load_study(d / "s")),
        InputError,
        r"references/ref\.txt: cannot read the file \(Permission denied\)",
        plain(),
    ),
    Api(
        "read-lines-unreadable",
        lambda d: _denied(lambda: read_lines(d / "f.txt")),
        InputError,
        r"f\.txt: cannot read the file \(Permission denied\)",
        {"f.txt": "a\n"},
    ),
    # --- Study objects built by hand
    Api(
        "study-segment-id-int",
        lambda d: validate_study(Study("t", (Segment(1),), {"r": ["a"]}, {"A": ["a"]})),
        WrongTypeError,
        r"t: segment 1's id must be a str, got int 1",
    ),
    Api(
        "study-source-number",
        lambda d: validate_study(Study("t", (Segment("1", None, 5),), {"r": ["a"]}, {"A": ["a"]})),
        WrongTypeError,
        r"segment '1''s source must be a str or None",
    ),
    Api(
        "study-stream-tuple-of-ints",
        lambda d: validate_study(Study("t", (Segment("1"),), {"r": (1,)}, {"A": ["a"]})),
        WrongTypeError,
        r"reference 'r' text 1 must be a str or None, got int 1",
    ),
    Api(
        "study-name-number",
        lambda d: validate_study(Study(5, (Segment("1"),), {"r": ["a"]}, {"A": ["a"]})),
        WrongTypeError,
        r"study: the study name must be a str, got int 5",
    ),
    Api(
        "study-criterion-scale-strings",
        lambda d: validate_study(
            Study(
                "t",
                (Segment("1"),),
                {"r": ["a"]},
                {"A": ["a"]},
                criteria={"q": Criterion("q", True, ("1", "5"))},
            )
        ),
        WrongTypeError,
        r"criterion 'q''s scale must be None or a \(low, high\) tuple",
    ),
    Api(
        "study-rating-not-a-rating",
        lambda d: validate_study(
            Study("t", (Segment("1"),), {"r": ["a"]}, {"A": ["a"]}, ratings=(("A", "1"),))
        ),
        WrongTypeError,
        r"rating 1 must be a Rating, got tuple",
    ),
    # --- the pure checks the app reuses
    *[
        Api(
            f"check-resamples-{label}",
            lambda d, v=value: check_resamples(v),
            OptionError,
            r"resamples must be a whole number from 1 to 100,000, got " + expected,
        )
        for label, value, expected in [
            ("zero", 0, "0"),
            ("negative", -3, "-3"),
            ("billion", 10**9, "1000000000"),
            ("fraction", 2.5, "2.5"),
            ("nan", float("nan"), "nan"),
            ("inf", float("inf"), "inf"),
            ("bool", True, "True"),
            ("text", "100", "'100'"),
            ("none", None, "None"),
        ]
    ],
    Api(
        "max-bytes-nan",
        lambda d: max_bytes_from_mb(float("nan")),
        OptionError,
        r"max_mb must be a finite number of megabytes above 0, got nan",
    ),
    Api("max-bytes-zero", lambda d: max_bytes_from_mb(0), OptionError, r"got 0"),
    Api(
        "max-bytes-text",
        lambda d: max_bytes_from_mb("5"),
        OptionError,
        r"max_mb must be a number of megabytes, got '5'",
    ),
    Api(
        "number-underscore",
        lambda d: number("1_0", file="f", line=1, column="c"),
        InputError,
        r"f, line 1, column c: '1_0' is not a number",
    ),
    Api(
        "check-text-nul",
        lambda d: check_text("ab\ncd\x00", "f"),
        InputError,
        r"f, line 2, column 3: NUL byte",
    ),
    Api(
        "read-lines-nul",
        lambda d: read_lines(d / "f.txt"),
        InputError,
        r"f\.txt, line 1, column 2: NUL byte",
        {"f.txt": b"a\x00b\n"},
    ),
    Api(
        "plain-text-api-nul",
        lambda d: plain_text_study([d / "r.txt"], [d / "h.txt"]),
        InputError,
        r"h\.txt, line 1, column 1: NUL byte",
        {"r.txt": "a\n", "h.txt": "\x00\n"},
    ),
    Api(
        "plain-text-api-blank-ref",
        lambda d: plain_text_study([d / "r.txt"], [d / "h.txt"]),
        InputError,
        r"r\.txt, line 1: blank line",
        {"r.txt": "\u2003\n", "h.txt": "a\n"},
    ),
    Api(
        "system-table-fullwidth",
        lambda d: parse_system_table(SYSTEM_TABLE.replace("2.9", "\uff12"), "t.csv"),
        InputError,
        r"t\.csv, line 4, column adequacy: '\uff12' is not a number",
    ),
    Api(
        "system-table-underscore",
        lambda d: parse_system_table(SYSTEM_TABLE.replace("20.4", "2_0"), "t.csv"),
        InputError,
        r"'2_0' is not a number",
    ),
    Api(
        "bootstrap-too-many-resamples",
        lambda d: _bootstrap(200_000),
        StatsInputError,
        r"number of resamples must be at most 100,000, got 200000",
    ),
]


def _with_line_limit(call: Callable[[], Any], limit: int) -> Any:
    """Run ``call`` with a small line-length limit (the real one is 1,000,000 characters)."""
    saved_limit = limits.MAX_LINE_CHARS
    limits.MAX_LINE_CHARS = limit
    try:
        return call()
    finally:
        limits.MAX_LINE_CHARS = saved_limit


def _denied(call: Callable[[], Any]) -> Any:
    """Run ``call`` as if no file could be read (root can read anything, so permissions are simulated)."""
    refuse = PermissionError(13, "Permission denied")
    with mock.patch.object(Path, "read_bytes", side_effect=refuse):
        return call()


def _bootstrap(n: int) -> Any:
    from bleu_core.engine.statistics import compute_system_statistics
    from bleu_core.evaluation.bootstrap import bootstrap

    systems = compute_system_statistics({"A": ["a b"], "B": ["a c"]}, [["a b"]], max_order=4)
    return bootstrap(systems, n_resamples=n)


@pytest.mark.parametrize("case", API_CASES, ids=lambda c: c.id)
def test_api_rejects_bad_input_with_our_error(case: Api, tmp_path: Path) -> None:
    write_files(tmp_path, case.files)
    with pytest.raises(case.error, match=case.match) as info:
        case.call(tmp_path)
    assert isinstance(info.value, BleuStudyError), type(info.value)


def test_the_catalog_is_large_and_its_names_unique() -> None:
    ids = [c.id for c in CLI_CASES] + [c.id for c in API_CASES]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 120


# ------------------------------------------------------------------------------------ good inputs still load


def test_the_limits_leave_ordinary_inputs_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path,
        plain(
            **{
                "ratings.csv": ratings(
                    "A,1,r1,da,50", "A,1,r2,da,-0", "B,,r1,da,1e1", "A,2,,da,.5", "A,2,,da,.5"
                )
            }
        ),
    )
    study = load_study(tmp_path / "s").study
    assert sorted(r.score for r in study.ratings) == [0.0, 0.5, 0.5, 10.0, 50.0]
    write_files(tmp_path, GOOD)
    assert (
        cli.main(
            [
                "score",
                "-r",
                str(tmp_path / "ref.txt"),
                "-i",
                str(tmp_path / "hyp.txt"),
                "--max-mb",
                "0.5",
            ]
        )
        == 0
    )
    assert "BLEU" in capsys.readouterr().out
    assert check_resamples(100_000) == 100_000 and parse_max_mb("1e-3") == 0.001
    check_text("x" * 1_000_000, "ok.txt")  # exactly at the limit


# ------------------------------------------------------------------------------------ fuzzing every loader

_TEXTS = st.one_of(
    st.binary(max_size=300),
    st.text(st.characters(codec="utf-8"), max_size=200).map(
        lambda s: s.encode("utf-8", "surrogatepass")
    ),
    st.lists(
        st.sampled_from(
            [
                "a",
                "b",
                "5",
                "-1",
                "\u0663",
                "_",
                ",",
                ";",
                "\t",
                "\n",
                "\r",
                " ",
                '"',
                "\x00",
                "nan",
                "{",
                "}",
                "[",
                "]",
                ":",
                "\ufeff",
            ]
        ),
        max_size=60,
    ).map(lambda parts: "".join(parts).encode("utf-8")),
)

_HEADERS = [
    "system,segment_id,rater,criterion,score\n",
    "system,segment_id,adequacy\n",
    "segment_id,system,text,role\n",
    "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n",
    "system,BLEU,adequacy\n",
]


def _fuzz_zip(data: bytes, mangle: int) -> bytes:
    good = zip_bytes(plain("z", ratings__csv=None, **{"ratings.csv": data}), zipfile.ZIP_DEFLATED)
    if not mangle:
        return good
    position = mangle % len(good)
    return good[:position] + bytes([good[position] ^ 0x5A]) + good[position + 1 :]


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=_TEXTS,
    header=st.sampled_from(_HEADERS),
    target=st.sampled_from(
        [
            "ref",
            "sys",
            "ratings",
            "segments",
            "table-csv",
            "table-tsv",
            "json",
            "json-gz",
            "zip",
            "system-table",
            "score",
            "wmt-da",
            "wmt-hyp",
        ]
    ),
    mangle=st.integers(min_value=0, max_value=5000),
)
def test_fuzzed_files_give_only_our_errors(
    tmp_path: Path, data: bytes, header: str, target: str, mangle: int
) -> None:
    case = Path(tempfile.mkdtemp(dir=tmp_path))
    try:
        if target in ("ref", "sys", "ratings", "segments"):
            key = {
                "ref": "references__ref__txt",
                "sys": "systems__A__txt",
                "ratings": "ratings.csv",
                "segments": "segments.tsv",
            }[target]
            content = header.encode() + data if target == "ratings" else data
            write_files(case, plain(**{key: content}))
            load_study(case / "s")
        elif target in ("table-csv", "table-tsv"):
            name = "t.csv" if target == "table-csv" else "t.tsv"
            write_files(case, {name: header.encode() + data})
            load_study(case / name)
        elif target == "json":
            text = js(SAVED).encode()
            position = mangle % len(text)
            write_files(case, {"s.json": text[:position] + data + text[position:]})
            load_study(case / "s.json")
        elif target == "json-gz":
            write_files(
                case, {"s.json.gz": gzip.compress(data) if mangle % 2 else b"\x1f\x8b" + data}
            )
            load_study(case / "s.json.gz")
        elif target == "zip":
            write_files(case, {"s.zip": _fuzz_zip(data, mangle)})
            load_study(case / "s.zip")
        elif target in ("wmt-da", "wmt-hyp"):
            files = wmt(da=DA_HEADER.encode() + data) if target == "wmt-da" else wmt(hyp=data)
            write_files(case, files)
            load_study(case / "w")
        elif target == "system-table":
            write_files(case, {"t.csv": b"system,BLEU,adequacy\n" + data})
            from bleu_core.evaluation.system_table import read_system_table

            read_system_table(case / "t.csv")
        else:
            write_files(case, {"ref.txt": data, "hyp.txt": data[::-1]})
            read_lines(case / "ref.txt")
            from bleu_core.cli import read_corpus_files

            read_corpus_files([str(case / "ref.txt")], [str(case / "hyp.txt")], 10**6)
    except BleuStudyError:
        pass  # our own error, with a message: what we want
