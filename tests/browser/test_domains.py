"""End-to-end: a WMT24-shaped release with domains (``tests/study/data/wmt24-mini``, invented text)
opened with ``bleu-study app PATH --pair en-ja``; the Corpus page sets BLEU per domain side by side (its CSV
download, checked against sacrebleu on the domain's lines); choosing a domain in the sidebar restricts the
page to it (corpus BLEU = that domain's column) and keeps the choice on the BLEU vs human page.

Real app in headless Chromium; screenshots go to ``tests/artifacts/`` (not committed).
"""

from __future__ import annotations

import csv
import io
import re
import sys
from pathlib import Path

import pytest
import sacrebleu

from bleu_core.engine.signature import tokenizer_name

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, ROOT, streamlit_server, wait_app_idle  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]
pytest.importorskip("playwright.sync_api")

RELEASE = ROOT / "tests" / "study" / "data" / "wmt24-mini"
ARTIFACTS = ROOT / "tests" / "artifacts"


def lines(relative: str) -> list[str]:
    """A release file's lines without its first (canary) line."""
    return (RELEASE / relative).read_text(encoding="utf-8").splitlines()[1:]


def domain_rows(domain: str) -> list[int]:
    return [
        i
        for i, line in enumerate(lines("txt/documents/en-ja.docs"))
        if line.split("\t")[0] == domain
    ]


def sacrebleu_on(system: str, rows: list[int], tokenize: str) -> float:
    # Oracle: sacrebleu 2.6 corpus_bleu on the domain's lines against reference A, the app's tokenizer.
    hyp = lines(f"txt/system-outputs/en-ja/{system}.txt")
    ref = lines("txt/references/en-ja.refA.txt")
    return sacrebleu.corpus_bleu(
        [hyp[i] for i in rows], [[ref[i] for i in rows]], tokenize=tokenize
    ).score


def table_csv(page, heading: str, file_name: str) -> dict[str, dict[str, str]]:
    """The table under ``heading``, from its CSV download (the grid on screen is a canvas): the first table
    CSV button after the heading (not a chart's "Chart data (CSV)"), checked by its file name."""
    button = (
        page.get_by_role("heading", name=heading, exact=True)
        .locator("xpath=following::*[@data-testid='stDownloadButton']")
        .filter(has_text="CSV")
        .filter(has_not_text="Chart data")
        .first
    )
    with page.expect_download(timeout=60_000) as info:
        button.click()
    assert info.value.suggested_filename == file_name
    rows = csv.DictReader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8")))
    return {row["system"]: row for row in rows}


def tokenizer(page) -> str:
    caption = page.locator('[data-testid="stCaptionContainer"]').filter(has_text="BLEU signature")
    field = re.search(r"tok:([^|\s]+)", caption.first.inner_text()).group(1)
    return tokenizer_name(field)  # sacrebleu's form: ja-mecab-0.996-IPA is ja-mecab


def choose_domain(page, name: str) -> None:
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').filter(has_text="Domain").click()
    page.get_by_role("option", name=name, exact=True).click()
    wait_app_idle(page)


def test_per_domain_bleu_and_the_domain_choice(browser):
    args = [str(RELEASE), "--pair", "en-ja"]
    with streamlit_server(args=args) as url:
        page = browser.new_context(viewport={"width": 1400, "height": 2400}).new_page()
        page.goto(f"{url}/corpus")
        wait_app_idle(page, timeout_ms=120_000)
        assert page.locator('[data-testid="stException"]').count() == 0
        page.get_by_role("heading", name="Per domain").wait_for()
        tok = tokenizer(page)
        per_domain = table_csv(page, "Per domain", "corpus-bleu-per-domain.csv")
        for system in ("sysA", "sysB"):
            for domain in ("news", "social", "literary"):
                shown = float(per_domain[system][f"BLEU · {domain}"])
                assert shown == pytest.approx(
                    sacrebleu_on(system, domain_rows(domain), tok), abs=1e-6
                )
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "domains-corpus.png"), full_page=True)

        choose_domain(page, "social")
        assert page.get_by_role("heading", name="Per domain").count() == 0
        social = table_csv(page, "Corpus BLEU", "corpus-bleu.csv")
        for system in ("sysA", "sysB"):
            assert float(social[system]["BLEU"]) == pytest.approx(
                float(per_domain[system]["BLEU · social"]), abs=1e-9
            )

        page.locator('[data-testid="stSidebar"]').get_by_role("link", name="BLEU vs human").click()
        wait_app_idle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        page.get_by_role("heading", name="Sentence, document, corpus").wait_for()
        assert page.get_by_role("heading", name="Per domain").count() == 0  # still on "social"
        choose_domain(page, "all domains")
        page.get_by_role("heading", name="Per domain").wait_for()
        page.screenshot(path=str(ARTIFACTS / "domains-bleu-vs-human.png"), full_page=True)


def paragraph_table(folder: Path) -> Path:
    """A long table (invented text) whose segments are paragraphs of several sentences with an address and a
    hashtag longer than any line, as WMT24's social-media paragraphs have."""
    address = "https://example.org/" + "/".join(f"section{k}" for k in range(40))
    sentences = [
        f"Sentence {k} of the paragraph says something about the weather and the harbour."
        for k in range(12)
    ]
    hashtag = "#" + "HarbourWeatherNewsToday" * 16  # one token of 368 letters for every tokenizer
    paragraph = " ".join([*sentences[:6], address, hashtag, *sentences[6:]])
    output = paragraph.replace("weather", "climate").replace("harbour", "port")
    second = " ".join([address, hashtag, *reversed(sentences)])
    rows = [
        ("1", "ref", "reference", paragraph, "", ""),
        ("1", "sysA", "system", output, "da", "70"),
        ("1", "sysB", "system", paragraph, "da", "90"),
        ("2", "ref", "reference", second, "", ""),
        ("2", "sysA", "system", second.replace("weather", "rain"), "da", "95"),
        ("2", "sysB", "system", second.replace("harbour", "bay"), "da", "60"),
    ]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["segment_id", "system", "role", "text", "criterion", "score"])
    writer.writerows(rows)
    path = folder / "paragraphs.csv"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


WRAPPED = """() => {
    const blocks = [...document.querySelectorAll('.bs-seg')];
    const tokens = [...document.querySelectorAll('.bs-seg .bs-tok')];
    const broken = tokens.filter(t => t.getClientRects().length > 1);
    return {
        blocks: blocks.length,
        overflowing: blocks.filter(b => b.scrollWidth > b.clientWidth + 8).length,
        lines: Math.max(...blocks.map(b => Math.round(b.getBoundingClientRect().height))),
        broken: broken.length,
        cloned: broken.filter(t => getComputedStyle(t).boxDecorationBreak === 'clone').length,
    };
}"""


def test_explore_wraps_a_paragraph_and_breaks_a_long_address(browser, tmp_path):
    with streamlit_server(args=[str(paragraph_table(tmp_path))]) as url:
        page = browser.new_context(viewport={"width": 1100, "height": 2400}).new_page()
        page.goto(f"{url}/explore")
        wait_app_idle(page, timeout_ms=120_000)
        assert page.locator('[data-testid="stException"]').count() == 0
        page.get_by_role("heading", name=re.compile(r"^Segment \d")).wait_for()
        found = page.evaluate(WRAPPED)
        assert found["blocks"] >= 4  # source-less: reference, then each system's hypothesis
        # No block wider than its column (the padding of a token cut at the line's end may stick out by
        # a pixel or two; the unbroken hashtag alone would be thousands of pixels wide).
        assert found["overflowing"] == 0
        assert found["lines"] > 150  # the paragraph runs over several lines
        assert (
            found["broken"] >= 1 and found["cloned"] == found["broken"]
        )  # marks kept on both lines
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "explore-paragraph.png"), full_page=True)
