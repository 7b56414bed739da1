"""The statistics store: per-segment sufficient statistics of every system, shared by all sessions.

Statistics are kept per (study, reference streams, tokenizer, lowercase), counted to order 10, in
:data:`STATISTICS` (a :class:`ui.app.prefetch.ResultStore`, not ``st.cache_data``: shared without copying,
and filled ahead of time for the other tokenizers by :func:`count_ahead`). Changing the weights, the
smoothing, the brevity-penalty policy or the max order only re-scores the stored arrays (microseconds with
:func:`bleu_core.engine.score.bleu_from_stats`); a new tokenizer is counted once, usually before it is chosen.

What pages derive from the statistics (the array cut to the options' order, corpus and sentence BLEU,
Explore's segment table) is kept beside them in :data:`SCORES` (:func:`stored_scores`).

Nothing here calls ``st.*``: the counting runs in threads of its own, and a page that waits draws the
progress it is handed (:func:`system_statistics` with ``progress``). The study is passed with its
hashable ``study_key`` (``"demo:ted-en-de"``, ``"upload:<sha256>"``), which names it in every key.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.study import Study
from bleu_core.study.output_rows import output_mask, without_missing
from bleu_core.tokenize.tokenizers import TOKENIZER_NAMES, tokenizer_for_language
from ui.app import warmup
from ui.app.prefetch import PageActivity, Prefetcher, ProgressBoard, ResultStore
from ui.app.prefetch import disabled as prefetch_disabled


@dataclass(frozen=True)
class SystemStatistics:
    """Per-segment sufficient statistics of every system of a study, against the same references.

    Attributes:
        systems: system names, in the study's order.
        array: float64 array of shape ``(systems, segments, 4 + 2N)``, read-only (shared by all sessions);
            ``array[i]`` is system i's :attr:`bleu_core.engine.statistics.SegmentStatistics.array`.
        references: names of the reference streams used.
        max_order: N of the statistics (the app counts N = 10 whatever the options' max order: a lower
            order is a column slice, see :func:`ui.app.context.truncate_order`).
    """

    systems: tuple[str, ...]
    array: np.ndarray
    references: tuple[str, ...]
    max_order: int

    def index(self, system: str) -> int:
        return self.systems.index(system)


STATISTICS_MAX_BYTES = 768 * 2**20
"""What the stored statistics may take in all (the demo's take 1.5 MB apiece; 10 systems × 100k segments at
order 10 take 190 MB)."""

STATISTICS = ResultStore(
    max_entries=24, max_bytes=STATISTICS_MAX_BYTES, weigh=lambda stats: stats.array.nbytes
)
"""Statistics by (study key, references, tokenizer, lowercase, order), shared by all sessions."""

PREFETCHER = Prefetcher(STATISTICS)

COUNTING = ProgressBoard()
"""Progress of each count under way (by statistics key), whichever thread counts: a page waiting for
statistics shows it (:func:`system_statistics` with ``progress``)."""

ACTIVITY = PageActivity()
"""When pages draw: counting ahead steps aside meanwhile (:class:`ui.app.prefetch.PageActivity`)."""

Progress = Callable[[int, int, str], None]

COUNT_AHEAD_TOKENIZERS: tuple[str, ...] = ("13a", "intl", "char", "none", "paper", "zh")
"""The tokenizers counted ahead, in this order (``zh`` last: it tokenises line by line, the slowest)."""

COUNT_AHEAD_DELAY_S = 0.3
"""Seconds between a page asking for statistics and counting ahead (the page finishes drawing first)."""

COUNT_AHEAD_MAX_CHARACTERS = 10_000_000
"""A tokenizer is counted ahead when the study's characters × its :data:`COUNT_AHEAD_COST` are at most
this (``13a`` on 10M characters: about 1.5 s on one core of the 2-core test machine)."""

COUNT_AHEAD_COST: dict[str, float] = {
    "13a": 1.0,
    "intl": 1.0,
    "none": 1.0,
    "char": 3.0,
    "paper": 12.0,
    "zh": 12.0,
    "ja-mecab": 3.0,
    "ko-mecab": 4.0,
}
"""What counting a study costs under each tokenizer, relative to ``13a`` (measured on WMT21 zh-en,
9.6M characters: 13a 1.9 s, intl 2.0 s, none 1.3 s, char 6.5 s, paper and zh 26 s each: those two
tokenise line by line; MeCab's on WMT24 en-ja, 2.1M characters, CPU time: 13a 0.23 s, ja-mecab
0.54 s, ko-mecab 0.78 s, each after its dictionary was loaded once, ~1 s). Counting ahead runs while
the user works on a page, and on a shared server its CPU is taken from the pages: so the WMT21 release
has 13a, intl and none counted ahead (5 s), not the 60 s of all six; the TED demo (0.8M characters)
all six; WMT24 en-ja 13a, intl, char, none and its own ja-mecab. Unknown names cost as much as
``paper``."""


def _count_statistics(
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    max_order: int,
    progress: Progress | None = None,
) -> SystemStatistics:
    systems = tuple(study.systems)
    refs = [study.references[name] for name in references]
    counted = compute_system_statistics(
        {name: study.systems[name] for name in systems},
        refs,
        max_order=max_order,
        tokenize=tokenize,
        lowercase=lowercase,
        progress=progress,
    )
    # a missing output counts for nothing (bleu_core.study.output_rows): every page sums these rows
    array = without_missing(
        np.stack([counted[name].array for name in systems]), output_mask(study, systems)
    )
    array.flags.writeable = False  # shared by every session: nobody may change it
    return SystemStatistics(systems, array, tuple(references), max_order)


@dataclass(frozen=True)
class _Count:
    """Counting one study's statistics, reporting its progress on :data:`COUNTING` under ``key``.

    ``ahead``: counted on a guess (another tokenizer); it steps aside while pages draw
    (:data:`ACTIVITY`), before it starts and between chunks.
    """

    key: tuple[str, tuple[str, ...], str, bool, int]
    study: Study
    ahead: bool = False

    def __call__(self) -> SystemStatistics:
        _, references, tokenize, lowercase, max_order = self.key
        record = COUNTING.reporter(self.key)

        def report(done: int, total: int, message: str) -> None:
            record(done, total, message)
            if self.ahead:
                ACTIVITY.step_aside(self.key)

        try:
            if self.ahead:
                # after the libraries the next page needs (ui.app.warmup), when no page draws
                warmup.join(timeout=60)
                ACTIVITY.step_aside(self.key)
            return _count_statistics(
                self.study, references, tokenize, lowercase, max_order, progress=report
            )
        finally:
            COUNTING.finish(self.key)


def _statistics_job(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    max_order: int,
    ahead: bool = False,
) -> tuple[tuple[str, tuple[str, ...], str, bool, int], _Count]:
    """The store's key for these settings and the function that counts them (``ahead``: on a guess)."""
    key = _statistics_key(study_key, references, tokenize, lowercase, max_order)
    return key, _Count(key, study, ahead)


def _statistics_key(
    study_key: str, references: tuple[str, ...], tokenize: str, lowercase: bool, max_order: int
) -> tuple[str, tuple[str, ...], str, bool, int]:
    return (study_key, tuple(references), tokenize, bool(lowercase), int(max_order))


def system_statistics(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    max_order: int,
    progress: Progress | None = None,
    poll_s: float = 0.25,
) -> SystemStatistics:
    """Sufficient statistics of every system of the study (one batched pass over all outputs).

    Stored in :data:`STATISTICS` (shared, read-only arrays): the first caller counts, a caller asking while
    the statistics are being counted (by a page or ahead, see :func:`count_ahead`) waits for them.

    ``progress(done, total, message)``: while waiting, called every ``poll_s`` seconds with the count's
    last report (:data:`COUNTING`), in the caller's thread (a page draws it). The count itself then runs
    in a thread of its own (:meth:`ui.app.prefetch.ResultStore.submit`), so a page stopped by a widget
    change leaves it running, and its next run waits for the same count.
    """
    key, count = _statistics_job(study_key, study, references, tokenize, lowercase, max_order)
    if STATISTICS.ready(key):
        return STATISTICS.get(key, count)
    ACTIVITY.page_waiting(key)  # if it is being counted ahead, that count goes on at once
    if progress is None:
        return STATISTICS.get(key, count)
    future = STATISTICS.submit(key, count)
    while True:
        ACTIVITY.page_waiting(key)  # a count ahead of time that this page now needs goes on at once
        try:
            return future.result(timeout=poll_s)
        except TimeoutError:
            report = COUNTING.get(key)
            if report is not None:
                progress(*report)


SCORES_MAX_BYTES = 512 * 2**20
"""What the stored scores may take in all (at 50 systems × 10,000 segments: sentence BLEU 72 MB, the
statistics cut to order 4 48 MB, Explore's segment table 36 MB)."""


def _nbytes(value: Any) -> int:
    """Bytes of a numpy array, of the arrays of a dataclass of arrays (:class:`BleuArrays`), or of a
    DataFrame's columns (text cells counted as pointers: the texts belong to the study)."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if hasattr(value, "memory_usage"):
        return int(value.memory_usage(index=True, deep=False).sum())
    fields = getattr(value, "__dataclass_fields__", {})
    return sum(getattr(getattr(value, name), "nbytes", 0) for name in fields)


SCORES = ResultStore(max_entries=32, max_bytes=SCORES_MAX_BYTES, weigh=_nbytes)
"""What pages derive from the statistics on each run, by (statistics key, what): the statistics cut to
the options' order, corpus and sentence BLEU, Explore's segment table (read-only, shared by all
sessions). At 50 × 10,000 a page run spent 0.6-0.9 s cutting the array and scoring 500,000 sentences,
and Explore 1-2 s more on its table; from here they are look-ups when the settings were seen before."""


def stored_scores(key: Any, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per ``key`` in :data:`SCORES`, shared by every page and session: a numpy array
    or a dataclass of arrays is made read-only; a DataFrame (pandas has no read-only flag) must be
    treated as one by its readers (they filter and sort into new frames, never assign into it)."""

    def frozen() -> Any:
        value = compute()
        if isinstance(value, np.ndarray):
            arrays = [value]
        elif hasattr(value, "__dataclass_fields__"):
            arrays = [getattr(value, name) for name in value.__dataclass_fields__]
        else:
            arrays = []
        for array in arrays:
            if isinstance(array, np.ndarray):
                array.flags.writeable = False
        return value

    return SCORES.get(key, frozen)


def statistics_ready(
    study_key: str, references: tuple[str, ...], tokenize: str, lowercase: bool, max_order: int
) -> bool:
    """Whether :func:`system_statistics` of these settings is stored already."""
    return STATISTICS.ready(_statistics_key(study_key, references, tokenize, lowercase, max_order))


def count_ahead(
    study_key: str, study: Study, references: tuple[str, ...], lowercase: bool, max_order: int
) -> threading.Event | None:
    """Count the study's statistics under the other tokenizers in the background (see :mod:`ui.app.prefetch`).

    Returns the prefetcher's idle event, or None when nothing was scheduled: switched off
    (``BLEU_STUDY_NO_PREFETCH=1``) or no tokenizer fits :data:`COUNT_AHEAD_MAX_CHARACTERS` (see
    :data:`COUNT_AHEAD_COST`).
    """
    if prefetch_disabled():
        return None
    jobs = _ahead_jobs(study_key, study, references, lowercase, max_order)
    return PREFETCHER.schedule(jobs, delay=COUNT_AHEAD_DELAY_S) if jobs else None


def ahead_tokenizers(characters: int, default: str | None = None) -> list[str]:
    """The tokenizers counted ahead for a study of ``characters``, in the order they are counted:
    ``default`` first (the one sacrebleu's command line picks for the study's target language,
    :func:`bleu_core.tokenize.tokenizers.tokenizer_for_language`: the likeliest to be chosen again), then
    :data:`COUNT_AHEAD_TOKENIZERS`; each only when it fits :data:`COUNT_AHEAD_MAX_CHARACTERS`.

    >>> ahead_tokenizers(800_000)
    ['13a', 'intl', 'char', 'none', 'paper', 'zh']
    >>> ahead_tokenizers(2_100_000, "ja-mecab")     # WMT24 en-ja
    ['ja-mecab', '13a', 'intl', 'char', 'none']
    >>> ahead_tokenizers(9_600_000, "zh")           # WMT21 en-zh: zh costs too much to guess
    ['13a', 'intl', 'none']
    >>> ahead_tokenizers(50_000_000)
    []
    """
    worst = max(COUNT_AHEAD_COST.values())
    names = dict.fromkeys([default, *COUNT_AHEAD_TOKENIZERS] if default else COUNT_AHEAD_TOKENIZERS)
    return [
        name
        for name in names
        if name in TOKENIZER_NAMES
        and characters * COUNT_AHEAD_COST.get(name, worst) <= COUNT_AHEAD_MAX_CHARACTERS
    ]


def _ahead_jobs(
    study_key: str, study: Study, references: tuple[str, ...], lowercase: bool, max_order: int
) -> list[tuple[Any, _Count]]:
    default = tokenizer_for_language(study.target_lang)
    return [
        _statistics_job(study_key, study, references, name, lowercase, max_order, ahead=True)
        for name in ahead_tokenizers(_characters(study_key, study), default)
    ]


def count_current(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    max_order: int,
    *,
    guesses: bool = True,
) -> threading.Event | None:
    """Count the statistics of the current settings in the background thread.

    The Study page needs no statistics: while the user reads it, they are counted, and the first analysis
    page finds them counted, or waits for the count under way instead of starting another. Any study size.
    Like the guesses, that count steps aside while a page draws (:data:`ACTIVITY`: the Study page that
    asked for it draws first), unless a page waits for it. Then, with ``guesses``, the other tokenizers of
    :func:`count_ahead` (those that fit :data:`COUNT_AHEAD_MAX_CHARACTERS`), so that the first tokenizer
    change on the first analysis page finds them counted too. None when switched off or all already
    counted.

    ``guesses=False``: the server-start count (:func:`ui.app.serve.count_first`): before any page has
    drawn nothing can step aside for it, and a guess counted in one piece (MeCab's tokenizers: 1.5 s of
    CPU on WMT24 en-ja, no chunk to step aside between) would then take the CPU from the first page; the
    Study page schedules the guesses.
    """
    if prefetch_disabled():
        return None
    job = _statistics_job(study_key, study, references, tokenize, lowercase, max_order, ahead=True)
    jobs = [
        job,
        *(_ahead_jobs(study_key, study, references, lowercase, max_order) if guesses else []),
    ]
    if all(STATISTICS.ready(key) for key, _ in jobs):
        return None
    return PREFETCHER.schedule(jobs)


_CHARACTERS: dict[str, int] = {}


def _characters(study_key: str, study: Study) -> int:
    """:func:`study_characters`, once per study key (a pass over every text: 50 ms at 50 × 10k)."""
    if study_key not in _CHARACTERS:
        if len(_CHARACTERS) > 64:
            _CHARACTERS.clear()
        _CHARACTERS[study_key] = study_characters(study)
    return _CHARACTERS[study_key]


def study_characters(study: Study) -> int:
    """Characters in the study's system outputs and references (what counting statistics reads).

    >>> from bleu_core.study.model import Segment
    >>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["ab", "c"]}, {"A": ["abc", None]})
    >>> study_characters(study)
    6
    """
    streams = [*study.systems.values(), *study.references.values()]
    return sum(len(text) for stream in streams for text in stream if text)
