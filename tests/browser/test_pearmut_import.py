"""End to end in headless Chromium: Pearmut's download uploaded on the Campaigns page ("Import a Pearmut
campaign") becomes an ESA campaign, opened on the Manage tab, whose "Pearmut campaign + annotations (zip)"
download holds the files ``pearmut add-existing`` loads, with the annotator's score and span as they came in.

The app runs as a real ``streamlit run app.py`` server on loopback with ``BLEU_STUDY_DB`` under ``tmp_path``.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

import app_server as server  # noqa: E402

# A span on "シソ" after the line break: UTF-16 units a0 b1 😀2-3 c4 \n5 シ6 ソ7
ENTRY = {
    "annotation": [
        {
            "A": {
                "score": 40,
                "error_spans": [{"start_i": 6, "end_i": 7, "category": None, "severity": "major"}],
            },  # fmt: skip
            "B": {"score": 90, "error_spans": []},
        }
    ],  # fmt: skip
    "item": [
        {
            "item_id": "en-ja_#_1",
            "src": "ab c\nshiso",
            "ref": "ab c\nシソ",
            "tgt": {"A": "ab😀c\nシソ", "B": "ok"},
        }
    ],  # fmt: skip
    "user_id": "ann",
    "item_i": 0,
}


def test_import_a_pearmut_download_and_download_it_back(browser, tmp_path: Path) -> None:
    db = tmp_path / "campaigns.sqlite"
    upload = tmp_path / "annotations.json"
    upload.write_text(json.dumps({"camp": [ENTRY]}, ensure_ascii=False), encoding="utf-8")
    with server.streamlit_server(extra_env={"BLEU_STUDY_DB": str(db)}, quiet=True) as url:
        page = browser.new_context(viewport={"width": 1400, "height": 2400}).new_page()
        page.goto(f"{url}/campaigns")
        server.wait_app_idle(page)
        page.get_by_role("tab", name="New campaign").click()
        page.get_by_text("Import a Pearmut campaign (WMT26's tool)").click()
        page.locator('input[type="file"]').last.set_input_files(str(upload))
        server.wait_app_idle(page)
        page.get_by_role("button", name="Import", exact=True).click()
        server.wait_app_idle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        page.get_by_text("Imported from Pearmut: 2 ratings.").first.wait_for(timeout=30_000)
        button = page.locator('[data-testid="stDownloadButton"]').filter(
            has_text="Pearmut campaign"
        )
        with page.expect_download(timeout=60_000) as info:
            button.first.click()
        with zipfile.ZipFile(info.value.path()) as z:
            annotations = json.loads(z.read("annotations.json"))
    (entries,) = annotations.values()
    # ESA: one page per (segment, system), so A's and B's answers are two entries
    by_system = {system: answer for e in entries for system, answer in e["annotation"][0].items()}
    assert {e["user_id"] for e in entries} == {"ann"}
    assert (by_system["A"]["score"], by_system["B"]["score"]) == (40, 90)
    assert [(s["start_i"], s["end_i"]) for s in by_system["A"]["error_spans"]] == [(6, 7)]
