"""A Pearmut campaign imported as an ESA campaign (``bleu_core/campaigns/pearmut_import.py``): every rating and
span that an ESA campaign can hold is stored as read, and what it cannot hold is counted in the notes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_core.campaigns.model import CampaignError
from bleu_core.campaigns.pearmut_import import import_pearmut
from bleu_core.campaigns.storage import CampaignStore
from bleu_core.io.members import open_tree
from bleu_core.study.formats.pearmut_study import PearmutFiles, pearmut_files, read_pearmut_files

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "pearmut-1.1.6-esa-enja"


def _log(*answers: dict) -> PearmutFiles:
    lines = [
        json.dumps(
            {
                "annotation": [a],
                "item": [
                    {"item_id": "s1", "src": "x", "ref": "r", "tgt": {"A": "abc", "B": "de"}}
                ],  # fmt: skip
                "user_id": "u1",
                "item_i": 0,
            }
        )  # fmt: skip
        for a in answers
    ]
    return PearmutFiles((), (("log.jsonl", "\n".join(lines)),))


def test_what_an_esa_campaign_cannot_hold_is_counted() -> None:
    store = CampaignStore("sqlite://")
    # A: 70 with "b" (unit 1) major and [instructions fault] (3 + 1 = 4); B: 55.5 is not a whole number
    files = _log({"A": {"score": 70, "error_spans": [{"start_i": 1, "end_i": 1, "severity": "major"},
                                                      {"start_i": 4, "end_i": 4, "severity": "minor"}]},
                  "B": {"score": 55.5, "error_spans": []}})  # fmt: skip
    got = import_pearmut(store, files, name="t")
    code = got.created.campaign.code
    key = got.created.organiser_key
    assert [(r.judge, r.system, r.score) for r in store.ratings(code, key)] == [("u1", "A", 70)]
    assert [(s.span.start, s.span.end, s.span.severity) for s in store.spans(code, key)] == [
        (1, 2, "major")
    ]
    assert got.notes == (
        "not imported: 1 'Instructions fault' span(s)",
        "not imported: 1 score that is not a whole number from 0 to 100(s)",
    )


def test_nothing_to_import_is_refused() -> None:
    with pytest.raises(CampaignError, match=r"the Pearmut files hold no item to import"):
        import_pearmut(CampaignStore("sqlite://"), PearmutFiles((), (("log.jsonl", ""),)))


def test_the_command_names_a_file_that_is_not_pearmuts(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"format": "bleu-study"}')
    done = subprocess.run(
        [sys.executable, "-m", "bleu_core", "campaigns", "import-pearmut", str(tmp_path / "x.json"), str(tmp_path / "c.sqlite")],  # fmt: skip
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert (
        done.returncode == 2
        and "x.json: not a Pearmut annotation log, download or campaign file" in done.stderr
    )


@pytest.mark.skipif(
    not DATA.exists(), reason="shared/data/pearmut-1.1.6-esa-enja is not beside the clone"
)
def test_the_real_run_imports_every_rating() -> None:
    with open_tree(DATA) as tree:
        files = pearmut_files(tree)
    assert files is not None
    store = CampaignStore("sqlite://")
    got = import_pearmut(store, files)
    code, key = got.created.campaign.code, got.created.organiser_key
    read = read_pearmut_files(files)
    stored = {(r.judge, r.segment_id, r.system): r.score for r in store.ratings(code, key)}
    assert got.n_ratings == 60 and stored == {(a.user, a.item_id, a.system): a.scores["esa"] for a in read.answers}  # fmt: skip
    # every span but the one [instructions fault] (ann-b, en-ja_#_1, Claude-3.5: 26-26 on 25 characters)
    spans = sorted((s.judge, s.segment_id, s.system, *((-1, -1) if s.span.missing else (s.span.start, s.span.end)), s.span.missing) for s in store.spans(code, key))  # fmt: skip
    expected = sorted(
        (a.user, a.item_id, a.system, -1 if s.category == "Omission" else s.start, -1 if s.category == "Omission" else s.end, s.category == "Omission")  # fmt: skip
        for a in read.answers for s in a.spans if s.category != "Instructions fault"
    )  # fmt: skip
    assert spans == expected and len(expected) == sum(len(a.spans) for a in read.answers) - 1
    assert "not imported: 1 'Instructions fault' span(s)" in got.notes
