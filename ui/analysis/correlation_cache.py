"""The Correlation page's results, cached: a re-run (another criterion and back, another page and back, a
setting that does not change BLEU) redraws instead of bootstrapping again. The slower parts are plain
functions the page runs in background threads, which keep their results by the same kind of key: the
reference subsets in the shared one (:func:`ui.app.background.result`), the segment-level bootstrap in its
own (:data:`SEGMENT_JOBS`). What does not depend on BLEU is computed once for every BLEU setting: the
bootstrap count matrix (:func:`bootstrap_counts`) and the human side's resamples (:func:`human_resampled`).

Same convention as :mod:`ui.app.cache`: hashable inputs (the statistics' key, the systems, the options'
``repr``, the resampling settings), unhashable ones with a leading underscore, no ``st.*`` inside.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import streamlit as st

from bleu_core.evaluation.correlation import WMT_DARR_THRESHOLD
from bleu_core.evaluation.meta import (
    BleuSource,
    SegmentMeanSource,
    human_source,
    segment_correlations,
    system_correlations,
)
from bleu_core.evaluation.systems import stack_systems
from ui.app import cache
from ui.app.background import BackgroundJobs

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.study.model import Study


@st.cache_data(max_entries=64, show_spinner=False)
def has_system_level_ratings(study_key: str, _study: Study, criterion: str) -> bool:
    """Whether ``criterion`` has system-level ratings (then the human system scores are fixed: no
    interval). Once per study and criterion: a loop over every rating (500,000 at 50 × 10,000)."""
    return any(r.criterion == criterion and r.segment_id is None for r in _study.ratings)


@st.cache_resource(max_entries=2, show_spinner=False)
def bootstrap_counts(n_segments: int, n_resamples: int, seed: int) -> np.ndarray:
    """The page's bootstrap count matrix (``n_resamples × n_segments``, read-only), drawn once for the
    system and the segment level and every BLEU setting: :func:`bleu_core.evaluation.meta.bootstrap_counts`
    with ``seed``, so the results are those of drawing it inside each call. 80 MB at 10,000 segments
    × 1,000 resamples: shared by all sessions (``cache_resource``, no copy), two kept."""
    from bleu_core.evaluation.meta import bootstrap_counts as draw

    counts, _ = draw(n_segments, n_resamples, seed)
    counts.flags.writeable = False
    return counts


@dataclass(frozen=True, eq=False)
class ResampledOnce:
    """A score source whose resampled scores are known already (``samples``, ``M × K``, from the page's
    count matrix): the human side, bootstrapped once per criterion and systems, not per BLEU setting."""

    source: SegmentMeanSource
    samples: np.ndarray

    @property
    def names(self) -> tuple[str, ...]:
        return self.source.names

    @property
    def n_segments(self) -> int:
        return self.source.n_segments

    def observed(self) -> np.ndarray:
        return self.source.observed()

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        return self.samples


@st.cache_data(max_entries=16, show_spinner=False)
def human_resampled(
    study_key: str,
    names: tuple[str, ...],
    criterion: str,
    n_resamples: int,
    seed: int,
    _human_seg: np.ndarray,
    _counts: np.ndarray,
    _human_sys: np.ndarray | None = None,
) -> np.ndarray:
    """The human system scores on every resample (``M × K``: means of the resampled segments' scores,
    shifted to the official system scores ``_human_sys`` where the study has them:
    :func:`bleu_core.evaluation.meta.human_source`); keyed without any BLEU setting."""
    return SegmentMeanSource(names, _human_seg, _human_sys).resampled(_counts)


@st.cache_data(max_entries=16, show_spinner=False)
def system_level(
    stats_key: str,
    names: tuple[str, ...],
    criterion: str,
    options_key: str,
    n_resamples: int,
    seed: int,
    _stats: dict[str, Any],
    _options: BleuOptions,
    _human_seg: np.ndarray | None,
    _human_sys: np.ndarray,
    _counts: np.ndarray | None = None,
) -> dict[str, Any]:
    """System-level correlations of BLEU with ``criterion`` (bootstrap over segments, both re-scored).

    The human side is :func:`bleu_core.evaluation.meta.human_source` of the segment scores and the study's
    system scores, as in ``meta``: the official system scores where the study has them, the segments
    resampled around them; Fisher's z interval only when there are no segment scores. ``_counts``: the
    page's count matrix (:func:`bootstrap_counts` of ``n_resamples`` and ``seed``); the human side's
    resamples then come from :func:`human_resampled` (cached across BLEU settings)."""
    bleu = BleuSource(stack_systems(_stats), _options)
    human: Any = None if _human_seg is None else human_source(names, _human_seg, _human_sys)
    if human is not None and _counts is not None:
        samples = human_resampled(
            stats_key, names, criterion, n_resamples, seed, _human_seg, _counts, _human_sys
        )
        human = ResampledOnce(human, samples)
    return system_correlations(
        bleu, human, human_scores=_human_sys, n_resamples=n_resamples, seed=seed, counts=_counts
    )


def bleu_system_correlations(
    scores: Any, names: tuple[str, ...], criterion: str, n_resamples: int, seed: int
) -> dict[str, Any]:
    """Corpus BLEU of ``names`` against ``criterion`` at system level, with its interval: what the
    Correlation and BLEU vs human pages show (``scores``: :class:`ui.app.context.Scores`). The human
    side is the study's system scores with the segment scores resampled around them
    (:func:`bleu_core.evaluation.meta.human_source`), as ``python -m bleu_core meta`` computes it."""
    study = scores.study
    rows = [scores.system_index(s) for s in names]
    human_seg = cache.segment_scores(scores.key, study, criterion)[rows]
    by_system = cache.cached_system_human_scores(scores.key, study, criterion)
    human_sys = np.array([by_system.get(s, np.nan) for s in names], dtype=np.float64)
    counts = bootstrap_counts(study.n_segments, n_resamples, seed) if n_resamples else None
    return system_level(
        scores.key, names, criterion, repr(scores.options), n_resamples, seed,
        {s: scores.stats[i] for s, i in zip(names, rows, strict=True)},
        scores.options, human_seg, human_sys, counts,
    )  # fmt: skip


@st.cache_data(max_entries=32, show_spinner=False)
def system_chance(
    stats_key: str,
    names: tuple[str, ...],
    criterion: str,
    options_key: str,
    seed: int,
    _results: tuple[Any, ...],
    _stats: dict[str, Any],
    _options: BleuOptions,
    _human_seg: np.ndarray,
    _human_sys: np.ndarray,
) -> tuple[Any, ...]:
    """The chance line of each system-level correlation in ``_results`` (``meta``'s: corpus BLEU and
    the observed human side, :func:`bleu_core.evaluation.meta.human_source`, permuted among the systems;
    :func:`ui.analysis.correlation_lines.chance_lines`). Keyed without the resampling settings."""
    from ui.analysis.correlation_lines import chance_lines

    bleu = BleuSource(stack_systems(_stats), _options).observed()
    human = human_source(names, _human_seg, _human_sys)
    observed = _human_sys if human is None else human.observed()
    return chance_lines(_results, bleu, observed, seed=seed)


def bleu_system_chance(
    scores: Any, names: tuple[str, ...], criterion: str, seed: int, results: Any
) -> tuple[Any, ...]:
    """The chance lines of :func:`bleu_system_correlations`' ``results`` (same inputs, cached)."""
    study = scores.study
    rows = [scores.system_index(s) for s in names]
    human_seg = cache.segment_scores(scores.key, study, criterion)[rows]
    by_system = cache.cached_system_human_scores(scores.key, study, criterion)
    human_sys = np.array([by_system.get(s, np.nan) for s in names], dtype=np.float64)
    return system_chance(
        scores.key, names, criterion, repr(scores.options), seed, tuple(results),
        {s: scores.stats[i] for s, i in zip(names, rows, strict=True)},
        scores.options, human_seg, human_sys,
    )  # fmt: skip


def segment_chance_job(
    results: Any,
    sentence: np.ndarray,
    human_seg: np.ndarray,
    seed: int,
    tau_like: dict[str, Any],
    progress: Any = None,
) -> tuple[Any, ...]:
    """The chance line of each segment-level correlation in ``results`` (sentence BLEU against
    ``human_seg``; ``tau_like``: the criterion's rule and selecting scores), in :data:`SEGMENT_JOBS`:
    100 permutations each, seconds on a WMT release."""
    from bleu_core.evaluation.correlation_chance import PERMUTATIONS
    from ui.analysis.correlation_lines import chance_lines

    if progress is not None:
        progress(0, 1, f"Chance lines: {len(results)} segment-level correlations of shuffled "
                 f"sentence BLEU ({PERMUTATIONS['segment']} permutations each)")  # fmt: skip
    return chance_lines(results, sentence, human_seg, seed=seed, **tau_like)


def reference_analysis(
    study: Study,
    names: tuple[str, ...],
    options: BleuOptions,
    draws: int,
    seed: int,
    progress: Any = None,
    current: tuple[tuple[str, ...], np.ndarray] | None = None,
) -> tuple[Any, Any]:
    """BLEU with every subset of the references, and one random reference per document ``draws`` times
    (paper §3). ``progress(done, total, message)``.

    The statistics of ``names`` are counted once per reference subset, all systems in one batched pass
    (:func:`bleu_core.study.output_rows.study_statistics`: missing outputs not counted); the subsets'
    BLEU and every draw's totals are sums of them (:func:`bleu_core.evaluation.references.subsets_from_totals`,
    :func:`~bleu_core.evaluation.references.random_reference_from_statistics`: the same results as
    :func:`~bleu_core.evaluation.reference_subsets` and :func:`~bleu_core.evaluation.random_reference_per_document`,
    which count every system on its own). ``current``: the page's statistics (``K × S × F`` at the
    options' order) with the references they were counted with, reused when those are all of them.
    The Correlation page runs this in the shared background thread (:func:`ui.app.background.result`).
    """
    from bleu_core.evaluation.references import (
        random_reference_from_statistics,
        subset_list,
        subsets_from_totals,
    )
    from bleu_core.study.output_rows import study_statistics

    refs = tuple(study.references)
    subsets = subset_list(refs)
    singles = [(r,) for r in refs]
    wanted = list(dict.fromkeys([*subsets, *singles]))
    reuse = current is not None and tuple(current[0]) == refs
    to_count = [sub for sub in wanted if not (reuse and sub == refs)]
    arrays: dict[tuple[str, ...], np.ndarray] = {refs: current[1]} if reuse else {}
    total = len(to_count) + 1
    for i, sub in enumerate(to_count):
        what = f"Reference subsets: counting {len(names)} systems × {study.n_segments:,} segments " \
               f"with {' + '.join(sub)} ({i + 1} of {len(to_count)})"  # fmt: skip
        if progress is not None:
            progress(i, total, what)
        arrays[sub] = study_statistics(study, names, sub, options)  # missing outputs not counted
    if progress is not None:
        progress(
            len(to_count), total, f"Reference subsets: {draws} draws of one reference per document"
        )
    result = subsets_from_totals(
        names, refs, {sub: arrays[sub].sum(axis=1) for sub in subsets}, options
    )
    if len(refs) < 2:
        return result, None
    single = random_reference_from_statistics(
        names,
        refs,
        np.stack([arrays[sub] for sub in singles], axis=1),
        arrays[refs].sum(axis=1),
        [seg.doc_id for seg in study.segments],
        options,
        n_draws=draws,
        seed=seed,
    )
    return result, single


SEGMENT_JOBS = BackgroundJobs(max_entries=16)
"""The segment-level bootstraps' own background thread (shared by all sessions): a second or two each
(vectorised), redone on every BLEU setting, so they do not queue behind the shared thread's long jobs
(chrF, TER, the reference subsets: a minute at 50 × 10,000)."""


def segment_level(
    key: Hashable,
    work: Callable[[Any], Any],
    pending: list | None,
    label: str = "segment-level correlations",
) -> Any:
    """The segment-level results of job ``key`` (``work(progress)`` started if new) from
    :data:`SEGMENT_JOBS`, as :func:`ui.app.background.result` does: with a ``pending`` list an unfinished
    job is appended to it and None returned; without one (AppTest) the call waits."""
    job = SEGMENT_JOBS.submit(key, work, label=label)
    if job.future.done() or pending is None:
        return job.future.result()
    pending.append(job)
    return None


def segment_level_job(
    sentence: np.ndarray,
    human_seg: np.ndarray,
    methods: tuple[tuple[str, str], ...],
    n_resamples: int,
    seed: int,
    progress: Any = None,
    counts: np.ndarray | None = None,
    threshold: float = WMT_DARR_THRESHOLD,
    tau_like: dict[str, Any] | None = None,
) -> Any:
    """:func:`bleu_core.evaluation.meta.segment_correlations` in the shared background thread (the Correlation page shows the system
    level meanwhile): seconds of item-level Kendall on a WMT release, minutes at 50 × 10,000."""
    if progress is not None:
        n_systems, n_segments = human_seg.shape
        progress(
            0,
            1,
            f"Segment-level correlations: {n_systems} systems × {n_segments:,} segments, "
            f"{n_resamples} resamples",
        )
    return segment_correlations(
        sentence,
        human_seg,
        methods=methods,
        n_resamples=n_resamples,
        seed=seed,
        counts=counts,
        threshold=threshold,
        **(tau_like or {}),  # the criterion's rule: bleu_core.evaluation.tau_like.study_tau_like
    )


def metric_sides(
    study_key: str,
    study: Study,
    metrics: tuple[str, ...],
    names: tuple[str, ...],
    options: BleuOptions,
    bleu: tuple[np.ndarray, np.ndarray],
    pending: list | None,
) -> dict[str, tuple[np.ndarray, np.ndarray]] | None:
    """``{metric: (system scores, segment scores)}`` of ``names`` for the Williams/permutation tests.

    BLEU is the page's own (``bleu``: the sidebar's corpus BLEU and sentence BLEU, as in the table above),
    never scored again through the metric registry. Any other metric comes from the shared metric cache
    (:func:`ui.app.analysis_cache.metric_scores`): TER, chrF, NIST… are scored in the background thread on a
    server; with a ``pending`` list the call does not wait and returns None while one is being scored.
    """
    from ui.app.analysis_cache import metric_scores

    others = tuple(m for m in metrics if m != "BLEU")
    found = metric_scores(
        study_key, study, others, options.tokenize, options.lowercase, pending=pending
    )
    if any(m not in found for m in others):
        return None
    sides = {"BLEU": bleu} if "BLEU" in metrics else {}
    for m in others:
        keep = [found[m].names.index(s) for s in names]
        sides[m] = (found[m].observed()[keep], found[m].segment[keep])
    return sides


@st.cache_data(max_entries=32, show_spinner=False)
def metric_tests(
    study_key: str,
    names: tuple[str, ...],
    criterion: str,
    first: str,
    other: str,
    score_keys: tuple[object, object],
    n_resamples: int,
    seed: int,
    _first: tuple[np.ndarray, np.ndarray],
    _other: tuple[np.ndarray, np.ndarray],
    _human_sys: np.ndarray,
    _human_seg: np.ndarray,
) -> Any:
    """:func:`ui.analysis.metric_pairs.metric_tests_frame` of ``first`` vs ``other``, keyed on what the two
    metrics' scores depend on (``score_keys``: see :func:`ui.app.analysis_cache.score_keys`; chrF's does
    not hold the BLEU tokenizer)."""
    from ui.analysis.metric_pairs import metric_tests_frame

    return metric_tests_frame(
        (first, *_first),
        (other, *_other),
        _human_sys,
        _human_seg,
        n_resamples=n_resamples,
        seed=seed,
    )
