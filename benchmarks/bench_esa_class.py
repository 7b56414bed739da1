"""A class of 100 rating ESA on one running app server while the projector refreshes (issue 30).

    .venv/bin/python benchmarks/bench_esa_class.py --students 100 --minutes 4 --seed 1

What runs, each in processes of its own:

* **the app server**: ``streamlit run app.py`` as ``make run`` starts it (``tests/browser/app_server.py``), on a
  fresh SQLite campaign database (``BLEU_STUDY_DB``) holding one ESA lesson of the bundled TED en-de study, made
  as the "Start a class" button makes it (:func:`class_common.ted_lesson`, then ``create_campaign``);
* **the students**: ``--clients`` processes, each holding its share of the ``--students`` sessions on one
  asyncio loop (:mod:`class_judges`). Each session is one phone speaking the browser's protocol to the server
  (:mod:`streamlit_client`: websocket ``/_stcore/stream``, protobuf ``BackMsg``/``ForwardMsg``): it opens the
  join link, joins, and rates one item every 15-40 s (``--pace``; spans marked on the word picker, slider,
  "Save and next"), seeded by ``--seed``;
* **the projector**: headless Chromium on the lesson's view-only projector link (:mod:`class_projector`).

Reported: every "Save and next" as the phone saw it (until the next item had arrived; target p95 ≤ 1 s), every
other rerun of the Rate page, the projector's fragment re-runs (target ≤ 1 s) and the time from a save to the
projector counting it; the ratings and spans submitted against those in the database (0 lost, 0 duplicated);
the load before, during and after. The figures go to ``RESULTS-class.md`` (``--no-write``: printed only).
Smoke run: ``--students 4 --minutes 0.5 --pace 3,6 --no-write``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

from app_server import ROOT, free_port, running_server, streamlit_command  # noqa: E402
from class_common import load_text, machine_text, rating_check, row, ted_lesson, write_section  # noqa: E402
from class_judges import Pace, client_process  # noqa: E402
from class_projector import lag_seconds, projector_process, rerun_seconds  # noqa: E402

from bleu_core.campaigns import CampaignStore, MarkedSpan  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=4.0, help="how long the class rates")
    parser.add_argument(
        "--pace", default="15,40", help="seconds between one student's ratings: LOW,HIGH"
    )
    parser.add_argument(
        "--clients", type=int, default=4, help="client processes sharing the students"
    )
    parser.add_argument(
        "--segments", type=int, default=8, help="lesson segments (× 5 systems = items)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--join-window", type=float, default=30.0, help="seconds over which students arrive"
    )
    parser.add_argument("--no-projector", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--sample", help="run the server under sampled_server.py, its counts to this file"
    )
    args = parser.parse_args(argv)
    low, _, high = args.pace.partition(",")
    args.pace_s = (float(low), float(high or low))
    return args


def app_server(db: str, sample: str | None):
    """``streamlit run app.py`` as the browser tests start it (``tests/browser/app_server.py``) on the
    campaign database *db*; with *sample*, under :mod:`sampled_server`. A context manager yielding the base
    URL and the process id; stops only this process (30 s for the sampler to write its counts)."""
    port = free_port()
    command = streamlit_command(ROOT / "app.py", port)
    extra_env = {"BLEU_STUDY_DB": db}
    if sample:
        command[1:3] = [str(HERE / "sampled_server.py")]
        extra_env["BLEU_STUDY_SAMPLES"] = sample
    return running_server(command, port, cwd=ROOT, extra_env=extra_env, stop_timeout=30)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process *pid* has used so far (Linux ``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class LoadSampler(threading.Thread):
    """The 1-minute load average every 10 s while the class rates."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(10):
            self.samples.append(os.getloadavg()[0])


def run_class(url: str, code: str, view: str, args: argparse.Namespace) -> tuple[list[dict], list]:
    """Start the projector, then the students; wait for them; return the students' reports and the
    projector's log."""
    ctx = mp.get_context("spawn")
    stop, proj_out, proj = ctx.Event(), ctx.Queue(), None
    if not args.no_projector:
        link = f"{url}/projector?lesson={code}&view={view}"
        proj = ctx.Process(target=projector_process, args=(link, stop, proj_out))
        proj.start()
        time.sleep(15)  # Chromium opens and draws the projector before the first student arrives
    pace = Pace(*args.pace_s, args.join_window, time.time() + args.minutes * 60)
    out = ctx.Queue()
    groups = [list(range(args.students))[i :: args.clients] for i in range(args.clients)]
    clients = [
        ctx.Process(target=client_process, args=(url, code, g, args.seed, pace, out))
        for g in groups
        if g
    ]
    for p in clients:
        p.start()
    answers = [out.get(timeout=args.minutes * 60 + 600) for _ in clients]
    reports = [r for batch, _ in answers for r in batch]
    args.client_cpu_s = sum(cpu for _, cpu in answers)
    for p in clients:
        p.join()
    log: list = []
    if proj is not None:
        time.sleep(4)  # two more refreshes: the last ratings reach the screen
        stop.set()
        log = json.loads(proj_out.get(timeout=120))
        proj.join()
    return reports, log


def expected_spans(text: str, sub: dict) -> list[MarkedSpan]:
    """The spans a save stored: the first word (``\\S+``, as the word picker splits) and/or [missing]."""
    spans = []
    if sub["first_word"]:
        first = re.search(r"\S+", text)
        spans.append(MarkedSpan(first.start(), first.end(), sub["severity"]))
    if sub["missing"]:
        spans.append(MarkedSpan(None, None, sub["severity"], True))
    return spans


def check_database(db: str, code: str, key: str, plan, saves: list[dict]) -> dict[str, int]:
    """The saves against the database: ratings lost, wrong or duplicated, and saves whose spans differ."""
    store = CampaignStore(db)
    stored, spans = store.ratings(code, key), store.spans(code, key)
    store.close()
    check = rating_check({(s["judge"], s["position"], "esa"): s["score"] for s in saves}, stored)
    texts = {(it.system, it.segment_id): it.translation for it in plan.items}
    item_of = {(r.judge, r.position): (r.system, r.segment_id) for r in stored}
    got: dict[tuple[str, int], list] = {}
    for s in spans:
        got.setdefault((s.judge, s.position), []).append(s.span)
    wrong_spans = 0
    for s in saves:
        where = item_of.get((s["judge"], s["position"]))
        want = expected_spans(texts[where], s) if where else []
        if sorted(got.get((s["judge"], s["position"]), []), key=repr) != sorted(want, key=repr):
            wrong_spans += 1
    check["spans stored"], check["wrong spans"] = len(spans), wrong_spans
    return check


def report_text(args, reports, log, check, loads, wall_s, n_items) -> str:
    saves = [s for r in reports for s in r["submitted"]]
    submit_ms = [s["seconds"] * 1000 for s in saves]
    steps_ms = [x * 1000 for r in reports for x in r["step_seconds"]]
    reruns_ms = [x * 1000 for x in rerun_seconds(log)]
    lags, never = lag_seconds(log, [s["sent_at"] for s in saves]) if log else ([], 0)
    errors = [e for r in reports for e in r["errors"]]
    not_next = sum(1 for s in saves if not s["next_shown"])
    before, during, after, server_cpu = loads
    lines = [
        "## A class rating ESA on one app server (benchmarks/bench_esa_class.py)",
        "",
        f"Command: `.venv/bin/python benchmarks/bench_esa_class.py --students {args.students} --minutes "
        f"{args.minutes:g} --pace {args.pace} --clients {args.clients} --segments {args.segments} --seed "
        f"{args.seed}`. {args.students} students as websocket sessions in {args.clients} client processes "
        f"(asyncio), one `streamlit run app.py` server on SQLite, {n_items} items per student, a rating every "
        f"{args.pace.replace(',', '-')} s; projector: "
        f"{'none' if args.no_projector else 'headless Chromium on the view-only link'}. Machine: "
        f"{machine_text()}. Wall time {wall_s:.0f} s. Load (1, 5, 15 min) before: {before}; during (1 min, "
        f"every 10 s): {during}; after: {after}. CPU time / wall time: the server process "
        f"{server_cpu:.0%} of one core while the class rated; the {args.clients} client processes "
        f"together {args.client_cpu_s / wall_s:.0%} over the whole run.",
        "",
        "| what | median | p95 | max | target |",
        "|---|---|---|---|---|",
        row("Save and next, until the next item arrived", submit_ms, "p95 ≤ 1 s"),
        row("other reruns of the Rate page (join, words, severity, slider)", steps_ms, "–"),
        row("projector fragment re-run (browser: running → notRunning)", reruns_ms, "≤ 1 s"),
        row("save → projector's count includes it", [x * 1000 for x in lags], "–"),
        "",
        f"Saves: {len(saves)} (the next item not shown after {not_next}); ratings stored: {check['stored']}; "
        f"lost: {check['lost']}; wrong score: {check['wrong']}; duplicated: {check['duplicated']}; spans "
        f"stored: {check['spans stored']}, saves with wrong spans: {check['wrong spans']}; saves the "
        f"projector never counted: {never}; student sessions that failed: {len(errors)}.",
    ]
    lines += [f"- {e}" for e in errors[:5]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    plan = ted_lesson(args.segments, "esa", seed=args.seed)
    before = load_text()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "class.sqlite")
        store = CampaignStore(db)
        created = store.create_campaign(plan)
        code, key = created.campaign.code, created.organiser_key
        view = store.viewer_token(code, key)
        store.close()
        sampler = LoadSampler()
        start = time.perf_counter()
        with app_server(db, args.sample) as (url, pid):
            sampler.start()
            cpu_start, wall_start = cpu_seconds(pid), time.perf_counter()
            reports, log = run_class(url, code, view, args)
            server_cpu = (cpu_seconds(pid) - cpu_start) / (time.perf_counter() - wall_start)
            sampler.stop.set()
        wall = time.perf_counter() - start
        saves = [s for r in reports for s in r["submitted"]]
        check = check_database(db, code, key, plan, saves)
    during = ", ".join(f"{x:.1f}" for x in sampler.samples) or "–"
    loads = (before, during, load_text(), server_cpu)
    text = report_text(args, reports, log, check, loads, wall, len(plan.items))
    print(text)
    if not args.no_write:
        write_section("bench_esa_class", text)
    submit_ms = sorted(s["seconds"] * 1000 for s in saves)
    ok = check["lost"] == check["wrong"] == check["duplicated"] == check["wrong spans"] == 0
    return 0 if ok and submit_ms and submit_ms[int(0.95 * len(submit_ms))] <= 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
