"""End-to-end: on the TED demo, COMET-like scores (generated here in MTME's layout) are uploaded
on the Study page and ranked with BLEU and chrF on the Metric ranking page, BLEU's row highlighted.

Real app (``streamlit run app.py``) in headless Chromium; screenshots go to ``tests/artifacts/`` (not
committed).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
from app_server import CHROMIUM, CHROMIUM_ARGS, ROOT, streamlit_server, wait_app_idle  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
playwright_api = pytest.importorskip("playwright.sync_api")

ARTIFACTS = ROOT / "tests" / "artifacts"


def test_uploaded_metric_is_ranked_with_bleu(tmp_path: Path) -> None:
    from test_app_metric_scores import METRIC, score_files

    from bleu_core.study.demo import load_demo

    files = []
    for name, data in score_files(load_demo("ted-en-de")):
        (tmp_path / name).write_bytes(data)
        files.append(str(tmp_path / name))
    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_server() as url, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 2000})
            page.goto(url)
            wait_app_idle(page)
            page.get_by_text("Metric scores (COMET").click()
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').last.set_input_files(files)
            wait_app_idle(page)
            page.get_by_role("button", name="Attach scores").click()
            wait_app_idle(page)
            page.get_by_text(f"Attached {METRIC}").wait_for()
            page.screenshot(path=str(ARTIFACTS / "study-metric-scores.png"), full_page=True)
            page.get_by_role("link", name="Metric ranking").click()  # same session: scores kept
            wait_app_idle(page, timeout_ms=240_000)
            page.get_by_role("heading", name="Findings table").wait_for(timeout=240_000)
            wait_app_idle(page, timeout_ms=240_000)
            page.screenshot(path=str(ARTIFACTS / "metric-ranking.png"), full_page=True)
            grid = page.locator('[data-testid="stDataFrame"]').first
            assert METRIC in grid.inner_text() or page.get_by_text(METRIC).count() >= 1
        finally:
            browser.close()
