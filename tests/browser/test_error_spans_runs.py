"""End-to-end: the "BLEU vs error spans" page runs once per user action and never again on its own.

On a WMT24-shaped release (``tests/study/data/wmt24-mini``: invented text, ESA error spans, opened with
``bleu-study app PATH --pair en-ja``) the page is opened from the sidebar, its order is changed and the
sidebar's tokenizer too. After each action the test counts the script runs the browser saw (websocket
frames, :mod:`script_runs`): exactly one, then none more while the page sits idle, although the page's
results for other tokenizers are being counted in the background meanwhile
(:mod:`ui.explore.error_spans_ahead`) and a background job finishing must not make the page run again.

Real app (``streamlit run app.py``) in headless Chromium.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, ROOT, streamlit_server, wait_app_idle  # noqa: E402
from script_runs import ScriptRuns  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
pytest.importorskip("playwright.sync_api")

RELEASE = ROOT / "tests" / "study" / "data" / "wmt24-mini"
IDLE_MS = 4_000
"""How long the page is left idle before the runs are counted again: past the background counts'
start (:data:`ui.explore.error_spans_ahead.AHEAD_DELAY_S`) and their end on this small release."""


def choose_tokenizer(page, name: str) -> None:
    """Choose ``name`` in the sidebar's Tokenizer select box (typed, then picked with the keyboard)."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(
        has_text="Tokenizer"
    )
    box.click()
    page.keyboard.type(name)
    page.get_by_role("option", name=name, exact=True).wait_for()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")


def one_run_then_quiet(page, runs: ScriptRuns, action, what: str) -> None:
    """``action()`` makes the app run exactly once; left idle afterwards, the page does not run again."""
    before = runs.started
    requested = runs.requested
    action()
    assert runs.wait_request(page, requested), f"{what}: the browser asked for no run"
    runs.settle(page)
    assert runs.started - before == 1, f"{what}: {runs.started - before} runs: {runs.log}"
    idle = runs.started
    page.wait_for_timeout(IDLE_MS)  # the page is left alone: nothing may make it run
    assert runs.started == idle, f"{what}: the idle page ran again by itself: {runs.log}"
    assert runs.requested == requested + 1, f"{what}: the browser asked again: {runs.log}"


def check_runs(url: str, browser) -> None:
    """The test's steps on the app at ``url`` (also run against a changed app to see the test fail)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    try:
        runs = ScriptRuns.watch(page)
        page.goto(url)
        runs.settle(page)
        sidebar = page.locator('[data-testid="stSidebar"]')
        link = sidebar.get_by_role("link", name="BLEU vs error spans", exact=True)
        one_run_then_quiet(page, runs, link.click, "opening the page")
        page.get_by_role("heading", name="BLEU vs error spans").wait_for()
        grid = page.locator('.st-key-spans_rewarded_table [data-testid="stDataFrame"]')
        assert grid.count() == 1
        order = page.locator('[data-testid="stButtonGroup"]').get_by_text("2", exact=True)
        one_run_then_quiet(page, runs, order.click, "max order 2")
        one_run_then_quiet(page, runs, lambda: choose_tokenizer(page, "char"), "tokenizer char")
        wait_app_idle(page)
        assert "tok:char" in sidebar.locator("code").first.inner_text()
        assert not page.locator('[data-testid="stException"]').count()
    finally:
        page.close()


def test_error_spans_page_runs_once_per_action(browser):
    with streamlit_server(args=[str(RELEASE), "--pair", "en-ja"]) as url:
        check_runs(url, browser)
