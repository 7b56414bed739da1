"""Slow results shared by every session, computed in a background thread with progress (TER).

sacrebleu's TER takes minutes on a large study (50 systems × 10,000 segments). A page that wants it starts
the job here once per (study, references, options) and keeps drawing; every session asks the same
:data:`JOBS` and finds the same job. TER's per-segment statistics are kept on disk
(:func:`bleu_core.metrics.ter.ter_statistics_table` with :func:`ter_cache_dir`), so a restart reads them
instead of scoring again. A page shows a pending job with :func:`show_pending` (a progress bar with what it
is doing, refreshed every second, and a re-run of the page when the job is done).

>>> jobs = BackgroundJobs()
>>> job = jobs.submit("k", lambda progress: (progress(1, 2, "half"), 42)[1])
>>> job.future.result(timeout=5), jobs.submit("k", lambda progress: 0) is job
(42, True)
>>> job.done, job.total, job.message
(1, 2, 'half')
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import streamlit as st

from ui.app.markup import md_escape
from ui.app.shared_cache import ACTIVITY

if TYPE_CHECKING:
    from bleu_core.study.model import Study

Progress = Callable[[int, int, str], None]
_log = logging.getLogger(__name__)

TER_CACHE_ENV = "BLEU_STUDY_TER_CACHE"
"""Environment variable: the folder for TER's statistics on disk (default: the user's data folder)."""


class Job:
    """One background computation: its future and its last progress report."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.future: Future = Future()
        self.done = 0
        self.total = 0
        self.message = f"{label}: waiting to start"

    def report(self, done: int, total: int, message: str) -> None:
        self.done, self.total, self.message = done, total, message

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0


class BackgroundJobs:
    """Jobs by key, run one at a time in a daemon thread; the newest ``max_entries`` results are kept.

    ``step_aside()`` is called before each job starts and after each of its progress reports (it may
    wait, e.g. while pages draw)."""

    def __init__(self, max_entries: int = 8, step_aside: Callable[[], None] | None = None) -> None:
        self.max_entries = max_entries
        self._step_aside = step_aside
        self._jobs: OrderedDict[Hashable, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bleu-study-background")

    def submit(self, key: Hashable, work: Callable[[Progress], Any], label: str = "") -> Job:
        """The job for ``key``: the running or finished one, else ``work(progress)`` started now."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and not (job.future.done() and job.future.exception()):
                self._jobs.move_to_end(key)
                return job
            job = Job(label or str(key))
            self._jobs[key] = job
            while len(self._jobs) > self.max_entries:
                self._jobs.popitem(last=False)

        def report(done: int, total: int, message: str) -> None:
            job.report(done, total, message)
            if self._step_aside is not None:  # between chunks: pages drawing meanwhile go first
                self._step_aside()

        def run() -> None:
            if not job.future.set_running_or_notify_cancel():
                return
            try:
                if self._step_aside is not None:
                    self._step_aside()
                job.future.set_result(work(report))
            except BaseException as exc:  # shown by the page that asks for the result
                _log.warning("background job %s failed: %s", job.label, exc)
                job.future.set_exception(exc)

        self._pool.submit(run)
        return job

    def clear(self) -> None:
        with self._lock:
            self._jobs.clear()


JOBS = BackgroundJobs(max_entries=16, step_aside=ACTIVITY.step_aside)
"""The jobs of this server process, shared by all sessions. No page ever waits for them, so they step
aside while pages draw (:class:`ui.app.prefetch.PageActivity`): before each job and at each progress
report. On WMT21 a NIST or chrF job scored beside a tokenizer change on Metrics doubled its time."""


def ter_cache_dir() -> Path:
    """Where TER's statistics are kept: ``$BLEU_STUDY_TER_CACHE``, else ``ter-cache`` in the user's data
    folder (the campaigns' folder)."""
    if os.environ.get(TER_CACHE_ENV):
        return Path(os.environ[TER_CACHE_ENV]).expanduser()
    from bleu_core.campaigns.connection import default_data_dir

    return default_data_dir() / "ter-cache"


def ter_job(study_key: str, study: Study, inputs_key: tuple[object, ...], lowercase: bool) -> Job:
    """The shared background job scoring every system of ``study`` with TER (``inputs_key``: the settings
    TER depends on, :func:`bleu_core.metrics.registry.metric_inputs_key`)."""
    from bleu_core.metrics.registry import score_study

    def work(progress: Progress) -> Any:
        return score_study(
            study,
            ("TER",),
            lowercase=lowercase,
            ter_cache_dir=ter_cache_dir(),
            progress=progress,
        )["TER"]

    return JOBS.submit(("TER", study_key, inputs_key), work, label="TER")


def metric_job(
    study_key: str,
    study: Study,
    metric: str,
    inputs_key: tuple[object, ...],
    tokenize: str,
    lowercase: bool,
) -> Job:
    """The shared background job scoring every system of ``study`` with a registry ``metric`` (NIST, PER:
    see :data:`ui.app.analysis_cache.BACKGROUND_FAMILIES`) under the settings it depends on."""
    from bleu_core.metrics.registry import score_study

    def work(progress: Progress) -> Any:
        progress(
            0, 1, f"{metric}: scoring {len(study.systems)} systems × {study.n_segments:,} segments"
        )
        result = score_study(
            study, (metric,), tokenize=tokenize, lowercase=lowercase, progress=progress
        )[metric]
        progress(1, 1, f"{metric}: done")
        return result

    return JOBS.submit((metric, study_key, inputs_key), work, label=metric)


def result(
    key: Hashable, work: Callable[[Progress], Any], label: str, pending: list[Job] | None
) -> Any:
    """The result of the shared job ``key`` (started with ``work`` if new). With a ``pending`` list the
    call does not wait: an unfinished job is appended to it and None returned; without one (AppTest, whose
    runs must be deterministic) it waits."""
    job = JOBS.submit(key, work, label=label)
    if job.future.done() or pending is None:
        return job.future.result()
    pending.append(job)
    return None


def show_pending(jobs: list[Job]) -> None:
    """A progress bar per unfinished job (what it is doing, refreshed every second); the page re-runs
    when they are all done. Finished jobs show nothing."""
    pending = [job for job in jobs if not job.future.done()]
    if not pending:
        return

    @st.fragment(run_every=1.0)
    def _progress() -> None:
        if all(job.future.done() for job in pending):
            st.rerun(scope="app")
        for job in pending:
            text = f"{job.message} (in the background; shown when done)"
            st.progress(job.fraction, text=md_escape(text))  # messages name systems: user text

    _progress()


class Steps:
    """A progress bar over a page's slow steps, with what each step is doing.

    Created where the bar should appear; :meth:`step` before each slow step (cached ones are quick on a
    re-run, so the bar only lingers on a first visit), :meth:`done` removes it::

        steps = Steps(3, "Correlation")
        steps.step("bootstrapping system-level correlations")
        ...
        steps.done()
    """

    def __init__(self, total: int, what: str) -> None:
        self.total, self.what, self.count = max(1, total), what, 0
        self._slot = st.empty()

    def step(self, text: str) -> None:
        self._slot.progress(
            self.count / self.total,
            text=md_escape(f"{self.what}: {text} (step {self.count + 1} of {self.total})"),
        )
        self.count += 1

    def done(self) -> None:
        self._slot.empty()
