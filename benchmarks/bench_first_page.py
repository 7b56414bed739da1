"""The app's first page from server start, beside Streamlit's hello world: whole processes, interleaved.

Each run starts ``streamlit run`` (the app on its default TED en-de demo, or the hello-world app of
``bench_app.py``), opens the root address in headless Chromium and stops the clock when the page is drawn and
idle (the app's sidebar signature, or hello world's metric); the two apps run in turn after one warm-up round,
and the load average is printed before and after (quote figures only from a quiet machine: load below the
number of cores).

Usage: ``python benchmarks/bench_first_page.py [--runs 3]``
"""

from __future__ import annotations

import argparse
import os
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


def first_page_seconds(browser, app: Path | None) -> float:
    """Server start → first page drawn and idle, in seconds."""
    start = time.perf_counter()
    with streamlit_server(quiet=True, app=app) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(DRAWN, timeout=60_000)
        wait_app_idle(page, settle_ms=100)
        seconds = time.perf_counter() - start
        context.close()
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed rounds after one warm-up round")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    hello = Path(tempfile.mkdtemp()) / "hello.py"
    hello.write_text(HELLO_APP, encoding="utf-8")
    apps = {"app (TED demo)": None, "hello world": hello}
    times: dict[str, list[float]] = {name: [] for name in apps}
    before = os.getloadavg()[0]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for run in range(args.runs + 1):
            for name, app in apps.items():
                seconds = first_page_seconds(browser, app)
                if run:  # round 0 warms the page cache and writes .pyc files
                    times[name].append(seconds)
        browser.close()
    after = os.getloadavg()[0]
    print(f"load (1 min) {before:.2f} before, {after:.2f} after, {os.cpu_count()} cores")
    for name, values in times.items():
        print(
            f"{name}: median {statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
