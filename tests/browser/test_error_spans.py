"""End-to-end: Explore on the TED demo, sorted by "rewarded errors", draws the raters' MQM error
spans under BLEU's matches; hovering a token inside a span pops up its severity, category and rater; an
example selected on the "BLEU vs error spans" page opens in Explore.

Real app (``streamlit run app.py``) in headless Chromium; screenshots go to ``tests/artifacts/`` (not
committed).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, CHROMIUM_ARGS, ROOT, streamlit_server, wait_app_idle  # noqa: E402
from script_runs import ScriptRuns  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
playwright_api = pytest.importorskip("playwright.sync_api")

ARTIFACTS = ROOT / "tests" / "artifacts"


def hovered_popup_text(page, token, pop, attempts: int = 3) -> str:
    """Hover ``token`` and read its pop-up; a redraw of the page between finding the token and hovering it
    (on a loaded machine) detaches the element, and then the same token is found again."""
    for attempt in range(attempts):
        try:
            token.scroll_into_view_if_needed()
            token.hover()
            pop.wait_for(state="visible")
            return pop.inner_text()
        except playwright_api.Error:
            if attempt == attempts - 1:
                raise
            wait_app_idle(page)
    raise AssertionError("unreachable")


def test_explore_pops_up_an_error_span_on_hover():
    from bleu_core.study.demo import load_demo
    from bleu_core.study.error_agreement import error_agreement
    from ui.app import state as K
    from ui.explore.agreement import BROWSE_SORTS

    ted = load_demo("ted-en-de")
    result = error_agreement(ted)
    top = result.segment_ranking("matched_in_error", top=1)[0]
    with streamlit_server() as url, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 2600})
            # the runs the browser sees: a wait after an action ends once the action's run is drawn (the
            # page's script state alone reads "notRunning" until a slow server announces the run)
            runs = ScriptRuns.watch(page)
            page.goto(f"{url}/explore")
            runs.settle(page)
            page.get_by_role("button", name="Filter and sort").click()
            page.locator('[data-testid="stSelectbox"]').filter(has_text="Sort by").click()
            requested = runs.requested
            page.get_by_role("option", name=BROWSE_SORTS["rewarded errors"]).click()
            assert runs.wait_request(page, requested)
            runs.settle(page)
            page.keyboard.press("Escape")
            page.get_by_role("heading", name=f"Segment {top.segment_id}").wait_for()
            # the system whose n-grams are shown (the n-gram section's picker)
            label = page.locator(".bs-label").filter(has_text="BLEU's matches and the raters'")
            system = label.first.inner_text().split(" · ")[0]
            cells = result.systems[system].segment_counts[ted.segment_index(top.segment_id)]
            counts = page.locator(".bs-counts").filter(has_text="rewarded errors").first
            assert f"{cells[0]} of {cells[0] + cells[1]} matched tokens" in counts.inner_text()
            token = page.locator('.bs-spans [class*="bs-errtok"][tabindex="0"]').first
            pop = token.locator(".bs-pop")
            assert not pop.is_visible()
            text = hovered_popup_text(page, token, pop)
            span = next(
                s
                for s in ted.error_spans
                if (s.system, s.segment_id, s.side) == (system, top.segment_id, "target")
                and f"rater {s.rater}" in text
            )
            assert f"{span.severity} error · {span.category}" in text
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            box = token.bounding_box()
            page.screenshot(
                path=str(ARTIFACTS / "explore-error-span-hover.png"),
                clip={"x": 0, "y": max(0.0, box["y"] - 250), "width": 1400, "height": 600},
            )
            assert not page.locator('[data-testid="stException"]').count()
            # the page "BLEU vs error spans": selecting an example opens it in Explore
            page.goto(f"{url}/error_spans")
            runs.settle(page)
            # the "Most rewarded errors" grid, found by its widget key (its position among the page's
            # grids moves as sections are added: "BLEU as an error-span detector" now follows it)
            grid = page.locator(f'.st-key-{K.SPANS_REWARDED_TABLE} [data-testid="stDataFrame"]')
            second = result.segment_ranking("matched_in_error", top=2)[1]
            # the grid is a canvas: its row markers have no element to click, only a position. The
            # grid may still be settling (layout, scroll) when first measured: a click that selected
            # nothing (the browser asked for no run) is tried again, measured anew
            for _attempt in range(5):
                grid.scroll_into_view_if_needed()
                page.wait_for_timeout(300)
                box = grid.bounding_box()
                requested = runs.requested
                page.mouse.click(box["x"] + 14, box["y"] + 35 + 17 + 35)  # the second row's marker
                if runs.wait_request(page, requested, timeout_ms=3_000):
                    runs.settle(page)
                    break
            assert page.url.endswith("/explore")
            page.get_by_role("heading", name=f"Segment {second.segment_id}").wait_for()
            label = page.locator(".bs-label").filter(has_text="BLEU's matches and the raters'")
            assert label.first.inner_text().startswith(f"{second.system} · ")
            assert not page.locator('[data-testid="stException"]').count()
        finally:
            browser.close()
