"""Fixtures shared by the browser tests: one headless Debian Chromium per test module."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


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
