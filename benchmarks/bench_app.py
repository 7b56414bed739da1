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
3. **Baseline**: a hello-world Streamlit app (a title, a metric and one sidebar select box), measured the
   same way in the same run, shows what Streamlit itself costs on this machine: its first page and a
   re-render after a sidebar change are floors no page of the app can go below. (Its re-run is so
   short that the script state may never visibly change, so its re-render ends when the metric shows
   the new value, plus one animation frame.)

The 1-minute load average is recorded before and after: the machine is shared, and every figure grows
with the load.

Run: ``.venv/bin/python benchmarks/bench_app.py`` (needs /usr/bin/chromium for part 1 and the browser
half of part 2). Medians of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

RESULTS = ROOT / "benchmarks" / "RESULTS-app.md"
NOTES_MARKER = "<!-- notes: kept by bench_app.py when it rewrites the figures above -->"
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
  new MutationObserver((records) => {
    // A fast run can go running -> notRunning within one batch: the old values show it.
    const now = performance.now();
    for (const r of records) if (r.oldValue === 'running') window.__runs.push(['running', now]);
    const state = app.getAttribute('data-test-script-state');
    if (state === 'notRunning') requestAnimationFrame(() => window.__runs.push(['idle', performance.now()]));
    else window.__runs.push([state, now]);
  }).observe(app, {attributes: true, attributeOldValue: true, attributeFilter: ['data-test-script-state']});
}"""


HELLO_APP = """import streamlit as st

tokenizer = st.sidebar.selectbox("Tokenizer", ["13a", "intl", "char", "none"])
st.title("Hello")
st.metric("Tokenizer", tokenizer)
"""

# A run this short can start and end within one React batch, so the script state attribute never
# changes: such a re-render ends when an element shows the new value while the app reads notRunning
# (plus one animation frame).
CONTENT_WATCH = """([selector, text]) => {
  window.__shown = null;
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => {
    const el = document.querySelector(selector);
    if (window.__shown === null && el && el.innerText.includes(text)
        && app.getAttribute('data-test-script-state') === 'notRunning') {
      window.__shown = 0;
      requestAnimationFrame(() => { window.__shown = performance.now(); });
    }
  }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


SIDEBAR_CODE = '[data-testid="stSidebar"] code'  # the signature (st.code or inline code)


def _measure_content(page, action, selector: str, text: str) -> float:
    page.evaluate(CONTENT_WATCH, [selector, text])
    t0 = page.evaluate("performance.now()")
    action()
    page.wait_for_function("() => window.__shown > 0", timeout=30_000)
    end = page.evaluate("window.__shown")
    from app_server import wait_app_idle

    wait_app_idle(page)
    return (end - t0) / 1000.0


def _first_page(browser, url: str, started: float) -> tuple[object, float, float]:
    """Open ``url`` in a fresh browser context (empty cache): the page, request → ready and server
    start → ready (seconds)."""
    from app_server import wait_app_idle

    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_selector('[data-testid="stMetric"]', timeout=60_000)
    wait_app_idle(page, settle_ms=50)
    end = time.perf_counter() - 0.05  # the settle time is not part of it
    return page, end - t0, end - started


def browser_times(
    repeats: int, app: Path | None = None
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """In-browser figures: ({re-render label: seconds}, {first-page label: seconds})."""
    from app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_app_idle
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {}
    first: dict[str, list[float]] = {}
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: browser figures skipped")
        return times, first
    with tempfile.TemporaryDirectory(prefix="bench-app-") as tmp:
        hello = Path(tmp) / "hello.py"
        hello.write_text(HELLO_APP, encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for _ in range(repeats):
                # baseline: Streamlit's own cost for a first page and a sidebar change
                started = time.perf_counter()
                with streamlit_server(app=hello, quiet=True) as url:
                    first.setdefault("hello world: server start → health answers", []).append(
                        time.perf_counter() - started
                    )
                    page, request, total = _first_page(browser, url, started)
                    first.setdefault("hello world: first request → page ready", []).append(request)
                    first.setdefault("hello world: server start → page ready", []).append(total)
                    for tok in ("intl", "13a", "intl"):
                        times.setdefault(
                            "hello world (baseline) | sidebar select box change", []
                        ).append(
                            _change(
                                page, "Tokenizer", tok, shows=('[data-testid="stMetricValue"]', tok)
                            )
                        )
                    page.close()
                started = time.perf_counter()
                with streamlit_server(app=app, quiet=True) as url:
                    first.setdefault("app: server start → health answers", []).append(
                        time.perf_counter() - started
                    )
                    page, request, total = _first_page(browser, url, started)
                    first.setdefault("app: first request → Study page ready", []).append(request)
                    first.setdefault("app: server start → Study page ready", []).append(total)
                    # a rerun of the Study page, which draws no scores (websocket + script + draw)
                    for smooth in ("floor", "exp", "floor"):
                        times.setdefault(
                            "study (draws no scores) | smoothing change, until the sidebar shows it (lower bound)",
                            [],
                        ).append(
                            _change(
                                page, "Smoothing", smooth, shows=(SIDEBAR_CODE, f"smooth:{smooth}")
                            )
                        )
                    for name, link in (("explore", "Explore"), ("bleu_vs_human", "BLEU vs human")):
                        page.locator('[data-testid="stSidebar"]').get_by_role(
                            "link", name=link
                        ).click()
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
            browser.close()
    return times, first


def _measure(page, action) -> float:
    page.evaluate(OBSERVER)
    t0 = page.evaluate("performance.now()")
    action()
    page.wait_for_function(
        "() => window.__runs.some(r => r[0] === 'running') && window.__runs.at(-1)[0] === 'idle'",
        timeout=int(os.environ.get("BENCH_TIMEOUT_MS", "120000")),
    )
    page.wait_for_timeout(150)  # a second run would show up here (none expected)
    end = page.evaluate("window.__runs.at(-1)[1]")
    from app_server import wait_app_idle

    wait_app_idle(page)
    return (end - t0) / 1000.0


def _change(page, label: str, value: str, *, shows: tuple[str, str] | None = None) -> float:
    """Choose ``value`` in the sidebar select box ``label``; seconds from the key press to drawn.

    ``shows``: (selector, text) that appears when the re-run is drawn, for runs too short to see.
    """
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(
        has_text=label
    )
    page.evaluate("document.activeElement && document.activeElement.blur()")  # a click on a
    box.click()  # focused select box can close its list instead of opening it
    page.get_by_role("option").first.wait_for(timeout=10_000)
    page.keyboard.type(value)
    page.get_by_role("option", name=value, exact=True).wait_for(timeout=10_000)
    # the list is filtered to this one option: the arrow key highlights it (a mouse hover can miss:
    # no mouse event fires when the pointer already rests where the option appears)
    page.mouse.move(0, 0)
    page.keyboard.press("ArrowDown")
    if shows is not None:
        return _measure_content(page, lambda: page.keyboard.press("Enter"), *shows)
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
    parser.add_argument("--no-browser", action="store_true", help="skip the in-browser figures")
    parser.add_argument("--no-script", action="store_true", help="skip the AppTest script times")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where to write the report")
    parser.add_argument(
        "--app", type=Path, default=None, help="another copy of app.py to measure (A/B runs)"
    )
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    scripts = {} if args.no_script else script_times(args.repeats)
    browser, first = ({}, {}) if args.no_browser else browser_times(args.repeats, args.app)
    load_after = os.getloadavg()[0]

    lines = [
        "# Web app speed (TED en-de demo: 13 MT systems × 529 segments)",
        "",
        f"Measured by `benchmarks/bench_app.py` on {platform.node()} ({platform.machine()}, "
        f"Python {platform.python_version()}), {time.strftime('%Y-%m-%d %H:%M')}, median of "
        f"{args.repeats} runs (min, max). Targets: first page ready < 3 s after the server starts; "
        "re-render after a tokenizer or max-order change < 300 ms.",
        "",
        f"Machine load (1-minute load average on {os.cpu_count()} cores): {load_before:.1f} before, "
        f"{load_after:.1f} after the run. The machine is shared: with a load above the number of "
        "cores every figure is inflated by the waiting. The *hello world* rows are a three-element "
        "Streamlit app measured in the same run: Streamlit's own floor on this machine.",
        "",
    ]
    if first:
        lines += [
            "## Server start and first page (in the browser, empty cache)",
            "",
            "| what | median s | min s | max s | < 3 s |",
            "|---|---|---|---|---|",
            *(
                f"| {k} | {statistics.median(v):.2f} | {min(v):.2f} | {max(v):.2f} | "
                f"{'✓' if statistics.median(v) < 3 else '✗'} |"
                for k, v in first.items()
            ),
            "",
        ]
    if scripts:
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
    if first:
        hello = statistics.median(first["hello world: first request → page ready"])
        app = statistics.median(first["app: first request → Study page ready"])
        lines += [
            f"First request → page ready: the app {app:.2f} s, Streamlit's hello world {hello:.2f} s "
            f"in the same run ({app - hello:+.2f} s for the app's own work).",
            "",
        ]
    if browser:
        floor = statistics.median(browser["hello world (baseline) | sidebar select box change"])
        study = statistics.median(
            browser[
                "study (draws no scores) | smoothing change, until the sidebar shows it (lower bound)"
            ]
        )
        lines += [
            f"Re-render in the browser: Streamlit's hello world takes {floor * 1000:.0f} ms for a "
            f"sidebar change, the app's Study page (no scores; lower bound) {study * 1000:.0f} ms.",
            "",
        ]
    # hand-written notes below the marker survive a re-run
    old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    notes = old[old.index(NOTES_MARKER) :] if NOTES_MARKER in old else NOTES_MARKER + "\n"
    args.out.write_text("\n".join(lines) + "\n" + notes, encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
