"""Speed of the heavy analysis pages on the full TED en-de demo (13 MT systems × 529 segments, Apache-2.0).

For each page (Metrics, Significance, Judges, Correlation) the page script is run with Streamlit's AppTest,
in process, with the demo open and the app's default settings (1000 bootstrap resamples, 10000
randomisation trials, seed 12345):

* **first**: every ``st.cache_data`` cache cleared before the run (what a user sees on opening the page
  right after opening the study; the engine statistics are counted too);
* **new process**: the first run in a fresh Python process (also pays for importing scipy, pandas,
  altair and the page's modules; in the app, ``ui.app.warmup`` imports part of that in the background);
* **second**: the same page run again in a new session with the caches kept (a re-visit, or a widget
  change that keeps the cached results).

The first view is what is visible without pressing anything: sections that compute only on demand are
*not* included in "first". With ``--full`` every on-demand section is switched on as well (the time a
user who opens everything waits), reported in a third column.

The 1-minute load average is recorded: the machine is shared, and every figure grows with the load.

Run: ``.venv/bin/python benchmarks/bench_pages.py [--pages metrics significance] [--repeats 1] [--full]``;
the table is printed and written to ``benchmarks/RESULTS-pages.md`` only with ``--write``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAGES = ("metrics", "significance", "judges", "correlation")


_STUDY: list[object] = []


def _demo() -> object:
    """The TED en-de demo, loaded once per process (as the app's ``cache_resource`` does)."""
    if not _STUDY:
        from bleu_core.study.demo import load_demo

        _STUDY.append(load_demo("ted-en-de"))
    return _STUDY[0]


def _session(page: str, full: bool) -> dict[str, object]:
    """Session state of a user with the TED demo open (and, with ``full``, every on-demand section on)."""
    from ui.app import state as K

    state: dict[str, object] = {}
    K.init_state(state)
    state.update({K.STUDY: _demo(), K.STUDY_KEY: "demo:ted-en-de"})
    if full:
        state.update(_on_demand_keys(page))
    return state


def _on_demand_keys(page: str) -> dict[str, object]:
    """Session keys that switch on every section a page computes only when asked."""
    from ui.app.analysis_cache import ON_DEMAND

    return dict.fromkeys(ON_DEMAND.get(page, ()), True)


def run_once(page: str, full: bool) -> float:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / f"{page}.py"), default_timeout=600)
    for k, v in _session(page, full).items():
        at.session_state[k] = v
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"{page}: {[e.value for e in at.exception]}")
    return elapsed


def measure(page: str, repeats: int, full: bool) -> tuple[float, float]:
    import streamlit as st

    firsts, seconds = [], []
    for _ in range(repeats):
        st.cache_data.clear()
        firsts.append(run_once(page, full))
        seconds.append(run_once(page, full))
    return statistics.median(firsts), statistics.median(seconds)


def fresh_process(page: str) -> float:
    """First run of ``page`` in a new Python process: includes importing what the page needs."""
    import subprocess

    out = subprocess.run(
        [sys.executable, __file__, "--one", page],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="*", default=list(PAGES), choices=PAGES)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--full", action="store_true", help="also time with every section on")
    parser.add_argument("--write", action="store_true", help="append the table to RESULTS-pages.md")
    parser.add_argument("--one", choices=PAGES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:  # child of fresh_process
        print(run_once(args.one, False))
        return
    # warm imports (sacrebleu, altair, scipy) so the first page does not pay for them
    run_once("judges", False)
    load_before = os.getloadavg()[0]
    rows = []
    for page in args.pages:
        first, second = measure(page, args.repeats, False)
        full = measure(page, args.repeats, True)[0] if args.full else float("nan")
        fresh = statistics.median(fresh_process(page) for _ in range(args.repeats))
        rows.append((page, fresh, first, second, full))
        print(f"{page:13s} fresh {fresh:6.2f} s  first {first:6.2f} s  second {second:5.2f} s")
    load_after = os.getloadavg()[0]
    lines = [
        f"load average (1 min) {load_before:.2f} → {load_after:.2f}; medians of {args.repeats} run(s)",
        "",
        "| page | first view, new process (s) | first view (s) | re-run, cached (s) "
        "| every section on, first (s) |",
        "|---|---:|---:|---:|---:|",
        *[f"| {p} | {f:.2f} | {a:.2f} | {b:.2f} | {c:.2f} |" for p, f, a, b, c in rows],
    ]
    print("\n".join(lines))
    if args.write:
        with (ROOT / "benchmarks" / "RESULTS-pages.md").open("a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
