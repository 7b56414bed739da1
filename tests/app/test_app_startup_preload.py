"""``bleu-study app PATH`` starts loading PATH as the server starts (ui.app.serve → startup.preload)."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

from bleu_core.errors import BleuStudyError
from ui.app import serve, startup

# every test starts with no study loaded or preloaded (tests/app/conftest.py)
pytestmark = pytest.mark.usefixtures("fresh_startup")


def test_a_session_waits_for_the_preload_and_sees_its_progress(monkeypatch):
    import bleu_core.study as study_module

    release = threading.Event()
    calls: list[str] = []
    real = study_module.load_study

    def slow_load(path, **kwargs):
        calls.append(path)
        kwargs["progress"](1, 4, "Opening the study: reading files (1 of 4)")
        assert release.wait(10)
        return real(path, pair=kwargs.get("pair"), reference=kwargs.get("reference"))

    monkeypatch.setattr(study_module, "load_study", slow_load)
    request = startup.StartupStudy("demo:ted-zh-en")
    thread = startup.preload(request)
    assert thread is not None and startup.preload(request) is None  # one preload per study
    seen: list[tuple[int, int, str]] = []

    def session_progress(done, total, message):
        seen.append((done, total, message))
        release.set()  # the session has seen the preload's report: let the load finish

    assert startup._preloads[request].started.wait(10)  # the preload is loading
    loaded = startup.load_startup(request, progress=session_progress)
    thread.join(10)
    assert calls == ["demo:ted-zh-en"]  # loaded once, by the preload
    assert seen[0] == (1, 4, "Opening the study: reading files (1 of 4)")
    assert loaded is startup.load_startup(request)  # every later session: the same study
    assert loaded.study.name and loaded.key == "demo:ted-zh-en"


def test_a_failed_preload_reaches_the_session_and_the_next_one_tries_again(monkeypatch):
    import bleu_core.study as study_module

    attempts: list[int] = []

    def failing(path, **kwargs):
        attempts.append(1)
        raise BleuStudyError("ratings.csv, line 3: score 'x' is not a number")

    monkeypatch.setattr(study_module, "load_study", failing)
    request = startup.StartupStudy("/data/study")
    startup.preload(request).join(10)
    with pytest.raises(BleuStudyError, match=r"ratings\.csv, line 3: score 'x'"):
        startup.load_startup(request)
    assert attempts == [1]  # the session got the preload's error without loading again
    with pytest.raises(BleuStudyError, match="line 3"):
        startup.load_startup(request)
    assert attempts == [1, 1]  # the next session tried again (the file may have been fixed)


def test_serve_finds_the_study_after_the_double_dash():
    request = serve.study_request(
        ["run", "/srv/app.py", "--server.port", "1", "--", "/data/wmt21", "--pair", "zh-en"]
    )
    assert request == startup.StartupStudy("/data/wmt21", "zh-en", None)
    assert serve.study_request(["run", "/srv/app.py", "--", "--bogus"]) is None  # the app says why
    assert startup.preload(None) is None


def test_serve_hands_over_to_streamlit_with_the_same_arguments(monkeypatch):
    import streamlit.web.cli as streamlit_cli

    got: list[list[str]] = []
    monkeypatch.setattr(streamlit_cli, "main", lambda: got.append(list(__import__("sys").argv)))
    monkeypatch.setattr(
        startup,
        "preload",
        lambda request, then, before: got.append(["preload", request.path, then, before.args]),
    )
    serve.main(["run", "/srv/app.py", "--server.port", "9", "--", "demo:ted-en-de"])
    assert got == [
        ["preload", "demo:ted-en-de", serve.count_first, (9,)],  # loads once port 9 answers
        ["streamlit", "run", "/srv/app.py", "--server.port", "9", "--", "demo:ted-en-de"],
    ]


def test_the_first_statistics_are_counted_after_the_preload_under_the_sidebar_key(monkeypatch):
    from bleu_core.engine.options import BleuOptions
    from ui.app import shared_cache
    from ui.app.context import STATISTICS_ORDER

    monkeypatch.delenv("BLEU_STUDY_NO_PREFETCH", raising=False)
    shared_cache.STATISTICS.clear()
    request = startup.StartupStudy("demo:ted-zh-en")
    startup.preload(request, then=serve.count_first).join(60)
    loaded = startup.load_startup(request)
    options = BleuOptions()
    key = shared_cache._statistics_key(
        loaded.key, tuple(loaded.study.references), options.tokenize, options.lowercase,
        max(options.statistics_order, STATISTICS_ORDER),
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not shared_cache.STATISTICS.ready(key) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert shared_cache.STATISTICS.ready(key)  # what the first BLEU page asks for (ui.app.context)


def test_the_server_start_count_schedules_no_guesses(monkeypatch):
    """Before any page has drawn, nothing steps aside: a guess scheduled at server start (WMT24 en-ja's
    ja-mecab, one 1.5-s piece of CPU) ran during the first page. Only the current settings are counted
    then; the Study page schedules the other tokenizers."""
    from ui.app import shared_cache

    monkeypatch.delenv("BLEU_STUDY_NO_PREFETCH", raising=False)
    scheduled: list[list[object]] = []
    monkeypatch.setattr(
        shared_cache.PREFETCHER,
        "schedule",
        lambda jobs, delay=0.0: scheduled.append([key for key, _ in jobs]) or threading.Event(),
    )
    shared_cache.STATISTICS.clear()
    loaded = startup.load_startup(startup.StartupStudy("demo:ted-zh-en"))
    serve.count_first(loaded)
    assert len(scheduled) == 1 and len(scheduled[0]) == 1, scheduled
    assert scheduled[0][0][2] == "13a"  # the default settings' tokenizer (an English target)
    # a Japanese target: the sidebar starts a session on ja-mecab (follow_target_language): that is counted
    scheduled.clear()
    japanese = replace(loaded.study, name="ted-as-japanese", target_lang="ja")
    serve.count_first(SimpleNamespace(key="test:ted-as-japanese", study=japanese))
    assert [key[2] for key in scheduled[0]] == ["ja-mecab"], scheduled


def test_the_preload_waits_for_the_server_to_answer():
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    assert not serve.wait_until_serving(port, timeout_s=0.3)  # bound, not listening: no answer
    listener.listen()
    try:
        assert serve.wait_until_serving(port, timeout_s=5)
    finally:
        listener.close()
    order: list[str] = []
    request = startup.StartupStudy("demo:ted-zh-en")
    startup.preload(
        request, before=lambda: order.append("before"), then=lambda _: order.append("then")
    ).join(60)
    assert order == ["before", "then"]


def test_a_session_does_not_wait_for_a_preload_that_has_not_started_loading():
    gate = threading.Event()
    request = startup.StartupStudy("demo:ted-zh-en")
    thread = startup.preload(request, before=lambda: gate.wait(10))  # e.g. the port never answers
    start = time.monotonic()
    loaded = startup.load_startup(request)  # the session loads the study itself, at once
    assert time.monotonic() - start < 8
    gate.set()
    thread.join(10)
    assert startup.load_startup(request) is loaded  # the preload found it loaded: one study
