"""AppTest of class mode: one click on the Campaigns page makes a lesson campaign with its join QR
code and link; the Projector page takes the organiser key out of the address, shows the class's numbers, and
follows new ratings; a student can join without a name. The campaign database is a file under ``tmp_path``.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import numpy as np
from app_runs import markdown_text as markdown
from app_runs import start_app

from bleu_core.campaigns import CampaignStore, JudgeSession
from bleu_core.campaigns.lesson import lesson_plan
from ui.app import state as K
from ui.campaigns import class_mode

ROOT = Path(__file__).resolve().parents[2]


# The whole app on a page, as a deep link opens it (no first run), without the demo study.
start = partial(start_app, key="demo:ted-zh-en", label=None, open_demo=False, first_run=False)


def test_one_click_makes_a_lesson_with_a_qr_code(db, ted_zh_en):
    at = start("campaigns", ted_zh_en)
    assert at.tabs[0].label == "Class mode"
    [button] = [b for b in at.button if b.label == "Start a class"]
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    store = CampaignStore.shared(db)
    code = at.session_state[K.CAMP_CODE]
    campaign = store.get_campaign(code)
    assert len(campaign.systems) == 5 and campaign.n_items == 50
    assert campaign.metadata["bleu_signature"].startswith("nrefs:1|refs:refB|case:mixed")
    text = markdown(at)
    link = f"/rate?campaign={code}"
    assert link in text
    # the QR code is a PNG drawn on the server
    [image] = at.get("image")
    assert [i.caption for i in image.proto.imgs] == ["Scan to join"]
    png = class_mode.qr_png(class_mode.join_url(class_mode.app_base_url(), code))
    assert png.startswith(b"\x89PNG")
    assert any("projector?lesson=" in b.proto.url for b in at.get("link_button"))


def test_projector_takes_the_key_out_of_the_address_and_follows_ratings(db, ted_zh_en):
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_zh_en.systems)}
    created = store.create_campaign(lesson_plan(ted_zh_en, bleu, seed=2, n_segments=3))
    code, key = created.campaign.code, created.organiser_key
    at = start("projector", query={"lesson": code, "key": key})
    assert "key" not in at.query_params
    assert at.session_state[K.PROJ_CODE] == code
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Students joined"] == "0" and metrics["Ratings so far"] == "0"
    rng = np.random.default_rng(0)
    for name in ("ana", "bo"):
        session = JudgeSession.join(store, code, name, "class")
        for pos in range(session.n_items):
            session.submit(pos, {"adequacy": int(rng.integers(1, 6)), "fluency": 3})
    at.run()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Students joined"] == "2" and metrics["Ratings so far"] == str(
        2 * 15
    )  # once per item, not per criterion
    assert metrics["Done"] == "100%"
    assert "α = " in markdown(at)
    assert len(at.get("vega_lite_chart")) >= 3


def test_projector_refuses_a_wrong_key(db, ted_zh_en):
    store = CampaignStore.shared(db)
    created = store.create_campaign(
        lesson_plan(
            ted_zh_en, {s: 1.0 * i for i, s in enumerate(ted_zh_en.systems)}, seed=1, n_segments=2
        )
    )
    at = start("projector", query={"lesson": created.campaign.code, "key": "wrong"})
    assert any("organiser key" in e.value.lower() for e in at.error)
    assert at.session_state[K.PROJ_CODE] is None


def test_freeze_stops_the_refresh(db, ted_zh_en):
    store = CampaignStore.shared(db)
    created = store.create_campaign(
        lesson_plan(
            ted_zh_en, {s: 1.0 * i for i, s in enumerate(ted_zh_en.systems)}, seed=1, n_segments=2
        )
    )
    at = start(
        "projector", **{K.PROJ_CODE: created.campaign.code, K.PROJ_KEY: created.organiser_key}
    )
    [freeze] = [b for b in at.button if b.label == "Freeze"]
    freeze.click().run()
    assert at.session_state[K.PROJ_FROZEN] is True
    assert any(b.label == "Resume live" for b in at.button)
    assert any("frozen for discussion" in c.value for c in at.caption)


def test_student_joins_without_a_name(db, ted_zh_en):
    store = CampaignStore.shared(db)
    created = store.create_campaign(
        lesson_plan(
            ted_zh_en, {s: 1.0 * i for i, s in enumerate(ted_zh_en.systems)}, seed=1, n_segments=2
        )
    )
    at = start("rate", query={"campaign": created.campaign.code})
    at.checkbox(key=K.RATE_ANONYMOUS).check()
    [join] = [b for b in at.button if b.label == "Start rating"]
    join.click().run()
    assert not at.exception
    [judge] = store.progress(created.campaign.code, created.organiser_key)
    assert re.fullmatch(r"student [0-9a-f]{4}", judge.judge)


def test_learn_links_to_class_mode(ted_zh_en):
    at = start("learn", ted_zh_en)
    assert any("class" in str(link.proto.label).lower() for link in at.get("page_link"))
