"""Provenance of the Export: every input file with its sha256 (a study opened from a path too), every
setting, the segment level's signature, and one file-name scheme in the zip.

The release is generated here (tests/browser/wmt22_release.py: invented WMT22-style text, pairs de-en and
cs-en); expected hashes are hashlib's sha256 of the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from bleu_core.study.provenance import input_files
from ui.app import startup
from ui.app import state as K
from ui.app.export import export_stem, reproducible_zip

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from wmt22_release import release_files, release_zip  # noqa: E402

# every test starts with no study loaded or preloaded (tests/app/conftest.py)
pytestmark = pytest.mark.usefixtures("fresh_startup")


def test_a_study_opened_from_a_zip_path_lists_the_zip_with_its_sha256(tmp_path):
    data = release_zip()
    path = tmp_path / "release.zip"
    path.write_bytes(data)
    loaded = startup.load_startup(startup.StartupStudy(str(path)))
    assert loaded.inputs == (
        {"name": "release.zip", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()},
    )


def test_a_release_folder_lists_the_files_of_the_chosen_pair(tmp_path):
    files = release_files(("de-en", "cs-en"))
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    loaded = startup.load_startup(startup.StartupStudy(str(tmp_path), pair="de-en"))
    listed = {f["name"]: f["sha256"] for f in loaded.inputs}
    de_en = {n for n in files if "de-en" in n}
    assert de_en and de_en <= set(listed)
    assert not any("cs-en" in n for n in listed)  # the other pair's files are not inputs
    for name in de_en:
        assert listed[name] == hashlib.sha256(files[name]).hexdigest()
    assert input_files(tmp_path / "missing") == []


def test_the_export_records_every_setting_and_the_segment_signature():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[K.OPT_SMOOTH] = "floor"
    at.run()
    at.switch_page("pages/export.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    settings = json.loads(at.code[0].value)
    assert settings["input_files"][0]["name"] == "ted-en-de.study.json.gz"
    assert len(settings["input_files"][0]["sha256"]) == 64
    assert settings["signature"].startswith(
        "nrefs:1|refs:ref|case:mixed|eff:no|tok:13a|smooth:floor"
    )
    assert settings["segment_level"]["signature"] == settings["signature"].replace(
        "eff:no", "eff:yes"
    )
    assert "sentence_bleu" in settings["segment_level"]["rule"]
    page = settings["page_settings"]
    assert page[K.OPT_SMOOTH] == "floor" and page[K.SEED] == 12345
    # out by default, as meta and WMT (issue 39)
    assert page[K.INCLUDE_HUMANS] is False and settings["include_human_translations"] is False
    assert settings["criterion"] == "mqm"  # the demo's first criterion: it has no z twin


def test_every_file_of_the_zip_follows_one_name_scheme():
    frame = pd.DataFrame({"system": ["A"], "BLEU": [1.0]})
    data = reproducible_zip(
        settings={
            "bleu_options": {},
            "study": {"name": "s", "opened_from": "x"},
            "signature": "sig",
        },
        tables={"BLEU vs DA_z (all raters)": (frame, "")},
        charts={"bleu-vs-da_z": '{"mark": "point"}'},
        render_png=lambda spec: b"png",
        render_svg=lambda spec: "<svg/>",
    )
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "tables/bleu-vs-da-z-all-raters.csv" in names
    assert "charts/bleu-vs-da-z.png" in names
    for name in names:
        if "/" in name:  # README.txt, settings.json and signature.txt sit at the top
            stem = name.rsplit("/", 1)[-1].split(".", 1)[0]
            assert stem == export_stem(stem), name
