"""A lesson that can be trusted, in headless Chromium with phones (390×844):

* a double tap on "Save and next" (the second tap 0, 120 or 350 ms after the first, at the same spot) saves the
  item the student saw once and never the next, unseen item;
* ESA marks not yet saved survive a reload of the phone;
* F5 on every teacher page (Campaigns, Projector) brings back the study the lesson was planned on (the app opens
  its German demo first), and the end-of-class zip of the study is offered;
* the organiser key is nowhere in the projector's page (its DOM searched), nor in the Campaigns page until the
  teacher switches "for your eyes only" on; the projector's view-only link cannot manage.

The app runs as a real ``streamlit run app.py`` server on loopback, ``BLEU_STUDY_DB`` under ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignStore, MarkedSpan
from bleu_core.campaigns.lesson import lesson_plan
from bleu_core.study.demo import load_demo

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
PROJECTOR = {"viewport": {"width": 1280, "height": 720}}
if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip("needs /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

import app_server as server  # noqa: E402
from esa_pages import PHONE, join, make_campaign, word  # noqa: E402


def launch(pw):
    return pw.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
    )


def double_tap(page, name: str, gap_ms: int) -> None:
    """Tap the button *name* twice at the same spot, *gap_ms* apart (a thumb that taps again)."""
    box = page.get_by_role("button", name=name).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    if gap_ms:
        page.wait_for_timeout(gap_ms)
    page.touchscreen.tap(x, y)


@pytest.mark.parametrize("gap_ms", [0, 120, 350])
def test_a_double_tap_saves_the_item_seen_once_and_never_the_next(tmp_path, gap_ms):
    db = tmp_path / "taps.sqlite"
    created = make_campaign(db)
    code, key = created.campaign.code, created.organiser_key
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = launch(pw)
            try:
                phone = browser.new_context(**PHONE).new_page()
                join(phone, url, code, "Thumb")
                save = phone.get_by_role("button", name="Save and next").bounding_box()
                assert save["height"] >= 44 and save["width"] >= 300  # a thumb's size, full width
                phone.get_by_role("button", name="No errors: score 100").tap()
                server.wait_app_idle(phone)
                double_tap(phone, "Save and next", gap_ms)
                server.wait_app_idle(phone)
                phone.get_by_text("Item 2 of").first.wait_for(timeout=30_000)
                server.wait_app_idle(phone)
                assert phone.get_by_text("Item 3 of").count() == 0
            finally:
                browser.close()
    store = CampaignStore(db)
    assert [(r.position, r.score) for r in store.ratings(code, key)] == [(0, 100)]
    store.close()


def test_unsaved_marks_survive_a_reload_of_the_phone(tmp_path):
    db = tmp_path / "draft.sqlite"
    created = make_campaign(db)
    code, key = created.campaign.code, created.organiser_key
    store = CampaignStore(db)
    words = store.items(code, key)[0].translation.split()
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = launch(pw)
            try:
                phone = browser.new_context(**PHONE).new_page()
                join(phone, url, code, "Reloader")
                word(phone, words[0]).tap()
                server.wait_app_idle(phone)
                phone.get_by_role("button", name="Major error").tap()
                server.wait_app_idle(phone)
                phone.locator("mark.bs-major").first.wait_for(timeout=30_000)
                phone.reload()  # F5 mid-item
                phone.get_by_text("Translation to rate").first.wait_for(timeout=30_000)
                server.wait_app_idle(phone)
                phone.locator("mark.bs-major").first.wait_for(timeout=30_000)
                assert phone.get_by_text("Item 1 of").count() >= 1
                phone.get_by_role("button", name="Save and next").tap()  # no score given yet
                server.wait_app_idle(phone)
                phone.get_by_text("Nothing was saved").first.wait_for(timeout=30_000)
                assert store.ratings(code, key) == []
            finally:
                browser.close()
    store.close()


def test_a_marked_span_is_saved_after_the_reload(tmp_path):
    db = tmp_path / "draft2.sqlite"
    created = make_campaign(db)
    code, key = created.campaign.code, created.organiser_key
    store = CampaignStore(db)
    words = store.items(code, key)[0].translation.split()
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = launch(pw)
            try:
                desk = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
                join(desk, url, code, "Desk")
                word(desk, words[0]).click()
                server.wait_app_idle(desk)
                desk.get_by_role("button", name="Minor error").click()
                server.wait_app_idle(desk)
                desk.get_by_role("slider").first.focus()
                desk.keyboard.press("Home")  # 0, then up by tens: the student gives 30
                for _ in range(3):
                    desk.keyboard.press("PageUp")
                server.wait_app_idle(desk)
                desk.reload()
                desk.locator("mark.bs-minor").first.wait_for(timeout=30_000)
                server.wait_app_idle(desk)
                desk.get_by_role("button", name="Save and next").click()
                server.wait_app_idle(desk)
                desk.get_by_text("Item 2 of").first.wait_for(timeout=30_000)
            finally:
                browser.close()
    assert [s.span for s in store.spans(code, key)] == [MarkedSpan(0, len(words[0]), "minor")]
    [rating] = store.ratings(code, key)
    assert 0 < rating.score < 50
    store.close()


@pytest.fixture
def lesson(tmp_path):
    db = tmp_path / "class.sqlite"
    ted = load_demo("ted-zh-en")
    bleu = {s: float(i) for i, s in enumerate(ted.systems)}
    plan = lesson_plan(ted, bleu, seed=5, n_segments=2, study_source="demo:ted-zh-en")
    created = CampaignStore(db).create_campaign(plan)
    return db, created.campaign.code, created.organiser_key, ted.name


def test_f5_on_every_teacher_page_brings_back_the_lessons_study_and_no_key_is_shown(lesson):
    db, code, key, study_name = lesson
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = launch(pw)
            try:
                teacher = browser.new_context(**PROJECTOR)
                teacher.add_cookies([{"name": "bs_lessons", "value": f"{code}:{key}", "url": url}])
                page = teacher.new_page()
                page.goto(f"{url}/campaigns")
                for _reload in range(2):  # a new tab, then F5
                    page.locator("h3").filter(has_text=f"Lesson {code}").first.wait_for(
                        timeout=120_000
                    )
                    server.wait_app_idle(page)
                    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
                    assert study_name in sidebar
                    assert key not in page.content()  # for your eyes only: not until asked
                    page.reload()
                page.locator("h3").filter(has_text=f"Lesson {code}").first.wait_for(timeout=120_000)
                server.wait_app_idle(page)
                page.get_by_text("Show my organiser key").click()
                server.wait_app_idle(page)
                assert page.locator('[data-testid="stCode"]').filter(has_text=key).count() == 1

                projector = teacher.new_page()
                projector.goto(f"{url}/projector")
                for _reload in range(2):
                    projector.get_by_text("Students joined").first.wait_for(timeout=180_000)
                    server.wait_app_idle(projector)
                    assert key not in projector.content()  # the DOM searched for the key
                    assert key not in projector.url
                    projector.get_by_role("button", name="End of class").click()
                    projector.get_by_text(
                        "The study's reproducible zip with the class's ratings"
                    ).first.wait_for(timeout=60_000)
                    projector.reload()
                view_link = projector.url

                room = browser.new_context(**PROJECTOR).new_page()  # the room's computer
                room.goto(view_link)
                room.get_by_text("Students joined").first.wait_for(timeout=180_000)
                server.wait_app_idle(room)
                assert key not in room.content()
                assert room.get_by_role("button", name="Timer").count() == 0
                assert room.get_by_role("button", name="End of class").count() == 0
                room.goto(f"{url}/campaigns")  # the view-only link opens no lesson to manage
                room.get_by_text("Rating campaigns").first.wait_for(timeout=60_000)
                server.wait_app_idle(room)
                assert room.locator("h3").filter(has_text=f"Lesson {code}").count() == 0
                assert key not in room.content()
            finally:
                browser.close()


def test_the_phones_form_closes_when_time_is_up_without_a_tap(lesson):
    """The phone joined before the timer started; the teacher starts a 20-second timer (the projector's
    timer takes seconds) and closes the projector: the phone shows the countdown, then "time is up" instead
    of the form, and the server closed rating by itself. 20 s leaves the phone (which looks for a timer
    every few seconds) time to show the countdown before zero on a loaded machine."""
    db, code, key, _study_name = lesson
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = launch(pw)
            try:
                phone = browser.new_context(**PHONE).new_page()
                phone.goto(f"{url}/rate?campaign={code}")
                server.wait_app_idle(phone)
                phone.get_by_text("Join without my name").click()
                phone.get_by_role("button", name="Start rating").click()
                phone.locator("h3#bs-item").filter(has_text="Item 1 of").wait_for(timeout=30_000)

                teacher = browser.new_context(**PROJECTOR)
                teacher.add_cookies([{"name": "bs_lessons", "value": f"{code}:{key}", "url": url}])
                projector = teacher.new_page()
                projector.goto(f"{url}/projector")
                projector.get_by_text("Students joined").first.wait_for(timeout=180_000)
                server.wait_app_idle(projector)
                projector.get_by_role("button", name="Timer").click()
                projector.get_by_label("Minutes").fill("0")
                projector.get_by_label("Minutes").press("Enter")
                server.wait_app_idle(projector)
                projector.get_by_label("Seconds").fill("20")
                projector.get_by_label("Seconds").press("Enter")
                server.wait_app_idle(projector)
                projector.get_by_role("button", name="Start the timer").click()
                server.wait_app_idle(projector)
                teacher.close()  # no projector open: the server closes rating by itself

                phone.get_by_text("Rating closes in").first.wait_for(timeout=30_000)
                phone.get_by_text("Time is up").first.wait_for(timeout=90_000)  # no tap meanwhile
                server.wait_app_idle(phone)
                assert phone.get_by_role("button", name="Save and next").count() == 0
            finally:
                browser.close()
    store = CampaignStore(db)
    assert not store.get_campaign(code).is_open
    store.close()
