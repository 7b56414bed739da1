"""End-to-end: the real app in headless Chromium (Playwright, Debian's /usr/bin/chromium).

Starts ``streamlit run app.py`` on a free port, opens every page on the demo study, uploads a small valid
study and a broken one, checks that HTML/JS in user text shows as text and never runs, and that the
sidebar settings survive page changes. Screenshots of every page go to ``tests/artifacts/`` (not committed).
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, ROOT, streamlit_server, wait_app_idle  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
playwright_api = pytest.importorskip("playwright.sync_api")

ARTIFACTS = ROOT / "tests" / "artifacts"
PAGES = ["study", "corpus", "export", "explore", "learn", "bleu_vs_human"]
OTHER_PAGES = ["significance", "judges", "correlation", "metrics", "rate", "campaigns"]
XSS_SCRIPT = "<script>window.__xss = 1; alert(1)</script>"
XSS_IMG = '<img src=x onerror="window.__xss = 2; alert(2)">'


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 2400})
    pg = context.new_page()
    pg.dialogs = []
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    yield pg
    context.close()


def open_page(page, server: str, name: str) -> None:
    # The default page (Study) lives at the root URL: st.navigation serves it at "/" only.
    page.goto(f"{server}/{'' if name == 'study' else name}")
    wait_app_idle(page)


def exceptions(page) -> list[str]:
    return page.locator('[data-testid="stException"]').all_inner_texts()


def signature(page) -> str:
    caption = page.locator('[data-testid="stCaptionContainer"]').filter(has_text="BLEU signature")
    return caption.first.inner_text()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def long_table(rows: list[dict[str, str]]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(
        out, fieldnames=["segment_id", "system", "role", "text", "criterion", "score"]
    )
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def upload(page, server: str, files: list[tuple[str, bytes]]) -> None:
    open_page(page, server, "study")
    page.locator(
        'input[type="file"]'
    ).first.set_input_files(  # the study upload (then: metric scores)
        [{"name": n, "mimeType": "text/csv", "buffer": data} for n, data in files]
    )
    wait_app_idle(page)
    page.get_by_role("button", name="Load files").click()
    wait_app_idle(page)


@pytest.mark.parametrize("name", PAGES + OTHER_PAGES)
def test_every_page_renders_on_the_demo(server, page, name):
    if not (ROOT / "pages" / f"{name}.py").exists():
        pytest.skip(f"pages/{name}.py is not there (another area's page)")
    open_page(page, server, name)
    shot(page, name)
    assert exceptions(page) == []
    assert page.locator("h1").first.is_visible()
    assert "WMT21 TED talks en-de" in page.locator('[data-testid="stSidebar"]').inner_text()


def test_explore_shows_highlighted_ngrams(server, page):
    open_page(page, server, "explore")
    assert page.locator(".bs-matched").count() > 10
    assert page.locator(".bs-unmatched").count() > 0
    # every system's table: the n-grams as the token's title (the browser's tooltip)
    assert "clip count" in page.locator(".bs-table .bs-matched").first.get_attribute("title")
    # one system's block: a pop-up on hover
    token = page.locator(".bs-seg .bs-matched:has(.bs-pop)").first
    token.hover()
    assert token.locator(".bs-pop").is_visible()
    assert "clip count" in token.locator(".bs-pop").inner_text()


def test_settings_persist_across_pages(server, page):
    open_page(page, server, "explore")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').filter(has_text="Tokenizer").click()
    page.keyboard.type("intl")
    page.keyboard.press("Enter")
    wait_app_idle(page)
    assert "tok:intl" in signature(page)
    sidebar.get_by_role("link", name="Corpus").click()
    wait_app_idle(page)
    assert "tok:intl" in signature(page)
    sidebar.get_by_role("link", name="BLEU vs human").click()
    wait_app_idle(page)
    assert "tok:intl" in signature(page)
    assert exceptions(page) == []


def test_upload_a_valid_study(server, page):
    rows = [
        {"segment_id": "1", "system": "ref", "role": "reference", "text": "The dog barks."},
        {
            "segment_id": "1",
            "system": "A",
            "role": "system",
            "text": "The dog is barking.",
            "criterion": "adequacy",
            "score": "4",
        },
        {
            "segment_id": "2",
            "system": "ref",
            "role": "reference",
            "text": "The cat sleeps on the mat.",
        },
        {
            "segment_id": "2",
            "system": "A",
            "role": "system",
            "text": "A cat sleeps on a mat.",
            "criterion": "adequacy",
            "score": "3",
        },
    ]
    upload(page, server, [("small-study.csv", long_table(rows))])
    assert exceptions(page) == []
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "Opened from small-study.csv" in main
    shot(page, "study-uploaded")


def test_upload_a_broken_study_shows_a_clear_error(server, page):
    upload(page, server, [("broken.csv", b"segment,words\n1,hello\n")])
    error = page.locator('[data-testid="stAlertContentError"]').first.inner_text()
    assert "Could not load broken.csv" in error and "segment_id" in error
    assert exceptions(page) == []
    shot(page, "study-broken-upload")


def test_html_in_user_text_shows_as_text_and_never_runs(server, page):
    rows = []
    for i in range(1, 4):
        rows.append(
            {
                "segment_id": str(i),
                "system": "ref",
                "role": "reference",
                "text": f"the cat {XSS_SCRIPT} sat {i}",
            }
        )
        rows.append(
            {
                "segment_id": str(i),
                "system": "A",
                "role": "system",
                "text": f"the cat {XSS_IMG} sat {i}",
                "criterion": "adequacy",
                "score": str(i),
            }
        )
        rows.append(
            {
                "segment_id": str(i),
                "system": "B",
                "role": "system",
                "text": f"a {XSS_SCRIPT} cat",
                "criterion": "adequacy",
                "score": str(4 - i),
            }
        )
    upload(page, server, [("xss.csv", long_table(rows))])
    for name in ("explore", "corpus", "bleu_vs_human", "learn"):
        page.locator('[data-testid="stSidebar"]').get_by_role(
            "link",
            name={
                "explore": "Explore",
                "corpus": "Corpus",
                "bleu_vs_human": "BLEU vs human",
                "learn": "Learn BLEU",
            }[name],
        ).click()
        wait_app_idle(page)
        assert exceptions(page) == [], name
        assert page.evaluate("() => window.__xss === undefined"), name
        assert page.dialogs == [], name
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Explore").click()
    wait_app_idle(page)
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "onerror" in text and "script" in text  # shown as text
    assert page.locator('[data-testid="stMain"] img[src="x"]').count() == 0
    shot(page, "explore-xss")


def test_export_zip_downloads_with_tables_charts_and_settings(server, page):
    import json
    import zipfile

    open_page(page, server, "corpus")  # a page whose table and chart join the export
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Export").click()
    wait_app_idle(page)
    with page.expect_download(timeout=120_000) as info:
        page.get_by_role("button", name="Download the reproducible zip").click()
    path = info.value.path()
    zf = zipfile.ZipFile(path)
    names = zf.namelist()
    assert "settings.json" in names and "tables/corpus-bleu.csv" in names
    assert "charts/corpus-bleu-chart.png" in names and "charts/corpus-bleu-chart.svg" in names
    assert zf.read("charts/corpus-bleu-chart.png").startswith(b"\x89PNG")
    settings = json.loads(zf.read("settings.json"))
    assert settings["input_files"][0]["name"] == "ted-en-de.study.json.gz"
    assert len(settings["input_files"][0]["sha256"]) == 64
    assert settings["signature"].startswith("nrefs:1|refs:ref|case:mixed|eff:no|tok:13a|smooth:exp")


def test_deep_link_as_the_first_request_of_a_fresh_server(browser):
    # With a pages/ folder, Streamlit serves the first request of a new server in its legacy multipage
    # mode; a deep link then runs the page without app.py (ui.app.context.ensure_entrypoint re-runs it).
    with streamlit_server() as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1400})
        pg = context.new_page()
        pg.goto(f"{url}/explore")
        wait_app_idle(pg)
        assert exceptions(pg) == []
        assert pg.locator("h1").first.inner_text() == "Explore translations"
        assert "BLEU settings" in pg.locator('[data-testid="stSidebar"]').inner_text()
        context.close()


def _chart_images(page) -> list[bytes]:
    images = []
    for chart in page.locator('[data-testid="stVegaLiteChart"]').all():
        chart.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        images.append(chart.screenshot(animations="disabled"))
    return images


def _same_picture(a: bytes, b: bytes) -> bool:
    """Two PNG screenshots show the same chart: equal sizes and no pixel off by more than 2 levels of 255.

    An SVG chart updated in place and the identical SVG drawn fresh can be rasterised a level apart at
    a pixel's antialiased edge (Chromium repaints only the changed region); stale or wrong data moves marks
    and changes pixels by far more."""
    from PIL import Image, ImageChops

    one, two = (Image.open(io.BytesIO(png)).convert("RGB") for png in (a, b))
    if one.size != two.size:
        return False
    return max(high for _, high in ImageChops.difference(one, two).getextrema()) <= 2


def _choose_tokenizer(page, name: str) -> None:
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(
        has_text="Tokenizer"
    )
    box.click()
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    wait_app_idle(page)


def test_bleu_vs_human_charts_are_updated_in_place_and_show_the_new_scores(server, browser):
    # The page's charts keep their spec when only the numbers change (ui.app.context.show_chart,
    # stable=True): the browser swaps their data instead of building them again. What it draws must
    # be what a fresh page draws with the same settings.
    marks = '[data-testid="stVegaLiteChart"] svg.marks'
    pages = []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 1400, "height": 1400})
        pages.append(context.new_page())
    updated, fresh = pages
    open_page(updated, server, "bleu_vs_human")
    before = _chart_images(updated)
    updated.evaluate(f"window.__marks = [...document.querySelectorAll('{marks}')]")
    _choose_tokenizer(updated, "char")
    assert "tok:char" in signature(updated)
    same_nodes = updated.evaluate(
        f"[...document.querySelectorAll('{marks}')].map((e, i) => e === window.__marks[i])"
    )
    assert len(same_nodes) >= 3 and all(same_nodes)  # every chart updated in place, not drawn anew
    after = _chart_images(updated)
    assert len(before) == len(after) and not any(map(_same_picture, before, after))  # new scores
    open_page(fresh, server, "study")
    _choose_tokenizer(fresh, "char")
    fresh.locator('[data-testid="stSidebar"]').get_by_role("link", name="BLEU vs human").click()
    wait_app_idle(fresh)
    shown = _chart_images(fresh)
    assert len(shown) == len(after) and all(map(_same_picture, shown, after))
    for pg in pages:
        pg.context.close()
