"""Speed of the web app on the TED en-de demo study (13 MT systems × 529 segments, Apache-2.0 data).

Measures, and writes to ``benchmarks/RESULTS-app.md``:

1. **Server start → first page ready**: ``streamlit run app.py`` is started; we time until the health
   endpoint answers, and from the first browser request until the Study page has run and drawn (no
   skeletons left), in headless Chromium.
2. **Re-render after a settings change** (tokenizer, max order) of the Explore and BLEU-vs-human pages:
   * *script*: the page script's run time on the server (Streamlit AppTest, in process), which is what a
     settings change costs in Python;
   * *browser*: from the key press that changes the sidebar widget to the app reporting ``notRunning``
     and the next animation frame, in headless Chromium (script + websocket + drawing).
   Each is measured *cold* (first time these settings are seen: statistics are counted) and *warm* (the
   statistics are in the cache: switching back to settings seen before).

Run: ``.venv/bin/python benchmarks/bench_app.py`` (needs /usr/bin/chromium for part 1 and the browser
half of part 2). Medians of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

RESULTS = ROOT / "benchmarks" / "RESULTS-app.md"
TOKENIZERS = ["intl", "char", "none", "13a"]


# ----------------------------------------------------------------------------------------- script time
def script_times(repeats: int) -> dict[str, list[float]]:
    """Page-script run times (seconds) under AppTest after settings changes."""
    from streamlit.testing.v1 import AppTest

    import ui.cache
    from ui import state as K

    out: dict[str, list[float]] = {}
    for page in ("explore", "bleu_vs_human"):
        for _ in range(repeats):
            ui.cache.system_statistics.clear()
            ui.cache.segment_matches.clear()
            at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
            at.run()
            at.switch_page(f"pages/{page}.py")
            at.run()

            def timed(
                key: str, value: object, label: str, at: AppTest = at, page: str = page
            ) -> None:
                at.session_state[key] = value
                start = time.perf_counter()
                at.run()
                elapsed = time.perf_counter() - start
                assert not at.exception, [e.value for e in at.exception]
                out.setdefault(f"{page} | {label}", []).append(elapsed)

            timed(K.OPT_TOKENIZE, "intl", "tokenizer 13a→intl, cold")
            timed(K.OPT_TOKENIZE, "13a", "tokenizer intl→13a, warm")
            timed(K.OPT_TOKENIZE, "intl", "tokenizer 13a→intl, warm")
            timed(K.OPT_TOKENIZE, "13a", "tokenizer intl→13a, warm")
            timed(K.OPT_MAX_ORDER, 2, "max order 4→2 (column slice)")
            timed(K.OPT_MAX_ORDER, 6, "max order 2→6, cold")
            timed(K.OPT_MAX_ORDER, 4, "max order 6→4, warm")
            timed(K.OPT_SMOOTH, "floor", "smoothing exp→floor (re-score only)")
            timed(K.OPT_SMOOTH, "exp", "smoothing floor→exp (re-score only)")
    return out


# ----------------------------------------------------------------------------------------- browser time
OBSERVER = """() => {
  window.__runs = [];
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => {
    const state = app.getAttribute('data-test-script-state');
    const now = performance.now();
    if (state === 'notRunning') requestAnimationFrame(() => window.__runs.push(['idle', performance.now()]));
    else window.__runs.push([state, now]);
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def browser_times(repeats: int) -> tuple[dict[str, list[float]], list[float], list[float]]:
    from app_server import CHROMIUM, CHROMIUM_ARGS, free_port, wait_app_idle, wait_healthy
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {}
    health: list[float] = []
    first: list[float] = []
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: browser figures skipped")
        return times, health, first
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for _ in range(repeats):
            port = free_port()
            cmd = [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(ROOT / "app.py"),
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
                "--browser.gatherUsageStats",
                "false",
                "--server.fileWatcherType",
                "none",
            ]
            start = time.perf_counter()
            proc = subprocess.Popen(
                cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            url = f"http://127.0.0.1:{port}"
            try:
                wait_healthy(url)
                health.append(time.perf_counter() - start)
                page = browser.new_page(viewport={"width": 1400, "height": 1400})
                t0 = time.perf_counter()
                page.goto(url)
                page.wait_for_selector('[data-testid="stMetric"]', timeout=60_000)
                wait_app_idle(page, settle_ms=50)
                first.append(time.perf_counter() - t0 - 0.05)
                # floor: a rerun of the Study page, which draws no scores (websocket + script + draw)
                for smooth in ("floor", "exp", "floor"):
                    times.setdefault(
                        "study (draws no scores) | smoothing change: rerun floor", []
                    ).append(_change(page, "Smoothing", smooth))
                for name, link in (("explore", "Explore"), ("bleu_vs_human", "BLEU vs human")):
                    page.locator('[data-testid="stSidebar"]').get_by_role("link", name=link).click()
                    wait_app_idle(page)
                    for tok, label in (("intl", "cold"), ("13a", "warm"), ("intl", "warm")):
                        if name == "bleu_vs_human" and label == "cold":
                            tok = "char"  # intl is already cached from the Explore run
                        times.setdefault(f"{name} | tokenizer → {tok}, {label}", []).append(
                            _change(page, "Tokenizer", tok)
                        )
                    times.setdefault(
                        f"{name} | max order 4→5, cold"
                        if name == "explore"
                        else f"{name} | max order →6, cold",
                        [],
                    ).append(_change_order(page, 5 if name == "explore" else 6))
                    times.setdefault(f"{name} | max order →4, warm", []).append(
                        _change_order(page, 4)
                    )
                page.close()
            finally:
                proc.terminate()
                proc.wait(timeout=20)
        browser.close()
    return times, health, first


def _measure(page, action) -> float:
    page.evaluate(OBSERVER)
    t0 = page.evaluate("performance.now()")
    action()
    page.wait_for_function(
        "() => window.__runs.some(r => r[0] === 'running') && window.__runs.at(-1)[0] === 'idle'",
        timeout=120_000,
    )
    page.wait_for_timeout(150)  # a second run would show up here (none expected)
    end = page.evaluate("window.__runs.at(-1)[1]")
    from app_server import wait_app_idle

    wait_app_idle(page)
    return (end - t0) / 1000.0


def _change(page, label: str, value: str) -> float:
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(
        has_text=label
    )
    box.click()
    page.keyboard.type(value)
    return _measure(page, lambda: page.keyboard.press("Enter"))


def _change_order(page, value: int) -> float:
    box = page.locator('[data-testid="stSidebar"] [data-testid="stNumberInput"] input')
    box.fill(str(value))
    return _measure(page, lambda: box.press("Enter"))


# ----------------------------------------------------------------------------------------- report
def _row(label: str, values: list[float]) -> str:
    med = statistics.median(values) * 1000
    verdict = "✓" if med < 300 else "✗"
    return (
        f"| {label} | {med:.0f} | {min(values) * 1000:.0f} | {max(values) * 1000:.0f} | {verdict} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()

    scripts = script_times(args.repeats)
    browser, health, first = ({}, [], []) if args.no_browser else browser_times(args.repeats)

    lines = [
        "# Web app speed (TED en-de demo: 13 MT systems × 529 segments)",
        "",
        f"Measured by `benchmarks/bench_app.py` on {platform.node()} ({platform.machine()}, "
        f"Python {platform.python_version()}), {time.strftime('%Y-%m-%d')}, median of {args.repeats} "
        "runs (min, max). Targets: first page ready < 3 s after the server starts; re-render after a "
        "tokenizer or max-order change < 300 ms.",
        "",
        f"Machine load while measuring (1-minute load average on {os.cpu_count()} cores): "
        f"{os.getloadavg()[0]:.1f} at the end of the run. The machine is shared: with a load above "
        "the number of cores every figure is inflated by the waiting.",
        "",
    ]
    if first:
        lines += [
            "## Server start and first page",
            "",
            "| what | median s | min s | max s |",
            "|---|---|---|---|",
            f"| process start → health endpoint answers | {statistics.median(health):.2f} | "
            f"{min(health):.2f} | {max(health):.2f} |",
            f"| first request → Study page ready (demo loaded, drawn) | {statistics.median(first):.2f} | "
            f"{min(first):.2f} | {max(first):.2f} |",
            "",
        ]
    lines += [
        "## Re-render after a settings change: page script on the server",
        "",
        "*cold* = settings not seen before (statistics counted); *warm* = cached statistics.",
        "",
        "| page and change | median ms | min ms | max ms | < 300 ms |",
        "|---|---|---|---|---|",
        *(_row(k, v) for k, v in scripts.items()),
        "",
    ]
    if browser:
        lines += [
            "## Re-render after a settings change: in the browser (key press → drawn)",
            "",
            "| page and change | median ms | min ms | max ms | < 300 ms |",
            "|---|---|---|---|---|",
            *(_row(k, v) for k, v in browser.items()),
            "",
        ]
    RESULTS.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
