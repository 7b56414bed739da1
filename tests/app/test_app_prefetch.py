"""The statistics store and counting ahead (ui.app.prefetch, ui.app.shared_cache.count_ahead): computed once, shared, read-only."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from ui.app import prefetch, shared_cache
from ui.app.prefetch import Prefetcher, ResultStore


def test_store_rejects_an_empty_size():
    with pytest.raises(ValueError, match="max_entries must be at least 1, not 0"):
        ResultStore(0)


def test_concurrent_callers_share_one_computation():
    store = ResultStore(4)
    started, release = threading.Event(), threading.Event()
    calls = []

    def slow():
        calls.append(1)
        started.set()
        release.wait(5)
        return object()

    results = []
    first = threading.Thread(target=lambda: results.append(store.get("k", slow)))
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=lambda: results.append(store.get("k", slow)))
    second.start()
    time.sleep(0.05)
    assert not store.ready("k") and len(results) == 0  # the second caller waits for the first
    release.set()
    first.join(5)
    second.join(5)
    assert len(calls) == 1 and len(results) == 2 and results[0] is results[1]


def test_a_failure_reaches_every_waiting_caller_and_is_not_stored():
    store = ResultStore(4)
    started, release = threading.Event(), threading.Event()

    def failing():
        started.set()
        release.wait(5)
        raise RuntimeError("tokenizer missing")

    errors = []

    def ask():
        try:
            store.get("k", failing)
        except RuntimeError as err:
            errors.append(str(err))

    threads = [threading.Thread(target=ask)]
    threads[0].start()
    assert started.wait(5)
    threads.append(threading.Thread(target=ask))
    threads[1].start()
    time.sleep(0.05)
    release.set()
    for t in threads:
        t.join(5)
    assert errors == ["tokenizer missing", "tokenizer missing"]
    assert not store.ready("k") and store.get("k", lambda: 7) == 7


def test_least_recently_used_entry_is_evicted():
    store = ResultStore(2)
    store.get("a", lambda: 1)
    store.get("b", lambda: 2)
    store.get("a", lambda: 0)  # "a" used again: "b" is now the oldest
    store.get("c", lambda: 3)
    assert (store.ready("a"), store.ready("b"), store.ready("c"), len(store)) == (
        True,
        False,
        True,
        2,
    )


def test_prefetcher_skips_stored_keys_and_survives_failures(caplog):
    store = ResultStore(8)
    store.get("done", lambda: "kept")
    ran = []

    def job(name):
        def run():
            ran.append(name)
            if name == "bad":
                raise ValueError("no such tokenizer")
            return name

        return run

    idle = Prefetcher(store).schedule([(k, job(k)) for k in ("done", "bad", "x", "y")])
    assert idle.wait(5)
    assert ran == ["bad", "x", "y"]
    assert store.get("done", lambda: "recounted") == "kept"
    assert store.ready("x") and store.ready("y") and not store.ready("bad")
    assert "counting ahead failed for 'bad'" in caplog.text


def test_a_new_schedule_replaces_the_jobs_not_started():
    store = ResultStore(8)
    prefetcher = Prefetcher(store)
    started, release = threading.Event(), threading.Event()
    ran = []

    def blocking():
        started.set()
        release.wait(5)
        ran.append("first")

    prefetcher.schedule([("first", blocking), ("old", lambda: ran.append("old"))])
    assert started.wait(5)
    idle = prefetcher.schedule([("new", lambda: ran.append("new"))])
    release.set()
    assert idle.wait(5)
    assert ran == ["first", "new"]


def test_switch_turns_counting_ahead_off(monkeypatch):
    from bleu_core.study.demo import load_demo

    study = load_demo("ted-en-de")
    monkeypatch.setenv(prefetch.SWITCH, "1")
    assert shared_cache.count_ahead("test:off", study, ("ref",), False, 10) is None
    monkeypatch.setenv(prefetch.SWITCH, "0")
    assert not prefetch.disabled()


def test_large_studies_are_not_counted_ahead(monkeypatch):
    from bleu_core.study.demo import load_demo

    study = load_demo("ted-en-de")
    monkeypatch.delenv(prefetch.SWITCH, raising=False)
    monkeypatch.setattr(
        shared_cache, "COUNT_AHEAD_MAX_CHARACTERS", shared_cache.study_characters(study) - 1
    )
    assert shared_cache.count_ahead("test:large", study, tuple(study.references), False, 10) is None


def test_count_ahead_fills_every_tokenizer_with_what_a_page_would_count(monkeypatch):
    """The statistics counted ahead equal those counted on demand, and are read-only (shared)."""
    from bleu_core.study.demo import load_demo

    study = load_demo("ted-en-de")
    refs = tuple(study.references)
    monkeypatch.delenv(prefetch.SWITCH, raising=False)
    monkeypatch.setattr(
        shared_cache, "COUNT_AHEAD_TOKENIZERS", ("intl", "char", "no-such-tokenizer")
    )
    idle = shared_cache.count_ahead("test:ahead", study, refs, True, 5)
    assert idle is not None and idle.wait(60)
    assert shared_cache.statistics_ready("test:ahead", refs, "char", True, 5)
    assert shared_cache.statistics_ready("test:ahead", refs, "13a", True, 5)  # German's own
    assert not shared_cache.statistics_ready("test:ahead", refs, "none", True, 5)
    ahead = shared_cache.system_statistics("test:ahead", study, refs, "char", True, 5)
    fresh = shared_cache._count_statistics(study, refs, "char", True, 5)
    assert ahead.systems == tuple(study.systems) and ahead.max_order == 5
    np.testing.assert_array_equal(ahead.array, fresh.array)
    with pytest.raises(ValueError, match="read-only"):
        ahead.array[0, 0, 0] = 1.0


def test_the_target_languages_own_tokenizer_is_counted_ahead_first(monkeypatch):
    """A Japanese study has ja-mecab (sacrebleu's choice for Japanese) counted ahead, before the others,
    with what a page would count; a study too large for ja-mecab's cost does not."""
    from dataclasses import replace

    from bleu_core.study.demo import load_demo

    study = replace(load_demo("ted-en-de").subset(["Nemo", "UEdin"], 30), target_lang="ja")
    refs = tuple(study.references)
    monkeypatch.delenv(prefetch.SWITCH, raising=False)
    monkeypatch.setattr(shared_cache, "COUNT_AHEAD_TOKENIZERS", ("none",))
    counted: list[str] = []
    count = shared_cache._count_statistics
    monkeypatch.setattr(
        shared_cache,
        "_count_statistics",
        lambda study, refs, tokenize, *rest, **kw: (
            counted.append(tokenize) or count(study, refs, tokenize, *rest, **kw)
        ),
    )
    idle = shared_cache.count_ahead("test:ja", study, refs, False, 4)
    assert idle is not None and idle.wait(60)
    assert counted == ["ja-mecab", "none"]
    ahead = shared_cache.system_statistics("test:ja", study, refs, "ja-mecab", False, 4)
    np.testing.assert_array_equal(ahead.array, count(study, refs, "ja-mecab", False, 4).array)
    characters = shared_cache.study_characters(study)
    monkeypatch.setattr(shared_cache, "COUNT_AHEAD_MAX_CHARACTERS", 2 * characters)
    assert shared_cache.ahead_tokenizers(characters, "ja-mecab") == ["none"]  # costs 3 × 13a


def test_jobs_start_after_the_delay():
    store = ResultStore(4)
    started = []
    t0 = time.monotonic()
    idle = Prefetcher(store).schedule([("k", lambda: started.append(time.monotonic()))], delay=0.2)
    assert idle.wait(5)
    assert started and started[0] - t0 >= 0.2


def test_weight_bound_keeps_the_newest_and_spares_computations_under_way():
    store = ResultStore(8, max_bytes=10, weigh=len)
    started, release = threading.Event(), threading.Event()

    def slow():
        started.set()
        release.wait(5)
        return "s"

    worker = threading.Thread(target=store.get, args=("slow", slow))
    worker.start()
    assert started.wait(5)
    store.get("big", lambda: "b" * 25)  # heavier than the bound alone: kept, being the newest
    assert store.ready("big") and store.weight == 25
    store.get("small", lambda: "x")  # now "big" goes; "slow" (under way) is not touched
    release.set()
    worker.join(5)
    assert not store.ready("big") and store.ready("small") and store.ready("slow")
    assert store.weight == 2


def test_statistics_store_is_bounded_by_bytes():
    assert shared_cache.STATISTICS.max_bytes == shared_cache.STATISTICS_MAX_BYTES
    assert (
        shared_cache.STATISTICS._weigh(
            shared_cache.SystemStatistics((), np.zeros((2, 3, 24)), (), 10)
        )
        == 1152
    )


def test_error_spans_view_is_counted_ahead_for_the_other_tokenizers(monkeypatch):
    """After the BLEU vs error spans page drew with 13a, its tables and span scores under the other
    tokenizers are counted in the background, equal to what the page would count; the tokenizer the page
    was drawn with before comes first; switched off, nothing is scheduled."""
    from bleu_core.study.demo import load_demo
    from bleu_core.study.error_agreement import error_agreement_by_order
    from bleu_core.study.span_scores import span_scores
    from ui.explore import error_spans_ahead as ahead

    study = load_demo("ted-en-de").subset(["Nemo", "UEdin"], 25)
    refs = tuple(study.references)
    monkeypatch.setenv(prefetch.SWITCH, "1")
    assert ahead.count_view_ahead("test:view", study, refs, "char", False, 2, None, (1, 2)) is None
    monkeypatch.delenv(prefetch.SWITCH)
    monkeypatch.setattr(shared_cache, "COUNT_AHEAD_TOKENIZERS", ("13a", "intl", "char"))
    scheduled: list[object] = []
    schedule = ahead.AHEAD.schedule
    monkeypatch.setattr(
        ahead.AHEAD,
        "schedule",
        lambda jobs, **kw: scheduled.extend(k for k, _ in jobs) or schedule(jobs, **kw),
    )
    idle = ahead.count_view_ahead("test:view", study, refs, "13a", False, 2, None, (1, 2))
    assert idle is not None and idle.wait(60)
    assert [key[3] for key in scheduled] == ["char", "char", "intl", "intl"]  # char: drawn before
    agreement_key, span_key = scheduled[2], scheduled[3]
    assert agreement_key == ("agreement", "test:view", refs, "intl", False, None, None, (1, 2))
    assert ahead.VIEWS.ready(agreement_key) and ahead.VIEWS.ready(span_key)
    counted = ahead.view_result(
        ahead.agreement_job("test:view", study, refs, "intl", False, None, None, (1, 2))
    )
    assert counted == error_agreement_by_order(study, (1, 2), tokenize="intl")
    with pytest.raises(ValueError, match="read-only"):  # shared by every session
        counted[1].systems["Nemo"].segment_counts[0, 0] = 1
    scores = ahead.view_result(
        ahead.span_scores_job("test:view", study, refs, "intl", False, 2, None)
    )
    assert scores.to_dict() == span_scores(study, tokenize="intl", max_order=2).to_dict()
