"""Every chart readable with 50 systems, in headless Chromium.

The app is started on a 50-system × 40-segment synthetic study (tests/browser/many_systems.py, written to a
temporary directory and named on the command line: ``streamlit run app.py -- STUDY.csv``). On each page the
test reads the text every chart actually drew and fails when a system's name is missing:

* Streamlit draws Vega-Lite through vega-embed without exposing the Vega view, so the text is read from
  what was rendered: ``<text>`` elements of an SVG chart (hidden ones, opacity 0, and ones outside the
  drawing do not count), and for a canvas chart every string passed to ``fillText`` at a point on the
  canvas (an init script records them per canvas; Vega skips labels it hides, so a dropped label is
  never recorded, and a legend cut off by the chart's height is drawn off the canvas);
* a chart is found by its title, which Vega draws as text too.

Screenshots of each page go to ``tests/artifacts/many-systems-*.png`` (not committed).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import (  # noqa: E402
    CHROMIUM,
    ROOT,
    streamlit_server,
    wait_app_idle,
)
from many_systems import HUMAN_SYSTEM, write_study  # noqa: E402

from bleu_core.study.system_names import system_label  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
playwright_api = pytest.importorskip("playwright.sync_api")

ARTIFACTS = ROOT / "tests" / "artifacts"
RECORD_CANVAS_TEXT = """
(() => {
  // Record, per canvas, every string drawn whose anchor lies on the canvas (Vega draws a legend or
  // labels that do not fit outside it, where nobody sees them: those do not count).
  const proto = CanvasRenderingContext2D.prototype;
  const original = proto.fillText;
  proto.fillText = function (text, x, y, ...rest) {
    const canvas = this.canvas;
    if (canvas) {
      const m = this.getTransform();
      const px = m.a * x + m.c * y + m.e;
      const py = m.b * x + m.d * y + m.f;
      if (px >= -2 && py >= -2 && px <= canvas.width + 2 && py <= canvas.height + 2) {
        (canvas.__drawnTexts = canvas.__drawnTexts || {})[String(text)] = [px, py];
      }
    }
    return original.call(this, text, x, y, ...rest);
  };
})();
"""
CHART_TEXTS = """
() => Array.from(document.querySelectorAll('.vega-embed')).map((embed) => {
  const texts = {};
  embed.querySelectorAll('svg').forEach((svg) => {
    const box = svg.getBoundingClientRect();
    svg.querySelectorAll('text').forEach((t) => {
      const r = t.getBoundingClientRect();
      const hidden = t.getAttribute('opacity') === '0' || getComputedStyle(t).opacity === '0';
      const cx = (r.left + r.right) / 2;
      const cy = (r.top + r.bottom) / 2;
      const inside = cy >= box.top && cy <= box.bottom && cx >= box.left && cx <= box.right;
      if (!hidden && inside) texts[t.textContent] = [r.right, r.bottom];
    });
  });
  embed.querySelectorAll('canvas').forEach((c) => Object.assign(texts, c.__drawnTexts || {}));
  return texts;
})
"""
MIN_GAP_PX = 9
"""Two labels whose anchors are closer than this both across and down are drawn on top of each other."""


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> tuple[Path, list[str]]:
    path = tmp_path_factory.mktemp("many") / "fifty-systems.csv"
    return path, write_study(path)


@pytest.fixture(scope="module")
def server(study):
    path, _ = study
    with streamlit_server(args=[str(path)], extra_env={"BLEU_STUDY_NO_PREFETCH": "1"}) as url:
        yield url


@pytest.fixture()
def page(browser):
    # tall: Streamlit scrolls inside its own container, so a screenshot shows the viewport only
    context = browser.new_context(viewport={"width": 1500, "height": 5200})
    context.add_init_script(RECORD_CANVAS_TEXT)
    pg = context.new_page()
    yield pg
    context.close()


def open_page(page, server: str, name: str) -> None:
    page.goto(f"{server}/{name}")
    wait_app_idle(page, timeout_ms=240_000)
    page.wait_for_timeout(1500)  # vega-embed draws after the script run
    assert page.locator('[data-testid="stException"]').count() == 0


def include_humans(page) -> None:
    """Turn the page's "Include human translations" toggle on (humans are out by default)."""
    toggle = page.get_by_label("Include human translations", exact=True)
    assert not toggle.is_checked()
    page.get_by_text("Include human translations", exact=True).click()
    wait_app_idle(page, timeout_ms=240_000)
    page.wait_for_timeout(1500)
    assert toggle.is_checked()


def chart_texts(page, title: str) -> dict[str, tuple[float, float]]:
    """The texts drawn by the chart whose title starts with ``title``, with where they were drawn."""
    charts = page.evaluate(CHART_TEXTS)
    found = [texts for texts in charts if any(t.startswith(title) for t in texts)]
    assert found, f"no chart titled {title!r}; titles seen: {[sorted(c)[:3] for c in charts]}"
    return found[0]


def assert_every_system(
    texts: dict[str, tuple[float, float]], names: list[str], chart: str, *, apart: bool = True
) -> None:
    """Every name drawn on the chart and (``apart``) no two of them on top of each other."""
    missing = [n for n in names if n not in texts]
    assert not missing, f"{chart}: {len(missing)} of {len(names)} systems not drawn: {missing[:8]}"
    if not apart:
        return
    points = sorted((texts[n], n) for n in names)
    clashes = [
        (a, b)
        for i, ((xa, ya), a) in enumerate(points)
        for (xb, yb), b in points[i + 1 :]
        if abs(xa - xb) < MIN_GAP_PX and abs(ya - yb) < MIN_GAP_PX
    ]
    assert not clashes, f"{chart}: {len(clashes)} pairs of labels overlap, e.g. {clashes[:3]}"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"many-systems-{name}.png"), full_page=True)


def test_corpus_chart_names_every_system(server, page, study):
    _, names = study
    open_page(page, server, "corpus")
    # human translations are out by default: the 49 machine systems only
    default = chart_texts(page, "Corpus BLEU")
    machines = [n for i, n in enumerate(names) if i != HUMAN_SYSTEM]
    assert_every_system(default, machines, "corpus bars (default)")
    assert not any(names[HUMAN_SYSTEM] in t for t in default)
    include_humans(page)
    shot(page, "corpus")
    # the Corpus page labels a human translation by both names (bleu_core.study.system_names):
    # the study's human system Online-A-00 is drawn as "HUMAN (Online-A-00)"
    human = {names[HUMAN_SYSTEM]}
    shown = [system_label(n, human) for n in names]
    assert "HUMAN (Online-A-00)" in shown
    assert_every_system(chart_texts(page, "Corpus BLEU"), shown, "corpus bars")


def test_bleu_vs_human_charts_name_every_system(server, page, study):
    _, names = study
    open_page(page, server, "bleu_vs_human")
    include_humans(page)  # all 50 systems
    assert_every_system(
        chart_texts(page, "BLEU and adequacy normalised"), names, "Figure 7 (normalised)"
    )
    # 50 points: labels on hover by default; only the human translation is always labelled
    # (ui.analysis.cluster_view.reference_scatter)
    at_rest = chart_texts(page, "adequacy (all raters) vs BLEU")
    assert set(at_rest) & set(names) == {names[HUMAN_SYSTEM]}
    page.get_by_text("Label every system").click()
    wait_app_idle(page, timeout_ms=120_000)
    page.wait_for_timeout(1500)
    shot(page, "bleu_vs_human")
    # the toggle writes every label that has a free place (ui.analysis.charts.label_places), none on
    # top of another; a label without a free place stays on hover
    scatter = chart_texts(page, "adequacy (all raters) vs BLEU")
    written = [n for n in names if n in scatter]
    assert written, "Label every system wrote no name on the scatter"
    assert_every_system(scatter, written, "scatter")


def test_significance_charts_name_every_system(server, page, study):
    _, names = study
    open_page(page, server, "significance")
    include_humans(page)  # all 50 systems
    run_it = page.get_by_text("Run it:")  # a large randomisation waits for a toggle
    if run_it.count():
        run_it.first.click()
        wait_app_idle(page, timeout_ms=240_000)
        page.wait_for_timeout(1500)
    shot(page, "significance")
    for title in (
        "BLEU per block",
        "BLEU with 95% bootstrap intervals",
        "Paired bootstrap",
        "Approximate randomisation",
    ):
        assert_every_system(chart_texts(page, title), names, title)


def test_judges_chart_names_every_pair(server, page, study):
    _, names = study
    open_page(page, server, "judges")
    include_humans(page)  # all 50 systems, so 49 adjacent pairs
    shot(page, "judges")
    texts = chart_texts(page, "adequacy: same-judge differences")
    pairs = [t for t in texts if " → " in t and not t.startswith("adjacent systems")]
    assert len(pairs) == len(names) - 1  # every adjacent pair, none dropped
    assert_every_system(texts, pairs, "judges")
    assert {n for p in pairs for n in p.split(" → ")} == set(names)


def test_correlation_interval_chart_shows_every_row(server, page):
    open_page(page, server, "correlation")
    shot(page, "correlation")
    texts = chart_texts(page, "BLEU vs adequacy: 95 % bootstrap intervals")
    # every row with an interval (pooled segment-level Kendall has none: it is left out of the chart)
    rows = {f"system · {m}" for m in ("pearson", "spearman", "kendall")} | {
        f"segment · {m}"
        for m in ("pearson", "pearson (by item)", "kendall (by item)", "kendall-wmt (by item)")
    }
    assert_every_system(texts, sorted(rows), "correlation intervals")


@pytest.mark.parametrize("name", ["explore", "learn", "metrics"])
def test_other_changed_pages_render(server, page, name):
    open_page(page, server, name)
    shot(page, name)


def test_a_judges_link_shows_only_the_rate_page(server, page):
    page.goto(f"{server}/rate?campaign=NOSUCH")
    wait_app_idle(page)
    shot(page, "judge-link")
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0
    assert "Page not found" not in page.content()
    # the root address with a campaign code: the judge lands on the Rate page, still judge-only
    page.goto(f"{server}/?campaign=NOSUCH")
    wait_app_idle(page)
    assert page.get_by_role("heading", name="Rate translations").count() >= 1
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0
    assert "fifty-systems" not in page.content()  # no study data
    assert page.get_by_role("heading", name="Rate translations").count() >= 1
