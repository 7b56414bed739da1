"""Durability of the SQLite campaign store, checked three ways.

* the settings themselves: WAL journal, ``synchronous=FULL``, busy timeout, foreign keys — asserted directly
  on live connections, so ``synchronous=OFF`` (or a lost PRAGMA) fails here whatever the timing;
* kill-and-restart at *random* points over several rounds: a child process rates item after item and
  reports each rating only after ``rate()`` returned; it is SIGKILLed after a random number of reports plus
  a random delay (so the kill also lands inside transactions). Every reported rating must survive. A store
  that acknowledged before committing (e.g. in batches) loses reported ratings in some round;
* separate judge *processes* (not threads behind one lock) writing to one SQLite file at once: every
  rating stored exactly once with its last score.

The seed of the random kill points is printed on failure; set ``BLEU_KILL_SEED`` to replay one.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from bleu_core.campaigns import CampaignStore, plan_campaign


def small_plan(n_segments: int = 30):
    segments = [f"seg{i:03d}" for i in range(n_segments)]
    systems = {f"sys{k}": [f"translation {k} of {s}" for s in segments] for k in range(2)}
    return plan_campaign(
        name="durability",
        study_name="synthetic",
        segment_ids=segments,
        translations=systems,
        sources=[f"source {s}" for s in segments],
        references=[f"reference {s}" for s in segments],
        systems=list(systems),
        n_segments=n_segments,
        seed=1,
        display="source",
    )


def scores_for(position: int, round_: int) -> dict[str, int]:
    return {"adequacy": 1 + (position + round_) % 5, "fluency": 1 + (position * 3 + round_) % 5}


# ----------------------------------------------------------------------------------------- settings


def test_sqlite_durability_settings_are_on_every_connection(tmp_path: Path) -> None:
    store = CampaignStore(tmp_path / "d.sqlite")
    store.create_campaign(small_plan(3))
    with store.engine.connect() as first, store.engine.connect() as second:
        for conn in (first, second):  # two pooled connections: the PRAGMAs run on each one
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            # 2 = FULL: the WAL is synced at every commit, so a committed rating survives a crash of the
            # process and of the machine (NORMAL, 1, may lose the last commits on power loss; OFF, 0,
            # may corrupt the file).
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 2
            assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 30_000
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    store.close()


# ----------------------------------------------------------------------------------------- kills
# Children are forked from this process (which has already imported everything), so starting one costs
# milliseconds, not the seconds of a fresh interpreter; each opens its own store, as a server process would.
# Reports go through a raw pipe with os.write: nothing is buffered in the child when the kill comes.


def fork_child(work) -> tuple[int, object]:
    """Fork a child running ``work(report)``; ``report(line)`` writes one line to the parent at once.
    Returns the child's pid and a text reader of its reports."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        code = 0
        try:
            os.close(read_end)
            work(lambda line: os.write(write_end, (line + "\n").encode()))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails the test
            os.write(write_end, f"error {exc!r}\n".encode())
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, os.fdopen(read_end, "r")


def rate_in_order(db: Path, code: str, token: str, n: int, round_: int):
    def work(report) -> None:
        store = CampaignStore(db)
        report("ready")
        for pos in range(n):
            store.rate(code, token, pos, scores_for(pos, round_))
            report(f"committed {pos}")  # only after rate() returned
        report("finished")

    return work


def kill_at(
    db: Path, code: str, token: str, n: int, round_: int, after: int, delay: float
) -> list[int]:
    """Fork a rating child; SIGKILL it once it reported ``after`` ratings and ``delay`` more seconds
    passed. Returns the positions it reported as committed."""
    pid, reports = fork_child(rate_in_order(db, code, token, n, round_))
    assert reports.readline().strip() == "ready"
    reported: list[int] = []
    deadline = time.monotonic() + 60
    while len(reported) < after and time.monotonic() < deadline:
        line = reports.readline()
        assert line.startswith("committed"), line
        reported.append(int(line.split()[1]))
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    rest = reports.read().splitlines()
    reports.close()
    assert not any(line.startswith(("error", "finished")) for line in rest), rest
    return reported + [int(line.split()[1]) for line in rest if line.startswith("committed")]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_reported_ratings_survive_kills_at_random_points(tmp_path: Path) -> None:
    seed = int(os.environ.get("BLEU_KILL_SEED") or random.SystemRandom().randrange(10**6))
    rng = random.Random(seed)
    db = tmp_path / "kill.sqlite"
    store = CampaignStore(db)
    created = store.create_campaign(small_plan(120))
    code, key = created.campaign.code, created.organiser_key
    n = created.campaign.n_items
    store.close()
    for round_ in range(4):
        setup = CampaignStore(db)
        token = setup.join(code, f"judge {round_}", "monolingual").token
        setup.close()
        after = rng.randrange(0, 25)
        delay = rng.choice([0.0, rng.uniform(0, 0.02)])
        reported = kill_at(db, code, token, n, round_, after, delay)

        restarted = CampaignStore(db)
        where = f"seed {seed}, round {round_}, killed after {after} reports + {delay * 1000:.1f} ms"
        with restarted.engine.connect() as conn:
            assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok", where
        mine = {
            (r.position, r.criterion): r.score
            for r in restarted.ratings(code, key)
            if r.judge == f"judge {round_}"
        }
        for pos in reported:
            expected = scores_for(pos, round_)
            assert mine.get((pos, "adequacy")) == expected["adequacy"], where
            assert mine.get((pos, "fluency")) == expected["fluency"], where
        # the positions are rated in order, so what is stored is a prefix: the reported ones and at most
        # the one in flight when the kill came
        stored_positions = sorted({pos for pos, _ in mine})
        assert stored_positions == list(range(len(stored_positions))), where
        assert len(stored_positions) - len(reported) in (0, 1), where
        assert restarted.resume(code, token).cursor == len(stored_positions), where
        restarted.close()


# ----------------------------------------------------------------------------------------- processes


def judge_work(db: Path, code: str, k: int, n: int, go: Path):
    def work(report) -> None:
        store = CampaignStore(db)
        token = store.join(code, f"judge {k}", "monolingual").token
        report("ready")
        while not go.exists():
            time.sleep(0.002)
        for pos in range(n):
            store.rate(code, token, pos, {"adequacy": 1 + (pos + k) % 5, "fluency": 1})
        for pos in range(0, n, 2):  # change every other rating: the last score must win
            store.rate(code, token, pos, {"adequacy": 1 + (pos + k) % 5, "fluency": 5})
        report("done")

    return work


def test_separate_judge_processes_on_one_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "many.sqlite"
    store = CampaignStore(db)
    created = store.create_campaign(small_plan(20))
    code, key = created.campaign.code, created.organiser_key
    n = min(created.campaign.n_items, 30)
    store.close()
    go = tmp_path / "go"
    judges = [fork_child(judge_work(db, code, k, n, go)) for k in range(4)]
    for _, reports in judges:
        assert reports.readline().strip() == "ready"
    go.touch()  # all four start writing at once
    for pid, reports in judges:
        assert reports.read().strip() == "done"
        reports.close()
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    store = CampaignStore(db)
    ratings = store.ratings(code, key)
    keys = [(r.judge, r.position, r.criterion) for r in ratings]
    assert len(keys) == len(set(keys)) == 4 * n * 2
    for r in ratings:
        k = int(r.judge.split()[-1])
        if r.criterion == "adequacy":
            assert r.score == 1 + (r.position + k) % 5
        else:
            assert r.score == (5 if r.position % 2 == 0 else 1)
            assert r.n_changes == (1 if r.position % 2 == 0 else 0)
    store.close()
