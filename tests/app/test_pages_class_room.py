"""AppTest of what the room sees on the projector: the results view survives F5 (it is in the address), the
localhost banner is for the teacher's Campaigns page only, an ESA lesson's span panel has its legend in words
and shapes, the end-of-class zip holds the class's error spans, and the lesson's time estimate follows the
protocol."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from app_runs import markdown_text, start_app

from bleu_core.campaigns import CampaignStore, JudgeSession, MarkedSpan, storage
from bleu_core.campaigns.class_spans import esa_lesson
from bleu_core.campaigns.lesson import class_snapshot, lesson_plan
from ui.app import state as K
from ui.campaigns import class_mode, class_results, lesson_timer
from ui.campaigns.esa_projector import LEGEND_HTML
from ui.campaigns.lesson_form import SECONDS_PER_ITEM, size_caption

start = partial(start_app, key="demo:ted-zh-en", label=None, open_demo=False, first_run=False)


@pytest.fixture
def esa_class(db, ted_zh_en):
    """An ESA lesson on the zh-en demo: two students, each marking the first word of every item."""
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_zh_en.systems)}
    plan = esa_lesson(lesson_plan(ted_zh_en, bleu, seed=2, n_segments=2), ted_zh_en)
    created = store.create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    for name, score in (("ana", 40), ("bo", 70)):
        session = JudgeSession.join(store, code, name, "class")
        for pos in range(session.n_items):
            first = len(plan.items[pos].translation.split()[0])
            session.submit(pos, {"esa": score}, [MarkedSpan(0, first, "major")])
    yield store, code, key, plan
    lesson_timer.stop_timer(code)


def test_the_results_view_survives_a_reload(esa_class):
    store, code, key, _plan = esa_class
    view = store.viewer_token(code, key)
    at = start("projector", query={"lesson": code, "view": view})
    assert at.get("image")  # the join QR code
    at.toggle(key=K.PROJ_RESULTS).set_value(True).run()
    assert at.query_params["results"] == "1"
    again = start("projector", query={"lesson": code, "view": view, "results": "1"})  # F5
    assert again.toggle(key=K.PROJ_RESULTS).value is True
    assert not again.get("image")
    again.toggle(key=K.PROJ_RESULTS).set_value(False).run()
    assert "results" not in again.query_params


def test_the_localhost_banner_is_the_teachers_not_the_rooms(esa_class, monkeypatch):
    store, code, key, _plan = esa_class
    monkeypatch.setattr(class_mode, "network_address", lambda: "10.1.2.3")
    room = start("projector", query={"lesson": code, "view": store.viewer_token(code, key)})
    assert "http://10.1.2.3:8501/rate?campaign=" in markdown_text(room)  # the link phones can open
    assert not any("phones cannot open" in w.value for w in room.warning)


def test_the_span_panel_has_a_legend_in_words_and_shapes(esa_class):
    store, code, key, _plan = esa_class
    at = start("projector", query={"lesson": code, "view": store.viewer_token(code, key)})
    text = markdown_text(at)
    assert "bs-class-words" in text and LEGEND_HTML in text
    for words in ("pink", "how many students", "solid underline", "matched", "dotted underline"):
        assert words in LEGEND_HTML
    assert "bs-matched" in LEGEND_HTML and "bs-unmatched" in LEGEND_HTML and "<sup>" in LEGEND_HTML


def test_the_end_of_class_zip_holds_the_spans(esa_class):
    store, code, key, plan = esa_class
    campaign, ratings = store.check_organiser(code, key), store.ratings(code, key)
    items, spans = store.class_spans(code, key=key)
    snap = class_snapshot(campaign, ratings, 2, n_resamples=0)
    data = class_results.class_zip(
        campaign, snap, ratings, lambda spec: b"\x89PNG", lambda spec: "<svg/>",
        items=items, spans=spans,
    )  # fmt: skip
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        rows = list(csv.DictReader(io.StringIO(zf.read("tables/spans.csv").decode())))
        log = [json.loads(line) for line in zf.read("ratings.jsonl").decode().splitlines()]
        assert "tables/spans.csv" in zf.read("README.txt").decode()
    assert len(rows) == len(spans) == 2 * len(plan.items)
    for row in rows:  # each student marked the first word of every item, major
        first = plan.items[int(row["position"])].translation.split()[0]
        assert (row["severity"], row["text"], row["start"]) == ("major", first, "0")
    assert len(log) == 2 * len(plan.items)
    assert all(len(next(iter(line["annotation"][0].values()))["error_spans"]) == 1 for line in log)


@pytest.mark.parametrize("protocol", ["adequacy-fluency", "esa"])
def test_the_lesson_estimate_follows_the_protocol(protocol):
    text = size_caption(20, 5, 10, protocol)
    minutes = -(-5 * 10 * SECONDS_PER_ITEM[protocol] // 60)
    assert f"about {minutes} minutes" in text
    if protocol == "esa":
        assert "~30 s an item (an assumption)" in text and "6 s a rating" not in text


def test_the_class_mode_form_words_the_estimate_for_esa(db, ted_zh_en):
    at = start("campaigns", ted_zh_en)
    at.session_state[K.CAMP_CLASS_PROTOCOL] = "esa"
    at.run()
    assert any("an item (an assumption)" in c.value for c in at.caption)


def test_the_estimate_uses_the_pace_of_the_teachers_last_lesson(jar, db, ted_zh_en, monkeypatch):
    clock = iter(datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=40 * i) for i in range(1000))
    monkeypatch.setattr(storage, "now", lambda: next(clock))  # each save 40 s after the last
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_zh_en.systems)}
    plan = esa_lesson(lesson_plan(ted_zh_en, bleu, seed=2, n_segments=2), ted_zh_en)
    created = store.create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    session = JudgeSession.join(store, code, "ana", "class")
    for pos in range(session.n_items):
        session.submit(pos, {"esa": 60}, [])
    jar["bs_lessons"] = f"{code}:{key}"
    at = start("campaigns", ted_zh_en)
    at.session_state[K.CAMP_CLASS_PROTOCOL] = "esa"
    at.run()
    assert any(f"~40 s an item, as your lesson {code} took" in c.value for c in at.caption)
    at.session_state[K.CAMP_CLASS_PROTOCOL] = "adequacy-fluency"  # no such lesson: the 1-5 pace
    at.run()
    assert any("~6 s a rating" in c.value for c in at.caption)
