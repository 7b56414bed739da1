"""Concurrency and durability of campaign storage.

* a short version of ``benchmarks/load_ratings.py``: 30 judges (threads) rate at once for 3 s through
  :class:`JudgeSession` (the Rate page's code path); every submitted rating must be stored exactly once with its
  last submitted score;
* kill-and-restart: a separate process commits ratings and reports each one after ``rate`` returned; it is killed
  with SIGKILL mid-work; every reported rating must be in the database afterwards.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from bleu_core.campaigns import CampaignStore

ROOT = Path(__file__).resolve().parents[1]


def load_benchmark():
    spec = importlib.util.spec_from_file_location(
        "load_ratings", ROOT / "benchmarks" / "load_ratings.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_ratings"] = module
    spec.loader.exec_module(module)
    return module


def test_thirty_concurrent_judges_every_rating_exactly_once(tmp_path):
    bench = load_benchmark()
    report = bench.run_load(
        tmp_path / "load.sqlite", n_judges=30, seconds=3.0, seed=1, n_segments=40
    )
    assert report.errors == [] and report.n_errors == 0
    assert report.n_submits > 30 and report.n_changes > 0 and report.n_skips > 0
    assert report.n_rows == report.n_expected_ratings > 0
    assert (
        report.n_duplicate_keys
        == report.n_missing
        == report.n_wrong_score
        == report.n_unexpected
        == 0
    )
    assert report.skips_match
    assert report.ok
    text_report = bench.format_report(report, "tmp")
    assert (
        "PASS" in text_report and f"| rows in the ratings table | {report.n_rows} |" in text_report
    )


CHILD = textwrap.dedent(
    """
    import sys
    from bleu_core.campaigns import CampaignStore
    db, code, token, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    store = CampaignStore(db)
    for pos in range(n):
        scores = {"adequacy": 1 + pos % 5, "fluency": 1 + (pos * 3) % 5}
        store.rate(code, token, pos, scores)
        print(f"committed {pos}", flush=True)   # only after rate() returned, i.e. after COMMIT
    print("finished", flush=True)
    """
)


def kill_while_rating(db: str, code: str, token: str, n: int, at_least: int) -> list[int]:
    """Run :data:`CHILD` (rating item after item in database ``db``) and SIGKILL it mid-work, once it has
    reported ``at_least`` ratings: no clean shutdown, no atexit, no flush. Returns every position it reported as
    committed; checks it died by the kill before finishing."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, db, code, token, str(n)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    reported: list[int] = []
    deadline = time.monotonic() + 60
    while len(reported) < at_least and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        reported.append(int(line.split()[1]))
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, err
    reported += [int(line.split()[1]) for line in out.splitlines() if line.startswith("committed")]
    assert "finished" not in out and len(reported) >= at_least
    return reported


def assert_reported_ratings_stored(
    store: CampaignStore, code: str, key: str, token: str, reported: list[int]
) -> None:
    """Every rating the killed child reported is stored with its scores; at most the one in flight when the
    kill came is there without having been reported; the judge resumes after the last committed item."""
    stored = {(r.position, r.criterion): r.score for r in store.ratings(code, key)}
    for pos in reported:
        assert stored[(pos, "adequacy")] == 1 + pos % 5
        assert stored[(pos, "fluency")] == 1 + (pos * 3) % 5
    assert len(stored) // 2 - len(reported) in (0, 1)
    assert store.resume(code, token).cursor == len(stored) // 2


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_ratings_committed_before_a_kill_survive_it(tmp_path):
    db = tmp_path / "kill.sqlite"
    bench = load_benchmark()
    store = CampaignStore(db)
    created = store.create_campaign(bench.make_plan(n_segments=200, seed=3))
    code, key = created.campaign.code, created.organiser_key
    token = store.join(code, "Ana", "monolingual").token
    store.close()
    reported = kill_while_rating(str(db), code, token, created.campaign.n_items, at_least=40)

    after = CampaignStore(db)  # "restart"
    with after.engine.connect() as conn:
        assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
    assert_reported_ratings_stored(after, code, key, token, reported)
    after.close()
