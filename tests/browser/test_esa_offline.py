"""A judge on a phone (390×844, touch) marks ESA spans, loses the network, gets it back, and nothing is lost.

Between the browser and the app server sits a TCP proxy (``tcp_proxy.py``): "offline" closes the WebSocket
and every other connection and refuses new ones, as a phone losing its signal; the server keeps running.

* while offline the judge sees "Reconnecting — your ratings are saved" (never Streamlit's own dialog), the
  marks made so far stay on screen, and "Save and next" cannot be pressed;
* back online, the judge is on the same item with the unsaved marks still there: Streamlit resumes the
  judge's server session (it keeps a disconnected session for two minutes), and the marks not yet saved
  live in that session (``ui.app.state.RATE_MARKS_PREFIX``), so the judge saves them without redoing them;
* the campaign database holds each saved rating exactly once (one row per judge, item and criterion, never
  changed since it was first saved) and exactly the spans marked.

The app runs as a real ``streamlit run app.py`` server on loopback, ``BLEU_STUDY_DB`` under ``tmp_path``.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip("playwright.sync_api")

from app_server import streamlit_server, wait_app_idle  # noqa: E402
from esa_pages import PHONE, give_score, join, make_campaign, word  # noqa: E402
from tcp_proxy import TcpProxy  # noqa: E402

from bleu_core.campaigns import CampaignStore, MarkedSpan  # noqa: E402

CONNECTED = """() => document.querySelector('[data-testid="stApp"]')
    .getAttribute('data-test-connection-state') === 'CONNECTED'"""
NOT_CONNECTED = CONNECTED.replace("=== 'CONNECTED'", "!== 'CONNECTED'")
BANNER = """() => getComputedStyle(document.querySelector('[data-testid="stApp"]'), '::before').content"""


@pytest.fixture
def esa_behind_proxy(tmp_path):
    """An ESA campaign, the app serving it, and a :class:`TcpProxy` in front of the app: ``(db, created,
    proxy)``; the browser goes to ``proxy.url``."""
    db = tmp_path / "esa.sqlite"
    created = make_campaign(db)
    with streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        proxy = TcpProxy(int(url.rsplit(":", 1)[1]))
        try:
            yield db, created, proxy
        finally:
            proxy.close()


def mark(page, words: list[str], severity: str) -> None:
    """Tap *words* and then "Minor error" / "Major error"; wait for the mark to show."""
    for w in words:
        word(page, w).tap()
        wait_app_idle(page)
    page.get_by_role("button", name=f"{severity.capitalize()} error").tap()
    wait_app_idle(page)
    page.locator(f"mark.bs-{severity}").first.wait_for(timeout=30_000)


def heading(page) -> str:
    return page.locator("h3#bs-item").inner_text(timeout=30_000)


def test_a_judge_on_a_phone_goes_offline_and_comes_back_with_nothing_lost(
    esa_behind_proxy, browser
):
    db, created, proxy = esa_behind_proxy
    code, key = created.campaign.code, created.organiser_key
    store = CampaignStore(db)
    first, second = (it.translation for it in store.items(code, key)[:2])
    context = browser.new_context(**PHONE)
    try:
        phone = context.new_page()
        join(phone, proxy.url, code, "Phone")
        assert not phone.locator("#bs-esa-keys-help").is_visible()  # no keyboard help on a phone
        mark(phone, first.split()[:2], "major")
        give_score(phone)  # no score is saved until the student gives one
        phone.get_by_role("button", name="Save and next").tap()
        phone.locator("h3#bs-item").filter(has_text="Item 2 of").wait_for(timeout=30_000)
        wait_app_idle(phone)
        target = second.split()[0]
        mark(phone, [target], "minor")  # marked, not saved yet
        give_score(phone)

        proxy.go_offline()
        phone.wait_for_function(NOT_CONNECTED, timeout=30_000)
        assert "Reconnecting — your ratings are saved" in phone.evaluate(BANNER)
        phone.wait_for_timeout(3_000)  # Streamlit's own dialog would be up by now (it is hidden)
        dialogs = phone.locator('[data-testid="stDialog"]')
        assert all(not dialogs.nth(i).is_visible() for i in range(dialogs.count()))
        assert phone.locator("mark.bs-minor").first.is_visible()  # the marks stay on screen
        assert phone.get_by_role("button", name="Save and next").is_disabled()
        refused_by = time.monotonic() + 30  # the browser tries to come back (pings the server) ...
        while proxy.refused == 0 and time.monotonic() < refused_by:
            phone.wait_for_timeout(200)
        assert proxy.refused > 0  # ... and cannot
        assert store.spans(code, key) and len(store.ratings(code, key)) == 1

        proxy.go_online()
        phone.wait_for_function(CONNECTED, timeout=60_000)
        wait_app_idle(phone)
        assert heading(phone).startswith("Item 2 of")  # the same item ...
        kept = phone.locator("mark.bs-minor").first  # ... with the unsaved mark kept
        assert kept.get_attribute("aria-label") == f"minor error: {target}"
        assert phone.evaluate(BANNER) in ("none", "normal")
        phone.get_by_role("button", name="Save and next").tap()
        phone.locator("h3#bs-item").filter(has_text="Item 3 of").wait_for(timeout=30_000)
        wait_app_idle(phone)
    finally:
        context.close()

    ratings = store.ratings(code, key)
    assert Counter((r.judge, r.position, r.criterion) for r in ratings) == {
        ("Phone", 0, "esa"): 1,
        ("Phone", 1, "esa"): 1,
    }
    assert all(r.n_changes == 0 and r.created_at == r.updated_at for r in ratings)
    end_two = len(first.split()[0]) + 1 + len(first.split()[1])
    assert sorted((s.position, s.span) for s in store.spans(code, key)) == [
        (0, MarkedSpan(0, end_two, "major")),
        (1, MarkedSpan(0, len(target), "minor")),
    ]
    store.close()
