"""The projector read from the back of a room, in headless Chromium at 1280×720: in the results view r is in
large type (≥ 48 px) and the BLEU-vs-class chart is above the fold; the timer counts down on the screen.

The app runs as a real ``streamlit run app.py`` server on loopback, ``BLEU_STUDY_DB`` under ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bleu_core.campaigns import CampaignStore, JudgeSession
from bleu_core.campaigns.lesson import lesson_plan
from bleu_core.study.demo import load_demo

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = HERE.parents[0] / "artifacts"

if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip("needs /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


import app_server as server  # noqa: E402


def test_the_results_view_reads_from_the_back_at_1280x720(tmp_path):
    db = tmp_path / "class.sqlite"
    ted = load_demo("ted-zh-en")
    bleu = {s: float(i * 4) for i, s in enumerate(ted.systems)}
    store = CampaignStore(db)
    created = store.create_campaign(lesson_plan(ted, bleu, seed=5, n_segments=2))
    code, key = created.campaign.code, created.organiser_key
    rng = np.random.default_rng(3)
    for name in ("ana", "bo", "cy"):
        session = JudgeSession.join(store, code, name, "class")
        for pos in range(session.n_items):
            session.submit(pos, {"adequacy": int(rng.integers(1, 6)), "fluency": 3})
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
            )
            try:
                context = browser.new_context(viewport={"width": 1280, "height": 720})
                context.add_cookies([{"name": "bs_lessons", "value": f"{code}:{key}", "url": url}])
                page = context.new_page()
                page.goto(f"{url}/projector")
                page.locator(".bs-proj-r").first.wait_for(timeout=60_000)
                server.wait_app_idle(page)
                page.get_by_text("Results view").click()
                page.wait_for_function(
                    "() => !document.querySelector('[data-testid=\"stImage\"]')", timeout=30_000
                )
                page.locator(".vega-embed").first.wait_for(timeout=30_000)
                server.wait_app_idle(page)
                size = page.evaluate(
                    "() => parseFloat(getComputedStyle(document.querySelector('.bs-proj-r')).fontSize)"
                )
                assert size >= 48
                assert page.locator(".bs-proj-r").first.inner_text().startswith("r = ")
                box = page.locator(".vega-embed").first.bounding_box()
                assert box is not None and box["y"] + box["height"] <= 720, box
                assert server.axe_serious(page) == []  # WCAG 2.1 AA, as test_accessibility.py
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "projector-results-1280x720.png"))
            finally:
                browser.close()
