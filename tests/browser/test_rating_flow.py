"""End to end in headless Chromium: a judge follows the organiser's link, joins, rates with the keyboard, skips,
goes back, reloads the tab and carries on where they were; the ratings are in the database.

The app runs as a real ``streamlit run app.py`` server on loopback with ``BLEU_STUDY_DB`` pointing at a file
under ``tmp_path`` (never the user's data directory).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignStore, plan_campaign

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
HOSTILE_NAME = "<img src=x onerror=alert(1)> Ana"

if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip("needs /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


import app_server as server  # noqa: E402


def make_campaign(db: Path):
    store = CampaignStore(db)
    plan = plan_campaign(
        name="Browser <b>test</b> campaign",
        study_name="toy",
        segment_ids=["s1", "s2", "s3"],
        translations={
            "A": ["the cat sat on the mat", "a dog barked", "it rained all day"],
            "B": ["cat sits mat", "dog bark loud", "rain whole day"],
        },
        sources=["le chat était assis", "un chien a aboyé", "il a plu toute la journée"],
        references=None,
        systems=["A", "B"],
        n_segments=3,
        seed=2,
        display="source",
    )
    created = store.create_campaign(plan)
    store.close()
    return created


def item_heading(page) -> str:
    return page.locator("h3").filter(has_text="Item").first.inner_text(timeout=30_000)


def test_judge_rates_with_the_keyboard_and_resumes_after_reload(tmp_path):
    db = tmp_path / "browser.sqlite"
    created = make_campaign(db)
    code = created.campaign.code
    dialogs: list[str] = []
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}) as url:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
            )
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                page.goto(f"{url}/rate?campaign={code}", wait_until="domcontentloaded")
                server.wait_app_idle(page)

                # the organiser's link fills in the code; the campaign name is shown escaped
                code_box = page.get_by_label("Campaign code").first
                code_box.wait_for(timeout=30_000)
                assert code_box.input_value() == code
                page.get_by_text("Browser <b>test</b> campaign").first.wait_for(timeout=30_000)

                page.get_by_label("Your name").fill(HOSTILE_NAME)
                page.get_by_text("bilingual", exact=True).click()
                page.get_by_role("button", name="Start rating").click()
                server.wait_app_idle(page)
                assert item_heading(page) == "Item 1 of 6"
                page.get_by_text("Translation to rate").wait_for()
                # the resume code (for another device) is shown once, and never kept in the address
                page.get_by_text("Continue on another device").click()
                resume_code = page.locator('[data-testid="stCode"]').first.inner_text().strip()
                assert resume_code.startswith(code) and "resume=" not in page.url

                # keyboard only: number keys fill adequacy then fluency, Enter saves and moves on
                page.evaluate("() => document.activeElement && document.activeElement.blur()")
                page.keyboard.press("4")
                page.keyboard.press("2")
                page.keyboard.press("Enter")
                server.wait_app_idle(page)
                page.wait_for_function(
                    "() => [...document.querySelectorAll('h3')].some(h => h.innerText.includes('Item 2 of 6'))",
                    timeout=30_000,
                )

                # skip item 2, then go back to it
                page.get_by_role("button", name="Skip").click()
                server.wait_app_idle(page)
                assert item_heading(page) == "Item 3 of 6"
                page.get_by_role("button", name="Back").click()
                server.wait_app_idle(page)
                assert item_heading(page) == "Item 2 of 6"

                # a reload loses nothing: this browser remembers the judge, on the item they were on
                assert "resume=" not in page.url
                page.reload(wait_until="domcontentloaded")
                server.wait_app_idle(page)
                assert item_heading(page) == "Item 2 of 6"
                # another device: the resume code brings the judge back to where they were
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                page.goto(f"{url}/rate", wait_until="domcontentloaded")
                server.wait_app_idle(page)
                page.get_by_role("tab", name="Resume").click()
                page.get_by_label("Resume code").fill(resume_code)
                page.get_by_role("button", name="Resume", exact=True).click()
                server.wait_app_idle(page)
                assert item_heading(page) == "Item 2 of 6"

                # rate item 2 with the mouse
                form = page.locator('[data-testid="stForm"]')
                groups = form.get_by_role("radiogroup")
                groups.nth(0).get_by_text("5 · very good").click()
                groups.nth(1).get_by_text("3 · fair").click()
                page.get_by_role("button", name="Save and next").click()
                server.wait_app_idle(page)
                assert item_heading(page) == "Item 3 of 6"
            finally:
                browser.close()

    assert dialogs == []  # the hostile judge name never ran as HTML
    store = CampaignStore(db)
    rows = store.ratings(code, created.organiser_key)
    assert {(r.judge, r.group) for r in rows} == {(HOSTILE_NAME, "bilingual")}
    assert {(r.position, r.criterion): r.score for r in rows} == {
        (0, "adequacy"): 4,
        (0, "fluency"): 2,
        (1, "adequacy"): 5,
        (1, "fluency"): 3,
    }
    store.close()
