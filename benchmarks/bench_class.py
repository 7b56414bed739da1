"""Class mode's storage under load (issue 20): students rating at once while the projector's reads repeat every 2 s.

    .venv/bin/python benchmarks/bench_class.py --students 40 --think 3 --seed 1

Each student is a separate **process** that joins the lesson campaign and rates through
:class:`bleu_core.campaigns.JudgeSession` (the Rate page's code path, without the page) with ``--think``
seconds between items (±50 %, seeded). A dashboard process meanwhile reads what the projector's fragment reads
every 2 s and computes :func:`bleu_core.campaigns.lesson.class_snapshot` (alpha with 200 bootstrap draws).
``--protocol esa``: the students mark error spans and score 0-100, the dashboard also reads the spans.
``--db`` takes a file path or an SQLAlchemy URL; ``--servers 2`` splits the students between two processes
that each hold one store, as two app servers sharing one database would (with a PostgreSQL URL: how a
deployment past one server scales).

This loads the storage layer only. The class on a running app server, phones speaking the browser's protocol
and the projector in Chromium: ``bench_esa_class.py``. Reported: one rating as the student's process sees it
(the write and its commit), one dashboard refresh (server work only), and whether the database holds every
submitted rating (and span) exactly once. Written to ``RESULTS-class.md`` unless ``--no-write``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from class_common import (  # noqa: E402
    load_text,
    machine_text,
    rating_check,
    row,
    storage_dashboard,
    ted_lesson,
    write_section,
)

from bleu_core.campaigns import CampaignStore, JudgeSession, MarkedSpan  # noqa: E402


def spans_for(text: str, rng: random.Random) -> list[MarkedSpan]:
    """Zero to two spans, as a student might mark them: the first word (60 %), [missing] (20 %)."""
    words = [i for i, ch in enumerate(text) if ch == " "]
    spans = []
    if words and rng.random() < 0.6:
        spans.append(MarkedSpan(0, words[0], rng.choice(["minor", "major"])))
    if rng.random() < 0.2:
        spans.append(MarkedSpan(None, None, "minor", True))
    return spans


def student(db: str, code: str, k: int, args: argparse.Namespace, out) -> None:
    rng = random.Random(args.seed * 100_003 + k)
    store = CampaignStore(db)
    session = JudgeSession.join(store, code, f"student {k:03d}", "class")
    submitted: dict[tuple[int, str], int] = {}
    spans: dict[int, tuple] = {}
    latencies = []
    for pos in range(session.n_items):
        if args.protocol == "esa":
            scores = {"esa": rng.randint(0, 100)}
            marks = spans_for(session.item(pos).translation, rng)
        else:
            scores, marks = {c: rng.randint(1, 5) for c in session.campaign.criterion_names}, None
        start = time.perf_counter()
        session.submit(pos, scores, marks)
        latencies.append((time.perf_counter() - start) * 1000)
        submitted.update({(pos, c): v for c, v in scores.items()})
        spans[pos] = tuple(marks or ())
        time.sleep(rng.uniform(0.5, 1.5) * args.think)
    out.put((f"student {k:03d}", latencies, submitted, spans))
    store.close()


def server(db: str, code: str, ks: list[int], args: argparse.Namespace, out) -> None:
    """One app server: its students, each in a process of its own."""
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=student, args=(db, code, k, args, out)) for k in ks]
    for p in procs:
        p.start()
    for p in procs:
        p.join()


def run(db: str, args: argparse.Namespace):
    plan = ted_lesson(args.segments, args.protocol, seed=args.seed)
    created = CampaignStore(db).create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    ctx = mp.get_context("spawn")
    out, dash_out, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
    esa = args.protocol == "esa"
    dash = ctx.Process(target=storage_dashboard, args=(db, code, key, 2.0, stop, dash_out, esa))
    dash.start()
    groups = [list(range(args.students))[i :: args.servers] for i in range(args.servers)]
    servers = [ctx.Process(target=server, args=(db, code, g, args, out)) for g in groups]
    for p in servers:
        p.start()
    results = [out.get(timeout=1800) for _ in range(args.students)]
    for p in servers:
        p.join()
    stop.set()
    import_ms, refresh_ms = dash_out.get(timeout=60)
    dash.join()
    store = CampaignStore(db)
    return (
        results,
        (import_ms, refresh_ms),
        store.ratings(code, key),
        store.spans(code, key),
        len(plan.items),
    )


def span_errors(results, stored_spans) -> int:
    """Items whose stored spans differ from those submitted."""
    got: dict[tuple[str, int], list] = {}
    for s in stored_spans:
        got.setdefault((s.judge, s.position), []).append(s.span)
    return sum(
        1
        for name, _, _, spans in results
        for pos, marks in spans.items()
        if sorted(got.get((name, pos), []), key=repr) != sorted(marks, key=repr)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--segments", type=int, default=10)
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds between items")
    parser.add_argument(
        "--protocol", choices=("adequacy-fluency", "esa"), default="adequacy-fluency"
    )
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument(
        "--db", help="file path or SQLAlchemy URL (default: a temporary SQLite file)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    before = load_text()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "class.sqlite")
        start = time.perf_counter()
        results, (import_ms, refresh_ms), stored, spans, n_items = run(db, args)
        wall = time.perf_counter() - start
    expected = {(name, pos, c): v for name, _, sub, _ in results for (pos, c), v in sub.items()}
    check = rating_check(expected, stored)
    wrong_spans = span_errors(results, spans)
    latencies = [ms for _, lat, _, _ in results for ms in lat]
    where = "PostgreSQL" if db.startswith("postgresql") else "one SQLite file"
    lines = [
        f"## Class mode's storage under load, {args.protocol} (benchmarks/bench_class.py)",
        "",
        f"Command: `.venv/bin/python benchmarks/bench_class.py --students {args.students} --think "
        f"{args.think:g} --protocol {args.protocol} --segments {args.segments} --servers {args.servers} "
        f"--seed {args.seed}`. {args.students} student processes × {n_items} items on {where}, "
        f"{args.servers} server process(es); a dashboard process refreshing every 2 s (alpha with 200 "
        f"bootstrap draws). Machine: {machine_text()}. Wall time {wall:.1f} s. Load (1, 5, 15 min) before: "
        f"{before}; after: {load_text()}.",
        "",
        "| what | median | p95 | max | target |",
        "|---|---|---|---|---|",
        row("one rating, as the student's process sees it (write + commit)", latencies, "≤ 300 ms"),
        row("one dashboard refresh, server work", refresh_ms, "≤ 1 s"),
        "",
        f"Importing scipy.stats (before the first refresh; the app server does it at start): "
        f"{import_ms:.0f} ms.",
        f"Ratings submitted: {check['submitted']}; stored: {check['stored']}; lost: {check['lost']}; wrong "
        f"score: {check['wrong']}; duplicated: {check['duplicated']}; items with wrong spans: {wrong_spans}.",
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    if not args.no_write:
        write_section(f"bench_class {args.protocol}", report)
    return 0 if check["lost"] == check["wrong"] == check["duplicated"] == wrong_spans == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
