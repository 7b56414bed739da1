"""Our Pearmut campaign through the real Pearmut 1.1.6 and back: every score and span equal.

The campaign file (:func:`bleu_core.campaigns.pearmut_export.pearmut_campaign`) goes through ``pearmut add``;
the server runs on 127.0.0.1 (``pearmut run`` binds 0.0.0.0 and has no host option, so the test starts the
same ``pearmut run`` with uvicorn's host set to the loopback address); an annotator goes through
``/get-next-item`` and ``/log-response`` as Pearmut's page does (the tutorial first, its ``validations``
included), marking spans on an emoji, across a line break and on both special tokens; ``/download-annotations``
is read back by :mod:`bleu_core.study.formats.pearmut`. Then our ratings go through ``pearmut add-existing``
(:func:`~bleu_core.campaigns.pearmut_export.pearmut_existing`) into a fresh Pearmut and come back equal too.

Pearmut lives in its own venv (never a project dependency): ``.venv-pearmut/`` at the repository's top
(``.ci/run`` makes it), or ``$PEARMUT_VENV``. Without it the test is skipped, saying so.
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bleu_core.campaigns import CampaignStore, JudgeSession, plan_campaign
from bleu_core.campaigns.contrastive import contrastive_plan, submit_screen
from bleu_core.campaigns.model import Item, StoredRating
from bleu_core.campaigns.pearmut_export import (
    pearmut_bundle,
    pearmut_campaign,
    pearmut_existing,
    pearmut_span,
)
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
from bleu_core.study.formats.pearmut_study import PearmutFiles, read_pearmut_files

REPO = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get("PEARMUT_VENV", REPO / ".venv-pearmut"))
PEARMUT = VENV / "bin" / "pearmut"
pytestmark = pytest.mark.skipif(
    not PEARMUT.exists(),
    reason=f"no Pearmut venv at {VENV} (python3 -m venv {VENV} && {VENV}/bin/pip install "
    '--ignore-requires-python --only-binary=:all: pearmut==1.1.6 "scipy>=1.16,<1.17"; .ci/run does it)',
)
CID = "bleu_roundtrip"
T0 = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)
# two lines, an emoji (two UTF-16 units) before the line break, Japanese after it
TWO_LINES = "Das ist gut 😀\nシソの土地"
ITEMS = [
    Item(0, "s1", "A", TWO_LINES, source="This is good 😀\nShiso's land", reference="Das ist gut 😀\nシソ"),
    Item(1, "s1", "B", "Das ist schlecht\nシソ", source="This is good 😀\nShiso's land", reference="Das ist gut 😀\nシソ"),  # fmt: skip
    Item(2, "s2", "A", "Hallo Welt 👋🏽", source="Hello world 👋🏽", reference="Hallo Welt 👋🏽"),
    Item(3, "s2", "B", "Hallo", source="Hello world 👋🏽", reference="Hallo Welt 👋🏽"),
    Item(4, "t1", "REF", "Der Hund bellt.", source="The dog barks.", kind="tutorial",
         qc={"expected_spans": [MarkedSpan(4, 8, "major").to_dict()], "scores": {"esa": [0, 60]}}),
]  # fmt: skip
SCORES = {("s1", "A"): 70, ("s1", "B"): 15, ("s2", "A"): 100, ("s2", "B"): 5, ("t1", "REF"): 40}
MARKS = {
    ("s1", "A"): [
        MarkedSpan(12, 13, "minor"),
        MarkedSpan(12, 17, "major"),
    ],  # the emoji; emoji + "\nシソ"
    ("s1", "B"): [
        MarkedSpan(17, 19, "major"),
        MarkedSpan(None, None, "minor", True),
    ],  # "シソ" after "\n"
    ("s2", "A"): [
        MarkedSpan(11, 13, "minor")
    ],  # 👋🏽: two characters, four UTF-16 units, the last ones
    ("s2", "B"): [],
    ("t1", "REF"): [MarkedSpan(4, 8, "major")],  # "Hund": the expected span
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "PEARMUT_ROOT": str(root), "PEARMUT_TOKEN_MAIN": "roundtrip-main"}


def _call(port: int, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/{path}", data=data, headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.loads(response.read())


@contextmanager
def _server(root: Path) -> Iterator[int]:
    """``pearmut run --port N`` with uvicorn bound to 127.0.0.1; always stopped."""
    port = _free_port()
    code = (
        "import sys, uvicorn; run = uvicorn.run; "
        "uvicorn.run = lambda app, **kw: run(app, **{**kw, 'host': '127.0.0.1'}); "
        f"sys.argv = ['pearmut', 'run', '--port', '{port}']; "
        "from pearmut.cli import main; main()"
    )
    log = (root / "server.log").open("w")
    proc = subprocess.Popen([str(VENV / "bin" / "python"), "-c", code], env=_env(root), cwd=root, stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        f"Pearmut did not start: {(root / 'server.log').read_text()[-2000:]}"
                    )
                time.sleep(0.3)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        log.close()


def _pearmut(root: Path, *args: str) -> None:
    done = subprocess.run([str(PEARMUT), *args], env=_env(root), cwd=root, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0 and "Error" not in done.stdout, done.stdout + done.stderr


def _annotate(port: int, user: str) -> int:
    """Answer every item Pearmut serves *user* as the page would; the number of items answered."""
    n = 0
    for _ in range(20):
        got = _call(port, "get-next-item", {"campaign_id": CID, "user_id": user})
        if got["status"] == "goodbye":
            return n
        answers = []
        for seg in got["payload"]:
            answers.append({
                system: {"score": SCORES[(seg["item_id"], system)], "textfield": None,
                         "error_spans": [pearmut_span(m, text) for m in MARKS[(seg["item_id"], system)]]}
                for system, text in seg["tgt"].items()
            })  # fmt: skip
        payload: dict[str, Any] = {"annotation": answers, "actions": [{"time": 1.0, "action": "submit"}], "item": got["payload"]}  # fmt: skip
        if any("validation" in seg for seg in got["payload"]):
            payload["validations"] = [True]  # the page's verdict: the expected span was marked
        assert _call(port, "log-response", {"campaign_id": CID, "user_id": user, "item_i": got["info"]["item_i"], "payload": payload}) == "ok"  # fmt: skip
        n += 1
    pytest.fail("Pearmut kept serving items")


def _read_back(port: int, root: Path) -> dict[tuple[str, str], tuple[float, list[tuple[int, int, str, str]]]]:  # fmt: skip
    download = _call(port, f"download-annotations?campaign_id={CID}")
    stored = json.loads((root / "data" / "campaigns" / f"{CID}.json").read_text())
    got = read_pearmut_files(PearmutFiles((stored,), (("download.json", json.dumps(download)),)))
    assert not [w for w in got.warnings() if w.code == "pearmut-bad-entry"]
    return {(a.item_id, a.system): (a.scores["esa"], sorted((s.start, s.end, s.category, s.severity) for s in a.spans)) for a in got.answers}  # fmt: skip


def _expected() -> dict[tuple[str, str], tuple[float, list[tuple[int, int, str, str]]]]:
    """Our scores and marks as the reader gives them: characters, end exclusive; [missing] an Omission."""
    texts = {(it.segment_id, it.system): it.translation for it in ITEMS}
    out = {}
    for key, score in SCORES.items():
        if key[0].startswith("t"):
            continue  # the tutorial is kept apart
        n = len(texts[key])
        out[key] = (float(score), sorted((n, n, "Omission", m.severity.capitalize()) if m.missing else (m.start, m.end, "Error", m.severity.capitalize()) for m in MARKS[key]))  # fmt: skip
    return out


@pytest.mark.parametrize(
    ("protocol", "assignment", "n_pages"),
    [
        ("cESA", "task-based", 3),  # the tutorial, then s1 and s2 (A and B side by side)
        ("ESA", "task-based", 5),  # the tutorial, then one page per (segment, system)
        ("cESA", "dynamic", 3),  # Pearmut chooses the systems shown (here both of each segment)
    ],
)
def test_a_campaign_goes_through_the_real_pearmut_and_back(
    tmp_path: Path, protocol: str, assignment: str, n_pages: int
) -> None:
    users: list[str] | int = ["ann-1"] if assignment == "task-based" else 1
    campaign = pearmut_campaign(
        ITEMS, campaign_id=CID, users=users, protocol=protocol, assignment=assignment
    )
    (tmp_path / "campaign.json").write_text(json.dumps(campaign, ensure_ascii=False))
    _pearmut(tmp_path, "add", "campaign.json")
    (user,) = json.loads((tmp_path / "data" / "progress" / f"{CID}.json").read_text())
    with _server(tmp_path) as port:
        assert _annotate(port, user) == n_pages
        back = _read_back(port, tmp_path)
    assert back == _expected()
    # the spans land on the characters marked: the emoji alone, and "シソ" after the line break
    assert TWO_LINES[12:13] == "😀" and "Das ist schlecht\nシソ"[17:19] == "シソ"


def test_our_ratings_load_through_pearmut_add_existing(tmp_path: Path) -> None:
    campaign = pearmut_campaign(
        ITEMS, campaign_id=CID, users=["ann-1"], protocol="cESA", token="tok"
    )
    ratings = [StoredRating("K7", "ann-1", "g", it.position, it.segment_id, it.system, "esa", SCORES[(it.segment_id, it.system)], T0, T0, kind=it.kind) for it in ITEMS]  # fmt: skip
    spans = [StoredSpan("K7", "ann-1", "g", it.position, it.segment_id, it.system, m, it.kind) for it in ITEMS for m in MARKS[(it.segment_id, it.system)]]  # fmt: skip
    campaigns, progress, annotations = pearmut_existing(campaign, ratings, spans)
    for name, content in (("campaigns.json", campaigns), ("progress.json", progress), ("annotations.json", annotations)):  # fmt: skip
        (tmp_path / name).write_text(json.dumps(content, ensure_ascii=False))
    _pearmut(tmp_path, "add-existing", "--campaigns", "campaigns.json", "--progress", "progress.json", "--annotations", "annotations.json")  # fmt: skip
    with _server(tmp_path) as port:
        back = _read_back(port, tmp_path)
        shown = _call(port, "get-i-item", {"campaign_id": CID, "user_id": "ann-1", "item_i": 0})
    assert back == _expected()
    # Pearmut's page would show item 0 (s1: A and B side by side) with our scores filled in
    existing = shown["payload_existing"]["annotation"][0]
    assert {system: answer["score"] for system, answer in existing.items()} == {"A": 70, "B": 15}


def test_a_contrastive_lessons_zip_loads_through_pearmut_add_existing(tmp_path: Path) -> None:
    """Manage's Pearmut zip of a stored cESA campaign (two students, every screen saved with
    :func:`~bleu_core.campaigns.contrastive.submit_screen`) goes into a fresh Pearmut and comes back equal."""
    texts = {
        "A": [TWO_LINES, "Hallo Welt 👋🏽"],
        "B": ["Das ist schlecht\nシソ", "Hallo"],
        "C": ["gut", "Welt"],
    }
    plan = plan_campaign(
        name="cESA lesson", study_name="toy", segment_ids=["s1", "s2"], translations=texts,
        sources=["This is good 😀\nShiso's land", "Hello world 👋🏽"], references=None,
        systems=["A", "B", "C"], n_segments=2, seed=3, display="source", groups=["class"],
    )  # fmt: skip
    store = CampaignStore(tmp_path / "lesson.sqlite")
    created = store.create_campaign(contrastive_plan(plan))
    code, key = created.campaign.code, created.organiser_key
    items = store.items(code, key)
    for name, base in (("ann-1", 10), ("ann-2", 50)):
        session = JudgeSession.join(store, code, name, "class")
        for first in (0, 3):
            answers = {}
            for k, it in enumerate(items[first : first + 3]):
                marks = [MarkedSpan(len(it.translation) - 1, len(it.translation), "major")]
                if k == 2:
                    marks.append(MarkedSpan(None, None, "minor", True))
                answers[it.position] = (base + 10 * k + first, marks)
            submit_screen(session, answers)
    ratings, spans = store.ratings(code, key), store.spans(code, key)
    store.close()
    with zipfile.ZipFile(io.BytesIO(pearmut_bundle(items, ratings, spans, campaign_id=CID, protocol="cESA"))) as z:  # fmt: skip
        for name in ("campaigns.json", "progress.json", "annotations.json"):
            (tmp_path / name).write_bytes(z.read(name))
    _pearmut(tmp_path, "add-existing", "--campaigns", "campaigns.json", "--progress", "progress.json", "--annotations", "annotations.json")  # fmt: skip
    with _server(tmp_path) as port:
        download = _call(port, f"download-annotations?campaign_id={CID}")
        stored = json.loads((tmp_path / "data" / "campaigns" / f"{CID}.json").read_text())
    assert stored["info"]["protocol"] == "cESA"
    got = read_pearmut_files(PearmutFiles((stored,), (("download.json", json.dumps(download)),)))
    back = {(a.user, a.item_id, a.system): (a.scores["esa"], sorted((s.start, s.end, s.category) for s in a.spans)) for a in got.answers}  # fmt: skip
    text = {(it.segment_id, it.system): it.translation for it in items}
    expected: dict[tuple[str, str, str], tuple[float, list[tuple[int, int, str]]]] = {}
    for r in ratings:
        n = len(text[r.segment_id, r.system])
        mine = [s.span for s in spans if (s.judge, s.position) == (r.judge, r.position)]
        marks = sorted((n, n, "Omission") if m.missing else (m.start, m.end, "Error") for m in mine)
        expected[r.judge, r.segment_id, r.system] = (float(r.score), marks)
    assert back == expected and len(back) == 12


def test_the_command_lines_campaign_of_a_study_is_accepted_by_pearmut_add(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bleu_core", "campaigns", "export-pearmut", "demo:ted-zh-en", "--out",
         str(tmp_path / "campaign.json"), "--users", "ann-1,ann-2", "--segments", "3", "--protocol", "cESA"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    _pearmut(tmp_path, "add", "campaign.json")
    stored = json.loads((tmp_path / "data" / "campaigns" / f"{json.loads((tmp_path / 'campaign.json').read_text())['campaign_id']}.json").read_text())  # fmt: skip
    assert sorted(stored["data"]) == ["ann-1", "ann-2"] and len(stored["data"]["ann-1"]) == 3
