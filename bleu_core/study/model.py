"""The study model: segments, reference streams, systems, criteria and human ratings.

A *study* is what a researcher or teacher brings to bleu-study: the segments of a test set (ids, optional
document ids and source sentences), one or more **reference streams** (a stream is one complete human
translation of the test set, one line per segment, as in sacrebleu), the outputs of several **systems**
(human translations can be systems too: they are listed in ``human_systems``), and **human ratings** in
long form: one :class:`Rating` per (system, segment, rater, criterion).

Ratings may be sparse (not every system x segment is rated), there may be several raters per item, and a
rating with ``segment_id=None`` is a *system-level* score (e.g. a published DA or MQM table).

>>> study = Study(
...     name="toy",
...     segments=(Segment("1"), Segment("2")),
...     references={"ref": ["the cat sat", "a dog barked"]},
...     systems={"A": ["the cat sat", "a dog"], "B": ["cat", "dog barked"]},
...     criteria={"adequacy": Criterion("adequacy", scale=(1.0, 5.0))},
...     ratings=(
...         Rating("A", "1", "r1", None, "adequacy", 5.0),
...         Rating("A", "1", "r2", None, "adequacy", 4.0),
...         Rating("B", "2", "r1", None, "adequacy", 3.0),
...     ),
... )
>>> study.segment_scores("adequacy")          # systems x segments, mean over raters
array([[4.5, nan],
       [nan, 3. ]])
>>> study.system_scores("adequacy")
{'A': 4.5, 'B': 3.0}
>>> study.segment_index("2"), study.n_segments
(1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from bleu_core.study.spans import ErrorSpan

__all__ = ["Criterion", "LoadResult", "LoadWarning", "Rating", "Segment", "Study"]


@dataclass(frozen=True)
class Segment:
    """One unit of the test set (usually a sentence).

    ``id`` is unique within the study; ``doc_id`` groups segments into documents (talks, news
    articles); ``source`` is the source-language text when known; ``domain`` names the part of the test
    set the document belongs to (WMT24+: news, social, speech, literary), when the release says.
    """

    id: str
    doc_id: str | None = None
    source: str | None = None
    domain: str | None = None


@dataclass(frozen=True)
class Criterion:
    """A human-judgment criterion such as ``adequacy``, ``fluency``, ``mqm`` or ``da``.

    ``higher_is_better`` says which direction is good (MQM scores are minus a weighted error count, so higher,
    i.e. closer to 0, is better; an error *count* would be lower-is-better). ``scale`` is the closed interval
    ``(low, high)`` every score must lie in, or ``None`` when unbounded.

    >>> Criterion("adequacy", scale=(1.0, 5.0)).contains(6.0)
    False
    """

    name: str
    higher_is_better: bool = True
    scale: tuple[float, float] | None = None
    description: str = ""

    def contains(self, score: float) -> bool:
        """True when ``score`` lies on the declared scale (always True when there is no scale)."""
        if self.scale is None:
            return True
        low, high = self.scale
        return low <= score <= high


@dataclass(frozen=True)
class Rating:
    """One human score: ``system`` on ``segment_id`` by ``rater`` (of rater ``group``) for ``criterion``.

    ``segment_id=None`` marks a system-level score. ``rater`` and ``group`` are ``None`` when unknown.
    """

    system: str
    segment_id: str | None
    rater: str | None
    group: str | None
    criterion: str
    score: float


@dataclass(frozen=True)
class LoadWarning:
    """Something suspicious found while loading, with the fix; returned to the caller, never printed.

    ``code`` is a stable short identifier (e.g. ``"unrated-segments"``, ``"looks-tokenized"``) that callers
    can filter on; ``message`` is for people.
    """

    code: str
    message: str
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = ", ".join(
            part for part in (self.file, None if self.line is None else f"line {self.line}") if part
        )
        return f"{where}: {self.message}" if where else self.message


@dataclass
class Study:
    """Segments, reference streams, system outputs and human ratings of one test set.

    ``references[name][i]`` and ``systems[name][i]`` are the texts of segment ``segments[i]``. A text is
    ``None`` where it is missing (a reference stream that does not cover every segment, a system that did
    not translate a segment). Use :func:`bleu_core.study.validation.validate_study` (done by every loader)
    to check that everything lines up.
    """

    name: str
    segments: tuple[Segment, ...]
    references: dict[str, list[str | None]]
    systems: dict[str, list[str | None]]
    human_systems: frozenset[str] = frozenset()
    criteria: dict[str, Criterion] = field(default_factory=dict)
    ratings: tuple[Rating, ...] = ()
    source_lang: str | None = None
    target_lang: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    #: MQM error spans (:mod:`bleu_core.study.spans`), checked by ``validate_study``.
    error_spans: tuple[ErrorSpan, ...] = ()
    #: Scores of metrics computed elsewhere (COMET...): name -> ``AttachedMetricScores``
    #: (:mod:`bleu_core.study.metric_scores`); attach with ``attach_metric_scores``.
    metric_scores: dict[str, Any] = field(default_factory=dict)
    _index: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    # segment_scores per criterion, valid while ratings, systems and segments are the same objects
    _scores: dict[str, tuple[Any, np.ndarray]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    # ---------------------------------------------------------------- segments
    @property
    def n_segments(self) -> int:
        """Number of segments."""
        return len(self.segments)

    @property
    def segment_ids(self) -> list[str]:
        """Segment ids in study order."""
        return [segment.id for segment in self.segments]

    def segment_index(self, seg_id: str) -> int:
        """Position of segment ``seg_id`` (raises ``KeyError`` for an unknown id)."""
        return self._segment_positions()[seg_id]

    def _segment_positions(self) -> dict[str, int]:
        """Segment id -> position, built once (rebuilt when ``segments`` changes length)."""
        if self._index is None or len(self._index) != len(self.segments):
            self._index = {segment.id: i for i, segment in enumerate(self.segments)}
        return self._index

    def doc_ids(self) -> list[str]:
        """Distinct document ids in order of first appearance (empty when no segment has one)."""
        seen: dict[str, None] = {}
        for segment in self.segments:
            if segment.doc_id is not None:
                seen.setdefault(segment.doc_id, None)
        return list(seen)

    def sources(self) -> list[str | None]:
        """The source sentences (``None`` where unknown), aligned with ``segments``."""
        return [segment.source for segment in self.segments]

    # ---------------------------------------------------------------- texts
    def reference_streams(self, names: Iterable[str] | None = None) -> list[list[str | None]]:
        """Reference streams in sacrebleu's convention (``streams[k][i]``), all of them by default."""
        chosen = list(self.references) if names is None else list(names)
        return [self.references[name] for name in chosen]

    @property
    def machine_systems(self) -> list[str]:
        """System names that are not human translations, in ``systems`` order."""
        return [name for name in self.systems if name not in self.human_systems]

    # ---------------------------------------------------------------- ratings
    def rated_items(self, criterion: str) -> int:
        """Number of distinct (system, segment) pairs with at least one segment-level rating."""
        return len(
            {
                (r.system, r.segment_id)
                for r in self.ratings
                if r.criterion == criterion and r.segment_id is not None
            }
        )

    def segment_scores(self, criterion: str) -> np.ndarray:
        """Mean score over raters per system and segment: array (systems x segments), ``nan`` where unrated.

        Rows follow the order of ``systems``, columns the order of ``segments``. System-level ratings are
        ignored here (see :meth:`system_scores`).
        Computed once per criterion (a loop over every rating) while ``ratings``, ``systems`` and
        ``segments`` stay the same; each call returns a fresh copy.
        """
        self._check_criterion(criterion)
        stamp = (self.ratings, len(self.ratings), tuple(self.systems), self.segments)
        # setdefault: also works on studies unpickled from versions without the field
        cache = self.__dict__.setdefault("_scores", {})
        hit = cache.get(criterion)
        if hit is not None and hit[0][0] is stamp[0] and hit[0][1:] == stamp[1:]:
            return hit[1].copy()
        result = self._segment_scores(criterion)
        cache[criterion] = (stamp, result)
        return result.copy()

    def _segment_scores(self, criterion: str) -> np.ndarray:
        # One pass over the ratings collects a flat cell number (system row x n + segment column) and
        # the score of each segment-level rating; np.bincount then adds the scores of each cell in rating
        # order, starting from 0.0, exactly as adding them one by one would.
        systems = {name: i for i, name in enumerate(self.systems)}
        index, n = self._segment_positions(), len(self.segments)
        cells: list[int] = []
        scores: list[float] = []
        add_cell, add_score = cells.append, scores.append
        for rating in self.ratings:
            if rating.criterion == criterion and rating.segment_id is not None:
                add_cell(systems[rating.system] * n + index[rating.segment_id])
                add_score(rating.score)
        size = len(systems) * n
        flat = np.array(cells, dtype=np.intp)
        total = np.bincount(flat, weights=np.array(scores, dtype=float), minlength=size)
        count = np.bincount(flat, minlength=size)
        result = np.full(size, np.nan)
        rated = count > 0
        result[rated] = total[rated] / count[rated]
        return result.reshape(len(systems), n)

    def system_scores(self, criterion: str) -> dict[str, float]:
        """One human score per system (every system, ``nan`` when unrated).

        A system with system-level ratings gets their mean; otherwise the mean over its rated segments of the
        per-segment means (the usual "average of segment scores" of WMT and Google's MQM).
        """
        self._check_criterion(criterion)
        level: dict[str, list[float]] = {}
        for rating in self.ratings:
            if rating.criterion == criterion and rating.segment_id is None:
                level.setdefault(rating.system, []).append(rating.score)
        by_segment = self.segment_scores(criterion)
        result: dict[str, float] = {}
        for i, name in enumerate(self.systems):
            if name in level:
                result[name] = math.fsum(level[name]) / len(level[name])
            else:
                row = by_segment[i]
                rated = row[~np.isnan(row)]
                result[name] = float(rated.mean()) if rated.size else math.nan
        return result

    def subset(self, systems: Iterable[str] | None = None, n_segments: int | None = None) -> Study:
        """A smaller study: only ``systems`` (default all) and the first ``n_segments`` segments, with their
        ratings (system-level ratings are kept for the chosen systems).

        >>> from bleu_core.study.demo import load_demo
        >>> small = load_demo("ted-en-de").subset(["Nemo", "UEdin"], 10)
        >>> small.n_segments, list(small.systems)
        (10, ['Nemo', 'UEdin'])
        """
        names = list(self.systems) if systems is None else list(systems)
        for name in names:
            if name not in self.systems:
                from bleu_core.errors import StudyError

                raise StudyError(
                    f"unknown system {name!r}; the study has: {', '.join(self.systems)}"
                )
        n = self.n_segments if n_segments is None else max(0, min(n_segments, self.n_segments))
        segments = self.segments[:n]
        ids = {seg.id for seg in segments}
        chosen = set(names)
        return replace(
            self,
            segments=segments,
            references={k: v[:n] for k, v in self.references.items()},
            systems={k: self.systems[k][:n] for k in names},
            human_systems=frozenset(self.human_systems & chosen),
            ratings=tuple(
                r
                for r in self.ratings
                if r.system in chosen and (r.segment_id is None or r.segment_id in ids)
            ),
            error_spans=tuple(
                span
                for span in self.error_spans
                if span.system in chosen and span.segment_id in ids
            ),
            metric_scores={
                name: scores.subset(chosen, n, len({s.doc_id for s in segments if s.doc_id}))
                for name, scores in self.metric_scores.items()
            },
        )

    def _check_criterion(self, criterion: str) -> None:
        if criterion not in self.criteria:
            from bleu_core.errors import StudyError

            known = ", ".join(self.criteria) or "none"
            raise StudyError(
                f"unknown criterion {criterion!r}; this study has: {known}",
                file=self.name,
            )


@dataclass(frozen=True)
class LoadResult:
    """What :func:`bleu_core.study.load_study` returns: the study and the warnings found while loading."""

    study: Study
    warnings: tuple[LoadWarning, ...] = ()

    def warning_codes(self) -> list[str]:
        """The ``code`` of every warning, in order."""
        return [w.code for w in self.warnings]
