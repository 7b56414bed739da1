"""WCAG 2.1 AA in the browser: axe-core on every page of the app, at desktop and phone sizes.

axe-core (Deque, MPL-2.0; the engine behind Lighthouse's accessibility score) is injected into each page of
the running app in headless Chromium and run with the WCAG 2.0/2.1 A and AA rules (tags ``wcag2a``,
``wcag2aa``, ``wcag21a``, ``wcag21aa``). The engine ships with the ``axe-playwright-python`` package (test
extra); the version is printed with any failure.

A test fails on any *serious* or *critical* violation in the app's own content. One region is left out and
said here: Streamlit's sidebar navigation (``stSidebarNav``) nests non-``li`` elements in its ``ul`` (axe:
``list``/``listitem``). That markup is the framework's, not the app's, and the app cannot change it from a
page; ``test_sidebar_navigation_is_the_only_exclusion`` keeps the exclusion honest by checking that the
violations inside it are exactly those two rules.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, wait_app_idle  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
pytest.importorskip("playwright.sync_api")
axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

WCAG_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
FRAMEWORK_NAVIGATION = '[data-testid="stSidebarNav"]'
SERIOUS = {"serious", "critical"}

# Every page of the navigation (app.py's PAGE_TABLE); "" is the Study page at the root address.
PAGES = [
    "",
    "corpus",
    "export",
    "explore",
    "learn",
    "error_spans",
    "bleu_vs_human",
    "significance",
    "judges",
    "correlation",
    "metrics",
    "metric_ranking",
    "published",
    "rate",
    "campaigns",
    "projector",
    "learn?present=1",  # presentation mode (large type); the contrastive rating screen and the
    # projector of a contrastive lesson are checked with their lessons in test_class_cesa.py and
    # test_presentation_mode.py
]
PHONE_PAGES = ["", "rate", "explore", "learn", "projector"]
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def audit(browser, url: str, page_name: str, device: dict, *, context=None) -> list[dict]:
    """axe-core's violations on one page of the app (``context``: axe's include/exclude)."""
    ctx = browser.new_context(**device)
    try:
        page = ctx.new_page()
        page.goto(f"{url}/{page_name}")
        wait_app_idle(page)
        axe = axe_module.Axe()
        if context is None:
            context = {"exclude": [[FRAMEWORK_NAVIGATION]]}
        return axe.run(page, context=context, options=WCAG_AA).response["violations"]
    finally:
        ctx.close()


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        for node in v["nodes"][:5]:
            lines.append(f"{v['id']} ({v['impact']}): {node['html'][:160]}")
            if node.get("any"):
                lines.append(f"    {node['any'][0]['message'][:200]}")
    return "\n".join(lines)


def serious(violations: list[dict]) -> list[dict]:
    return [v for v in violations if v["impact"] in SERIOUS]


@pytest.mark.parametrize("page_name", PAGES, ids=lambda p: p or "study")
def test_desktop_page_has_no_serious_violation(browser, demo_server, page_name):
    found = serious(audit(browser, demo_server, page_name, DESKTOP))
    assert not found, describe(found)


@pytest.mark.parametrize("page_name", PHONE_PAGES, ids=lambda p: p or "study")
def test_phone_page_has_no_serious_violation(browser, demo_server, page_name):
    found = serious(audit(browser, demo_server, page_name, PHONE))
    assert not found, describe(found)


def test_sidebar_navigation_is_the_only_exclusion(browser, demo_server):
    """Inside Streamlit's navigation only the framework's list markup is flagged; were anything else found
    there (a label of ours, a colour), it would show here."""
    inside = audit(
        browser, demo_server, "corpus", DESKTOP, context={"include": [[FRAMEWORK_NAVIGATION]]}
    )
    assert {v["id"] for v in serious(inside)} <= {"list", "listitem"}, describe(inside)


def test_highlighted_tokens_are_reached_by_keyboard(browser, demo_server):
    """Learn BLEU without a mouse: Tab reaches a highlighted token, which then shows a visible focus ring
    and its pop-up (every n-gram that covers it, the references holding it, the clip count); a screen
    reader hears its status in words."""
    ctx = browser.new_context(**DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{demo_server}/learn")
        wait_app_idle(page)
        for _ in range(120):
            page.keyboard.press("Tab")
            if page.evaluate("!!document.activeElement?.classList?.contains('bs-tok')"):
                break
        else:
            pytest.fail("Tab never reached a highlighted token on Learn BLEU")
        focused = page.evaluate(
            """() => {
                const el = document.activeElement;
                const pop = el.querySelector('.bs-pop');
                return {outline: getComputedStyle(el).outlineStyle,
                        pop: pop ? getComputedStyle(pop).display : null,
                        spoken: el.querySelector('.bs-sr')?.textContent ?? ''};
            }"""
        )
        assert focused["outline"] not in ("none", ""), focused
        assert focused["pop"] == "block", focused
        assert focused["spoken"].strip() in {"(matched)", "(clipped away)", "(unmatched)"}, focused
    finally:
        ctx.close()
