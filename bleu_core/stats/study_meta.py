"""Meta-evaluation of a whole study: every metric against every human criterion.

For a :class:`~bleu_core.study.Study`, BLEU's per-segment statistics are computed once per system
(the study's reference streams, tokenised once). Then, for every human criterion, system-level
Pearson / Spearman / Kendall and segment-level Pearson / Kendall tau-b / WMT tau-like are computed,
each with a bootstrap interval over the same resampled segments (one seed for the whole run).

Segment-level BLEU is sentence BLEU with ``effective_order=True`` (as sacrebleu's ``sentence_bleu``),
because without it most short sentences score 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .correlation import METHODS, CorrelationResult
from .errors import StatsInputError
from .meta import BleuSource, SegmentMeanSource, segment_correlations, system_correlations
from .resampling import DEFAULT_SEED, make_rng
from .systems import default_options, stack_systems

SEGMENT_METHODS_DEFAULT = (("pearson", "none"), ("kendall", "none"), ("kendall-wmt", "item"))


@dataclass(frozen=True)
class MetaRow:
    """One correlation: ``metric`` against human ``criterion`` (level and method in ``result``)."""

    metric: str
    criterion: str
    result: CorrelationResult


@dataclass(frozen=True, eq=False)
class MetaResult:
    """Every metric × criterion correlation of a study, with how it was computed."""

    study: str
    systems: tuple[str, ...]
    references: tuple[str, ...]
    n_segments: int
    rows: tuple[MetaRow, ...]
    n_resamples: int
    seed: int
    confidence_level: float
    signature: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "study": self.study,
            "systems": list(self.systems),
            "references": list(self.references),
            "n_segments": self.n_segments,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "confidence_level": self.confidence_level,
            "bleu_signature": self.signature,
            "correlations": [
                {"metric": r.metric, "criterion": r.criterion, **r.result.to_dict()}
                for r in self.rows
            ],
        }


def choose_systems(study: Any, systems: Sequence[str] | None, include_human: bool) -> list[str]:
    """The systems to evaluate: given ones (validated), else machine systems (+ human ones if asked)."""
    if systems is not None:
        unknown = [s for s in systems if s not in study.systems]
        if unknown:
            raise StatsInputError(
                f"unknown system(s) {', '.join(map(repr, unknown))}; the study has: {', '.join(study.systems)}"
            )
        return list(systems)
    return list(study.systems) if include_human else list(study.machine_systems)


def study_statistics(
    study: Any, options: Any, systems: Sequence[str], references: Sequence[str] | None = None
) -> dict[str, Any]:
    """Per-segment BLEU statistics of each system against the study's reference streams."""
    from ..statistics import compute_system_statistics

    refs = list(study.references) if references is None else list(references)
    unknown = [r for r in refs if r not in study.references]
    if unknown or not refs:
        raise StatsInputError(
            f"unknown reference stream(s) {', '.join(map(repr, unknown)) or '(none given)'}; "
            f"the study has: {', '.join(study.references) or 'no references'}"
        )
    return compute_system_statistics(
        {name: study.systems[name] for name in systems},
        study.reference_streams(refs),
        max_order=options.statistics_order,
        tokenize=options.tokenize,
        lowercase=options.lowercase,
    )


def sentence_scores(stats: dict[str, Any], options: Any) -> np.ndarray:
    """Sentence BLEU (0-100, effective order) of every system and segment: ``K × S``."""
    from ..score import bleu_from_stats

    sentence_options = options.with_(effective_order=True)
    return np.stack(
        [np.asarray(bleu_from_stats(s.array, sentence_options).score) for s in stats.values()]
    )


def meta_evaluate(
    study: Any,
    options: Any = None,
    *,
    criteria: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    include_human: bool = False,
    references: Sequence[str] | None = None,
    methods: Sequence[str] = METHODS,
    segment_methods: Sequence[tuple[str, str]] = SEGMENT_METHODS_DEFAULT,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = DEFAULT_SEED,
) -> MetaResult:
    """BLEU against every human criterion of ``study``, at system and segment level, with intervals.

    Args:
        study: the study (systems, references, ratings).
        options: BLEU options (defaults when ``None``).
        criteria: human criteria to use (default: all the study has).
        systems: systems to evaluate (default: the machine systems; ``include_human`` adds the human
            translations, which BLEU notoriously under-rates).
        references: reference stream names (default: all).
        n_resamples: bootstrap resamples for every interval (0 = none); ``seed`` one seed for all.
    """
    from ..signature import make_signature

    options = default_options(options)
    names = choose_systems(study, systems, include_human)
    if len(names) < 3:
        raise StatsInputError(
            f"system-level correlation needs at least 3 systems, got {len(names)}"
            + ("" if include_human else "; add systems or include the human translations")
        )
    chosen = list(study.criteria) if criteria is None else list(criteria)
    for c in chosen:
        if c not in study.criteria:
            raise StatsInputError(
                f"unknown criterion {c!r}; this study has: {', '.join(study.criteria) or 'none'}"
            )
    if not chosen:
        raise StatsInputError("the study has no human criteria: add ratings to correlate with")
    _, seed = make_rng(seed)  # fix one seed for every interval of the run
    refs = list(study.references) if references is None else list(references)
    stats = study_statistics(study, options, names, refs)
    stack = stack_systems(stats)
    bleu = BleuSource(stack, options)
    sentence = sentence_scores(stats, options)
    rows_index = [list(study.systems).index(n) for n in names]
    rows: list[MetaRow] = []
    # one pass over the ratings (not one per criterion): which criteria have system-level ratings
    wanted = set(names)
    system_rated = {
        r.criterion for r in study.ratings if r.segment_id is None and r.system in wanted
    }
    for c in chosen:
        seg = study.segment_scores(c)[rows_index]
        system_level = c in system_rated
        if system_level:
            fixed = study.system_scores(c)
            sys_res = system_correlations(
                bleu,
                None,
                human_scores=[fixed[n] for n in names],
                methods=methods,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
            )
        else:
            sys_res = system_correlations(
                bleu,
                SegmentMeanSource(tuple(names), seg),
                methods=methods,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
            )
        rows.extend(MetaRow("BLEU", c, r) for r in sys_res.values())
        if not np.all(np.isnan(seg)):
            for r in segment_correlations(
                sentence,
                seg,
                methods=segment_methods,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
            ):
                rows.append(MetaRow("BLEU", c, r))
    return MetaResult(
        study=study.name,
        systems=tuple(names),
        references=tuple(refs),
        n_segments=stack.n_segments,
        rows=tuple(rows),
        n_resamples=n_resamples,
        seed=seed,
        confidence_level=confidence,
        signature=make_signature(options, len(refs)),
    )
