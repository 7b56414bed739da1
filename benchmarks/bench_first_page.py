"""The app's first page from server start, beside Streamlit's hello world: whole processes, interleaved.

Each run starts ``streamlit run`` (the app on its default TED en-de demo, or the hello-world app of
``bench_app.py``), opens the root address in headless Chromium and stops the clock when the page is drawn and
idle (the app's sidebar signature, or hello world's metric); the two apps run in turn after one warm-up round,
and the load average is printed before and after (quote figures only from a quiet machine: load below the
number of cores).

Usage: ``python benchmarks/bench_first_page.py [--runs 3] [--other OLD_TREE/app.py]``
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))
sys.path.insert(0, str(HERE))

from app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_app_idle  # noqa: E402
from bench_app import HELLO_APP  # noqa: E402

DRAWN = '[data-testid="stMetricValue"], [data-testid="stSidebar"] code'


def server_pid(port: int) -> int | None:
    """The process serving ``port``: the ``streamlit run … --server.port PORT`` command line."""
    flag = f"--server.port\0{port}\0".encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if flag in Path(f"/proc/{entry}/cmdline").read_bytes():
                    return int(entry)
            except OSError:  # the process ended meanwhile
                continue
    return None


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of process ``pid`` so far, all its threads (NaN: unknown).

    >>> cpu_seconds(os.getpid()) > 0, cpu_seconds(None) != cpu_seconds(None)
    (True, True)
    """
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def first_page(browser, app: Path | None) -> tuple[float, float]:
    """Server start → first page drawn and idle: seconds, and the server's CPU seconds by then.

    ``app``: None for this tree's app, else a script, served from its own folder (its
    ``.streamlit/config.toml``, its ``ui`` and ``bleu_core``)."""
    start = time.perf_counter()
    folder = app.parent if app is not None and (app.parent / ".streamlit").is_dir() else None
    with streamlit_server(quiet=True, app=app, cwd=folder) as url:
        pid = server_pid(int(re.sub(r".*:", "", url)))
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(DRAWN, timeout=60_000)
        wait_app_idle(page, settle_ms=100)
        seconds = time.perf_counter() - start
        cpu = cpu_seconds(pid)
        context.close()
    return seconds, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed rounds after one warm-up round")
    parser.add_argument(
        "--other",
        type=Path,
        action="append",
        default=[],
        help="another tree's app.py to run in turn with these (e.g. an older commit: `git archive`)",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    hello = Path(tempfile.mkdtemp()) / "hello.py"
    hello.write_text(HELLO_APP, encoding="utf-8")
    apps = {"app (TED demo)": None, "hello world": hello}
    apps.update({f"app of {path.resolve().parent}": path.resolve() for path in args.other})
    times: dict[str, list[float]] = {name: [] for name in apps}
    cpus: dict[str, list[float]] = {name: [] for name in apps}
    before = os.getloadavg()[0]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for run in range(args.runs + 1):
            for name, app in apps.items():
                seconds, cpu = first_page(browser, app)
                if run:  # round 0 warms the page cache and writes .pyc files
                    times[name].append(seconds)
                    cpus[name].append(cpu)
        browser.close()
    after = os.getloadavg()[0]
    print(f"load (1 min) {before:.2f} before, {after:.2f} after, {os.cpu_count()} cores")
    for name, values in times.items():
        cpu = cpus[name]
        print(
            f"{name}: median {statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f}); "
            f"server CPU by then {statistics.median(cpu):.2f} s ({min(cpu):.2f}-{max(cpu):.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
