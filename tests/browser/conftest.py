"""Fixtures shared by the browser tests: one headless Debian Chromium per test module, and a run counter
on every page a test opens."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_server  # noqa: E402
from script_runs import ScriptRuns  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    """Chromium for the module's tests (skipped where /usr/bin/chromium or Playwright is missing)."""
    if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def demo_server():
    """The app's URL on the TED en-de demo (no PATH), one Streamlit server per test module."""
    with streamlit_server(quiet=True) as url:
        yield url


def _watching(new_page):
    """``new_page`` (of Playwright's ``Browser`` or ``BrowserContext``), the page it returns watched by a
    :class:`ScriptRuns` from its creation on (its app websocket opens on its first navigation)."""

    @functools.wraps(new_page)
    def watched_new_page(self, *args, **kwargs):
        page = new_page(self, *args, **kwargs)
        ScriptRuns.watch(page)
        return page

    return watched_new_page


@pytest.fixture(scope="session", autouse=True)
def _pages_count_their_runs():
    """Every page the browser tests open, whichever browser it comes from (this module's fixture or a
    test's own ``chromium.launch``), carries ``page.script_runs``: ``app_server.wait_app_idle`` then waits
    for the runs the test's actions asked for, not only for the page to read idle."""
    try:
        from playwright.sync_api import Browser, BrowserContext
    except ImportError:  # pragma: no cover - the browser tests skip themselves
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        for cls in (Browser, BrowserContext):
            patch.setattr(cls, "new_page", _watching(cls.new_page))
        yield
