"""End-to-end: the Corpus page's reference-bias section (``ui/analysis/reference_bias_view.py``) on the TED
zh-en demo, whose two human translations (``refB``, the reference, and ``ref``, rated as a system) make two
rankings to compare; opened in headless Chromium, its table downloaded once, checked with axe-core at desktop
size (1280×800; Corpus is not a phone page).
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, axe_serious, streamlit_server, wait_app_idle  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python.sync_playwright")

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SLOW = 240_000


@pytest.fixture(scope="module")
def server():
    with streamlit_server(args=["demo:ted-zh-en"], quiet=True) as url:
        yield url


def test_reference_bias_ranks_under_each_reference(browser, server) -> None:
    from bleu_core.study.demo import load_demo

    study = load_demo("ted-zh-en")
    machines = [s for s in study.machine_systems if s not in ("ref", "refB")]
    ctx = browser.new_context(**DESKTOP, accept_downloads=True)
    try:
        page = ctx.new_page()
        page.goto(f"{server}/corpus")
        wait_app_idle(page, timeout_ms=SLOW)
        heading = page.get_by_role(
            "heading", name="Reference bias: the ranking under each reference"
        )
        heading.wait_for(timeout=SLOW)
        with page.expect_download(timeout=SLOW) as info:
            page.locator(".st-key-dl-csv-reference-bias button").click()
        assert info.value.suggested_filename == "reference-bias.csv"
        rows = list(csv.DictReader(io.StringIO(Path(info.value.path()).read_text("utf-8"))))
        assert {r["system"] for r in rows} == set(machines), rows[:3]
        assert {"BLEU · ref", "BLEU · refB"} <= set(rows[0]), list(
            rows[0]
        )  # a column per reference
        assert not axe_serious(page), axe_serious(page)
    finally:
        ctx.close()
