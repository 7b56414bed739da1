"""Cached adapters between the app and :mod:`bleu_core`.

Every function here is a plain function wrapped in ``st.cache_data`` (or ``st.cache_resource`` for the
read-only demo studies), except the statistics (below): inputs are hashable, nothing inside calls ``st.*``.
A study is passed twice: as a short hashable ``study_key`` (``"demo:ted-en-de"``, ``"upload:<sha256>"``)
that Streamlit hashes, and as ``_study`` (leading underscore: not hashed) that the function reads.

What is cached on what:

* statistics: per (study, reference streams, tokenizer, lowercase), counted to order 10, in a store of
  their own (:data:`STATISTICS`, not ``st.cache_data``: shared without copying, and filled ahead of time
  for the other tokenizers by :func:`count_ahead`). Changing the weights, the smoothing, the
  brevity-penalty policy or the max order only re-scores the stored arrays (microseconds with
  :func:`bleu_core.score.bleu_from_stats`); a new tokenizer is counted once, usually before it is chosen.
* match provenance of one segment (per system), human scores (segment matrices, system means, rater
  groups), chart images.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import streamlit as st

from bleu_core.matches import match_provenance
from bleu_core.statistics import compute_system_statistics
from bleu_core.study import Study
from bleu_core.study.demo import load_demo
from bleu_core.study.file_roles import recognise_files
from bleu_core.study.loading import list_pairs, load_files
from bleu_core.study.model import LoadWarning
from bleu_core.tokenizers import TOKENIZER_NAMES
from ui.app.limits import UPLOAD_MAX_BYTES
from ui.app.prefetch import Prefetcher, ResultStore
from ui.app.prefetch import disabled as prefetch_disabled


@dataclass(frozen=True)
class SystemStatistics:
    """Per-segment sufficient statistics of every system of a study, against the same references.

    Attributes:
        systems: system names, in the study's order.
        array: float64 array of shape ``(systems, segments, 4 + 2N)``, read-only (shared by all sessions);
            ``array[i]`` is system i's :attr:`bleu_core.statistics.SegmentStatistics.array`.
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

COUNT_AHEAD_TOKENIZERS: tuple[str, ...] = ("13a", "intl", "char", "none", "paper", "zh")
"""The tokenizers counted ahead, in this order (``zh`` last: it tokenises line by line, the slowest)."""

COUNT_AHEAD_DELAY_S = 0.3
"""Seconds between a page asking for statistics and counting ahead (the page finishes drawing first)."""

COUNT_AHEAD_MAX_CHARACTERS = 10_000_000
"""Larger studies are counted only when asked for (~0.4 s a tokenizer at this size: not worth guessing)."""


def _count_statistics(
    study: Study, references: tuple[str, ...], tokenize: str, lowercase: bool, max_order: int
) -> SystemStatistics:
    systems = tuple(study.systems)
    refs = [study.references[name] for name in references]
    counted = compute_system_statistics(
        {name: study.systems[name] for name in systems},
        refs,
        max_order=max_order,
        tokenize=tokenize,
        lowercase=lowercase,
    )
    array = np.stack([counted[name].array for name in systems])
    array.flags.writeable = False  # shared by every session: nobody may change it
    return SystemStatistics(systems, array, tuple(references), max_order)


def _statistics_job(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    max_order: int,
) -> tuple[tuple[str, tuple[str, ...], str, bool, int], partial[SystemStatistics]]:
    """The store's key for these settings and the function that counts them."""
    key = _statistics_key(study_key, references, tokenize, lowercase, max_order)
    return key, partial(_count_statistics, study, key[1], tokenize, lowercase, max_order)


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
) -> SystemStatistics:
    """Sufficient statistics of every system of the study (one batched pass over all outputs).

    Stored in :data:`STATISTICS` (shared, read-only arrays): the first caller counts, a caller asking while
    the statistics are being counted (by a page or ahead, see :func:`count_ahead`) waits for them.
    """
    return STATISTICS.get(
        *_statistics_job(study_key, study, references, tokenize, lowercase, max_order)
    )


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
    (``BLEU_STUDY_NO_PREFETCH=1``) or the study has more than :data:`COUNT_AHEAD_MAX_CHARACTERS`.
    """
    if prefetch_disabled() or study_characters(study) > COUNT_AHEAD_MAX_CHARACTERS:
        return None
    jobs = [
        _statistics_job(study_key, study, references, name, lowercase, max_order)
        for name in COUNT_AHEAD_TOKENIZERS
        if name in TOKENIZER_NAMES
    ]
    return PREFETCHER.schedule(jobs, delay=COUNT_AHEAD_DELAY_S)


def count_current(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    max_order: int,
) -> threading.Event | None:
    """Count the statistics of the current settings in the background thread (issue 14).

    The Study page needs no statistics: while the user reads it, they are counted, and the first analysis
    page finds them counted, or waits for the count under way instead of starting another. Any study size
    (the other tokenizers of :func:`count_ahead` are counted only for studies up to
    :data:`COUNT_AHEAD_MAX_CHARACTERS`). None when switched off or already counted.
    """
    if prefetch_disabled() or statistics_ready(
        study_key, references, tokenize, lowercase, max_order
    ):
        return None
    job = _statistics_job(study_key, study, references, tokenize, lowercase, max_order)
    return PREFETCHER.schedule([job])


def study_characters(study: Study) -> int:
    """Characters in the study's system outputs and references (what counting statistics reads).

    >>> from bleu_core.study.model import Segment
    >>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["ab", "c"]}, {"A": ["abc", None]})
    >>> study_characters(study)
    6
    """
    streams = [*study.systems.values(), *study.references.values()]
    return sum(len(text) for stream in streams for text in stream if text)


@st.cache_data(max_entries=512, show_spinner=False)
def segment_matches(
    hypothesis: str,
    references: tuple[str, ...],
    max_order: int,
    tokenize: str,
    lowercase: bool,
):
    """Match provenance of one hypothesis against its references (see :mod:`bleu_core.matches`)."""
    return match_provenance(
        hypothesis, list(references), max_order=max_order, tokenize=tokenize, lowercase=lowercase
    )


@st.cache_data(max_entries=64, show_spinner=False)
def segment_scores(study_key: str, _study: Study, criterion: str) -> np.ndarray:
    """Human segment scores (systems × segments, nan where unrated) for one criterion."""
    return np.asarray(_study.segment_scores(criterion), dtype=float)


@st.cache_data(max_entries=256, show_spinner=False)
def segment_matches_of_systems(
    study_key: str,
    _study: Study,
    index: int,
    systems: tuple[str, ...],
    references: tuple[str, ...],
    max_order: int,
    tokenize: str,
    lowercase: bool,
) -> dict[str, Any]:
    """Match provenance of segment ``index`` of each of ``systems`` against ``references`` (stream names).

    One cache look-up for the Explore page's comparison table instead of one per system (each look-up
    hashes its arguments: ~0.5 ms apiece on every re-run).
    """
    refs = [_study.references[r][index] for r in references]
    refs = [r for r in refs if r is not None]
    return {
        name: match_provenance(
            _study.systems[name][index] or "",
            refs,
            max_order=max_order,
            tokenize=tokenize,
            lowercase=lowercase,
        )
        for name in systems
    }


@st.cache_data(max_entries=64, show_spinner=False)
def system_human_scores(
    study_key: str, _study: Study, criterion: str, group: str | None = None
) -> dict[str, float]:
    """One human score per system (:func:`ui.app.frames.system_human_scores`; ~15 ms over 20k ratings)."""
    from ui.app.frames import system_human_scores as compute

    return compute(_study, criterion, group)


@st.cache_data(max_entries=64, show_spinner=False)
def rater_groups(study_key: str, _study: Study, criterion: str) -> list[str]:
    """Distinct rater groups of ``criterion`` (:func:`ui.app.frames.rater_groups`)."""
    from ui.app.frames import rater_groups as compute

    return compute(_study, criterion)


@st.cache_resource(max_entries=4, show_spinner="Loading the demo study…")
def demo_study(name: str) -> Study:
    """A bundled demo study (read-only, shared by all sessions)."""
    return load_demo(name)


@dataclass(frozen=True)
class UploadResult:
    """A study loaded from uploaded files, with the loader's warnings and each input's sha256."""

    study: Study
    warnings: tuple[LoadWarning, ...]
    inputs: tuple[tuple[str, int, str], ...]  # (file name, size in bytes, sha256)
    key: str


@st.cache_data(max_entries=8, show_spinner="Loading the uploaded study…")
def load_uploaded(
    files: tuple[tuple[str, bytes], ...],
    pair: str | None,
    roles: tuple[tuple[str, str], ...] = (),
) -> UploadResult:
    """Load uploaded files with :func:`bleu_core.study.loading.load_files`, from memory.

    One file is loaded as it is (a long table, a saved study, a WMT or plain-text study .zip, an MQM
    TSV…); several files are a WMT release (with a WMT source file) or a plain-text study whose roles come
    from the names or from ``roles`` ((file name, role) pairs chosen in the upload form). Every message
    names the files as uploaded. Errors are :class:`bleu_core.errors.BleuStudyError` with a message for
    the user. Work is bounded: :data:`ui.app.limits.UPLOAD_MAX_MB` per file read and
    lines of at most :data:`bleu_core.limits.MAX_LINE_CHARS` characters, checked before any tokenising.
    """
    digest = hashlib.sha256()
    inputs = []
    for name, data in files:
        sha = hashlib.sha256(data).hexdigest()
        digest.update(name.encode("utf-8") + b"\0" + sha.encode("ascii") + b"\0")
        inputs.append((name, len(data), sha))
    digest.update(repr((pair or "", sorted(roles))).encode("utf-8"))
    result = load_files(
        list(files), roles=dict(roles) or None, pair=pair or None, max_bytes=UPLOAD_MAX_BYTES
    )
    return UploadResult(
        result.study, result.warnings, tuple(inputs), "upload:" + digest.hexdigest()
    )


@st.cache_data(max_entries=16, show_spinner=False)
def upload_pairs(
    files_id: tuple[tuple[str, int, str], ...], _files: tuple[tuple[str, bytes], ...]
) -> list[str]:
    """The language pairs of uploaded files (a WMT release, zipped or not, or WMT-named files side by
    side), sorted; ``files_id`` identifies the upload (names, sizes, uploader ids) without hashing it."""
    pairs = list_pairs(list(_files))
    return pairs or recognise_files([name for name, _ in _files]).pairs


@st.cache_data(max_entries=64, show_spinner=False)
def chart_png(spec_json: str, scale: float = 2.0) -> bytes:
    """A Vega-Lite chart (JSON) rendered to PNG with vl-convert."""
    import vl_convert as vlc

    return vlc.vegalite_to_png(spec_json, scale=scale)


@st.cache_data(max_entries=64, show_spinner=False)
def chart_svg(spec_json: str) -> str:
    """A Vega-Lite chart (JSON) rendered to SVG with vl-convert."""
    import vl_convert as vlc

    return vlc.vegalite_to_svg(spec_json)
