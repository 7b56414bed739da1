"""End to end in headless Chromium: a lesson campaign, three students on phone-sized screens joining
by the join link (one without a name) and rating, and the projector dashboard in its own context seeing the
number of students, ratings and BLEU-vs-class r change without a reload (``st.fragment(run_every=…)``).

The app runs as a real ``streamlit run app.py`` server on loopback, ``BLEU_STUDY_DB`` under ``tmp_path``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignStore
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


def metric(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]').filter(has_text=label).first
    return box.locator('[data-testid="stMetricValue"]').inner_text(timeout=30_000)


def rate_items(page, n: int) -> None:
    """Rate the first *n* items on the phone: adequacy i+1 for item i (so the systems' class means differ and
    r is defined), fluency 3; tap the scores, then "Save and next"."""
    for i in range(n):
        heading = page.locator("h3").filter(has_text="Item").first.inner_text(timeout=30_000)
        groups = page.locator('[data-testid="stForm"] [role="radiogroup"]')
        for g, score in enumerate((i % 5 + 1, 3)):
            groups.nth(g).locator("label").filter(has_text=re.compile(rf"^{score} ·")).click()
        page.get_by_role("button", name="Save and next").click()
        page.locator("h3").filter(has_text="Item").filter(has_not_text=heading).first.wait_for(
            timeout=30_000
        )


def test_three_students_and_a_live_projector(tmp_path):
    db = tmp_path / "class.sqlite"
    ted = load_demo("ted-en-de")
    bleu = {s: float(i) for i, s in enumerate(ted.systems)}  # spread: the lesson takes the extremes
    created = CampaignStore(db).create_campaign(lesson_plan(ted, bleu, seed=5, n_segments=2))
    code, key = created.campaign.code, created.organiser_key
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=server.CHROMIUM_ARGS
            )
            try:
                projector = browser.new_page(viewport={"width": 1600, "height": 1000})
                projector.goto(f"{url}/projector?lesson={code}&key={key}")
                assert metric(projector, "Students joined") == "0"
                assert "key=" not in projector.url  # the organiser key left the address
                phones = []
                for k in range(3):
                    context = browser.new_context(
                        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
                    )
                    phone = context.new_page()
                    phone.goto(f"{url}/rate?campaign={code}")
                    server.wait_app_idle(phone)
                    if k == 0:
                        phone.get_by_text("Join without my name").click()
                    else:
                        phone.get_by_label("Your name").fill(f"student {k}")
                    phone.get_by_role("button", name="Start rating").click()
                    phone.locator("h3").filter(has_text="Item 1 of").first.wait_for(timeout=30_000)
                    phones.append(phone)
                # the dashboard follows without a reload: students joined, then ratings
                projector.wait_for_function(
                    """() => [...document.querySelectorAll('[data-testid="stMetric"]')]
                        .some(m => m.innerText.includes('Students joined') && m.innerText.includes('3'))""",
                    timeout=20_000,
                )
                projector.evaluate("window.__noReload = true")
                for phone in phones:
                    rate_items(phone, 5)
                projector.wait_for_function(
                    """() => [...document.querySelectorAll('[data-testid="stMetric"]')]
                        .some(m => m.innerText.includes('Ratings so far') && m.innerText.includes('15'))""",
                    timeout=20_000,
                )
                assert projector.evaluate("window.__noReload") is True  # same page, no reload
                projector.get_by_text(
                    re.compile(r"The class vs the experts \(adequacy.*r = ")
                ).first.wait_for(timeout=20_000)
                ARTIFACTS.mkdir(exist_ok=True)
                projector.screenshot(path=str(ARTIFACTS / "projector.png"))
                phones[0].screenshot(path=str(ARTIFACTS / "rate-phone.png"))
            finally:
                browser.close()
    judges = {p.judge for p in CampaignStore(db).progress(code, key)}
    named = {"student 1", "student 2"}
    assert named <= judges and len(judges) == 3
    assert re.fullmatch(r"student [0-9a-f]{4}", (judges - named).pop())
