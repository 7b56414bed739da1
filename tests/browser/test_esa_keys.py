"""The ESA marking screen by keyboard alone on a desktop (1280×1000), in headless Chromium: Tab to the words,
arrow keys between them, ``m`` / ``Shift+M`` to mark, ``Delete`` to unmark, digits and ``+`` / ``-`` for the
score, ``Enter`` to save; the keyboard help is shown (and hidden on a phone: ``test_esa_offline.py``), the
controls carry ``aria-keyshortcuts``, a live region says what happened, typing in a field is left alone,
and axe-core finds no serious WCAG 2.1 AA violation. What was saved is read back from the database.

The app runs as a real ``streamlit run app.py`` server on loopback, ``BLEU_STUDY_DB`` under ``tmp_path``.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip("playwright.sync_api")

from app_server import axe_serious, streamlit_server, wait_app_idle  # noqa: E402
from esa_pages import join, make_campaign  # noqa: E402

from bleu_core.campaigns import CampaignStore, MarkedSpan  # noqa: E402

DESK = {"viewport": {"width": 1280, "height": 1000}}
WORDS = '[class*="st-key-rate_words_"] button'
FOCUSED = "() => document.activeElement ? document.activeElement.innerText.trim() : ''"


def focused_word(page) -> str:
    return page.evaluate(FOCUSED)


def wait_focus_on(page, text: str) -> None:
    page.wait_for_function(f"(t) => ({FOCUSED})() === t", arg=text, timeout=30_000)


def slider_value(page) -> str:
    return page.locator('[data-testid="stSliderThumbValue"]').inner_text(timeout=30_000).strip()


def wait_score(page, value: int) -> None:
    page.locator('[data-testid="stSliderThumbValue"]').filter(has_text=str(value)).wait_for(
        timeout=30_000
    )
    wait_app_idle(page)


def tab_to_first_word(page) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => document.activeElement.matches('{WORDS}')"):
            return
    raise AssertionError("Tab never reached the word toggles")


def test_the_esa_screen_by_keyboard_alone(tmp_path, browser):
    db = tmp_path / "esa.sqlite"
    created = make_campaign(db)
    code, key = created.campaign.code, created.organiser_key
    store = CampaignStore(db)
    text = store.items(code, key)[0].translation
    words = text.split()
    with streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        context = browser.new_context(**DESK)
        try:
            page = context.new_page()
            join(page, url, code, "Keys")
            assert page.locator("#bs-esa-keys-help").is_visible()  # the help, on a desktop
            tab_to_first_word(page)
            assert focused_word(page) == words[0]
            assert "Shift+M" in page.locator(WORDS).first.get_attribute("aria-keyshortcuts")

            page.keyboard.press("m")  # the focused word: a minor error
            page.locator("mark.bs-minor").first.wait_for(timeout=30_000)
            wait_app_idle(page)
            wait_focus_on(page, words[0])  # the focus is back on the word
            assert page.locator("#bs-esa-live").inner_text() == "minor error marked"
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            assert focused_word(page) == words[2]
            page.keyboard.press("Shift+M")  # a major error
            page.locator("mark.bs-major").first.wait_for(timeout=30_000)
            wait_app_idle(page)
            wait_focus_on(page, words[2])
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("Delete")  # the minor mark on the first word goes
            page.locator("mark.bs-minor").first.wait_for(state="detached", timeout=30_000)
            wait_app_idle(page)
            wait_focus_on(page, words[0])
            assert page.locator("mark.bs-major").count() == 1

            page.keyboard.press("7")  # the score: 70, then +5, then -5 twice
            wait_score(page, 70)
            page.keyboard.press("+")
            wait_score(page, 75)
            page.keyboard.press("-")
            page.keyboard.press("-")
            wait_score(page, 65)
            assert page.locator("#bs-esa-live").inner_text() == "score 65"

            # typing in a field is left alone: "Go to item…" holds a number field
            page.get_by_role("button", name="Go to item…").focus()
            page.keyboard.press("Enter")
            field = page.get_by_label("Item number")
            field.wait_for(timeout=30_000)
            field.focus()
            page.keyboard.press("m")
            page.keyboard.press("9")
            page.keyboard.press("Escape")
            wait_app_idle(page)
            assert slider_value(page) == "65" and page.locator("mark.bs-minor").count() == 0

            assert axe_serious(page) == []  # WCAG 2.1 AA on the desktop marking screen
            tab_to_first_word(page)
            page.keyboard.press("Enter")  # saves and goes on
            page.locator("h3#bs-item").filter(has_text="Item 2 of").wait_for(timeout=30_000)
        finally:
            context.close()
    (rating,) = store.ratings(code, key)
    assert (rating.position, rating.score) == (0, 65)
    start = len(words[0]) + len(words[1]) + 2
    assert [s.span for s in store.spans(code, key)] == [
        MarkedSpan(start, start + len(words[2]), "major")
    ]
    store.close()
