"""Speed of the web app on the TED en-de demo study (13 MT systems × 529 segments, Apache-2.0 data).

Measures, and writes to ``benchmarks/RESULTS-app.md``:

1. **Server start → first page ready**: ``streamlit run app.py`` is started; we time until the health
   endpoint answers, and from the first browser request until the Study page has run and drawn (no
   skeletons left), in headless Chromium.
2. **Re-render after a settings change** (tokenizer, max order) of the Explore and BLEU-vs-human pages:
   * *script*: the page script's run time on the server (Streamlit AppTest, in process), which is what a
     settings change costs in Python;
   * *browser*: from the key press that changes the sidebar widget until the change is drawn, in
     headless Chromium (script + websocket + drawing). The end is the first animation frame after the
     app reports ``notRunning`` *and* the re-run was seen: its script state went through ``running``,
     or (for runs too short to show that state) the expected new value is on the page.
   Each is measured the *first time* a value is chosen and *warm* (switching back to values seen
   before). The app counts statistics to order 10 once per tokenizer (a max order is a column slice)
   and, once a page has scored the study, counts the other tokenizers in the background
   (``ui/app/prefetch.py``). So a first tokenizer change is measured twice in the browser, on two servers:
   *counted now* (``BLEU_STUDY_NO_PREFETCH=1``: the statistics are counted during the re-run) and
   *counted ahead* (the app as shipped; the change comes 2 s after the page was shown, as a user's
   would). AppTest runs never count ahead: their first tokenizer change is always *counted now*.
3. **Floors**, measured the same way in the same run, to tell the cost of a page from the cost of the
   app around it:
   * *hello world*: a Streamlit app with the same two sidebar widgets (tokenizer, max order), a title
     and a metric: Streamlit's own cost on this machine;
   * *app shell, floor page*: a scratch copy of the app (same ``app.py``, sidebar, session set-up and
     ``.streamlit/config.toml``) with one more page that draws only a title and a metric: what every
     page of the app pays before drawing anything of its own;
   * the same shell with a 2-page navigation (Study + floor) instead of 14 pages: the navigation's part.

4. **Page by page at WMT scale** (issue 14): the TED demo, the WMT21 zh-en release, the WMT24 en-ja release
   (paragraphs in four domains, ESA) (both in ``../shared/data``)
   and a synthetic 50 systems × 10,000 segments × 2 references study (``synthetic.write_study_folder``,
   written to a temporary folder), each opened with ``python -m bleu_core app PATH`` (= ``bleu-study
   app``) started in a scratch folder: every analysis page's first visit (click → drawn) and one
   tokenizer change on it, in headless Chromium; then two more browser sessions tour the synthetic
   study's server and its resident memory is read. ``--pages-only`` runs only this part, ``--quick``
   only this part once with a 50 × 2,000 study, ``--only WMT21`` one study, ``--screenshots DIR`` a
   PNG of every page. The table goes below the notes marker of ``RESULTS-app.md``.

The 1-minute load average is recorded before and after: the machine is shared, and every figure grows
with the load.

Run: ``.venv/bin/python benchmarks/bench_app.py`` (needs /usr/bin/chromium for parts 1-3's browser
figures). Medians of ``--repeats`` runs. ``--app OTHER/app.py`` measures another copy of the app (an A/B
run, e.g. the last commit unpacked with ``git archive``) started in its own folder, so that its own
``.streamlit/config.toml`` (or none) applies.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

RESULTS = ROOT / "benchmarks" / "RESULTS-app.md"
NOTES_MARKER = "<!-- notes: kept by bench_app.py when it rewrites the figures above -->"


# ----------------------------------------------------------------------------------------- script time
def script_times(repeats: int) -> dict[str, list[float]]:
    """Page-script run times (seconds) under AppTest after settings changes."""
    from streamlit.testing.v1 import AppTest

    import ui.app.cache
    import ui.app.shared_cache
    from ui.app import state as K
    from ui.app import warmup

    # as in the server after its background warm-up: libraries imported, compiled kernels loaded
    warmup.start(delay=0.0, freeze=False)
    warmup.wait()

    out: dict[str, list[float]] = {}
    for page in ("explore", "bleu_vs_human"):
        for _ in range(repeats):
            ui.app.shared_cache.STATISTICS.clear()
            ui.app.cache.segment_matches.clear()
            ui.app.cache.segment_matches_of_systems.clear()
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

            timed(K.OPT_TOKENIZE, "intl", "tokenizer 13a→intl, cold (counted now)")
            timed(K.OPT_TOKENIZE, "13a", "tokenizer intl→13a, warm")
            timed(K.OPT_TOKENIZE, "intl", "tokenizer 13a→intl, warm")
            timed(K.OPT_TOKENIZE, "13a", "tokenizer intl→13a, warm")
            timed(K.OPT_MAX_ORDER, 2, "max order 4→2 (column slice)")
            timed(K.OPT_MAX_ORDER, 6, "max order 2→6, first time (column slice)")
            timed(K.OPT_MAX_ORDER, 4, "max order 6→4, warm")
            timed(K.OPT_SMOOTH, "floor", "smoothing exp→floor (re-score only)")
            timed(K.OPT_SMOOTH, "exp", "smoothing floor→exp (re-score only)")
    return out


# ----------------------------------------------------------------------------------------- browser time
# One watch per measurement; the previous one is disconnected first (observers left connected from
# earlier measurements, still looking for an older value, can end a later measurement too early).
WATCH = """([selector, text, present]) => {
  (window.__benchObservers || []).forEach((o) => o.disconnect());
  window.__benchObservers = [];
  window.__benchEnd = null;
  let sawRun = false;
  const app = document.querySelector('[data-testid="stApp"]');
  const check = () => {
    if (window.__benchEnd !== null) return;
    const state = app.getAttribute('data-test-script-state');
    if (state === 'running') sawRun = true;
    const el = selector && document.querySelector(selector);
    const shown = !!el && el.textContent.includes(text) === present;
    if (state === 'notRunning' && (sawRun || shown)) {
      window.__benchEnd = 0;
      requestAnimationFrame(() => { window.__benchEnd = performance.now(); });
    }
  };
  const states = new MutationObserver((records) => {
    // a fast run can go running -> notRunning within one batch: the old values show it
    for (const r of records) if (r.oldValue === 'running') sawRun = true;
    check();
  });
  states.observe(app, {attributes: true, attributeOldValue: true,
                       attributeFilter: ['data-test-script-state']});
  window.__benchObservers.push(states);
  if (selector) {
    const content = new MutationObserver(check);
    content.observe(document.body, {subtree: true, childList: true, characterData: true});
    window.__benchObservers.push(content);
  }
}"""

HELLO_APP = """import streamlit as st

tokenizer = st.sidebar.selectbox("Tokenizer", ["13a", "intl", "char", "none"])
order = st.sidebar.number_input("Max order N", min_value=1, max_value=9, value=4, step=1)
st.title("Hello")
st.metric("Settings", f"{tokenizer}/{order}")
"""

FLOOR_PAGE = '''"""Benchmark floor: a page that draws almost nothing (the app shell's own cost)."""

import streamlit as st

st.title("Floor")
st.metric("Settings", f"{st.session_state.get('opt_tokenize')}/{st.session_state.get('opt_max_order')}")
'''

METRIC = '[data-testid="stMetricValue"]'  # hello world and floor pages: "<tokenizer>/<order>"
SIDEBAR_CODE = '[data-testid="stSidebar"] code'  # the app's signature in the sidebar


def shell_copy(app: Path, dest: Path, *, all_pages: bool = True) -> Path:
    """A scratch copy of the app at ``app`` with a floor page (``pages/floor.py``) added.

    ``all_pages``: keep every page (the real navigation), else only the Study page (2 pages in all).
    ``ui`` and ``bleu_core`` are imported from where the app's own folder would find them.
    """
    dest.mkdir(parents=True)
    shutil.copy(app, dest / app.name)
    if (app.parent / ".streamlit").is_dir():
        shutil.copytree(app.parent / ".streamlit", dest / ".streamlit")
    for name in ("ui", "bleu_core"):
        if (app.parent / name).is_dir():
            (dest / name).symlink_to(app.parent / name)
    (dest / "pages").mkdir()
    for page in sorted((app.parent / "pages").glob("*.py")):
        if all_pages or page.name == "study.py":
            shutil.copy(page, dest / "pages" / page.name)
    (dest / "pages" / "floor.py").write_text(FLOOR_PAGE, encoding="utf-8")
    return dest / app.name


Shows = tuple[str, str] | tuple[str, str, bool]
"""(selector, text[, present]): the element matching ``selector`` contains ``text`` (or, with
``present=False``, no longer does) once the re-run is drawn."""


def _measure(page, action, shows: Shows | None = None) -> float:
    """Seconds from ``action`` (a key press) until the re-run it starts is drawn (see the module doc).

    A re-run so short that the browser applies it in one batch never shows the ``running`` state; the
    ``shows`` condition (a value the re-run puts on the page) then tells that it has been drawn.
    """
    from app_server import wait_app_idle

    selector, text, *present = shows if shows else (None, None)
    page.evaluate(WATCH, [selector, text, present[0] if present else True])
    t0 = page.evaluate("performance.now()")
    action()
    page.wait_for_function(
        "() => window.__benchEnd > 0", timeout=int(os.environ.get("BENCH_TIMEOUT_MS", "120000"))
    )
    end = page.evaluate("window.__benchEnd")
    page.evaluate("(window.__benchObservers || []).forEach((o) => o.disconnect())")
    wait_app_idle(page)
    return (end - t0) / 1000.0


def _change(page, label: str, value: str, *, shows: Shows | None = None) -> float:
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
    return _measure(page, lambda: page.keyboard.press("Enter"), shows)


def _change_order(page, value: int, *, shows: Shows | None = None) -> float:
    box = page.locator('[data-testid="stSidebar"] [data-testid="stNumberInput"] input')
    box.fill(str(value))
    return _measure(page, lambda: box.press("Enter"), shows)


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


def _timed_first_page(
    browser, url: str, started: float, first: dict[str, list[float]], who: str, ready: str
) -> object:
    """:func:`_first_page`, its figures recorded in ``first`` under ``who`` ("hello world", "app") and the page
    that counts as ready (``ready``: "page", "Study page"); the server has just answered its health check."""
    first.setdefault(f"{who}: server start → health answers", []).append(
        time.perf_counter() - started
    )
    page, request, total = _first_page(browser, url, started)
    first.setdefault(f"{who}: first request → {ready} ready", []).append(request)
    first.setdefault(f"{who}: server start → {ready} ready", []).append(total)
    return page


def _open(page, link: str) -> None:
    from app_server import wait_app_idle

    page.locator('[data-testid="stSidebar"]').get_by_role("link", name=link).click()
    wait_app_idle(page)


def _floor_changes(page, times: dict[str, list[float]], label: str) -> None:
    """Warm tokenizer and max-order changes on a page whose metric shows "<tokenizer>/<order>"."""
    for tok in ("intl", "13a"):  # first sight of each value: not timed
        _change(page, "Tokenizer", tok, shows=(METRIC, f"{tok}/"))
    for tok in ("intl", "13a", "intl", "13a"):
        times.setdefault(f"{label} | tokenizer change", []).append(
            _change(page, "Tokenizer", tok, shows=(METRIC, f"{tok}/"))
        )
    for order in (5, 4, 5, 4):
        times.setdefault(f"{label} | max order change", []).append(
            _change_order(page, order, shows=(METRIC, f"/{order}"))
        )


SETTLE_S = 2.0
"""Seconds between a page being shown and the first change (a user reads the page first)."""


def _page_changes(
    page, times: dict[str, list[float]], name: str, cold_tok: str, new_order: int, when: str
):
    """First and warm tokenizer and max-order changes on one of the app's scored pages.

    ``when`` names how the first tokenizer's statistics were counted (ahead or now). Each re-run also
    shows in the sidebar's signature (``tok:…``; ``order:N`` unless N is 4).
    """

    def tok_shows(tok: str) -> Shows:
        return (SIDEBAR_CODE, f"tok:{tok}|")

    def order_shows(order: int) -> Shows:
        return (SIDEBAR_CODE, "order:", False) if order == 4 else (SIDEBAR_CODE, f"order:{order}|")

    time.sleep(SETTLE_S)
    times.setdefault(f"{name} | tokenizer → {cold_tok}, first time, {when}", []).append(
        _change(page, "Tokenizer", cold_tok, shows=tok_shows(cold_tok))
    )
    for tok in ("13a", cold_tok, "13a"):
        times.setdefault(f"{name} | tokenizer, warm", []).append(
            _change(page, "Tokenizer", tok, shows=tok_shows(tok))
        )
    times.setdefault(f"{name} | max order 4→{new_order}, first time", []).append(
        _change_order(page, new_order, shows=order_shows(new_order))
    )
    for order in (4, new_order, 4):
        times.setdefault(f"{name} | max order, warm", []).append(
            _change_order(page, order, shows=order_shows(order))
        )
    if name == "explore" and when == "counted ahead":
        # char: five times more tokens to draw than 13a (~1,900 for 15 systems)
        for tok in ("char", "13a", "char", "13a"):
            times.setdefault(f"{name} | tokenizer 13a↔char (more tokens to draw)", []).append(
                _change(page, "Tokenizer", tok, shows=tok_shows(tok))
            )


def _app_changes(browser, url: str, times: dict[str, list[float]], when: str) -> None:
    """Explore, then BLEU vs human, on a fresh server (Study is the first page)."""
    from app_server import wait_app_idle

    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    page.goto(url)
    page.wait_for_selector('[data-testid="stMetric"]', timeout=60_000)
    wait_app_idle(page)
    # Explore first: a page other than Study waits for the background warm-up (ui/app/warmup.py),
    # so nothing below competes with it
    _open(page, "Explore")
    _page_changes(page, times, "explore", "intl", 5, when)
    _open(page, "BLEU vs human")
    _page_changes(page, times, "bleu_vs_human", "char", 6, when)  # intl was chosen on Explore
    page.close()


def browser_times(
    repeats: int, app: Path | None = None
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """In-browser figures: ({re-render label: seconds}, {first-page label: seconds})."""
    from app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_server
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {}
    first: dict[str, list[float]] = {}
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: browser figures skipped")
        return times, first
    app = (app or ROOT / "app.py").resolve()
    cwd = ROOT if app == (ROOT / "app.py").resolve() else app.parent
    with tempfile.TemporaryDirectory(prefix="bench-app-") as tmp:
        hello = Path(tmp) / "hello" / "hello.py"
        hello.parent.mkdir()
        hello.write_text(HELLO_APP, encoding="utf-8")
        shells = {
            "app shell, floor page (14-page navigation)": shell_copy(app, Path(tmp) / "shell"),
            "app shell, floor page (2-page navigation)": shell_copy(
                app, Path(tmp) / "shell2", all_pages=False
            ),
        }
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for _ in range(repeats):
                # Streamlit's own cost: a first page and a sidebar change (same working directory,
                # hence the same .streamlit/config.toml, as the app)
                started = time.perf_counter()
                with streamlit_server(app=hello, quiet=True, cwd=cwd) as url:
                    page = _timed_first_page(browser, url, started, first, "hello world", "page")
                    _floor_changes(page, times, "hello world (Streamlit's floor)")
                    page.close()
                # the app's shell: a page that draws nothing
                for label, shell in shells.items():
                    with streamlit_server(app=shell, quiet=True, cwd=cwd) as url:
                        page = browser.new_page(viewport={"width": 1400, "height": 1400})
                        page.goto(url)
                        page.wait_for_selector('[data-testid="stMetric"]', timeout=60_000)
                        _open(page, "Floor")
                        _floor_changes(page, times, label)
                        page.close()
                started = time.perf_counter()
                with streamlit_server(app=app, quiet=True, cwd=cwd) as url:
                    page = _timed_first_page(browser, url, started, first, "app", "Study page")
                    # the Study page draws no scores: only the sidebar's signature changes
                    for smooth in ("floor", "exp", "floor", "exp"):
                        times.setdefault("study (draws no scores) | smoothing change", []).append(
                            _change(
                                page, "Smoothing", smooth, shows=(SIDEBAR_CODE, f"smooth:{smooth}")
                            )
                        )
                    page.close()
                    _app_changes(browser, url, times, "counted ahead")
                with streamlit_server(
                    app=app, quiet=True, cwd=cwd, extra_env={"BLEU_STUDY_NO_PREFETCH": "1"}
                ) as url:
                    _app_changes(browser, url, times, "counted now")
            browser.close()
    return times, first


# ----------------------------------------------------------------------------------------- page by page
# Issue 14: every page of the app on studies of real and larger size, opened as a user would with
# ``bleu-study app PATH`` (``python -m bleu_core app``), side by side with the TED demo in the same run.
WMT21 = (
    Path(os.environ.get("BLEU_STUDY_SHARED_DATA", "/work/shared/data"))
    / "wmt21-newstest2021-mqm-da"
)
WMT24 = WMT21.parent / "wmt24-general-esa"
"""The WMT24 General MT release (en-ja: 23 systems × 997 paragraphs, ESA scores, four domains)."""
PAGE_LINKS = (
    "Corpus",
    "Export",
    "Explore",
    "Learn BLEU",
    "BLEU vs error spans",
    "BLEU vs human",
    "Significance",
    "Judges",
    "Correlation",
    "Metrics",
    "Published tables",
)
"""The pages visited, in this order, after the Study page (the campaign pages do not depend on the study)."""
ONLY: str | None = None
"""``--only TEXT``: measure only the studies whose label contains TEXT (e.g. ``WMT21``)."""
SCREENSHOTS: Path | None = None
"""``--screenshots DIR``: a full-page PNG of every page after its first visit (session 1)."""
PAGES_BEGIN = "<!-- pages: page-by-page table written by bench_app.py (issue 14) -->"
PAGES_END = "<!-- pages: end -->"


@dataclass(frozen=True)
class BenchStudy:
    """A study the page-by-page run opens: ``args`` after ``bleu-study app`` (none: the TED demo)."""

    label: str
    args: tuple[str, ...]
    first_target: float | None
    change_target: float | None
    memory: bool = False
    """Tour it in more browser sessions after the last run and read the server's memory."""


def bench_studies(tmp: Path, *, quick: bool) -> list[BenchStudy]:
    """The TED demo, the WMT21 zh-en and WMT24 en-ja releases (when present) and a synthetic study written
    to ``tmp``."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import synthetic

    out = [BenchStudy("TED en-de demo", (), None, None)]
    if (WMT21 / "wmt21-news-systems").is_dir():
        out.append(BenchStudy("WMT21 zh-en", (str(WMT21), "--pair", "zh-en"), 3.0, 1.0))
    if (WMT24 / "txt" / "documents").is_dir():  # paragraphs in documents and domains
        out.append(BenchStudy("WMT24 en-ja", (str(WMT24), "--pair", "en-ja"), 3.0, 1.0))
    n_systems, n_segments = (50, 2_000) if quick else (50, 10_000)
    label = f"synthetic {n_systems}×{n_segments:,}×2"
    if ONLY is not None and ONLY not in label:  # not measured: not written (40 s)
        return out
    folder = tmp / f"synthetic-{n_systems}x{n_segments}"
    started = time.perf_counter()
    synthetic.write_study_folder(str(folder), n_systems=n_systems, n_segments=n_segments)
    print(f"synthetic study written in {time.perf_counter() - started:.0f} s: {folder}")
    out.append(BenchStudy(label, (str(folder),), 10.0, None, memory=True))
    return out


def app_server(study: BenchStudy, cwd: Path):
    """``python -m bleu_core app [PATH …] --port N`` started in ``cwd`` (any folder), its output dropped; a
    context manager yielding (URL, pid) once the server answers (within 120 s: a large study loads first)."""
    from app_server import free_port, running_server

    port = free_port()
    command = [sys.executable, "-m", "bleu_core", "app", *study.args, "--port", str(port)]
    extra_env = {"PYTHONPATH": str(ROOT)}
    return running_server(command, port, cwd=cwd, extra_env=extra_env, timeout=120, stop_timeout=20)


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (``VmRSS`` from /proc)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _visit(page, link: str) -> float:
    """Seconds from a click on the sidebar link ``link`` until the page's run is drawn."""
    target = page.locator('[data-testid="stSidebar"]').get_by_role("link", name=link, exact=True)
    return _measure(page, target.click)


TIMED_OUT: list[str] = []
"""Measurements whose re-run was never seen drawn (listed in the report instead of stopping the run)."""


def _tour(
    page, times: dict[str, list[float]], study: str, *, record: bool, tokenizers: list[str]
) -> None:
    """Visit every page of :data:`PAGE_LINKS`; on each, change the tokenizer once (next of ``tokenizers``)."""

    def tok_shows(tok: str) -> Shows:
        return (SIDEBAR_CODE, f"tok:{tok}|")

    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for link in PAGE_LINKS:
        try:
            first = _visit(page, link)
        except PlaywrightTimeout:  # the run never showed as drawn: say so, and go on with the tour
            print(f"  {study} | {link}: first visit not seen drawn (timed out); page skipped")
            TIMED_OUT.append(f"{study}|{link}|first")
            continue
        time.sleep(SETTLE_S / 2)
        if record and SCREENSHOTS:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            name = f"{study}-{link}".replace(" ", "_").replace("×", "x").replace(",", "")
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
        tok = tokenizers.pop(0)
        tokenizers.append(tok)
        try:
            change = _change(page, "Tokenizer", tok, shows=tok_shows(tok))
        except PlaywrightTimeout:
            print(f"  {study} | {link}: tokenizer → {tok} not seen drawn (timed out)")
            TIMED_OUT.append(f"{study}|{link}|change")
            continue
        print(f"  {study} | {link}: first visit {first:.2f} s, tokenizer → {tok} {change:.2f} s")
        if record:
            times.setdefault(f"{study}|{link}|first", []).append(first)
            times.setdefault(f"{study}|{link}|change", []).append(change)


def page_times(
    repeats: int, *, quick: bool, sessions: int = 3
) -> tuple[dict[str, list[float]], dict[str, list[float]], list[BenchStudy]]:
    """Page-by-page browser figures: ({study|page|first/change: seconds}, {study|what: MB or s}, studies).

    Each repeat starts a fresh server per study (empty caches): the Study page opens, then every page is
    visited once (first visit) and the tokenizer changed on it (13a→intl on the first page, then back and
    forth: a new tokenizer is counted once, later changes find it counted). After the last repeat, two more
    browser sessions tour the same server and the server's resident memory is read after each session.
    """
    from app_server import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {}
    other: dict[str, list[float]] = {}
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: page-by-page figures skipped")
        return times, other, []
    timeout = os.environ.setdefault("BENCH_TIMEOUT_MS", "900000")
    print(f"page-by-page: timeout per measurement {int(timeout) / 1000:.0f} s")
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as tmp:
        studies = [
            s for s in bench_studies(Path(tmp), quick=quick) if ONLY is None or ONLY in s.label
        ]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for run in range(repeats):
                for study in studies:
                    started = time.perf_counter()
                    with app_server(study, Path(tmp)) as (url, pid):
                        context = browser.new_context(viewport={"width": 1400, "height": 1400})
                        page = context.new_page()
                        t0 = time.perf_counter()
                        page.goto(url)
                        page.wait_for_selector(SIDEBAR_CODE, timeout=int(timeout))
                        wait_app_idle_long(page, int(timeout))
                        other.setdefault(f"{study.label}|Study page (opens the study)", []).append(
                            time.perf_counter() - t0
                        )
                        other.setdefault(f"{study.label}|server start → Study page", []).append(
                            time.perf_counter() - started
                        )
                        _tour(page, times, study.label, record=True, tokenizers=["intl", "13a"])
                        other.setdefault(f"{study.label}|RSS after 1 session, MB", []).append(
                            rss_mb(pid)
                        )
                        if run == repeats - 1 and study.memory:  # 3 sessions: the memory target
                            pages = [page]
                            for n in range(2, sessions + 1):
                                ctx = browser.new_context(viewport={"width": 1400, "height": 1400})
                                extra = ctx.new_page()
                                extra.goto(url)
                                extra.wait_for_selector(SIDEBAR_CODE, timeout=int(timeout))
                                wait_app_idle_long(extra, int(timeout))
                                _tour(
                                    extra,
                                    times,
                                    study.label,
                                    record=False,
                                    tokenizers=["intl", "13a"],
                                )
                                pages.append(extra)
                                other.setdefault(
                                    f"{study.label}|RSS after {n} sessions, MB", []
                                ).append(rss_mb(pid))
                            for each in pages:
                                each.context.close()
                        else:
                            context.close()
            browser.close()
    return times, other, studies


def wait_app_idle_long(page, timeout_ms: int) -> None:
    from app_server import wait_app_idle

    wait_app_idle(page, timeout_ms=timeout_ms)


def pages_report(
    times: dict[str, list[float]],
    other: dict[str, list[float]],
    studies: list[BenchStudy],
    repeats: int,
    load: tuple[float, float],
) -> list[str]:
    """The page-by-page table (markdown lines)."""

    def cell(values: list[float] | None, target: float | None) -> str:
        if not values:
            return "—"
        med = statistics.median(values)
        mark = "" if target is None else (" ✓" if med <= target else " ✗")
        return f"{med:.2f}{mark}"

    head = "| page | " + " | ".join(f"{s.label} first | {s.label} change" for s in studies) + " |"
    lines = [
        PAGES_BEGIN,
        "## Page by page (issue 14): first visit and a sidebar change, in the browser",
        "",
        f"`bench_app.py {' '.join(sys.argv[1:])}`, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, median of {repeats} run(s) in seconds (each run: a "
        "fresh server per study started with `python -m bleu_core app PATH` in a scratch folder, headless "
        "Chromium). *first*: click on the page's link → its run drawn (the first visit of that page on "
        "that server); *change*: key press choosing another tokenizer in the sidebar → drawn (13a→intl on "
        "the first page, then back and forth). ✓/✗: targets (WMT21 first ≤ 3 s, change ≤ 1 s; synthetic "
        f"first ≤ 10 s). 1-minute load on {os.cpu_count()} cores: {load[0]:.1f} before, {load[1]:.1f} "
        "after (a shared machine: every figure grows with it).",
        "",
        head,
        "|---|" + "---|---|" * len(studies),
    ]
    for link in PAGE_LINKS:
        cells = []
        for s in studies:
            cells.append(cell(times.get(f"{s.label}|{link}|first"), s.first_target))
            cells.append(cell(times.get(f"{s.label}|{link}|change"), s.change_target))
        lines.append(f"| {link} | " + " | ".join(cells) + " |")
    lines += ["", "| study | what | median |", "|---|---|---|"]
    for key, values in other.items():
        label, what = key.split("|", 1)
        unit = "" if what.endswith("MB") else " s"
        lines.append(
            f"| {label} | {what} | {statistics.median(values):.{0 if unit == '' else 2}f}{unit} |"
        )
    if TIMED_OUT:
        lines += ["", "Not seen drawn within BENCH_TIMEOUT_MS (left out): " + ", ".join(TIMED_OUT)]
    return [*lines, "", PAGES_END]


def write_pages_section(out: Path, lines: list[str]) -> None:
    """Put the page-by-page section into ``out`` (replacing the previous one), below the notes marker
    so that a re-run of the other figures keeps it."""
    old = out.read_text(encoding="utf-8") if out.exists() else NOTES_MARKER + "\n"
    block = "\n".join(lines)
    if PAGES_BEGIN in old and PAGES_END in old:
        start, end = old.index(PAGES_BEGIN), old.index(PAGES_END) + len(PAGES_END)
        new = old[:start] + block + old[end:]
    elif NOTES_MARKER in old:
        at = old.index(NOTES_MARKER) + len(NOTES_MARKER)
        new = old[:at] + "\n\n" + block + "\n" + old[at:]
    else:
        new = old + "\n" + NOTES_MARKER + "\n\n" + block + "\n"
    out.write_text(new, encoding="utf-8")


# ----------------------------------------------------------------------------------------- report
def _row(label: str, values: list[float]) -> str:
    med = statistics.median(values) * 1000
    verdict = "✓" if med < 300 else "✗"
    return (
        f"| {label} | {med:.0f} | {min(values) * 1000:.0f} | {max(values) * 1000:.0f} | "
        f"{len(values)} | {verdict} |"
    )


def _median_ms(values: dict[str, list[float]], label: str) -> str:
    return f"{statistics.median(values[label]) * 1000:.0f} ms" if label in values else "—"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true", help="skip the in-browser figures")
    parser.add_argument("--no-script", action="store_true", help="skip the AppTest script times")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where to write the report")
    parser.add_argument(
        "--app", type=Path, default=None, help="another copy of app.py to measure (A/B runs)"
    )
    parser.add_argument(
        "--pages-only", action="store_true", help="only the page-by-page run (issue 14)"
    )
    parser.add_argument("--no-pages", action="store_true", help="skip the page-by-page run")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="page-by-page only, one run, a 50 × 2,000 synthetic study (a few minutes)",
    )
    parser.add_argument("--only", default=None, help="only the studies whose label contains this")
    parser.add_argument(
        "--screenshots",
        type=Path,
        default=None,
        help="save a PNG of every page after its first visit",
    )
    args = parser.parse_args()
    global SCREENSHOTS, ONLY
    ONLY = args.only
    SCREENSHOTS = args.screenshots.resolve() if args.screenshots else None
    os.chdir(ROOT)  # AppTest reads .streamlit/config.toml from the working directory
    if args.quick or args.pages_only:
        repeats = 1 if args.quick else args.repeats
        load_before = os.getloadavg()[0]
        times, other, studies = page_times(repeats, quick=args.quick)
        lines = pages_report(times, other, studies, repeats, (load_before, os.getloadavg()[0]))
        write_pages_section(args.out, lines)
        print("\n".join(lines))
        return

    load_before = os.getloadavg()[0]
    scripts = {} if args.no_script else script_times(args.repeats)
    browser, first = ({}, {}) if args.no_browser else browser_times(args.repeats, args.app)
    load_after = os.getloadavg()[0]

    measured = args.app.resolve() if args.app else ROOT / "app.py"
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
        "cores every figure is inflated by the waiting.",
        "",
    ]
    if args.app:
        lines += [f"App measured: `{measured}` (A/B run), started in its own folder.", ""]
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
            "*cold* = settings not seen before (statistics counted); *warm* = cached statistics. "
            "AppTest in process (`app.py` + the page), with the repository's `.streamlit/config.toml`.",
            "",
            "| page and change | median ms | min ms | max ms | n | < 300 ms |",
            "|---|---|---|---|---|---|",
            *(_row(k, v) for k, v in scripts.items()),
            "",
        ]
    if browser:
        lines += [
            "## Re-render after a settings change: in the browser (key press → drawn)",
            "",
            "*Floors*: Streamlit's hello world (two sidebar widgets, a title, a metric) and the app's "
            "shell (a scratch copy of the app with a page drawing only a title and a metric) show what "
            "a page pays before drawing anything of its own.",
            "",
            "| page and change | median ms | min ms | max ms | n | < 300 ms |",
            "|---|---|---|---|---|---|",
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
        hello_row = "hello world (Streamlit's floor) | tokenizer change"
        lines += [
            "Re-render in the browser, warm tokenizer change (medians): hello world "
            f"{_median_ms(browser, hello_row)}, "
            "app shell with a floor page "
            f"{_median_ms(browser, 'app shell, floor page (14-page navigation) | tokenizer change')} "
            "(2-page navigation: "
            f"{_median_ms(browser, 'app shell, floor page (2-page navigation) | tokenizer change')}), "
            f"Explore {_median_ms(browser, 'explore | tokenizer, warm')}, "
            f"BLEU vs human {_median_ms(browser, 'bleu_vs_human | tokenizer, warm')}.",
            "",
        ]
    # hand-written notes below the marker survive a re-run
    old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    notes = old[old.index(NOTES_MARKER) :] if NOTES_MARKER in old else NOTES_MARKER + "\n"
    args.out.write_text("\n".join(lines) + "\n" + notes, encoding="utf-8")
    print("\n".join(lines))
    if not args.no_pages:
        load_before = os.getloadavg()[0]
        times, other, studies = page_times(args.repeats, quick=False)
        page_lines = pages_report(
            times, other, studies, args.repeats, (load_before, os.getloadavg()[0])
        )
        write_pages_section(args.out, page_lines)
        print("\n".join(page_lines))


if __name__ == "__main__":
    main()
