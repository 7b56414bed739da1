"""End-to-end: Explore's "Rated translations only" toggle and its rated-count expander
(``ui/explore/rated.py``), on a study where only some translations carry a human score.

The TED demos rate every translation (the toggle would change nothing there), so the server opens the
WMT24-shaped mini release ``tests/study/data/wmt24-mini`` (invented text; its ESA file rates 10 of the 18
translations of en-ja) as ``bleu-study app PATH --pair en-ja`` does. Desktop (1280×800) and phone
(390×844: Explore is used on phones), each page checked with axe-core after the toggle.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from bleu_core.study import load_study

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, ROOT, axe_serious, streamlit_server, wait_app_idle  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python.sync_playwright")

RELEASE = ROOT / "tests" / "study" / "data" / "wmt24-mini"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
MATCH = re.compile(r"(\d+) of (\d+) translations match")


@pytest.fixture(scope="module")
def server():
    with streamlit_server(args=[str(RELEASE), "--pair", "en-ja"], quiet=True) as url:
        yield url


@pytest.fixture(scope="module")
def counts() -> tuple[int, int]:
    """(translations, rated translations) of the release, from the study the app loads: the oracle."""
    study = load_study(str(RELEASE), pair="en-ja").study
    scores = study.segment_scores("esa")
    return int(scores.size), int(np.isfinite(scores).sum())


def matching(page) -> tuple[int, int]:
    caption = page.locator('[data-testid="stCaptionContainer"]').filter(
        has_text="translations match"
    )
    found = MATCH.search(caption.first.inner_text())
    assert found, caption.first.inner_text()
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_rated_only_keeps_the_rated_translations(browser, server, counts, device) -> None:
    total, rated = counts
    assert 0 < rated < total  # the release rates some translations, not all: the toggle can show it
    ctx = browser.new_context(**device)
    try:
        page = ctx.new_page()
        page.goto(f"{server}/explore")
        wait_app_idle(page)
        assert matching(page) == (total, total)
        page.get_by_text(f"Rated translations per system (esa): {rated:,} in all").click()
        wait_app_idle(page)
        page.get_by_role("button", name="Filter and sort").click()
        toggle = page.get_by_text("Rated translations only", exact=True)
        toggle.click()
        wait_app_idle(page)
        page.keyboard.press("Escape")
        wait_app_idle(page)
        assert matching(page) == (rated, total)
        assert not axe_serious(page), axe_serious(page)
    finally:
        ctx.close()
