"""End to end in headless Chromium at 1920×1080: presentation mode on Learn BLEU and the projector, type sizes
measured as the browser draws them.

Body text: the computed ``font-size`` of the pages' paragraphs. Chart labels: the computed size of every
``svg text`` of the Vega charts (Streamlit draws them as SVG) and, should a chart be drawn on a canvas, the
font of every ``fillText`` call on a chart's canvas (recorded by an init script). The switch
is kept in the address: a reload (F5) keeps the large type. axe-core checks the large-type pages too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignStore, JudgeSession, MarkedSpan
from bleu_core.campaigns.contrastive import contrastive_plan, submit_screen
from bleu_core.campaigns.lesson import lesson_plan
from bleu_core.study.demo import load_demo

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip("needs /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

import app_server as server  # noqa: E402

SCREEN = {"viewport": {"width": 1920, "height": 1080}}
BODY_MIN_PX = 28
CHART_LABEL_MIN_PX = 20

RECORD_CANVAS_TEXT = """
window.__chartText = [];
const draw = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    if (this.canvas && this.canvas.closest && this.canvas.closest('[data-testid="stVegaLiteChart"]')) {
        window.__chartText.push({text: String(text), font: this.font});  // a chart's text, not a table's
    }
    return draw.call(this, text, x, y, ...rest);
};
"""

BODY_SIZES = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p')]
    .filter(p => p.offsetParent !== null && p.textContent.trim().length > 20)
    .map(p => parseFloat(getComputedStyle(p).fontSize))"""

CHART_SIZES = """() => {
    const sizes = (window.__chartText || []).map(t => {
        const m = /(\\d+(?:\\.\\d+)?)px/.exec(t.font);
        return m ? parseFloat(m[1]) : null;
    }).filter(s => s !== null);
    for (const t of document.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')) {
        sizes.push(parseFloat(getComputedStyle(t).fontSize));
    }
    return sizes;
}"""


def chart_sizes(page, charts: int) -> list[float]:
    """The font sizes of every chart text drawn so far, once *charts* charts are on the page."""
    page.locator('[data-testid="stVegaLiteChart"]').nth(charts - 1).scroll_into_view_if_needed()
    page.wait_for_function(
        "(window.__chartText || []).length"
        " + document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] svg text').length"
        f" > {4 * charts}",
        timeout=30_000,
    )
    page.wait_for_timeout(500)
    return page.evaluate(CHART_SIZES)


def test_learn_bleu_in_presentation_mode_reads_from_the_back(browser):
    with server.streamlit_server(quiet=True) as url:
        ctx = browser.new_context(**SCREEN)
        ctx.add_init_script(RECORD_CANVAS_TEXT)
        page = ctx.new_page()
        try:
            page.goto(f"{url}/learn", wait_until="domcontentloaded")
            server.wait_app_idle(page)
            before = page.evaluate(BODY_SIZES)
            assert before and max(before) < BODY_MIN_PX  # the usual type, for the record
            page.get_by_text("Presentation mode").first.click()
            server.wait_app_idle(page)
            assert re.search(r"[?&]present=1", page.url), page.url
            page.reload(wait_until="domcontentloaded")  # F5 keeps it
            server.wait_app_idle(page)
            assert page.get_by_role("switch", name="Presentation mode").is_checked()
            body = page.evaluate(BODY_SIZES)
            assert body and min(body) >= BODY_MIN_PX, body
            labels = chart_sizes(page, 1)  # step 3's modified precisions
            assert labels and min(labels) >= CHART_LABEL_MIN_PX, labels
            assert server.axe_serious(page) == []
        finally:
            ctx.close()


def test_the_projector_in_presentation_mode_at_1920(browser, tmp_path):
    db = tmp_path / "present.sqlite"
    store = CampaignStore(db)
    study = load_demo("ted-en-de").subset(None, 40)
    systems = list(study.systems)[:3]
    bleu = {s: 10.0 + 5 * k for k, s in enumerate(systems)}
    plan = lesson_plan(study, bleu, seed=3, n_systems=3, n_segments=3, reads="both")
    rank = {s: k for k, s in enumerate(plan.systems)}
    sentence = {(it.segment_id, it.system): 10.0 * (1 + rank[it.system]) for it in plan.items}
    created = store.create_campaign(contrastive_plan(plan, sentence))
    code, key = created.campaign.code, created.organiser_key
    items = store.items(code, key)
    for name, offset in (("ana", 0), ("bo", 7), ("cy", 13)):
        session = JudgeSession.join(store, code, name, "class")
        for first in range(0, len(items), 3):
            answers = {
                it.position: ((31 * it.position + offset) % 80, [MarkedSpan(0, 1, "minor")])
                for it in items[first : first + 3]
            }
            submit_screen(session, answers)
    store.close()
    with server.streamlit_server(quiet=True, extra_env={"BLEU_STUDY_DB": str(db)}) as url:
        ctx = browser.new_context(**SCREEN)
        ctx.add_init_script(RECORD_CANVAS_TEXT)
        page = ctx.new_page()
        try:
            page.goto(f"{url}/projector?lesson={code}&key={key}", wait_until="domcontentloaded")
            server.wait_app_idle(page)
            page.get_by_text("Freeze").first.click()  # no refresh while measuring
            server.wait_app_idle(page)
            page.get_by_text("Presentation mode").first.click()
            server.wait_app_idle(page)
            page.reload(wait_until="domcontentloaded")
            server.wait_app_idle(page)
            assert re.search(r"[?&]present=1", page.url), page.url
            page.get_by_text("Which translation did the class prefer?").first.wait_for(
                timeout=30_000
            )
            body = page.evaluate(BODY_SIZES)
            assert body and min(body) >= BODY_MIN_PX, body
            labels = chart_sizes(page, 3)
            assert labels and min(labels) >= CHART_LABEL_MIN_PX, labels
            assert server.axe_serious(page) == []
        finally:
            ctx.close()
