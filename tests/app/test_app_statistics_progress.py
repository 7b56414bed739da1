"""The app's statistics while they are counted: a page waiting for a count draws a progress bar
saying what is counted ("Counting n-grams: system 3 of 13 …"), whichever thread counts; a page stopped
while waiting leaves the count running; derived scores are stored once per settings and read-only."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest

from bleu_core.study.demo import load_demo
from ui.app import prefetch, shared_cache
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]


def slow_counting(monkeypatch, pause_s: float) -> list[int]:
    """Make ``statistics_store.compute_system_statistics`` report every system, ``pause_s`` apart, then count for
    real; returns the list of counts started."""
    real = shared_cache.compute_system_statistics
    started: list[int] = []

    def counting(systems, references, *, progress=None, **kwargs):
        started.append(threading.get_ident())
        names = list(systems)
        for k in range(len(names)):
            if progress is not None:
                progress(k, len(names), f"Counting n-grams: system {k + 1} of {len(names)}")
            time.sleep(pause_s)
        out = real(systems, references, **kwargs)
        if progress is not None:
            progress(len(names), len(names), f"Counting n-grams: {len(names)} systems done")
        return out

    monkeypatch.setattr(shared_cache, "compute_system_statistics", counting)
    return started


def test_waiting_caller_sees_the_counts_progress_in_its_own_thread(monkeypatch):
    study = load_demo("ted-en-de")
    refs = tuple(study.references)
    started = slow_counting(monkeypatch, 0.05)
    seen: list[tuple[int, int, str, int]] = []
    stats = shared_cache.system_statistics(
        "test:progress-thread",
        study,
        refs,
        "none",
        False,
        4,
        progress=lambda d, t, m: seen.append((d, t, m, threading.get_ident())),
        poll_s=0.02,
    )
    assert started and started[0] != threading.get_ident()  # counted in a thread of its own
    assert seen and {ident for *_, ident in seen} == {threading.get_ident()}  # drawn by the caller
    done = [d for d, *_ in seen]
    assert done == sorted(done) and {t for _, t, _, _ in seen} == {len(study.systems)}
    assert any(m.startswith("Counting n-grams: system ") for _, _, m, _ in seen)
    fresh = shared_cache._count_statistics(study, refs, "none", False, 4)
    np.testing.assert_array_equal(stats.array, fresh.array)
    assert (
        shared_cache.COUNTING.get(("test:progress-thread", refs, "none", False, 4)) is None
    )  # cleaned up


def test_a_page_stopped_while_waiting_leaves_the_count_running(monkeypatch):
    """Streamlit stops a page's script on a widget change (an exception inside the page's thread): the
    count goes on, and the next run waits for the same count instead of starting another."""

    class Stopped(BaseException):  # like Streamlit's StopException / RerunException
        pass

    study = load_demo("ted-en-de")
    refs = tuple(study.references)
    started = slow_counting(monkeypatch, 0.05)

    def stop(done: int, total: int, message: str) -> None:
        raise Stopped

    args = ("test:progress-stop", study, refs, "none", True, 4)
    with pytest.raises(Stopped):
        shared_cache.system_statistics(*args, progress=stop, poll_s=0.01)
    again = shared_cache.system_statistics(*args, progress=lambda *r: None, poll_s=0.01)
    assert len(started) == 1
    assert again.array.shape[:2] == (len(study.systems), study.n_segments)


def test_corpus_page_draws_a_moving_bar_while_counting(monkeypatch):
    drawn: list[tuple[float, str]] = []
    real_progress = DeltaGenerator.progress

    def progress(self, value, text=None, **kwargs):
        drawn.append((float(value), str(text)))
        return real_progress(self, value, text=text, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "progress", progress)
    started = slow_counting(monkeypatch, 0.12)
    shared_cache.STATISTICS.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/corpus.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(started) == 1
    what = "(13 systems × 529 segments, tokenizer 13a)…"
    assert drawn[0] == (0.0, f"Counting n-grams: starting {what}")
    systems = [(v, t) for v, t in drawn if t.startswith("Counting n-grams: system ")]
    assert len(systems) >= 3, drawn  # the bar moved while the page waited
    assert all(t.endswith(what) for _, t in systems)
    values = [v for v, _ in drawn]
    assert values == sorted(values) and 0 < systems[-1][0] <= 1
    assert not at.get("progress"), "the bar is removed once counted"
    assert at.dataframe, "the page drew its table after counting"
    # a tokenizer counted before: no bar at all
    drawn.clear()
    at.session_state[K.OPT_TOKENIZE] = "13a"
    at.run()
    assert drawn == [] and len(started) == 1


def test_scores_are_stored_once_per_settings_and_read_only(monkeypatch):
    """Sentence BLEU of every translation is scored once per settings (not on every page run) and only
    when a page reads it; every page and session gets the same read-only arrays."""
    import bleu_core.engine.score
    import ui.app.context as context

    calls: list[tuple[int, ...]] = []
    real = bleu_core.engine.score.bleu_from_stats

    def scoring(array, options):
        calls.append(np.shape(array))
        return real(array, options)

    real_corpus = context.study_corpus_bleu

    def corpus(stats, present, options):  # corpus BLEU: the systems' rows summed
        calls.append(np.shape(stats.sum(axis=1)))
        return real_corpus(stats, present, options)

    monkeypatch.setattr(context, "bleu_from_stats", scoring)  # sentence BLEU
    monkeypatch.setattr(context, "study_corpus_bleu", corpus)
    shared_cache.SCORES.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/corpus.py")
    at.run()  # corpus BLEU only: the sentences are not scored
    assert calls == [(13, 12)]
    at.switch_page("pages/learn.py")
    at.run()  # Learn's section 7 reads the sentence scores: scored once
    assert calls == [(13, 12), (13, 529, 12)]
    at.run()
    at.switch_page("pages/corpus.py")
    at.run()
    assert calls == [(13, 12), (13, 529, 12)], "a re-run scored again"
    assert not at.exception, [e.value for e in at.exception]
    stored = [key for key in shared_cache.SCORES._entries if key[0] == "sentence"]
    sentence = shared_cache.SCORES.get(stored[0], lambda: None)
    with pytest.raises(ValueError, match="read-only"):
        sentence.score[0, 0] = 1.0


def test_the_study_page_counts_the_current_settings_then_the_others_ahead(monkeypatch):
    study = load_demo("ted-en-de")
    refs = tuple(study.references)
    monkeypatch.delenv(prefetch.SWITCH, raising=False)
    monkeypatch.setattr(shared_cache, "COUNT_AHEAD_TOKENIZERS", ("13a", "none"))
    idle = shared_cache.count_current("test:current", study, refs, "intl", False, 4)
    assert idle is not None and idle.wait(60)
    for name in ("intl", "13a", "none"):
        assert shared_cache.statistics_ready("test:current", refs, name, False, 4), name
    assert shared_cache.count_current("test:current", study, refs, "intl", False, 4) is None


def test_the_study_pages_count_steps_aside_while_the_page_draws(monkeypatch):
    """The Study page draws no scores: its count of the current settings waits for the page to draw
    (as the guesses do), instead of taking the CPU from it."""
    study = load_demo("ted-en-de")
    refs = tuple(study.references)
    monkeypatch.delenv(prefetch.SWITCH, raising=False)
    monkeypatch.setattr(shared_cache, "COUNT_AHEAD_TOKENIZERS", ())
    events: list[tuple[str, object]] = []

    class Activity:
        def step_aside(self, key=None):
            events.append(("step aside", key))

    real = shared_cache._count_statistics

    def counting(*args, **kwargs):
        events.append(("count", args[2]))
        return real(*args, **kwargs)

    monkeypatch.setattr(shared_cache, "ACTIVITY", Activity())
    monkeypatch.setattr(shared_cache, "_count_statistics", counting)
    idle = shared_cache.count_current("test:aside", study, refs, "none", False, 4)
    assert idle is not None and idle.wait(60)
    key = shared_cache._statistics_key("test:aside", refs, "none", False, 4)
    assert events[:2] == [("step aside", key), ("count", "none")], events


def test_count_ahead_leaves_out_what_a_large_study_cannot_afford(monkeypatch):
    study = load_demo("ted-en-de")
    chars = shared_cache.study_characters(study)
    # a budget for 13a, intl and none (cost 1) but not char (3) or the line-by-line paper and zh (12)
    monkeypatch.setattr(shared_cache, "COUNT_AHEAD_MAX_CHARACTERS", 2 * chars)
    assert shared_cache.ahead_tokenizers(chars) == ["13a", "intl", "none"]
    monkeypatch.setattr(shared_cache, "COUNT_AHEAD_MAX_CHARACTERS", 20 * chars)
    assert shared_cache.ahead_tokenizers(chars) == list(shared_cache.COUNT_AHEAD_TOKENIZERS)


def test_a_page_waiting_for_the_warm_up_sees_which_library_loads(monkeypatch):
    """app.py waits for the background imports before any page but the Study page: seconds on a busy
    server (the statistics are counted at the same time); the wait shows a bar naming the library."""
    from ui.app import warmup

    def importing() -> None:
        for k, name in enumerate(["pandas", "altair", "scipy.stats"]):
            warmup._step = (k, 3, name)
            time.sleep(0.15)

    thread = threading.Thread(target=importing)
    monkeypatch.setattr(warmup, "_thread", thread)
    monkeypatch.setattr(warmup, "_done", threading.Event())
    monkeypatch.setattr(warmup, "_step", (0, 0, ""))
    thread.start()
    shown: list[tuple[float, str]] = []
    warmup.wait(lambda fraction, text: shown.append((fraction, text)), poll_s=0.02)
    assert not thread.is_alive()
    texts = [t for _, t in shown]
    assert any("altair (2 of 3)" in t for t in texts), texts
    assert [f for f, _ in shown] == sorted(f for f, _ in shown)
    assert all(t.startswith("Loading the analysis libraries: ") for t in texts)
