"""What the ESA browser tests share: a three-item ESA campaign in a fresh database, joining it as a judge, the
toggle of one word on the marking screen, and giving a score (no score is saved until the judge gives one)."""

from __future__ import annotations

import re
from pathlib import Path

from app_server import wait_app_idle

from bleu_core.campaigns import CampaignStore, plan_campaign, with_protocol

TEXTS = {
    "A": ["the cat sat on the mat", "a dog barked twice", "it rained all day"],
    "B": ["cat sits mat", "dog bark loud", "rain whole day"],
}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def make_campaign(db: Path):
    """An ESA campaign of 3 segments × systems A and B (one group, "class") in the database *db*."""
    store = CampaignStore(db)
    plan = plan_campaign(
        name="ESA in the browser", study_name="toy", segment_ids=["s1", "s2", "s3"],
        translations=TEXTS, sources=["le chat", "un chien", "la pluie"], references=None,
        systems=["A", "B"], n_segments=3, seed=2, display="source", groups=["class"],
    )  # fmt: skip
    created = store.create_campaign(with_protocol(plan, "esa"))
    store.close()
    return created


def join(page, url: str, code: str, name: str) -> None:
    """Open the join link of campaign *code* on *page* and start rating as *name*."""
    page.goto(f"{url}/rate?campaign={code}", wait_until="domcontentloaded")
    wait_app_idle(page)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Start rating").click()
    wait_app_idle(page)
    page.get_by_text("Translation to rate").first.wait_for(timeout=30_000)


def word(page, text: str):
    """The toggle of the word *text* (exactly that word)."""
    pills = page.locator('[data-testid="stButtonGroup"] button')
    return pills.filter(has_text=re.compile(f"^\\s*{re.escape(text)}\\s*$")).first


def give_score(page, tens: int = 2) -> None:
    """Give a score with the slider's keys (phones have them too): 0, then up *tens* pages (about 10 each)."""
    page.get_by_role("slider").first.focus()
    page.keyboard.press("Home")
    for _ in range(tens):
        page.keyboard.press("PageUp")
    wait_app_idle(page)
