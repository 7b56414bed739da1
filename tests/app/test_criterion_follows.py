"""The human criterion: the standardised one (DA z) first where the study has it, and the one chosen on a
page is the one the next page opens on.

The release is generated here (tests/browser/wmt22_release.py: invented WMT22-style text with raw DA and
DA z for every system).
"""

from __future__ import annotations

import sys
from pathlib import Path

from app_runs import start_app

from bleu_core.study.loading import load_files
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from wmt22_release import release_zip  # noqa: E402


def test_pages_open_on_da_z_and_keep_the_criterion_chosen_elsewhere():
    study = load_files([("wmt22.zip", release_zip())]).study
    assert list(study.criteria)[:2] == ["da", "da_z"]  # the release lists raw DA first
    at = start_app("bleu_vs_human", study, key="test:criterion-follows")
    picker = at.selectbox(key=K.BVH_CRITERION)
    assert picker.options[:2] == ["da_z", "da"] and picker.value == "da_z"
    picker.set_value("da").run()
    assert not at.exception, [e.value for e in at.exception]
    for page, key in (("judges", K.JUDGE_CRITERION), ("explore", K.EXPLORE_CRITERION)):
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.selectbox(key=key).value == "da", page
