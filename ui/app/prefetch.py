"""Statistics shared by all sessions, and counted ahead of time for the settings a user is likely to try next.

A teacher changing the tokenizer in class should not wait for n-grams to be counted. Counting the demo study
under a new tokenizer takes 20-90 ms (``char`` makes five times more tokens than ``13a``), and on a 2-core
machine that alone can push a re-render past 300 ms. So once a page has scored the open study, a background
thread counts it under the other tokenizers too; the first switch then finds its statistics ready.

:class:`ResultStore` holds results by key, each behind a :class:`~concurrent.futures.Future`: a page asking
for a result being counted in the background waits for it instead of counting it a second time, and the
background never counts what a page has already asked for. Results are shared, never copied: their arrays
must be read-only (the store does not copy them as ``st.cache_data`` would).

:class:`Prefetcher` runs queued jobs one after the other in one daemon thread. A new :meth:`Prefetcher.schedule`
replaces the jobs not started yet (the newest study and settings win); a failed job is logged and skipped
(the page that needs it will show the error).

>>> store = ResultStore(max_entries=2)
>>> store.get("a", lambda: 1), store.get("a", lambda: 2)      # the second call finds the first result
(1, 1)
>>> prefetcher = Prefetcher(store)
>>> prefetcher.schedule([("b", lambda: 20), ("c", lambda: 30)]).wait(5)
True
>>> store.ready("b"), store.get("c", lambda: 0), store.ready("a")    # at most 2 entries: "a" evicted
(True, 30, False)
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Future
from typing import Any

Job = tuple[Hashable, Callable[[], Any]]
"""A key of the store and the function that computes its value."""

SWITCH = "BLEU_STUDY_NO_PREFETCH"
"""Environment variable: set to ``1`` to count statistics only when a page asks for them (benchmarks)."""

_log = logging.getLogger(__name__)


def disabled() -> bool:
    """Whether counting ahead is switched off (``BLEU_STUDY_NO_PREFETCH=1``)."""
    return os.environ.get(SWITCH, "") not in ("", "0")


class ResultStore:
    """A thread-safe least-recently-used store of results, each computed once even when asked for at once.

    At most ``max_entries`` results, and at most ``max_bytes`` in all as ``weigh`` counts them (the newest
    result is kept even when it alone weighs more): statistics of a large study take hundreds of MB apiece.

    >>> store = ResultStore(8, max_bytes=10, weigh=len)
    >>> store.get("a", lambda: "x" * 6), store.get("b", lambda: "y" * 3), store.ready("a")
    ('xxxxxx', 'yyy', True)
    >>> _ = store.get("c", lambda: "z" * 4)      # 6 + 3 + 4 > 10: the oldest goes
    >>> store.ready("a"), store.ready("b"), store.ready("c"), store.weight
    (False, True, True, 7)
    """

    def __init__(
        self,
        max_entries: int,
        *,
        max_bytes: int | None = None,
        weigh: Callable[[Any], int] = lambda value: 0,
    ) -> None:
        if max_entries < 1:
            raise ValueError(f"max_entries must be at least 1, not {max_entries}")
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._weigh = weigh
        self._entries: OrderedDict[Hashable, Future] = OrderedDict()
        self._weights: dict[Hashable, int] = {}
        self._lock = threading.Lock()

    @property
    def weight(self) -> int:
        """What the stored results weigh in all (``weigh`` of each)."""
        with self._lock:
            return sum(self._weights.values())

    def _drop(self, key: Hashable) -> None:
        del self._entries[key]
        self._weights.pop(key, None)

    def _settle(self, key: Hashable, future: Future, value: Any) -> None:
        """Record the weight of a new result and evict the oldest others beyond ``max_bytes``."""
        weight = self._weigh(value)
        with self._lock:
            if self._entries.get(key) is not future:
                return  # cleared or evicted meanwhile
            self._weights[key] = weight
            if self.max_bytes is None:
                return
            for old in list(self._entries):
                if sum(self._weights.values()) <= self.max_bytes:
                    break
                if old != key and old in self._weights:  # never one still being computed
                    self._drop(old)

    def _claim(self, key: Hashable) -> tuple[Future, bool]:
        """The future of ``key`` and whether the caller must compute it (it was not there)."""
        with self._lock:
            future = self._entries.get(key)
            if future is not None:
                self._entries.move_to_end(key)
                return future, False
            future = Future()
            self._entries[key] = future
            while len(self._entries) > self.max_entries:
                self._drop(next(iter(self._entries)))
            return future, True

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The value of ``key``: stored, being computed elsewhere (waited for), or computed now.

        A failure is not stored: it is raised here (and in any thread waiting for it) and the next call
        tries again.

        >>> store = ResultStore(4)
        >>> store.get("x", lambda: 1 / 0)
        Traceback (most recent call last):
        ZeroDivisionError: division by zero
        >>> store.get("x", lambda: "tried again")
        'tried again'
        """
        future, mine = self._claim(key)
        if mine:
            self._compute(key, future, compute)
        return future.result()

    def submit(self, key: Hashable, compute: Callable[[], Any]) -> Future:
        """The future of ``key``: stored, being computed elsewhere, or computed now in a thread of its own.

        For a page that must not compute in its own thread: Streamlit stops a page's script when the user
        changes a widget, which would abandon a computation run inside it; a computation in its own
        thread carries on, and the page's next run finds it under way (or done) and waits for it again.

        >>> store = ResultStore(4)
        >>> store.submit("x", lambda: 41 + 1).result(5), store.submit("x", lambda: 0).result(5)
        (42, 42)
        """
        future, mine = self._claim(key)
        if mine:
            threading.Thread(
                target=self._compute,
                args=(key, future, compute),
                name="bleu-study-count",
                daemon=True,
            ).start()
        return future

    def _compute(self, key: Hashable, future: Future, compute: Callable[[], Any]) -> None:
        try:
            value = compute()
        except BaseException as err:
            with self._lock:
                if self._entries.get(key) is future:
                    self._drop(key)
            future.set_exception(err)
            if not isinstance(err, Exception):
                raise
            return
        self._settle(key, future, value)
        future.set_result(value)

    def ready(self, key: Hashable) -> bool:
        """Whether the value of ``key`` is stored (computed without error)."""
        with self._lock:
            future = self._entries.get(key)
        return future is not None and future.done() and future.exception() is None

    def clear(self) -> None:
        """Forget every result (computations under way finish for their waiting callers only)."""
        with self._lock:
            self._entries.clear()
            self._weights.clear()

    def __len__(self) -> int:
        return len(self._entries)


class ProgressBoard:
    """The last progress report of each computation under way, by key: whoever computes writes it, any
    session waiting for the result reads it (its progress bar then moves whichever thread counts).

    >>> board = ProgressBoard()
    >>> report = board.reporter("k")
    >>> report(3, 10, "Counting n-grams: system 4 of 10")
    >>> board.get("k")
    (3, 10, 'Counting n-grams: system 4 of 10')
    >>> board.finish("k"); board.get("k") is None
    True
    """

    def __init__(self) -> None:
        self._reports: dict[Hashable, tuple[int, int, str]] = {}
        self._lock = threading.Lock()

    def reporter(self, key: Hashable) -> Callable[[int, int, str], None]:
        """A ``progress(done, total, message)`` callback recording reports under ``key``."""

        def report(done: int, total: int, message: str) -> None:
            with self._lock:
                self._reports[key] = (done, total, message)

        return report

    def get(self, key: Hashable) -> tuple[int, int, str] | None:
        """The last report under ``key`` (None: none yet, or finished)."""
        with self._lock:
            return self._reports.get(key)

    def finish(self, key: Hashable) -> None:
        with self._lock:
            self._reports.pop(key, None)


class PageActivity:
    """When a page last drew: work done *ahead of time* steps aside while pages draw.

    A page's script and a background count share the two cores and Python's lock: counting the WMT21
    release ahead (1-2 s a tokenizer) while a page redraws can double the page's time. So a background
    job calls :meth:`step_aside` before it starts and between its chunks: it waits until no page has
    started drawing for ``quiet_s`` seconds (at most ``max_wait_s`` at a time, so that a server kept busy
    still gets its counting done). A page waiting for that very work calls :meth:`page_waiting` with
    its key: that work goes on at once, while other work done ahead keeps stepping aside (the page waits
    for one count, not for the next tokenizer's). The shared background jobs (NIST, PER, chrF, TER,
    bootstrap correlations: :mod:`ui.app.background`) step aside too: no page ever blocks on them.

    >>> activity = PageActivity(quiet_s=0.2, max_wait_s=1.0)
    >>> activity.page_started()
    >>> start = time.monotonic(); activity.step_aside(); 0.15 < time.monotonic() - start < 0.5
    True
    >>> activity.page_started(); activity.page_waiting("13a")
    >>> start = time.monotonic(); activity.step_aside("13a"); time.monotonic() - start < 0.05
    True
    >>> start = time.monotonic(); activity.step_aside("intl"); time.monotonic() - start > 0.15
    True
    """

    def __init__(self, quiet_s: float = 1.0, max_wait_s: float = 5.0) -> None:
        self.quiet_s = quiet_s
        self.max_wait_s = max_wait_s
        self._last = float("-inf")
        self._awaited: Hashable | None = None

    def page_started(self) -> None:
        """A page is drawing now."""
        self._last = time.monotonic()

    def page_waiting(self, key: Hashable) -> None:
        """A page waits for the work ``key`` (perhaps being done ahead of time): it goes on at once."""
        self._awaited = key
        self._last = time.monotonic()

    def step_aside(self, key: Hashable | None = None) -> None:
        """Wait until pages have been quiet for ``quiet_s`` seconds (or ``max_wait_s`` have passed),
        unless a page waits for this very work ``key``."""
        deadline = time.monotonic() + self.max_wait_s
        while True:
            if key is not None and key == self._awaited:
                return
            now = time.monotonic()
            wait = min(self._last + self.quiet_s, deadline) - now
            if wait <= 0:
                return
            time.sleep(min(wait, 0.1))


class Prefetcher:
    """Fills a :class:`ResultStore` in one background thread, a job at a time."""

    def __init__(self, store: ResultStore) -> None:
        self.store = store
        self._jobs: list[Job] = []
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self._not_before = 0.0

    def schedule(self, jobs: Iterable[Job], delay: float = 0.0) -> threading.Event:
        """Replace the jobs not started yet by ``jobs`` (those already stored are skipped), to start
        ``delay`` seconds from now at the earliest (leaving the CPU to the page that asked first).

        Returns an event set whenever the thread has no job left (``.wait(timeout)`` for tests).
        """
        todo = [(key, compute) for key, compute in jobs if not self.store.ready(key)]
        with self._lock:
            self._jobs = todo
            self._not_before = time.monotonic() + delay
            if todo:
                self._idle.clear()
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, name="bleu-study-prefetch", daemon=True
                    )
                    self._thread.start()
                self._wake.notify()
        return self._idle

    def _next(self) -> Job:
        with self._lock:
            while True:
                if not self._jobs:
                    self._idle.set()
                    self._wake.wait()
                    continue
                wait = self._not_before - time.monotonic()
                if wait <= 0:
                    return self._jobs.pop(0)
                self._wake.wait(wait)  # a newer schedule wakes it early: look again

    def _run(self) -> None:
        while True:
            key, compute = self._next()
            try:
                self.store.get(key, compute)
            except Exception:
                _log.warning("counting ahead failed for %r", key, exc_info=True)
