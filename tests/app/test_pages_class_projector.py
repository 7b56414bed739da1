"""AppTest of the projector for a room: r in large type, a results view without the QR code, a timer that
closes rating at zero (the students' phones say so), the end-of-class downloads for the teacher only."""

from __future__ import annotations

import io
import json
import zipfile
from functools import partial

import numpy as np
import pytest
from app_runs import start_app

from bleu_core.campaigns import CampaignStore, JudgeSession
from bleu_core.campaigns.lesson import class_snapshot, lesson_plan
from ui.app import state as K
from ui.campaigns import class_results, lesson_timer

start = partial(start_app, key="demo:ted-zh-en", label=None, open_demo=False, first_run=False)


@pytest.fixture
def lesson(db, ted_zh_en):
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_zh_en.systems)}
    created = store.create_campaign(lesson_plan(ted_zh_en, bleu, seed=2, n_segments=2))
    code, key = created.campaign.code, created.organiser_key
    rng = np.random.default_rng(1)
    for name in ("ana", "bo"):
        session = JudgeSession.join(store, code, name, "class")
        for pos in range(session.n_items):
            session.submit(pos, {"adequacy": int(rng.integers(1, 6)), "fluency": 3})
    yield store, code, key
    lesson_timer.stop_timer(code)


def teacher(code: str, key: str):
    return start("projector", **{K.PROJ_CODE: code, K.PROJ_KEY: key})


def html_of(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_r_in_large_type_and_a_results_view_without_the_qr_code(lesson):
    _store, code, key = lesson
    at = teacher(code, key)
    assert 'class="bs-proj-r">r = ' in html_of(at)
    assert [i.caption for i in at.get("image")[0].proto.imgs] == ["Scan to join"]
    at.toggle(key=K.PROJ_RESULTS).set_value(True).run()
    assert not at.get("image")  # the QR code is gone
    assert 'class="bs-proj-r">r = ' in html_of(at)


def test_the_timer_counts_down_and_closes_rating_at_zero(lesson):
    store, code, key = lesson
    at = teacher(code, key)
    at.number_input(key=K.PROJ_TIMER_MINUTES).set_value(5)
    [button] = [b for b in at.button if b.label == "Start the timer"]
    button.click().run()
    assert "Rating closes in " in html_of(at)
    lesson_timer.start_timer(code, 1, now=0.0)  # long past: time is up
    at.run()
    assert "Time is up: rating is closed" in html_of(at)
    assert store.get_campaign(code).is_open is False


def test_a_student_is_told_when_time_is_up(lesson):
    store, code, _key = lesson
    joined = JudgeSession.join(store, code, "cy", "class")
    lesson_timer.start_timer(code, 1, now=0.0)
    phone = start("rate", **{K.RATE_CODE: code, K.RATE_TOKEN: joined.token})
    assert any("Time is up" in i.value for i in phone.info)
    assert not any(b.label == "Save and next" for b in phone.button)


def test_the_end_of_class_downloads_are_the_teachers_only(lesson):
    store, code, key = lesson
    at = teacher(code, key)
    labels = {b.proto.label for b in at.get("download_button")}
    assert {"Summary picture (PNG)", "The class's ratings and results (zip)"} <= labels
    view = store.viewer_token(code, key)
    room = start("projector", query={"lesson": code, "view": view})
    assert not room.get("download_button")
    assert not any(b.label == "Start the timer" for b in room.button)


def test_the_class_zip_holds_ratings_results_and_the_summary_picture(lesson):
    store, code, key = lesson
    campaign, ratings = store.check_organiser(code, key), store.ratings(code, key)
    snap = class_snapshot(campaign, ratings, 2, n_resamples=0)
    data = class_results.class_zip(
        campaign, snap, ratings, lambda spec: b"\x89PNG" + spec[:4].encode(), lambda spec: "<svg/>"
    )
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
        assert {
            "tables/ratings.csv",
            "tables/systems.csv",
            "charts/summary.png",
            "lesson.json",
        } <= names
        assert len(zf.read("tables/ratings.csv").decode().strip().splitlines()) == len(ratings) + 1
        assert json.loads(zf.read("lesson.json"))["seed"] == campaign.seed
    spec = json.loads(class_results.summary_chart(campaign, snap).to_json())
    assert "r = " in json.dumps(spec) and "#D55E00" in json.dumps(spec)  # Okabe-Ito vermilion


def test_the_summary_picture_renders(lesson):
    vl_convert = pytest.importorskip("vl_convert")
    store, code, key = lesson
    campaign, ratings = store.check_organiser(code, key), store.ratings(code, key)
    snap = class_snapshot(campaign, ratings, 2, n_resamples=0)
    png = vl_convert.vegalite_to_png(class_results.summary_chart(campaign, snap).to_json())
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
