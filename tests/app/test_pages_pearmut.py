"""In the app: Pearmut's download uploaded on the Study page opens as a study, and Pearmut's files uploaded on
the Campaigns page import as an ESA campaign (``ui/campaigns/pearmut_import.py``)."""

from __future__ import annotations

import json
from functools import partial

from app_runs import start_app

from bleu_core.campaigns import CampaignStore
from ui.app import state as K

# One entry as Pearmut logs it: two systems side by side; A's span 6-7 is "シソ" after the line break
# (UTF-16 units a0 b1 😀2-3 c4 \n5 シ6 ソ7)
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
DOWNLOAD = json.dumps({"camp": [ENTRY]}, ensure_ascii=False).encode("utf-8")
start = partial(start_app, key="test:toy", label=None, open_demo=False, first_run=False, timeout=60)


def test_a_pearmut_download_opens_as_a_study() -> None:
    at = start_app(open_demo=False)
    nonce = at.session_state[K.STUDY_UPLOAD_NONCE]
    at.file_uploader(key=K.STUDY_UPLOAD_PREFIX + str(nonce)).set_value([("annotations.json", DOWNLOAD, "application/json")]).run()  # fmt: skip
    loads = [b for b in at.button if b.label == "Load files"]
    if loads:
        loads[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    study = at.session_state[K.STUDY]
    assert sorted((r.system, r.score) for r in study.ratings) == [("A", 40.0), ("B", 90.0)]
    (span,) = study.error_spans
    assert study.systems["A"][0][span.start : span.end] == "シソ"


def test_pearmut_files_import_as_a_campaign(db) -> None:
    at = start("campaigns", None)
    at.file_uploader(key=K.CAMP_PEARMUT_FILES).set_value([("annotations.json", DOWNLOAD, "application/json")]).run()  # fmt: skip
    at.button(key=K.CAMP_PEARMUT_IMPORT).click().run()
    assert not at.exception, [e.value for e in at.exception]
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    ratings = CampaignStore.shared(db).ratings(code, key)
    assert sorted((r.judge, r.system, r.score) for r in ratings) == [
        ("ann", "A", 40),
        ("ann", "B", 90),
    ]
    assert f"organiser key: {key}" in at.code[0].value
    # the Manage tab offers the campaign back as Pearmut's files
    assert "Pearmut campaign + annotations (zip)" in [
        b.proto.label for b in at.get("download_button")
    ]
