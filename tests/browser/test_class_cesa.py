"""End to end in headless Chromium on a 390×844 phone: contrastive ESA (WMT26's cESA) in class. The source on
top, the sentence's two translations stacked below it, each scored on its own slider (unset until the student
moves it); Save refused without a score and below 85 without an error span (nothing stored); marks and
scores saved together as ESA ratings; a late second tap of Save changes nothing; marks on two translations
and a score, not saved yet, are back after a reload of the phone.

The app runs as a real ``streamlit run app.py`` server on loopback with ``BLEU_STUDY_DB`` pointing at a file
under ``tmp_path``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignStore, MarkedSpan, plan_campaign
from bleu_core.campaigns.contrastive import contrastive_plan

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip("needs /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

import app_server as server  # noqa: E402
from esa_pages import PHONE, word  # noqa: E402

TEXTS = {
    "A": ["the cat sat on the mat", "a dog barked twice", "it rained all day"],
    "B": ["feline rests upon rug", "hound yelped again", "showers lasted everywhere"],
}


def make_cesa(db: Path):
    store = CampaignStore(db)
    plan = plan_campaign(
        name="cESA in the browser", study_name="toy", segment_ids=["s1", "s2", "s3"],
        translations=TEXTS, sources=["le chat", "un chien", "la pluie"], references=None,
        systems=["A", "B"], n_segments=3, seed=2, display="source", groups=["class"],
    )  # fmt: skip
    created = store.create_campaign(contrastive_plan(plan))
    store.close()
    return created


def set_score(page, index: int, score: int) -> None:
    """Slider *index* of the screen moved by keyboard to *score*: Home (unset), then one step of 5 at a
    time from 0; done again if a rerun took a key press away before the slider showed the score."""
    for _ in range(3):
        slider = page.get_by_role("slider").nth(index)
        slider.focus()
        page.keyboard.press("Home")
        for _ in range(score // 5 + 1):  # the first step leaves "?" for 0
            page.keyboard.press("ArrowRight")
        server.wait_app_idle(page)
        shown = page.get_by_role("slider").nth(index).get_attribute("aria-valuetext") or ""
        if shown.startswith(f"{score} ·"):
            return
    pytest.fail(f"slider {index} did not take the score {score}")


def test_a_contrastive_screen_on_a_phone(browser, tmp_path):
    db = tmp_path / "cesa.sqlite"
    created = make_cesa(db)
    code, key = created.campaign.code, created.organiser_key
    store = CampaignStore(db)
    items = store.items(code, key)
    first, second = items[0], items[1]
    assert first.segment_id == second.segment_id  # one screen: one sentence, both systems
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        ctx = browser.new_context(**PHONE)
        phone = ctx.new_page()
        try:
            phone.goto(f"{url}/rate?campaign={code}", wait_until="domcontentloaded")
            server.wait_app_idle(phone)
            phone.get_by_label("Your name").fill("Phone")
            phone.get_by_role("button", name="Start rating").click()
            server.wait_app_idle(phone)
            phone.get_by_text("Sentence 1 of 3").first.wait_for(timeout=30_000)

            # stacked: the source, then translation A, then translation B, one under the other
            boxes = [
                phone.get_by_text(text, exact=True).first.bounding_box()
                for text in ("Source", "Translation A", "Translation B")
            ]
            assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"], boxes
            assert abs(boxes[1]["x"] - boxes[2]["x"]) < 5  # same column, not side by side
            assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
            sliders = phone.get_by_role("slider")
            assert sliders.count() == 2
            assert "no score yet" in (sliders.nth(0).get_attribute("aria-valuetext") or "")

            save = phone.get_by_role("button", name="Save and next")
            save.tap()
            server.wait_app_idle(phone)
            phone.get_by_text(re.compile("Translation A has no score yet")).wait_for(timeout=30_000)

            set_score(phone, 0, 90)  # A: very good
            set_score(phone, 1, 70)  # B: good, but no span marked
            phone.get_by_role("button", name="Save and next").tap()
            server.wait_app_idle(phone)
            phone.get_by_text(
                re.compile("Translation B: you scored 70 but marked no error")
            ).wait_for(timeout=30_000)
            assert store.ratings(code, key) == []  # refused: nothing stored

            b_word = second.translation.split()[0]
            word(phone, b_word).tap()
            server.wait_app_idle(phone)
            phone.get_by_role("button", name="Major error").nth(1).tap()
            server.wait_app_idle(phone)
            phone.locator("mark.bs-major").first.wait_for(timeout=30_000)
            assert server.axe_serious(phone) == []  # WCAG 2.1 AA on the contrastive screen
            save = phone.get_by_role("button", name="Save and next")
            save.tap()
            try:
                save.tap(timeout=350)  # a second tap 0.35 s later, if the button is still there
            except sync_api.Error:
                pass
            server.wait_app_idle(phone)
            phone.get_by_text("Sentence 2 of 3").first.wait_for(timeout=30_000)
        finally:
            ctx.close()
    rows = {(r.judge, r.position): r.score for r in store.ratings(code, key)}
    assert rows == {("Phone", first.position): 90, ("Phone", second.position): 70}
    spans = [(s.position, s.span) for s in store.spans(code, key)]
    assert spans == [(second.position, MarkedSpan(0, len(b_word), "major"))]
    store.close()


def unique_word(text: str) -> str:
    """The longest word that occurs once in *text* (a toggle the test can name)."""
    words = text.split()
    return max((w for w in words if words.count(w) == 1), key=len)


def test_a_screens_unsaved_marks_survive_a_reload_of_the_phone(browser, tmp_path):
    db = tmp_path / "cesa-draft.sqlite"
    created = make_cesa(db)
    code, key = created.campaign.code, created.organiser_key
    store = CampaignStore(db)
    first, second = store.items(code, key)[:2]
    a_word, b_word = unique_word(first.translation), unique_word(second.translation)
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        ctx = browser.new_context(**PHONE)
        phone = ctx.new_page()
        try:
            phone.goto(f"{url}/rate?campaign={code}", wait_until="domcontentloaded")
            server.wait_app_idle(phone)
            phone.get_by_label("Your name").fill("Reloader")
            phone.get_by_role("button", name="Start rating").click()
            server.wait_app_idle(phone)
            phone.get_by_text("Sentence 1 of 3").first.wait_for(timeout=30_000)
            word(phone, a_word).tap()  # translation A: one word, a major error
            server.wait_app_idle(phone)
            phone.get_by_role("button", name="Major error").nth(0).tap()
            server.wait_app_idle(phone)
            phone.locator("mark.bs-major").first.wait_for(timeout=30_000)
            word(phone, b_word).tap()  # translation B: one word, a minor error
            server.wait_app_idle(phone)
            phone.get_by_role("button", name="Minor error").nth(1).tap()
            server.wait_app_idle(phone)
            phone.locator("mark.bs-minor").first.wait_for(timeout=30_000)
            set_score(phone, 0, 40)  # A scored; B not yet

            phone.reload()  # F5 mid-screen
            phone.get_by_text("Sentence 1 of 3").first.wait_for(timeout=30_000)
            server.wait_app_idle(phone)
            phone.locator("mark.bs-minor").first.wait_for(timeout=30_000)
            assert phone.locator("mark.bs-major").filter(has_text=a_word).count() == 1
            assert phone.locator("mark.bs-minor").filter(has_text=b_word).count() == 1
            sliders = phone.get_by_role("slider")
            assert (sliders.nth(0).get_attribute("aria-valuetext") or "").startswith("40 ·")
            assert "no score yet" in (sliders.nth(1).get_attribute("aria-valuetext") or "")
            assert (
                store.ratings(code, key) == []
            )  # nothing was saved: the marks came from the draft

            set_score(phone, 1, 60)
            phone.get_by_role("button", name="Save and next").tap()
            server.wait_app_idle(phone)
            phone.get_by_text("Sentence 2 of 3").first.wait_for(timeout=30_000)
        finally:
            ctx.close()
    rows = {r.position: r.score for r in store.ratings(code, key)}
    assert rows == {first.position: 40, second.position: 60}
    a_at, b_at = first.translation.index(a_word), second.translation.index(b_word)
    assert {(s.position, s.span) for s in store.spans(code, key)} == {
        (first.position, MarkedSpan(a_at, a_at + len(a_word), "major")),
        (second.position, MarkedSpan(b_at, b_at + len(b_word), "minor")),
    }
    store.close()
