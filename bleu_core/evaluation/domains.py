"""BLEU against human scores per domain and at the three granularities (sentence, document, corpus).

WMT reports human scores and rankings per domain (news, social, speech, literary) as well as overall, and a
metric can track the raters in one domain and not in another. :func:`compare_by_domain` gives, for every
domain, each system's BLEU on that domain (its statistics summed, scored once), its human score there (mean
over its rated segments of that domain) and the system-level correlation of the two.

:func:`bleu_human_pairs` pairs BLEU with human scores at one granularity (the lecture notes' "sentence /
document / corpus"): a segment's BLEU (sacrebleu's ``sentence_bleu``, as on every page) with its mean
rating, a document's BLEU (statistics summed over its segments) with the mean of its rated segments, or a
system's corpus BLEU with its system score.
Coarser units average out the noise of single ratings and of sentence BLEU: correlations usually grow from
sentence to document to corpus, and so does what a single number hides.

>>> from bleu_core.engine.options import BleuOptions
>>> from bleu_core.engine.statistics import compute_system_statistics
>>> from bleu_core.study.model import Criterion, Rating, Segment, Study
>>> study = Study(
...     "toy", (Segment("1", "d1", domain="news"), Segment("2", "d2", domain="talk")),
...     {"ref": ["a cat sat on the mat", "the dog barked at me"]},
...     {"A": ["a cat sat on the mat", "the dog barked at him"], "B": ["a cat sat", "a dog"],
...      "C": ["the cat sat on a mat", "dog barked at me"]},
...     criteria={"da": Criterion("da", scale=(0.0, 100.0))},
...     ratings=tuple(Rating(s, seg, None, None, "da", v) for s, seg, v in
...                   [("A", "1", 90), ("A", "2", 70), ("B", "1", 30), ("B", "2", 10), ("C", "1", 60), ("C", "2", 80)]),
... )
>>> stats = compute_system_statistics(study.systems, [study.references["ref"]], max_order=4)
>>> array = np.stack([stats[s].array for s in study.systems])
>>> result = compare_by_domain(study, array, BleuOptions(), "da")
>>> result.domains, result.human[:, 0].tolist()
(('news', 'talk'), [90.0, 30.0, 60.0])
>>> result.bleu[:, 0].round(2).tolist()        # sacrebleu 2.6 corpus_bleu gives 100.0, 0.0, 35.93
[100.0, 0.0, 35.93]
>>> round(result.correlations["news"].statistic, 3)  # scipy.stats.pearsonr of those and 90, 30, 60
0.987
>>> pairs = bleu_human_pairs(study, array, BleuOptions(), "da", level="document")
>>> pairs.metric.size, pairs.human.tolist()
(6, [90.0, 70.0, 30.0, 10.0, 60.0, 80.0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.segment_level import segment_bleu
from bleu_core.errors import StudyError
from bleu_core.study.granularity import LEVELS, group_bleu, group_means, grouping
from bleu_core.study.model import Study
from bleu_core.study.output_rows import without_missing

from .correlation import CorrelationResult, correlation

__all__ = ["DomainComparison", "LevelPairs", "bleu_human_pairs", "compare_by_domain"]


@dataclass(frozen=True)
class LevelPairs:
    """BLEU (0-100) and human score of every rated unit at one granularity, as two aligned 1-D arrays.

    ``level`` is ``sentence``, ``document`` or ``corpus``; the units are (system, segment), (system,
    document) or systems; ``units`` counts the units before unrated ones were dropped.
    """

    level: str
    metric: np.ndarray
    human: np.ndarray
    units: int

    def correlation(self, method: str = "pearson") -> CorrelationResult:
        """Pearson, Spearman or Kendall tau-b of the pairs (scipy's two-sided p-value)."""
        return correlation(self.metric, self.human, method)


def _rows(study: Study, systems: Sequence[str] | None) -> list[int]:
    names = list(study.systems)
    chosen = names if systems is None else list(systems)
    unknown = [s for s in chosen if s not in study.systems]
    if unknown:
        raise StudyError(
            f"unknown system {unknown[0]!r}; the study has: {', '.join(names)}", file=study.name
        )
    return [names.index(s) for s in chosen]


def _missing(study: Study, rows: list[int]) -> np.ndarray:
    """(systems, segments) True where the system has no translation of the segment."""
    names = list(study.systems)
    return np.array([[t is None for t in study.systems[names[r]]] for r in rows], dtype=bool)


def bleu_human_pairs(
    study: Study,
    stats: np.ndarray,
    options: BleuOptions,
    criterion: str,
    *,
    level: str,
    systems: Sequence[str] | None = None,
) -> LevelPairs:
    """BLEU and human score of every rated unit of ``systems`` (default all) at ``level``.

    ``stats``: ``(len(study.systems), segments, F)`` statistics in the study's system order. Sentence:
    segment BLEU (:func:`bleu_core.engine.segment_level.segment_bleu`: sacrebleu's ``sentence_bleu``, effective
    order) and the segment's mean rating; document: the
    document's BLEU (statistics summed over its segments) and the mean over its rated segments; corpus:
    corpus BLEU and :meth:`Study.system_scores`. Untranslated segments count for nothing
    (:mod:`bleu_core.study.output_rows`); units without
    a translation or a rating are left out. Raises :class:`StudyError` for an unknown level, and for
    ``document`` when no segment names a document.
    """
    if level not in LEVELS:
        raise StudyError(f"unknown granularity {level!r}: use one of {', '.join(LEVELS)}")
    rows = _rows(study, systems)
    missing = _missing(study, rows)
    array = without_missing(np.asarray(stats, dtype=float)[rows], ~missing)  # not counted
    human_seg = study.segment_scores(criterion)[rows]
    if level == "sentence":
        metric = np.where(missing, np.nan, segment_bleu(array, options))
        human = human_seg
    elif level == "document":
        docs = grouping(study.segments, "document")
        if not docs.n_groups:
            raise StudyError("no segment names a document: document-level BLEU needs document ids")
        metric = group_bleu(array, docs, options).bleu.score
        translated = group_means(np.where(missing, np.nan, 1.0), docs)
        metric = np.where(np.isfinite(translated), metric, np.nan)
        human = group_means(human_seg, docs)
    else:
        metric = np.asarray(bleu_from_stats(array.sum(axis=1), options).score, dtype=float)
        system_scores = study.system_scores(criterion)
        names = list(study.systems)
        human = np.array([system_scores[names[r]] for r in rows], dtype=float)
    metric, human = np.asarray(metric, dtype=float).ravel(), np.asarray(human).ravel()
    keep = np.isfinite(metric) & np.isfinite(human)
    return LevelPairs(level, metric[keep], human[keep], int(metric.size))


@dataclass(frozen=True)
class DomainComparison:
    """BLEU and human scores of every system on every domain, and their correlation per domain.

    ``bleu`` and ``human`` are ``(systems, domains)`` arrays (BLEU 0-100: the domain's statistics summed,
    scored once; human: mean over the system's rated segments of the domain, NaN where none);
    ``correlations[domain]`` is the system-level correlation (``method``) of the domain's two columns.
    """

    criterion: str | None
    method: str
    systems: tuple[str, ...]
    domains: tuple[str, ...]
    bleu: np.ndarray
    human: np.ndarray
    correlations: dict[str, CorrelationResult]


def compare_by_domain(
    study: Study,
    stats: np.ndarray,
    options: BleuOptions,
    criterion: str | None,
    *,
    systems: Sequence[str] | None = None,
    method: str = "pearson",
) -> DomainComparison:
    """Per-domain BLEU and human scores of ``systems`` (default all), with BLEU vs human per domain.

    ``criterion=None`` (a study without ratings): human scores are NaN and so are the correlations.
    Raises :class:`StudyError` when no segment names a domain.
    """
    domains = grouping(study.segments, "domain")
    if not domains.n_groups:
        raise StudyError(
            "no segment names a domain: per-domain scores need domains", file=study.name
        )
    rows = _rows(study, systems)
    array = without_missing(np.asarray(stats, dtype=float)[rows], ~_missing(study, rows))
    bleu = np.asarray(group_bleu(array, domains, options).bleu.score, dtype=float)
    if criterion is None:
        human = np.full_like(bleu, np.nan)
    else:
        human = group_means(study.segment_scores(criterion)[rows], domains)
    names = list(study.systems)
    return DomainComparison(
        criterion=criterion,
        method=method,
        systems=tuple(names[r] for r in rows),
        domains=domains.names,
        bleu=bleu,
        human=human,
        correlations={
            name: correlation(bleu[:, k], human[:, k], method)
            for k, name in enumerate(domains.names)
        },
    )
