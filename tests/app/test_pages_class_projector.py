"""AppTest of the projector for a room: r in large type, a results view without the QR code, a timer that
closes rating at zero (the students' phones say so), the end-of-class downloads for the teacher only."""

from __future__ import annotations

import io
import json
import threading
import zipfile
from functools import partial

import numpy as np
import pytest
from app_runs import start_app

from bleu_core.campaigns import CampaignStore, JudgeSession, study_criterion_name
from bleu_core.campaigns.lesson import class_snapshot, lesson_plan
from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.signature import make_signature
from ui.analysis.export_zip import study_export_zip
from ui.app import shared_cache
from ui.app import state as K
from ui.app.context import STATISTICS_ORDER, Scores, truncate_order
from ui.app.export import export_stem
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


def test_the_timer_takes_seconds_and_refuses_zero(lesson):
    _store, code, key = lesson
    at = teacher(code, key)
    at.number_input(key=K.PROJ_TIMER_MINUTES).set_value(0).run()
    [button] = [b for b in at.button if b.label == "Start the timer"]
    assert button.disabled  # 0:00 is no timer
    at.number_input(key=K.PROJ_TIMER_SECONDS).set_value(45).run()
    [button] = [b for b in at.button if b.label == "Start the timer"]
    button.click().run()
    left = lesson_timer.seconds_left(code)
    try:
        assert left is not None and 0 < left <= 45  # 45 s from the click, not a minute
        assert "Rating closes in 0:" in html_of(at)
    finally:
        lesson_timer.stop_timer(code)


def test_a_student_is_told_when_time_is_up(lesson):
    store, code, _key = lesson
    joined = JudgeSession.join(store, code, "cy", "class")
    lesson_timer.start_timer(code, 1, now=0.0)
    phone = start("rate", **{K.RATE_CODE: code, K.RATE_TOKEN: joined.token})
    assert any("Time is up" in i.value for i in phone.info)
    assert not any(b.label == "Save and next" for b in phone.button)


def test_the_end_of_class_downloads_are_the_teachers_only(lesson, ted_zh_en):
    store, code, key = lesson
    at = teacher(code, key)  # no study open: the study's zip asks for it
    labels = {b.proto.label for b in at.get("download_button")}
    assert {"Summary picture (PNG)", "The class's ratings and results (zip)"} <= labels
    assert any(
        "was made from the study" in c.value and "open it on the Study page" in c.value
        for c in at.caption
    )
    at = start("projector", ted_zh_en, **{K.PROJ_CODE: code, K.PROJ_KEY: key})
    labels = {b.proto.label for b in at.get("download_button")}
    assert "The study's reproducible zip with the class's ratings" in labels
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


def demo_scores(study) -> Scores:
    """*study* scored with the default settings (what the Export page's ``current_scores`` gives)."""
    refs, options = tuple(study.references), BleuOptions()
    stats = shared_cache.system_statistics(
        "test:class-zip", study, refs, "13a", False, STATISTICS_ORDER
    )
    array = truncate_order(stats.array, STATISTICS_ORDER, options.statistics_order)
    return Scores(
        study=study,
        key="test:class-zip",
        options=options,
        signature=make_signature(options, refs),
        references=refs,
        systems=tuple(study.systems),
        stats=array,
        corpus=bleu_from_stats(array.sum(axis=1), options),
    )


def test_the_end_of_class_zip_is_the_export_zip_with_the_class_ratings(lesson, ted_zh_en):
    """The study's reproducible zip (the Export page's files) with the class's ratings."""
    store, code, key = lesson
    campaign, ratings = store.check_organiser(code, key), store.ratings(code, key)
    snap = class_snapshot(campaign, ratings, 2, n_resamples=0)
    scores = demo_scores(ted_zh_en)
    inputs = [{"name": "ted-zh-en.study.json.gz", "bytes": 1, "sha256": "0" * 64}]
    state = {K.SEED: 7, K.N_RESAMPLES: 50, K.STUDY_INPUTS: inputs, K.STUDY_LABEL: "demo"}
    render = {"render_png": lambda spec: b"\x89PNG", "render_svg": lambda spec: "<svg/>"}
    data = class_results.class_study_zip(scores, state, campaign, snap, ratings, **render)
    export = zipfile.ZipFile(io.BytesIO(study_export_zip(scores, state, **render)))
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
        assert set(export.namelist()) <= names  # every file of the Export page's zip
        assert {"README.txt", "settings.json", "signature.txt", "tables/corpus-bleu.csv"} <= names
        assert {"tables/class-ratings.csv", "charts/class-summary.png"} <= names
        settings = json.loads(zf.read("settings.json"))
        assert settings["input_files"] == inputs and settings["resampling"]["seed"] == 7
        assert settings["study"]["opened_from"] == f"demo + class {code}"
        class_criteria = {study_criterion_name(campaign, c) for c in campaign.criterion_names}
        assert class_criteria <= set(settings["study"]["criteria"])
        assert set(settings["study"]["criteria"]) - class_criteria  # the study's own criteria stay
        plain = json.loads(export.read("settings.json"))["study"]
        assert settings["study"]["content_sha256"] != plain["content_sha256"]  # the joined study's
        corpus = zf.read("tables/corpus-bleu.csv").decode()
        assert all(f'"{c}"' in corpus.splitlines()[0] for c in class_criteria)
        tests = [r for r in ratings if r.kind == "test"]
        rows = zf.read("tables/class-ratings.csv").decode().strip().splitlines()
        assert len(rows) == len(tests) + 1 and tests
        assert {f"charts/{export_stem(f'bleu-vs-{c}')}.png" for c in class_criteria} <= names
        assert "Study: " in zf.read("README.txt").decode()


def test_the_end_of_class_downloads_build_outside_the_page(lesson, ted_zh_en, monkeypatch):
    """The server builds a download on the click in a thread of its own (no session state there): the
    teacher's three downloads still build, the study's zip with the class's ratings in it."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    store, code, key = lesson
    made: dict[str, object] = {}
    real = MediaFileManager.add_deferred

    def record(self, data_callable, mimetype, coordinates, file_name=None, **kw):
        made[file_name] = data_callable
        return real(self, data_callable, mimetype, coordinates, file_name, **kw)

    monkeypatch.setattr(MediaFileManager, "add_deferred", record)
    start("projector", ted_zh_en, **{K.PROJ_CODE: code, K.PROJ_KEY: key})
    monkeypatch.setattr("ui.app.chart_images.chart_png", lambda spec: b"\x89PNG")
    monkeypatch.setattr("ui.app.chart_images.chart_svg", lambda spec: "<svg/>")
    built: dict[str, object] = {}

    def build() -> None:
        for name, data_callable in made.items():
            try:
                built[name] = data_callable()
            except Exception as err:  # noqa: BLE001 - reported by the assertion below
                built[name] = err

    thread = threading.Thread(target=build)
    thread.start()
    thread.join()
    stem = f"class-{code}"
    study_zip = f"bleu-study-{code.lower()}-class.zip"
    assert {f"{stem}.png", f"{stem}.zip", study_zip} <= set(built)
    assert all(isinstance(v, bytes) for v in built.values()), built
    with zipfile.ZipFile(io.BytesIO(built[study_zip])) as zf:
        assert {"settings.json", "tables/class-ratings.csv", "tables/corpus-bleu.csv"} <= set(
            zf.namelist()
        )


def test_adding_the_class_ratings_to_the_study_names_their_criteria(lesson, ted_zh_en):
    _store, code, key = lesson
    at = start("projector", ted_zh_en, **{K.PROJ_CODE: code, K.PROJ_KEY: key})
    [b for b in at.button if b.label == "Add to the open study"][0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    notice = at.success[0].value.replace("\\", "")  # Markdown-escaped
    assert notice.startswith(f"Added as criteria: adequacy ({code}), fluency ({code}). Open Export")
    assert f"adequacy ({code})" in at.session_state[K.STUDY].criteria
