"""Class mode under load (issue 20): 40 students rating at once while the projector refreshes every 2 s.

Each student is a separate **process** (as phones are separate clients of the server; SQLite serialises the
writers across processes) that joins the lesson campaign on one SQLite file and rates through
:class:`bleu_core.campaigns.JudgeSession` — the Rate page's code path — with a short think time between items.
A dashboard process meanwhile does what the projector's fragment does every 2 s: reads the ratings and the
progress and computes :func:`bleu_core.campaigns.lesson.class_snapshot` (alpha with 200 bootstrap draws).

Reported: the time of one rating as a student's process sees it (``submit``: the write and its commit), the
time of one dashboard refresh (server work only; the browser's drawing comes on top, see the browser test), and
whether the database holds every submitted rating exactly once (no rating lost).

    .venv/bin/python benchmarks/bench_class.py                       # 40 students, writes RESULTS-class.md
    .venv/bin/python benchmarks/bench_class.py --students 8 --no-write
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
from bleu_core.campaigns import CampaignStore, JudgeSession  # noqa: E402
from bleu_core.campaigns.lesson import class_snapshot, lesson_plan  # noqa: E402
from bleu_core.study.demo import load_demo  # noqa: E402

HERE = Path(__file__).resolve().parent


def student(db: str, code: str, k: int, think_s: float, out: mp.Queue) -> None:
    import random

    rng = random.Random(k)
    store = CampaignStore(db)
    session = JudgeSession.join(store, code, f"student {k:02d}", "class")
    submitted: dict[tuple[int, str], int] = {}
    latencies = []
    for pos in range(session.n_items):
        scores = {c: rng.randint(1, 5) for c in session.campaign.criterion_names}
        start = time.perf_counter()
        session.submit(pos, scores)
        latencies.append((time.perf_counter() - start) * 1000)
        submitted.update({(pos, c): v for c, v in scores.items()})
        time.sleep(rng.uniform(0.5, 1.5) * think_s)
    out.put((f"student {k:02d}", latencies, submitted))
    store.close()


def dashboard(db: str, code: str, key: str, every_s: float, stop, out: mp.Queue) -> None:
    store = CampaignStore(db)
    campaign = store.get_campaign(code)
    times = []
    while not stop.is_set():
        start = time.perf_counter()
        ratings = store.ratings(code, key)
        progress = store.progress(code, key)
        class_snapshot(campaign, ratings, len(progress), n_resamples=200, seed=campaign.seed)
        times.append((time.perf_counter() - start) * 1000)
        stop.wait(every_s)
    out.put(times)
    store.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--segments", type=int, default=10)
    parser.add_argument(
        "--think", type=float, default=3.0, help="mean seconds between a student's items"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    ted = load_demo("ted-en-de")
    refs = [ted.references[r] for r in ted.references]
    bleu = {s: corpus_bleu(ted.systems[s], refs).score for s in ted.systems}
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "class.sqlite")
        created = CampaignStore(db).create_campaign(
            lesson_plan(ted, bleu, seed=1, n_segments=args.segments)
        )
        code, key = created.campaign.code, created.organiser_key
        ctx = mp.get_context("spawn")
        out, dash_out, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
        dash = ctx.Process(target=dashboard, args=(db, code, key, 2.0, stop, dash_out))
        dash.start()
        start = time.perf_counter()
        students = [
            ctx.Process(target=student, args=(db, code, k, args.think, out))
            for k in range(args.students)
        ]
        for p in students:
            p.start()
        results = [out.get(timeout=600) for _ in students]
        wall = time.perf_counter() - start
        for p in students:
            p.join()
        stop.set()
        refresh_ms = dash_out.get(timeout=60)
        dash.join()
        stored = CampaignStore(db).ratings(code, key)
    expected = {(name, pos, c): v for name, _, sub in results for (pos, c), v in sub.items()}
    got = {(r.judge, r.position, r.criterion): r.score for r in stored}
    lost = len(set(expected) - set(got))
    wrong = sum(1 for k, v in expected.items() if got.get(k) != v)
    duplicates = len(stored) - len(got)
    latencies = [ms for _, lat, _ in results for ms in lat]
    lines = [
        "# Class mode under load (benchmarks/bench_class.py)",
        "",
        f"{args.students} student processes × {created.campaign.n_items} items × 2 criteria on one SQLite "
        f"file, think time ~{args.think} s; a dashboard process refreshing every 2 s (alpha with 200 "
        f"bootstrap draws). Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{mp.cpu_count()} cores. Wall time {wall:.1f} s.",
        "",
        "| what | median | p95 | max | target |",
        "|---|---|---|---|---|",
        f"| one rating, as the student's process sees it (write + commit) | {statistics.median(latencies):.1f} ms "
        f"| {pct(latencies, 0.95):.1f} ms | {max(latencies):.1f} ms | Rate page answer ≤ 300 ms |",
        f"| one dashboard refresh, server work ({len(refresh_ms)} refreshes) | "
        f"{statistics.median(refresh_ms):.1f} ms | {pct(refresh_ms, 0.95):.1f} ms | {max(refresh_ms):.1f} ms "
        "| ≤ 1 s |",
        "",
        f"Ratings submitted: {len(expected)}; stored: {len(stored)}; lost: {lost}; wrong score: {wrong}; "
        f"duplicates: {duplicates}.",
        "",
        "Server-side figures: the browser adds its drawing (Streamlit re-draws the fragment: four charts and "
        "three metrics). The browser test `tests/browser/test_class_mode.py` checks the projector follows "
        "three phones without a reload.",
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    if not args.no_write:
        (HERE / "RESULTS-class.md").write_text(report, encoding="utf-8")
    return 0 if lost == wrong == duplicates == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
