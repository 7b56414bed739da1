"""Load test of rating campaigns: many judges rating at once, then "is every rating there exactly once?".

N simulated judges (threads, as in the Streamlit server, which runs each browser session in a thread) rate for a
fixed time through :class:`bleu_core.campaigns.JudgeSession`, the code path of the Rate page: mostly rating the
next item, sometimes going back and changing a rating, sometimes skipping. Each judge remembers the last score it
successfully submitted for every (item, criterion). Afterwards the database must hold exactly those ratings: one row
per (judge, item, criterion), with the last submitted score, and exactly the skips still pending.

    .venv/bin/python benchmarks/load_ratings.py                 # 30 judges, 60 s, writes RESULTS-campaigns.md
    .venv/bin/python benchmarks/load_ratings.py --judges 5 --seconds 5 --no-write

The database is a fresh SQLite file in a temporary directory (or ``--db PATH``), never the user's data directory.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_core.campaigns import CampaignStore, JudgeSession, plan_campaign  # noqa: E402
from bleu_core.campaigns.storage import ratings_table, skips_table  # noqa: E402


@dataclass
class LoadReport:
    """What happened, and whether the database agrees with what the judges submitted."""

    n_judges: int
    seconds: float
    seed: int
    n_items: int
    n_submits: int = 0
    n_changes: int = 0
    n_skips: int = 0
    n_backs: int = 0
    n_errors: int = 0
    errors: list[str] = field(default_factory=list)
    n_expected_ratings: int = 0
    n_rows: int = 0
    n_duplicate_keys: int = 0
    n_missing: int = 0
    n_wrong_score: int = 0
    n_unexpected: int = 0
    n_expected_skips: int = 0
    n_skip_rows: int = 0
    skips_match: bool = False
    latencies_ms: list[float] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def ok(self) -> bool:
        return (
            self.n_errors == 0
            and self.n_rows == self.n_expected_ratings
            and self.n_duplicate_keys == 0
            and self.n_missing == 0
            and self.n_wrong_score == 0
            and self.n_unexpected == 0
            and self.skips_match
        )

    def latency(self, q: float) -> float:
        if not self.latencies_ms:
            return float("nan")
        return statistics.quantiles(self.latencies_ms, n=100, method="inclusive")[int(q) - 1]


def make_plan(n_segments: int = 100, n_systems: int = 3, seed: int = 0):
    segments = [f"seg{i:04d}" for i in range(n_segments)]
    systems = {
        f"sys{k}": [f"translation {k} of segment {i}" for i in range(n_segments)]
        for k in range(n_systems)
    }
    return plan_campaign(
        name="load test",
        study_name="synthetic",
        segment_ids=segments,
        translations=systems,
        sources=[f"source {i}" for i in range(n_segments)],
        references=[f"reference {i}" for i in range(n_segments)],
        systems=list(systems),
        n_segments=n_segments,
        seed=seed,
        display="source",
    )


def run_load(
    db: str | Path,
    *,
    n_judges: int = 30,
    seconds: float = 60.0,
    seed: int = 0,
    n_segments: int = 100,
) -> LoadReport:
    """Run *n_judges* concurrent judges for *seconds* against the database *db*; check the result."""
    store = CampaignStore(db)
    created = store.create_campaign(make_plan(n_segments=n_segments, seed=seed))
    code, key = created.campaign.code, created.organiser_key
    criteria = created.campaign.criterion_names
    report = LoadReport(n_judges, seconds, seed, created.campaign.n_items)
    lock = threading.Lock()
    expected: dict[tuple[str, int, str], int] = {}
    expected_skips: set[tuple[str, int]] = set()
    start = threading.Barrier(n_judges + 1)

    def judge(i: int) -> None:
        rng = random.Random(seed * 1000 + i)
        name = f"judge {i:02d}"
        mine: dict[tuple[int, str], int] = {}
        my_skips: set[int] = set()
        counts = {"submit": 0, "change": 0, "skip": 0, "back": 0}
        lat: list[float] = []
        errs: list[str] = []
        try:
            session = JudgeSession.join(store, code, name, created.campaign.groups[i % 2])
        except Exception as exc:  # noqa: BLE001 - reported, not swallowed
            errs.append(f"{name} join: {exc!r}")
            start.wait()
            with lock:
                report.n_errors += 1
                report.errors.extend(errs)
            return
        start.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if session.finished:
                    session.go_to(0)
                pos = session.position
                r = rng.random()
                t0 = time.perf_counter()
                if r < 0.10 and pos > 0:
                    session.back()
                    counts["back"] += 1
                    pos = session.position
                    scores = {c: rng.randint(1, 5) for c in criteria}
                    session.submit(pos, scores)
                    counts["change"] += 1
                elif r < 0.18:
                    session.skip(pos)
                    counts["skip"] += 1
                    if (pos, criteria[0]) not in mine:
                        my_skips.add(pos)
                    lat.append((time.perf_counter() - t0) * 1000)
                    continue
                else:
                    scores = {c: rng.randint(1, 5) for c in criteria}
                    session.submit(pos, scores)
                    counts["submit"] += 1
                lat.append((time.perf_counter() - t0) * 1000)
                for c, s in scores.items():
                    mine[(pos, c)] = s
                my_skips.discard(pos)
            except Exception as exc:  # noqa: BLE001 - every failure is counted and shown
                errs.append(f"{name}: {exc!r}")
                if len(errs) > 20:
                    break
        with lock:
            for (pos, c), s in mine.items():
                expected[(name, pos, c)] = s
            expected_skips.update((name, p) for p in my_skips)
            report.n_submits += counts["submit"]
            report.n_changes += counts["change"]
            report.n_skips += counts["skip"]
            report.n_backs += counts["back"]
            report.n_errors += len(errs)
            report.errors.extend(errs[:5])
            report.latencies_ms.extend(lat)

    threads = [
        threading.Thread(target=judge, args=(i,), name=f"judge-{i}") for i in range(n_judges)
    ]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.monotonic()
    for t in threads:
        t.join()
    report.elapsed = time.monotonic() - t0

    # -- verification: every submitted rating exactly once, with the last submitted score
    stored = store.ratings(code, key)
    keys = [(r.judge, r.position, r.criterion) for r in stored]
    report.n_rows = len(stored)
    report.n_duplicate_keys = len(keys) - len(set(keys))
    got = {(r.judge, r.position, r.criterion): r.score for r in stored}
    report.n_expected_ratings = len(expected)
    report.n_missing = sum(1 for k in expected if k not in got)
    report.n_unexpected = sum(1 for k in got if k not in expected)
    report.n_wrong_score = sum(1 for k, s in expected.items() if k in got and got[k] != s)
    with store.engine.connect() as conn:
        raw = conn.execute(
            select(func.count())
            .select_from(ratings_table)
            .where(ratings_table.c.campaign_code == code)
        ).scalar_one()
        report.n_skip_rows = conn.execute(
            select(func.count()).select_from(skips_table)
        ).scalar_one()
    report.n_rows = int(raw)
    judges = {p.judge: p for p in store.progress(code, key)}
    report.n_expected_skips = len(expected_skips)
    report.skips_match = (
        sum(p.n_skipped for p in judges.values()) == len(expected_skips) == report.n_skip_rows
    )
    store.close()
    return report


def format_report(report: LoadReport, db: str) -> str:
    total = report.n_submits + report.n_changes + report.n_skips
    lines = [
        "# Rating campaigns: load test",
        "",
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {platform.machine()} / Python {platform.python_version()} "
        f"({sys.platform}), SQLite file in WAL mode (`{db}`), by `benchmarks/load_ratings.py "
        f"--judges {report.n_judges} --seconds {report.seconds:g} --seed {report.seed}`.",
        "",
        f"{report.n_judges} simulated judges (threads) rated concurrently for {report.elapsed:.1f} s through "
        "`JudgeSession` (the Rate page's code path): ~80 % rate the next item, ~10 % go back and change a rating, "
        f"~8 % skip. Campaign of {report.n_items} items, 2 criteria (adequacy, fluency).",
        "",
        "| what | count |",
        "|---|---:|",
        f"| rating submissions (new item) | {report.n_submits} |",
        f"| rating changes (after *back*) | {report.n_changes} |",
        f"| skips | {report.n_skips} |",
        f"| total write requests | {total} |",
        f"| errors | {report.n_errors} |",
        f"| distinct (judge, item, criterion) submitted | {report.n_expected_ratings} |",
        f"| rows in the ratings table | {report.n_rows} |",
        f"| duplicate keys | {report.n_duplicate_keys} |",
        f"| submitted but missing | {report.n_missing} |",
        f"| stored score differs from last submitted | {report.n_wrong_score} |",
        f"| stored but never submitted | {report.n_unexpected} |",
        f"| pending skips expected / stored | {report.n_expected_skips} / {report.n_skip_rows} |",
        "",
        f"Throughput: {total / report.elapsed:.0f} write requests/s overall; latency per request "
        f"p50 {report.latency(50):.1f} ms, p95 {report.latency(95):.1f} ms, p99 {report.latency(99):.1f} ms "
        "(2-core machine shared with other work). Every write is committed with SQLite's default "
        "`synchronous=FULL` (fsync per commit); in-process writers queue on a lock, so the latency above is "
        "mostly waiting in that queue.",
        "",
        "The simulated judges have no think time. A person needs several seconds per item, so a class of 30 "
        "judges sends a few requests per second (at one rating per 10 s: 3/s), far below the throughput "
        "measured here.",
        "",
        f"**Result: {'PASS' if report.ok else 'FAIL'}** — every submitted rating is in the database exactly once "
        "with its last submitted score."
        if report.ok
        else f"**Result: FAIL** — errors: {report.errors[:5]}",
        "",
        "The kill-and-restart check (a process committing ratings is SIGKILLed; every rating it reported committed "
        "is there afterwards) runs in the test suite: `tests/campaigns/test_campaigns_load.py`.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--judges", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--db", help="SQLite file or SQLAlchemy URL (default: a fresh temporary file)"
    )
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS-campaigns.md")))
    parser.add_argument("--no-write", action="store_true", help="print the report only")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "load.sqlite")
        report = run_load(db, n_judges=args.judges, seconds=args.seconds, seed=args.seed)
        text = format_report(report, "temporary file" if not args.db else db)
    print(text)
    if not args.no_write:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
