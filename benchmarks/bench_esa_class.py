"""A class of 100 rating ESA: every student marks error spans and scores 0-100 while the projector refreshes.

Each student is a separate **process** (phones are separate clients) that joins one ESA lesson campaign and
rates through :class:`bleu_core.campaigns.JudgeSession` (the Rate page's code path: score and spans in one
transaction) at a realistic pace (``--think`` seconds between items, ±50 %). A dashboard process meanwhile
does what the projector does every 2 s: reads ratings and progress and computes
:func:`bleu_core.campaigns.lesson.class_snapshot` (alpha with 200 bootstrap draws), and reads the spans.

``--db`` takes a file path or an SQLAlchemy URL: a PostgreSQL URL shows how a deployment past one server
scales (``--servers 2``: the students are split between two processes that each hold one store, as two app
servers sharing one database would; the processes of one "server" share nothing but the URL).

Reported: the time of one submit as the student's process sees it (median, p95, max; target p95 ≤ 1 s), of
one dashboard refresh (target ≤ 1 s), and whether every rating and every span is stored exactly once.

    .venv/bin/python benchmarks/bench_esa_class.py                        # 100 students, SQLite
    .venv/bin/python benchmarks/bench_esa_class.py --students 6 --think 0.2 --no-write   # a smoke run
    .venv/bin/python benchmarks/bench_esa_class.py --db postgresql+psycopg://u@h/db --servers 2
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_core import corpus_bleu  # noqa: E402
from bleu_core.campaigns import CampaignStore, JudgeSession, MarkedSpan, with_protocol  # noqa: E402
from bleu_core.campaigns.lesson import class_snapshot, lesson_plan  # noqa: E402
from bleu_core.study.demo import load_demo  # noqa: E402

HERE = Path(__file__).resolve().parent


def spans_for(text: str, rng) -> list[MarkedSpan]:
    """Zero to two spans on word boundaries, as a student might mark them."""
    words = [i for i, ch in enumerate(text) if ch == " "]
    spans = []
    if words and rng.random() < 0.6:
        spans.append(MarkedSpan(0, words[0], rng.choice(["minor", "major"])))
    if rng.random() < 0.2:
        spans.append(MarkedSpan(None, None, "minor", True))
    return spans


def server(db: str, code: str, ks: list[int], think_s: float, out: mp.Queue) -> None:
    """One app server: its students, each in a process of its own."""
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=student, args=(db, code, k, think_s, out)) for k in ks]
    for p in procs:
        p.start()
    for p in procs:
        p.join()


def student(db: str, code: str, k: int, think_s: float, out: mp.Queue) -> None:
    import random

    rng = random.Random(k)
    store = CampaignStore(db)
    session = JudgeSession.join(store, code, f"student {k:03d}", "class")
    submitted, latencies = {}, []
    for pos in range(session.n_items):
        item = session.item(pos)
        score, spans = rng.randint(0, 100), spans_for(item.translation, rng)
        start = time.perf_counter()
        session.submit(pos, {"esa": score}, spans)
        latencies.append((time.perf_counter() - start) * 1000)
        submitted[pos] = (score, tuple(spans))
        time.sleep(rng.uniform(0.5, 1.5) * think_s)
    out.put((f"student {k:03d}", latencies, submitted))
    store.close()


def dashboard(db: str, code: str, key: str, every_s: float, stop, out: mp.Queue) -> None:
    store = CampaignStore(db)
    campaign = store.get_campaign(code)
    times = []
    while not stop.is_set():
        start = time.perf_counter()
        ratings = store.ratings(code, key)
        progress = store.progress(code, key)
        store.spans(code, key)
        class_snapshot(campaign, ratings, len(progress), n_resamples=200, seed=campaign.seed)
        times.append((time.perf_counter() - start) * 1000)
        stop.wait(every_s)
    out.put(times)
    store.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(db: str, args: argparse.Namespace) -> tuple[list, list[float], list, list, int]:
    ted = load_demo("ted-en-de")
    refs = [ted.references[r] for r in ted.references]
    bleu = {s: corpus_bleu(ted.systems[s], refs).score for s in ted.systems}
    plan = with_protocol(lesson_plan(ted, bleu, seed=1, n_segments=args.segments), "esa")
    created = CampaignStore(db).create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    ctx = mp.get_context("spawn")
    out, dash_out, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
    dash = ctx.Process(target=dashboard, args=(db, code, key, 2.0, stop, dash_out))
    dash.start()
    groups = [list(range(args.students))[i :: args.servers] for i in range(args.servers)]
    servers = [ctx.Process(target=server, args=(db, code, g, args.think, out)) for g in groups]
    for p in servers:
        p.start()
    results = [out.get(timeout=1800) for _ in range(args.students)]
    for p in servers:
        p.join()
    stop.set()
    refresh_ms = dash_out.get(timeout=60)
    dash.join()
    store = CampaignStore(db)
    return results, refresh_ms, store.ratings(code, key), store.spans(code, key), len(plan.items)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--segments", type=int, default=5)
    parser.add_argument("--think", type=float, default=8.0, help="mean seconds between items")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument(
        "--db", help="file path or SQLAlchemy URL (default: a temporary SQLite file)"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "class.sqlite")
        start = time.perf_counter()
        results, refresh_ms, stored, spans, n_items = run(db, args)
        wall = time.perf_counter() - start
    expected = {(name, pos): sub for name, _, subs in results for pos, sub in subs.items()}
    got_scores = {(r.judge, r.position): r.score for r in stored}
    got_spans: dict[tuple[str, int], list[MarkedSpan]] = {}
    for s in spans:
        got_spans.setdefault((s.judge, s.position), []).append(s.span)
    lost = len(set(expected) - set(got_scores))
    wrong = sum(1 for k, (score, _) in expected.items() if got_scores.get(k) != score)
    wrong_spans = sum(
        1
        for k, (_, marks) in expected.items()
        if sorted(got_spans.get(k, []), key=repr) != sorted(marks, key=repr)
    )
    latencies = [ms for _, lat, _ in results for ms in lat]
    lines = [
        "# A class rating ESA (benchmarks/bench_esa_class.py)",
        "",
        f"{args.students} student processes × {n_items} items (spans + 0-100 score) on "
        f"{'PostgreSQL' if db.startswith('postgresql') else 'one SQLite file'}, {args.servers} server "
        f"process(es), think time ~{args.think} s; a dashboard process refreshing every 2 s. Machine: "
        f"{platform.machine()}, Python {platform.python_version()}, {mp.cpu_count()} cores. Wall time "
        f"{wall:.1f} s.",
        "",
        "| what | median | p95 | max | target |",
        "|---|---|---|---|---|",
        f"| one submit (score + spans, write + commit) | {statistics.median(latencies):.1f} ms | "
        f"{pct(latencies, 0.95):.1f} ms | {max(latencies):.1f} ms | p95 ≤ 1 s |",
        f"| one dashboard refresh, server work ({len(refresh_ms)}) | {statistics.median(refresh_ms):.1f} ms | "
        f"{pct(refresh_ms, 0.95):.1f} ms | {max(refresh_ms):.1f} ms | ≤ 1 s |",
        "",
        f"Items submitted: {len(expected)}; stored: {len(got_scores)}; lost: {lost}; wrong score: {wrong}; "
        f"wrong spans: {wrong_spans}.",
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    if not args.no_write:
        (HERE / "RESULTS-esa-class.md").write_text(report, encoding="utf-8")
    ok = lost == wrong == wrong_spans == 0 and pct(latencies, 0.95) <= 1000
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
