"""Class mode in a real classroom, in headless Chromium: reloads, a closed tab and a dropped connection lose
nothing, on a phone (390×844) and on the projector (1280×720).

* a student joins without a name on a phone, rates one item, and is shown the next sentence (not the form);
  the 1-5 scale is one row; a reload and a new tab bring back the same student on the same item;
* the server stops: the phone shows "Reconnecting — your ratings are saved" and never Streamlit's own dialog;
  the server starts again on the same port: the phone is back on the same item (a new server session, the
  student remembered by this browser);
* the teacher's browser (it remembers the lesson) opens the projector with no link and no key; the address then
  holds only a view-only link, which another computer opens: the class's numbers, no organiser rights.

The app runs as a real ``streamlit run app.py`` server on loopback, ``BLEU_STUDY_DB`` under ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignStore
from bleu_core.campaigns.lesson import lesson_plan
from bleu_core.study.demo import load_demo

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PROJECTOR = {"viewport": {"width": 1280, "height": 720}}

if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip("needs /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


import app_server as server  # noqa: E402


def app_on(port: int, db: Path):
    """The app on *port* (so that it can be stopped and started again at the same address)."""
    return server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True, port=port)


@pytest.fixture
def lesson(tmp_path):
    db = tmp_path / "class.sqlite"
    ted = load_demo("ted-zh-en")
    bleu = {s: float(i) for i, s in enumerate(ted.systems)}
    created = CampaignStore(db).create_campaign(lesson_plan(ted, bleu, seed=5, n_segments=2))
    return db, created.campaign.code, created.organiser_key


def item_heading(page) -> str:
    return page.locator("h3#bs-item").inner_text(timeout=30_000)


def in_view(page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                      return r.top >= 0 && r.bottom <= window.innerHeight; }""",
        selector,
    )


def rate_one(page) -> None:
    groups = page.locator('[data-testid="stForm"] [role="radiogroup"]')
    for g in range(groups.count()):
        groups.nth(g).locator("label").nth(3).click()
    page.get_by_role("button", name="Save and next").click()
    page.locator("h3#bs-item").filter(has_text="Item 2 of").wait_for(timeout=30_000)
    server.wait_app_idle(page)


def banner(page) -> str:
    return page.evaluate(
        """() => getComputedStyle(document.querySelector('[data-testid="stApp"]'), '::before').content"""
    )


def test_a_phone_survives_reloads_a_new_tab_and_a_server_restart(lesson):
    db, code, _key = lesson
    port = server.free_port()
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
        )
        try:
            context = browser.new_context(**PHONE)
            phone = context.new_page()
            with app_on(port, db) as url:
                phone.goto(f"{url}/rate?campaign={code}")
                server.wait_app_idle(phone)
                assert phone.get_by_text("Your group").count() == 0  # one group: nothing to choose
                phone.get_by_text("Join without my name").click()
                phone.get_by_role("button", name="Start rating").click()
                phone.locator("h3#bs-item").filter(has_text="Item 1 of").wait_for(timeout=30_000)
                server.wait_app_idle(phone)
                tops = phone.evaluate(
                    """() => [...document.querySelector('[data-testid="stForm"] [role="radiogroup"]')
                              .querySelectorAll('label')].map(l => Math.round(l.getBoundingClientRect().top))"""
                )
                assert len(tops) == 5 and len(set(tops)) == 1, tops  # the scale in one row
                assert not phone.locator(
                    ".bs-keys-help"
                ).is_visible()  # no keyboard help on a phone
                rate_one(phone)
                assert in_view(phone, "h3#bs-item")  # the next sentence, not the form, is on screen
                assert server.axe_serious(phone) == []  # WCAG 2.1 AA on the phone's rating screen
                phone.reload()
                assert item_heading(phone).startswith("Item 2 of")  # the same student, same item
                second = context.new_page()  # the tab closed, the join link opened again
                phone.close()
                second.goto(f"{url}/rate?campaign={code}")
                assert item_heading(second).startswith("Item 2 of")
                server.wait_app_idle(second)
            # the server is down: a plain notice, never the framework's dialog
            second.wait_for_function(
                """() => document.querySelector('[data-testid="stApp"]')
                    .getAttribute('data-test-connection-state') !== 'CONNECTED'""",
                timeout=30_000,
            )
            second.wait_for_timeout(3_000)  # Streamlit's dialog would be up by now
            assert "Reconnecting" in banner(second) and "ratings are saved" in banner(second)
            dialogs = second.locator('[data-testid="stDialog"]')
            assert all(not dialogs.nth(i).is_visible() for i in range(dialogs.count()))
            with app_on(port, db):
                second.wait_for_function(
                    """() => document.querySelector('[data-testid="stApp"]')
                        .getAttribute('data-test-connection-state') === 'CONNECTED'""",
                    timeout=60_000,
                )
                assert item_heading(second).startswith("Item 2 of")
                assert banner(second) in ("none", "normal")
        finally:
            browser.close()
    [judge] = CampaignStore(db).progress(code, _key)
    assert judge.n_rated == 1  # one student, one item rated, nothing lost or doubled


def test_the_projector_opens_without_a_key_and_its_link_is_view_only(lesson):
    db, code, key = lesson
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
            )
            try:
                teacher = browser.new_context(**PROJECTOR)
                teacher.add_cookies([{"name": "bs_lessons", "value": f"{code}:{key}", "url": url}])
                page = teacher.new_page()
                page.goto(f"{url}/projector")
                page.get_by_text("Students joined").first.wait_for(timeout=60_000)
                server.wait_app_idle(page)
                assert f"lesson={code}" in page.url and "view=" in page.url
                assert key not in page.url
                view_link = page.url
                page.reload()
                page.get_by_text("Students joined").first.wait_for(timeout=60_000)
                room = browser.new_context(**PROJECTOR).new_page()  # the room's computer
                room.goto(view_link)
                room.get_by_text("Students joined").first.wait_for(timeout=60_000)
                server.wait_app_idle(room)
                assert room.get_by_label("Organiser key").count() == 0
                assert "bs_lessons" not in {c["name"] for c in room.context.cookies()}
            finally:
                browser.close()


def test_the_projector_survives_a_server_restart(lesson):
    db, code, key = lesson
    port = server.free_port()
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
        )
        try:
            room = browser.new_context(**PROJECTOR).new_page()
            with app_on(port, db) as url:
                view = CampaignStore(db).viewer_token(code, key)
                room.goto(f"{url}/projector?lesson={code}&view={view}")
                room.get_by_text("Students joined").first.wait_for(timeout=60_000)
                server.wait_app_idle(room)
            room.wait_for_function(
                """() => document.querySelector('[data-testid="stApp"]')
                    .getAttribute('data-test-connection-state') !== 'CONNECTED'""",
                timeout=30_000,
            )
            room.wait_for_timeout(3_000)
            assert "class's ratings are saved" in banner(room)
            dialogs = room.locator('[data-testid="stDialog"]')
            assert all(not dialogs.nth(i).is_visible() for i in range(dialogs.count()))
            with app_on(port, db):
                room.wait_for_function(
                    """() => document.querySelector('[data-testid="stApp"]')
                        .getAttribute('data-test-connection-state') === 'CONNECTED'""",
                    timeout=60_000,
                )
                room.get_by_text("Students joined").first.wait_for(timeout=60_000)
                assert f"lesson={code}" in room.url
        finally:
            browser.close()


def test_the_teacher_reloads_campaigns_and_is_back_in_the_lesson(tmp_path):
    db = tmp_path / "teacher.sqlite"
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
            )
            try:
                teacher = browser.new_context(**PROJECTOR)
                page = teacher.new_page()
                page.goto(f"{url}/campaigns")
                page.get_by_role("button", name="Start a class").click(timeout=120_000)
                heading = page.locator("h3").filter(has_text="Lesson ").first
                heading.wait_for(timeout=60_000)
                server.wait_app_idle(page)
                lesson = heading.inner_text()
                assert page.locator('[data-testid="stCode"]').count() == 0  # no key until asked
                page.get_by_text("Show my organiser key").click()  # "for your eyes only"
                key = (
                    page.locator('[data-testid="stCode"]').first.inner_text(timeout=30_000).strip()
                )
                link = page.get_by_role("link", name="Open the projector dashboard")
                href = link.get_attribute("href")
                assert "view=" in href and key not in href  # the projector's link is view-only
                page.reload()
                page.locator("h3").filter(has_text=lesson).first.wait_for(timeout=120_000)
                server.wait_app_idle(page)
                assert page.locator('[data-testid="stCode"]').filter(has_text=key).count() == 0
                room = browser.new_context(**PROJECTOR).new_page()  # another computer
                room.goto(href)
                room.get_by_text("Students joined").first.wait_for(timeout=60_000)
                server.wait_app_idle(room)
                assert room.get_by_role("button", name="Timer").count() == 0  # no organiser rights
            finally:
                browser.close()
