"""In the app: a WMT25 JSON-lines release (zip) uploaded on the Study page offers its pairs and opens;
the Correlation page shows the two human passes' ceiling and their disagreements; the Export zip has both.

The release is a fixture in the organisers' schemas (tests/study/genmt_fixture.py, synthetic sentences).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from app_runs import start_app
from streamlit.testing.v1 import AppTest

from bleu_core.evaluation.ceiling import human_ceiling
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "study"))
from genmt_fixture import PAIR, write_wmt25  # noqa: E402


def _zip(tmp_path: Path) -> bytes:
    folder = write_wmt25(tmp_path)
    return Path(shutil.make_archive(str(tmp_path / "wmt25"), "zip", folder)).read_bytes()


def _opened(tmp_path: Path) -> AppTest:
    at = start_app(open_demo=False)
    nonce = at.session_state[K.STUDY_UPLOAD_NONCE]
    uploader = at.file_uploader(key=K.STUDY_UPLOAD_PREFIX + str(nonce))
    uploader.set_value([("wmt25.zip", _zip(tmp_path), "application/zip")]).run()
    box = at.selectbox(key=K.STUDY_PAIR)
    assert box.options == ["en-cs_CZ", "en-ja_JP"]
    box.set_value(PAIR).run()
    next(b for b in at.button if b.label == "Load files").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_wmt25_release_opens_and_shows_its_human_passes(tmp_path: Path) -> None:
    at = _opened(tmp_path)
    study = at.session_state[K.STUDY]
    assert study.metadata["layout"] == "wmt25" and study.n_segments == 3
    warnings = " ".join(w.value.replace("\\", "") for w in at.warning)
    assert "wmt25.zip!data/systems/SysB.jsonl, line 1" in warnings  # the paragraph mismatch, named
    at.session_state[K.CORR_CRITERION] = "esa"
    at.switch_page("pages/correlation.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Human vs human: two raters of the same items" in [s.value for s in at.subheader]
    frames = [d.value for d in at.dataframe]
    ceiling = next(f for f in frames if "human vs human" in f.columns).set_index("statistic")
    expected = human_ceiling(study, "esa", "pearson", seed=at.session_state[K.SEED])
    assert ceiling.loc["pearson", "human vs human"] == expected.statistic
    assert ceiling.loc["pearson", "items"] == 5
    disagree = next(f for f in frames if "gap" in f.columns)
    assert disagree["gap"].tolist() == [60.0, 60.0]


def test_the_export_zip_has_the_human_ceiling_and_disagreements(tmp_path: Path) -> None:
    at = _opened(tmp_path)
    at.switch_page("pages/export.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(str(m.value) for m in [*at.markdown, *at.caption, *at.code])
    assert "human-disagreements-esa" in shown and "human-ceiling-esa" in shown
