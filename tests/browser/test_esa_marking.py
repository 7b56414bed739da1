"""End to end in headless Chromium: ESA error spans marked by touch on a 390-px phone and by keyboard alone on
a desktop; the spans and scores are in the database.

The app runs as a real ``streamlit run app.py`` server on loopback with ``BLEU_STUDY_DB`` pointing at a file
under ``tmp_path`` (never the user's data directory).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignStore, MarkedSpan

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip("needs /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

import app_server as server  # noqa: E402
from esa_pages import give_score, join, make_campaign, word  # noqa: E402


def test_marking_by_touch_on_a_phone_and_by_keyboard_on_a_desktop(tmp_path):
    db = tmp_path / "esa.sqlite"
    created = make_campaign(db)
    code, key = created.campaign.code, created.organiser_key
    store = CampaignStore(db)
    first = store.items(code, key)[0].translation
    words = first.split()
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}) as url:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
            )
            try:
                phone = browser.new_context(
                    viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
                ).new_page()
                join(phone, url, code, "Phone")
                word(phone, words[0]).tap()
                server.wait_app_idle(phone)
                word(phone, words[1]).tap()
                server.wait_app_idle(phone)
                phone.get_by_role("button", name="Major error").tap()
                server.wait_app_idle(phone)
                phone.locator("mark.bs-major").first.wait_for(timeout=30_000)
                assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
                assert server.axe_serious(phone) == []  # WCAG 2.1 AA on the phone's marking screen
                give_score(phone)  # no score is saved until the student gives one
                phone.get_by_role("button", name="Save and next").tap()
                server.wait_app_idle(phone)
                phone.get_by_text("Item 2 of").first.wait_for(timeout=30_000)

                # the next item: a word marked minor, saved
                second = store.items(code, key)[1].translation.split()
                word(phone, second[0]).tap()
                server.wait_app_idle(phone)
                phone.get_by_role("button", name="Minor error").tap()
                server.wait_app_idle(phone)
                phone.locator("mark.bs-minor").first.wait_for(timeout=30_000)
                give_score(phone)
                phone.get_by_role("button", name="Save and next").tap()
                server.wait_app_idle(phone)
                phone.get_by_text("Item 3 of").first.wait_for(timeout=30_000)

                desk = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
                join(desk, url, code, "Keys")
                word(desk, words[-1]).focus()
                desk.keyboard.press("Space")
                server.wait_app_idle(desk)
                desk.get_by_role("button", name="Minor error").focus()
                desk.keyboard.press("Enter")
                server.wait_app_idle(desk)
                desk.locator("mark.bs-minor").first.wait_for(timeout=30_000)
                assert desk.locator("mark.bs-minor").first.get_attribute("aria-label") == (
                    f"minor error: {words[-1]}"
                )
                desk.get_by_role("slider").first.focus()
                desk.keyboard.press("Home")  # 0 ...
                for _ in range(3):
                    desk.keyboard.press("PageUp")  # ... and up by tens
                server.wait_app_idle(desk)
                desk.get_by_role("button", name="Save and next").focus()
                desk.keyboard.press("Enter")
                server.wait_app_idle(desk)
                desk.get_by_text("Item 2 of").first.wait_for(timeout=30_000)
            finally:
                browser.close()
    spans = {(s.judge, s.position): s.span for s in store.spans(code, key)}
    end_two = len(words[0]) + 1 + len(words[1])
    assert spans[("Phone", 0)] == MarkedSpan(0, end_two, "major")
    assert spans[("Keys", 0)] == MarkedSpan(len(first) - len(words[-1]), len(first), "minor")
    second = store.items(code, key)[1].translation
    assert spans[("Phone", 1)] == MarkedSpan(0, len(second.split()[0]), "minor")
    scores = {r.judge: r.score for r in store.ratings(code, key)}
    # the scores the judges gave, not the slider's start (50)
    assert 0 < scores["Phone"] < 50 and 0 < scores["Keys"] < 50
    store.close()
