"""Slow work shared, cached on what it depends on, and shown with progress (AppTest).

* TER is scored once per (study, options) in a background job shared by all sessions; the Metrics and
  Correlation pages keep drawing while it runs (a progress bar with what it is doing) and show it when done.
* a tokenizer change re-scores the word-based metrics only (chrF never uses the tokenizer);
* the Correlation page's bootstraps are cached (a re-run or a setting BLEU ignores recomputes nothing);
* the export's study digest is computed once per study object.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from app_runs import start_app as start
from streamlit.testing.v1 import AppTest

import ui.analysis.correlation_cache as corr_cache
import ui.app.analysis_cache as analysis_cache
from bleu_core.study import Criterion, Rating, Segment, Study
from ui.app import background, export
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]


def small_study(name: str = "bg") -> Study:
    """4 systems × 30 segments, two references, an adequacy rating per translation."""
    rng = np.random.default_rng(3)
    words = "the a cat dog sat ran on under mat house red big small quickly".split()

    def line() -> str:
        return " ".join(rng.choice(words, size=int(rng.integers(4, 9))))

    n = 30
    refs = {"ref-A": [line() for _ in range(n)], "ref-B": [line() for _ in range(n)]}
    systems = {f"s{k}": [line() for _ in range(n)] for k in range(4)}
    ratings = tuple(
        Rating(s, str(i), f"r{i % 3}", None, "adequacy", float(rng.integers(1, 6)))
        for s in systems
        for i in range(n)
    )
    return Study(
        name=name,
        segments=tuple(Segment(str(i), doc_id=f"d{i // 10}") for i in range(n)),
        references=refs,
        systems=systems,
        criteria={"adequacy": Criterion("adequacy", scale=(1.0, 5.0))},
        ratings=ratings,
    )


def progress_texts(at: AppTest) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def test_background_jobs_are_shared_and_report_progress() -> None:
    jobs = background.BackgroundJobs()
    calls = []
    gate = threading.Event()

    def work(progress: background.Progress) -> int:
        calls.append(1)
        progress(3, 10, "TER: 3 of 10 segments")
        gate.wait(5)
        return 7

    job = jobs.submit("k", work, label="TER")
    assert jobs.submit("k", work) is job  # a second session finds the same job
    gate.set()
    assert job.future.result(timeout=5) == 7
    assert (job.done, job.total, job.message, job.fraction) == (3, 10, "TER: 3 of 10 segments", 0.3)
    assert jobs.submit("k", work).future.result(timeout=5) == 7 and calls == [1]


def test_a_failed_job_is_started_again() -> None:
    jobs = background.BackgroundJobs()

    def fail(progress: background.Progress) -> int:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        jobs.submit("k", fail).future.result(timeout=5)
    assert jobs.submit("k", lambda progress: 1).future.result(timeout=5) == 1


def test_metrics_page_draws_while_ter_runs_in_the_background(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(background.TER_CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(background, "JOBS", background.BackgroundJobs())
    gate = threading.Event()
    real = analysis_cache.ter_job

    def slow_ter(*args: object) -> background.Job:
        job = real(*args)
        return job if gate.is_set() else background.JOBS.submit("held", lambda p: gate.wait(30))

    monkeypatch.setattr(analysis_cache, "ter_job", slow_ter)
    at = start("metrics", small_study("ter"), **{K.MET_METRICS: ["BLEU", "chrF", "TER"]})
    texts = progress_texts(at)
    assert any("in the background" in t for t in texts), texts
    table = at.dataframe[-1].value if at.dataframe else None
    assert table is not None
    shown = " ".join(
        map(str, [*at.dataframe[0].value.columns, *at.dataframe[0].value.to_numpy().ravel()])
    )
    assert "chrF" in shown and "TER" not in shown
    gate.set()
    real("test:ter", at.session_state[K.STUDY], ("TER", False), False).future.result(timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(
        str(v) for df in at.dataframe for v in [*df.value.columns, *df.value.to_numpy().ravel()]
    )
    assert "TER" in shown
    assert not any("in the background" in t for t in progress_texts(at))


def test_a_tokenizer_change_rescores_word_metrics_only(monkeypatch) -> None:
    scored: list[tuple[str, ...]] = []
    real = analysis_cache.score_study

    def counting(study: Study, metrics: tuple[str, ...], **kw: object) -> object:
        scored.append(tuple(metrics))
        return real(study, metrics, **kw)

    monkeypatch.setattr(analysis_cache, "score_study", counting)
    at = start("metrics", small_study("tok"), **{K.MET_METRICS: ["chrF", "NIST"]})
    at.session_state[K.OPT_TOKENIZE] = "intl"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert scored.count(("chrF",)) == 1, scored
    assert scored.count(("NIST",)) == 2, scored


def test_correlation_bootstraps_are_computed_once(monkeypatch) -> None:
    calls = {"system": 0, "segment": 0}
    real_sys, real_seg = corr_cache.system_correlations, corr_cache.segment_correlations

    def sys_count(*a: object, **k: object) -> object:
        calls["system"] += 1
        return real_sys(*a, **k)

    def seg_count(*a: object, **k: object) -> object:
        calls["segment"] += 1
        return real_seg(*a, **k)

    monkeypatch.setattr(corr_cache, "system_correlations", sys_count)
    monkeypatch.setattr(corr_cache, "segment_correlations", seg_count)
    at = start("correlation", small_study("corr"), **{K.N_RESAMPLES: 50})
    at.run()  # a re-run
    at.session_state[K.CORR_OTHER_METRIC] = "chrF"  # a setting the correlations do not depend on
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert calls == {"system": 1, "segment": 1}
    at.session_state[K.OPT_TOKENIZE] = "char"  # BLEU changes: both are recomputed
    at.run()
    assert calls == {"system": 2, "segment": 2}


def test_steps_show_what_they_are_doing() -> None:
    def page() -> None:
        from ui.app.background import Steps

        steps = Steps(2, "Demo")
        steps.step("first part")
        steps.step("second part of *sys_[1]*")  # names in the text are user text: shown literally

    at = AppTest.from_function(page)
    at.run()
    from ui.app.markup import md_escape

    assert [p.proto.text for p in at.get("progress")] == [
        md_escape("Demo: second part of *sys_[1]* (step 2 of 2)")
    ]


def test_study_digest_is_computed_once_per_study(monkeypatch) -> None:
    study = small_study("digest")
    first = export.study_digest(study)
    monkeypatch.setattr(export, "_study_digest", lambda s: "recomputed")
    assert export.study_digest(study) == first
    assert export.study_digest(small_study("digest")) == "recomputed"  # another object


def test_randomisation_waits_for_the_user_on_a_large_study(monkeypatch) -> None:
    monkeypatch.setattr(analysis_cache, "AR_ON_DEMAND_WORK", 0)  # every study counts as large
    at = start("significance", small_study("ar"), **{K.N_RESAMPLES: 50, K.SIG_TRIALS: 100})
    assert [t.label for t in at.toggle if t.label.startswith("Run it:")], [
        t.label for t in at.toggle
    ]
    assert not any(c.value.startswith("Approximate randomisation:") for c in at.caption)
    at.session_state[K.SIG_AR_ON] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(c.value.startswith("Approximate randomisation:") for c in at.caption)


def test_judges_are_not_paired_again_after_a_bleu_setting_changes(monkeypatch) -> None:
    import ui.analysis.judges_cache as judges_cache

    calls = []
    real = judges_cache.judge_comparisons

    def counting(*a: object, **k: object) -> object:
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(judges_cache, "judge_comparisons", counting)
    at = start("judges", small_study("judges"))
    at.session_state[K.OPT_TOKENIZE] = "char"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.dataframe and calls == [1]


def test_metric_correlations_follow_only_what_each_metric_depends_on(monkeypatch) -> None:
    import ui.metrics.charts as cm

    correlated: list[str] = []
    real = cm.metric_correlations

    def counting(*a: object, **k: object) -> object:
        correlated.append(str(a[3]))  # the metric's name
        return real(*a, **k)

    monkeypatch.setattr(cm, "metric_correlations", counting)
    at = start(
        "metrics", small_study("mcorr"), **{K.MET_METRICS: ["BLEU", "chrF"], K.N_RESAMPLES: 50}
    )
    at.session_state[K.OPT_SMOOTH] = "floor"  # sentence BLEU changes; chrF does not
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert correlated.count("chrF") == 1 and correlated.count("BLEU") == 2, correlated


def test_background_jobs_step_aside_before_starting_and_at_each_report():
    from ui.app.background import BackgroundJobs

    calls: list[str] = []
    jobs = BackgroundJobs(step_aside=lambda: calls.append("aside"))

    def work(progress):
        calls.append("start")
        progress(1, 2, "half")
        progress(2, 2, "done")
        return 7

    job = jobs.submit("k", work)
    assert job.future.result(timeout=10) == 7
    assert calls == ["aside", "start", "aside", "aside"]
    assert (job.done, job.total, job.message) == (2, 2, "done")


def test_counting_ahead_keeps_stepping_aside_for_work_no_page_waits_for():
    import time

    from ui.app.prefetch import PageActivity

    activity = PageActivity(quiet_s=0.3, max_wait_s=2.0)
    activity.page_waiting("13a")  # a page waits for the 13a count: it goes on at once...
    start = time.monotonic()
    activity.step_aside("13a")
    assert time.monotonic() - start < 0.1
    start = time.monotonic()
    activity.step_aside("intl")  # ...while the intl count ahead waits for the page to be quiet
    assert time.monotonic() - start >= 0.25
