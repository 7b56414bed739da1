"""Documents and domains: BLEU and human scores at the level of a document, a domain or a part of a study.

A segment may name its document (``doc_id``: a talk, a news article) and its domain (``domain``: WMT24+
groups documents into news, social, speech and literary). Three levels of granularity then make sense
("sentence / document / corpus"):

* **sentence** (segment): one BLEU and one human score per translated segment;
* **document**: BLEU of a document = BLEU of the *sums* of its segments' sufficient statistics (clipped
  matches, totals and lengths added over the document, then scored once, exactly as corpus BLEU of the
  document's segments: it is **not** the mean of sentence BLEU); its human score is the mean over the
  document's rated segments of the per-segment means over raters;
* **corpus**: the same over the whole test set (or a domain of it).

Statistics are additive, so grouping is a sum of rows: the statistics of the domains add up to those of
the corpus (tested with Hypothesis), and a document's BLEU equals sacrebleu's ``corpus_bleu`` of its
segments (tested on the TED demo).

>>> import numpy as np
>>> from bleu_core.study.model import Segment
>>> segments = (Segment("1", "d1", domain="news"), Segment("2", "d1", domain="news"),
...             Segment("3", "d2", domain="speech"))
>>> groups = grouping(segments, "document")
>>> groups.names, groups.codes.tolist()
(('d1', 'd2'), [0, 0, 1])
>>> stats = np.arange(18.0).reshape(1, 3, 6)      # 1 system x 3 segments x 6 columns
>>> group_statistics(stats, groups)[0].tolist()   # rows of d1 added, d2 alone
[[6.0, 8.0, 10.0, 12.0, 14.0, 16.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0]]
>>> group_means(np.array([[1.0, np.nan, 4.0]]), groups).tolist()   # unrated segments do not count
[[1.0, 4.0]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import BleuArrays, bleu_from_stats
from bleu_core.errors import StudyError
from bleu_core.study.model import Segment, Study

__all__ = [
    "LEVELS",
    "GroupedBleu",
    "Grouping",
    "domain_names",
    "group_bleu",
    "group_means",
    "group_statistics",
    "grouping",
    "restrict_to_domain",
    "restrict_to_positions",
]

LEVELS = ("sentence", "document", "corpus")
"""The granularities of a BLEU-vs-human comparison, finest first."""


@dataclass(frozen=True)
class Grouping:
    """Segments put into groups (documents or domains).

    ``names`` are the groups in order of first appearance; ``codes[i]`` is the group of segment ``i``
    (an index into ``names``), ``-1`` for a segment that names no group (it is left out of every group).
    """

    level: str
    names: tuple[str, ...]
    codes: np.ndarray

    @property
    def n_groups(self) -> int:
        """Number of groups."""
        return len(self.names)

    def positions(self, name: str) -> np.ndarray:
        """Positions (segment indices, ascending) of the segments of group ``name``."""
        return np.flatnonzero(self.codes == self.names.index(name))


def grouping(segments: Sequence[Segment], level: str) -> Grouping:
    """Group ``segments`` by ``level``: ``"document"`` (``doc_id``) or ``"domain"`` (``domain``).

    A segment without a document id (or domain) gets code ``-1``. Raises :class:`StudyError` for another
    level.
    """
    if level not in ("document", "domain"):
        raise StudyError(f"unknown grouping level {level!r}: use 'document' or 'domain'")
    labels = [s.doc_id if level == "document" else s.domain for s in segments]
    index: dict[str, int] = {}
    codes = np.fromiter(
        (-1 if label is None else index.setdefault(label, len(index)) for label in labels),
        dtype=np.intp,
        count=len(labels),
    )
    return Grouping(level, tuple(index), codes)


def domain_names(study: Study) -> list[str]:
    """The study's domains in order of first appearance (empty when no segment names one).

    >>> from bleu_core.study.model import Segment, Study
    >>> domain_names(Study("t", (Segment("1", domain="news"), Segment("2")), {}, {}))
    ['news']
    """
    return list(grouping(study.segments, "domain").names)


def group_statistics(stats: np.ndarray, groups: Grouping) -> np.ndarray:
    """Statistics summed per group: ``(systems, segments, F)`` -> ``(systems, groups, F)``.

    The sums are exact (the statistics are integer counts stored in float64), so corpus BLEU of a group
    is computed from them exactly as from its segments. Segments of no group are left out.
    """
    array = np.asarray(stats, dtype=float)
    if array.shape[1] != groups.codes.size:
        raise StudyError(
            f"statistics cover {array.shape[1]} segments but the grouping has {groups.codes.size}"
        )
    out = np.zeros((array.shape[0], groups.n_groups, array.shape[2]))
    member = groups.codes >= 0
    if member.any():
        order = np.argsort(groups.codes[member], kind="stable")
        codes = groups.codes[member][order]
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        out[:, codes[starts]] = np.add.reduceat(array[:, member][:, order], starts, axis=1)
    return out


def group_means(scores: np.ndarray, groups: Grouping) -> np.ndarray:
    """Mean of the finite values of each group: ``(systems, segments)`` -> ``(systems, groups)``.

    With ``scores`` = :meth:`Study.segment_scores` (mean over raters per segment, NaN where unrated) this
    is a document's (or domain's) human score: the mean over its rated segments. NaN for a group without
    a rated segment.
    """
    array = np.asarray(scores, dtype=float)
    finite = np.isfinite(array)
    member = groups.codes >= 0
    total = np.zeros((array.shape[0], groups.n_groups))
    count = np.zeros((array.shape[0], groups.n_groups))
    codes = groups.codes[member]
    np.add.at(total.T, codes, np.where(finite, array, 0.0)[:, member].T)
    np.add.at(count.T, codes, finite[:, member].T.astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1.0), math.nan)


@dataclass(frozen=True)
class GroupedBleu:
    """BLEU of every system on every group: ``stats`` ``(systems, groups, F)`` and its ``bleu`` (a
    :class:`~bleu_core.engine.score.BleuArrays` with leading shape ``(systems, groups)``; ``bleu.score`` is
    0-100)."""

    groups: Grouping
    stats: np.ndarray
    bleu: BleuArrays

    @property
    def names(self) -> tuple[str, ...]:
        """The groups' names (columns of the arrays)."""
        return self.groups.names


def group_bleu(stats: np.ndarray, groups: Grouping, options: BleuOptions) -> GroupedBleu:
    """Corpus BLEU of each group for each system (statistics summed per group, then scored once).

    ``stats``: ``(systems, segments, F)`` with at least ``options.statistics_order``; a group's BLEU is
    sacrebleu's ``corpus_bleu`` of its segments.
    """
    summed = group_statistics(stats, groups)
    return GroupedBleu(groups, summed, bleu_from_stats(summed, options))


def restrict_to_domain(study: Study, domain: str) -> Study:
    """The part of ``study`` in ``domain``: its segments, texts, segment ratings, error spans, metric
    scores. Raises :class:`StudyError` naming the study's domains when ``domain`` is not one of them.

    System-level ratings (and system-level metric scores) describe the whole test set, so they are left
    out: a domain's human score is the mean over its own rated segments.
    """
    groups = grouping(study.segments, "domain")
    if domain not in groups.names:
        known = ", ".join(groups.names) or "none (no segment names a domain)"
        raise StudyError(
            f"unknown domain {domain!r}; the study's domains: {known}", file=study.name
        )
    return restrict_to_positions(study, groups.positions(domain), name=f"{study.name} · {domain}")


def restrict_to_positions(
    study: Study, positions: Sequence[int] | np.ndarray, *, name: str = ""
) -> Study:
    """The study with only the segments at ``positions`` (ascending, as in the study), like
    :meth:`Study.subset` but for any set of segments. Segment-level ratings, error spans and segment
    or document metric scores of those segments are kept; system-level ones are left out. So are the
    ratings and spans of the reference streams kept aside in ``metadata["reference_ratings"]`` and
    ``["reference_spans"]`` (rows whose second field is the segment id)."""
    keep = [int(p) for p in positions]
    segments = tuple(study.segments[p] for p in keep)
    ids = {s.id for s in segments}

    def cut(texts: list[str | None]) -> list[str | None]:
        return [texts[p] for p in keep]

    return replace(
        study,
        name=name or study.name,
        segments=segments,
        references={k: cut(v) for k, v in study.references.items()},
        systems={k: cut(v) for k, v in study.systems.items()},
        ratings=tuple(r for r in study.ratings if r.segment_id in ids),
        error_spans=tuple(s for s in study.error_spans if s.segment_id in ids),
        metadata={
            key: [row for row in value if row[1] in ids]
            if key in ("reference_ratings", "reference_spans") and value
            else value
            for key, value in study.metadata.items()
        },
        metric_scores={
            metric: part
            for metric, scores in study.metric_scores.items()
            if (part := _metric_part(scores, study, keep, segments)).levels
        },
    )


def _metric_part(scores: Any, study: Study, keep: list[int], segments: tuple[Segment, ...]) -> Any:
    """Attached metric scores (:class:`~bleu_core.study.metric_scores.AttachedMetricScores`) of the
    segments at ``keep``: their segment scores and the scores of their documents; no system level."""
    docs = study.doc_ids()
    kept_docs = {s.doc_id for s in segments if s.doc_id is not None}
    doc_positions = [k for k, doc in enumerate(docs) if doc in kept_docs]
    segment = None
    if scores.segment is not None:
        segment = {k: tuple(v[p] for p in keep) for k, v in scores.segment.items()}
    document = None
    if scores.document is not None:
        document = {k: tuple(v[p] for p in doc_positions) for k, v in scores.document.items()}
    return replace(scores, system=None, segment=segment, document=document)
