"""End-to-end on the TED en-de demo (MQM ratings, a rated reference, MQM error spans): the sections added to
Significance (``render_clusters``), BLEU vs human (``render_ranks``, ``reference_scatter``), Metric ranking
(``show_error_free``) and BLEU vs error spans (``show_wmt25_spans``), each opened in headless Chromium,
used once and checked with axe-core at desktop size (1280×800; none of these pages is a phone page).
"""

from __future__ import annotations

import csv
import io
import re
import sys
from pathlib import Path

import pytest

from bleu_core.study.wmt25_tsv import TSV_FIELDS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, axe_serious, wait_app_idle  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python.sync_playwright")

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SLOW = 240_000  # the TED study's bootstraps on a shared machine


@pytest.fixture
def page(browser):
    ctx = browser.new_context(**DESKTOP, accept_downloads=True)
    yield ctx.new_page()
    ctx.close()


def open_page(page, url: str, name: str) -> None:
    page.goto(f"{url}/{name}")
    wait_app_idle(page, timeout_ms=SLOW)


def download(page, selector: str) -> tuple[str, str]:
    """Click the download button at ``selector``; the file's suggested name and its text."""
    with page.expect_download(timeout=SLOW) as info:
        page.locator(selector).click()
    return info.value.suggested_filename, Path(info.value.path()).read_text(encoding="utf-8")


def test_significance_clusters_beside_the_human_ones(page, demo_server) -> None:
    open_page(page, demo_server, "significance")
    run_it = page.get_by_text("Run it:")  # a large randomisation waits for a toggle
    if run_it.count():
        run_it.first.click()
        wait_app_idle(page, timeout_ms=SLOW)
    heading = page.get_by_role("heading", name="Significance clusters: the metric beside the human")
    heading.wait_for(timeout=SLOW)
    page.get_by_text("Each ranking with its scores, rank ranges and tests").click()
    wait_app_idle(page)
    inside = page.locator('[data-testid="stExpander"]').filter(has_text="Each ranking with its")
    assert "BLEU" in inside.inner_text() and "mqm" in inside.inner_text().lower()
    assert not axe_serious(page), axe_serious(page)


def test_bleu_vs_human_ranks_and_the_reference_on_the_chart(page, demo_server) -> None:
    open_page(page, demo_server, "bleu_vs_human")
    page.get_by_role("heading", name="Rank against rank").wait_for(timeout=SLOW)
    page.get_by_text("Ranks as a table").click()
    wait_app_idle(page)
    name, text = download(page, ".st-key-dl-chart-data-bleu-rank-vs-mqm-rank button")
    assert name == "bleu-rank-vs-mqm-rank-data.csv"
    # the chart's frames stacked ("part"): the diagonal's two ends, then one point per system
    points = [row["system"] for row in csv.DictReader(io.StringIO(text)) if row["system"]]
    assert len(set(points)) == 13, points  # each of the demo's 13 systems has both ranks
    # the scatter's numbers (its text alternative) hold the rated reference drawn as a rule
    name, text = download(page, ".st-key-dl-chart-data-bleu-vs-mqm button")
    assert "ref (the reference: no BLEU of its own)" in text, text[:400]
    assert not axe_serious(page), axe_serious(page)


def test_metric_ranking_error_free_detection(page, demo_server) -> None:
    open_page(page, demo_server, "metric_ranking")
    heading = page.get_by_role("heading", name="Error-free detection (WMT26 subtask 3)")
    heading.wait_for(timeout=SLOW)
    wait_app_idle(
        page, timeout_ms=SLOW
    )  # the page drawn to its end: a click while it draws only focuses
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Translations")
    box.click()  # one language pair: one group, every translation
    options = page.get_by_role("option")
    try:
        options.first.wait_for(timeout=10_000)
    except sync_api.TimeoutError:  # focused but not opened: the keyboard opens it
        page.keyboard.press("ArrowDown")
        options.first.wait_for(timeout=10_000)
    assert options.all_inner_texts() == ["all"]
    page.keyboard.press("Escape")
    chart = heading.locator("xpath=following::*[@data-testid='stVegaLiteChart']").first
    chart.wait_for(timeout=SLOW)
    name, text = download(page, ".st-key-dl-chart-data-error-free-detection-all button")
    assert name == "error-free-detection-all-data.csv"
    assert "BLEU" in {row["metric"] for row in csv.DictReader(io.StringIO(text))}, text[:400]
    assert not axe_serious(page), axe_serious(page)


def test_error_spans_wmt25_section_and_its_tsvs(page, demo_server) -> None:
    open_page(page, demo_server, "error_spans")
    page.get_by_role("heading", name="WMT25's span score").wait_for(timeout=SLOW)
    page.get_by_text("major (every unmatched word)", exact=True).click()
    wait_app_idle(page, timeout_ms=SLOW)
    for label, file_name in [
        ("BLEU's spans (WMT25 TSV)", r"bleu-spans-order\d-major\.tsv"),  # the severity just chosen
        ("Raters' spans (WMT25 gold TSV)", r"gold-spans\.tsv"),
    ]:
        with page.expect_download(timeout=SLOW) as info:
            page.get_by_role("button", name=label).click()
        assert re.fullmatch(file_name, info.value.suggested_filename), info.value.suggested_filename
        lines = Path(info.value.path()).read_text(encoding="utf-8").splitlines()
        assert lines[0].split("\t") == list(TSV_FIELDS), lines[0]
        assert len(lines) > 1  # rows follow the header
    assert not axe_serious(page), axe_serious(page)
