"""End-to-end: upload a generated WMT22-style release (references B and C, DA naming HUMAN-B.12, a
file with a byte-order mark), choose the references in the sidebar, and check the Corpus page's BLEU (its CSV
download) against sacrebleu 2.x for that choice. Screenshots go to ``tests/artifacts/``.
"""

# ruff: noqa: F811  (the fixtures of test_browser.py are imported by name and taken as arguments)
from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest
import sacrebleu

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import wait_app_idle  # noqa: E402
from test_browser import (  # noqa: E402, F401  (fixtures; `browser` comes from conftest.py)
    exceptions,
    page,
    pytestmark,
    server,
    shot,
    signature,
    upload,
)
from wmt22_release import REF_B, REF_C, SYSTEMS, release_zip  # noqa: E402


def picker(page):
    sidebar = page.locator('[data-testid="stSidebar"]')
    return sidebar.locator('[data-testid="stMultiSelect"]').filter(has_text="References")


def add_reference(page, name: str) -> None:
    picker(page).locator("input").click()
    page.get_by_role("option", name=name, exact=True).click()
    page.keyboard.press("Escape")
    wait_app_idle(page)


def remove_reference(page, name: str) -> None:
    """Remove ``name``'s chip from the picker (its close button); the option list left open by the last
    choice would take the click, so it is closed first."""
    page.keyboard.press("Escape")
    picker(page).get_by_role("button", name=f"Remove {name}", exact=True).click()
    wait_app_idle(page)


def chosen(page) -> list[str]:
    """The references the picker shows chosen (its chips)."""
    return picker(page).locator("[data-tag] [title]").all_inner_texts()


def corpus_csv(page, server: str, *, humans: bool = True) -> dict[str, dict[str, str]]:
    """The Corpus page's table, from its CSV download (the grid on screen is a canvas), with its
    "Include human translations" toggle set to ``humans`` (off by default; the choice is kept across pages)."""
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Corpus").click()
    wait_app_idle(page)
    assert exceptions(page) == []
    toggle = page.get_by_label("Include human translations", exact=True)
    if toggle.is_checked() != humans:
        page.get_by_text("Include human translations", exact=True).click()
        wait_app_idle(page)
        assert toggle.is_checked() == humans and exceptions(page) == []
    with page.expect_download(timeout=60_000) as info:
        page.locator('[data-testid="stDownloadButton"]').filter(has_text="CSV").first.click()
    rows = csv.DictReader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8")))
    return {row["system"]: row for row in rows}


def expected(references: list[list[str]]) -> dict[str, float]:
    # sacrebleu 2.x corpus_bleu, default settings, on the texts without the byte-order mark
    return {s: sacrebleu.corpus_bleu(lines, references).score for s, lines in SYSTEMS.items()}


def test_upload_a_release_and_choose_its_references(server, page):
    upload(page, server, [("wmt22-release.zip", release_zip())])
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert exceptions(page) == [] and "Open: generaltest2022 de-en" in main
    assert "wmt22-release.zip!txt/system-outputs/generaltest2022.de-en.hyp.sys1.en" in main
    assert "byte-order mark" in main and "/tmp/" not in main
    assert "human scores of ref-B (3 da, 3 da_z) were set aside" in main
    shot(page, "references-study-loaded")

    # human translations are out by default: the machine systems only
    table = corpus_csv(page, server, humans=False)
    assert set(table) == set(SYSTEMS)
    table = corpus_csv(page, server)  # the loader's choice: reference B; ref-C is a human system
    for system, bleu in expected([REF_B]).items():
        assert float(table[system]["BLEU"]) == pytest.approx(bleu, abs=1e-6)
    # a human translation is shown by both names (the Corpus CSV as on screen)
    assert "HUMAN-C (ref-C)" in table and "nrefs:1|" in signature(page)

    # the picker shows the loader's choice chosen (ui.app.settings.picker_value): picking C adds it, then
    # removing B leaves C only, and B becomes a human system with HUMAN-B.12's DA (91-93)
    assert chosen(page) == ["ref-B"]
    add_reference(page, "ref-C")
    remove_reference(page, "ref-B")
    assert chosen(page) == ["ref-C"]
    table = corpus_csv(page, server)
    for system, bleu in expected([REF_C]).items():
        assert float(table[system]["BLEU"]) == pytest.approx(bleu, abs=1e-6)
    assert float(table["HUMAN-B (ref-B)"]["da"]) == pytest.approx(92.0)
    assert float(table["HUMAN-B (ref-B)"]["BLEU"]) == pytest.approx(
        sacrebleu.corpus_bleu(REF_B, [REF_C]).score, abs=1e-6
    )

    add_reference(page, "ref-B")  # both: multi-reference BLEU
    table = corpus_csv(page, server)
    for system, bleu in expected([REF_B, REF_C]).items():
        assert float(table[system]["BLEU"]) == pytest.approx(bleu, abs=1e-6)
    machines = {s for s, row in table.items() if row["human"] == "False"}
    assert machines == set(SYSTEMS) and "nrefs:2|" in signature(page)
    # both references are rated like systems: a row each with its human score and no BLEU of its own
    # (ui.analysis.reference_scores.reference_rows)
    refs = {s: row for s, row in table.items() if s not in machines}
    assert set(refs) == {"HUMAN-B (ref-B)", "HUMAN-C (ref-C)"}
    assert all(row["BLEU"] == "" for row in refs.values())
    assert float(refs["HUMAN-B (ref-B)"]["da"]) == pytest.approx(92.0)
    assert set(corpus_csv(page, server, humans=False)) == set(SYSTEMS)  # out: the machines only
    shot(page, "references-corpus-both")
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Study").click()
    wait_app_idle(page)  # (same session: a new address would open a new one, on the demo)
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "human scores of ref-B" in main and "human scores of ref-C" in main
    shot(page, "references-study-both")
