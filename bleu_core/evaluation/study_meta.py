"""Meta-evaluation of a whole study: every metric against every human criterion.

For a :class:`~bleu_core.study.Study`, BLEU's per-segment statistics are computed once per system
(the study's reference streams, tokenised once). Then, for every human criterion, system-level
Pearson / Spearman / Kendall and segment-level Pearson / Kendall tau-b / WMT tau-like are computed,
each with a bootstrap interval over the same resampled segments (one seed for the whole run).

Segment-level BLEU is :func:`bleu_core.engine.segment_level.segment_bleu`: sentence BLEU as sacrebleu's
``sentence_bleu`` computes it (effective order), the same numbers every page of the app shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.segment_level import segment_signature
from ..engine.signature import analysis_signature, interval_field, make_signature
from ..maths.resampling import DEFAULT_SEED, make_rng
from ..study.criterion_order import criteria_order
from .correlation import METHODS, CorrelationResult
from .correlation_chance import correlation_chance
from .document_level import document_correlations
from .errors import StatsInputError
from .meta import BleuSource, human_source, segment_correlations, system_correlations
from .systems import default_options, stack_systems
from .tau_like import TauLikeRule, study_tau_like

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.study.model import Study

SEGMENT_METHODS_DEFAULT = (("pearson", "none"), ("kendall", "none"), ("kendall-wmt", "item"))


@dataclass(frozen=True)
class MetaRow:
    """One correlation: ``metric`` against human ``criterion`` (level and method in ``result``).

    ``chance``: the row's chance line (:func:`~bleu_core.evaluation.correlation_chance.correlation_chance`,
    as a dict; ``None`` for an undefined value); ``tau_like``: the rule WMT's tau-like used for this
    criterion (:class:`~bleu_core.evaluation.tau_like.TauLikeRule`, as a dict), on ``kendall-wmt`` rows.
    """

    metric: str
    criterion: str
    result: CorrelationResult
    chance: dict[str, Any] | None = None
    tau_like: dict[str, Any] | None = None


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
    segment_signature: str = ""
    human_included: bool | None = None
    """Whether the human translations are among ``systems`` (``None``: the study has none)."""
    rated: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per criterion, the systems of ``systems`` with a human score for it: those that enter its numbers
    (:func:`rated_systems`); the others are set aside ("no CRITERION rating")."""

    def entering(self, criterion: str) -> tuple[str, ...]:
        """The systems that enter ``criterion``'s numbers (all of ``systems`` when not recorded)."""
        return self.rated.get(criterion, self.systems)

    def set_aside(self, criterion: str) -> tuple[str, ...]:
        """The systems of ``systems`` that have no ``criterion`` rating."""
        kept = set(self.entering(criterion))
        return tuple(s for s in self.systems if s not in kept)

    def row_signature(self, row: MetaRow) -> str:
        """Everything that changes ``row``'s number: the BLEU signature of its level (segment level:
        ``eff:yes``), the systems that enter it (rated on the criterion), the criterion, the interval's
        method, resamples and seed."""
        r = row.result
        return analysis_signature(
            self.segment_signature if r.level == "segment" else self.signature,
            systems=len(self.entering(row.criterion)),
            human_included=self.human_included,
            criterion=row.criterion,
            interval=interval_field(r.interval_method, r.n_resamples, r.seed),
        )

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
            "segment_bleu_signature": self.segment_signature,
            "rated_systems": {
                c: {"systems": list(kept), "set_aside": list(self.set_aside(c))}
                for c, kept in self.rated.items()
            },
            "correlations": [
                {
                    "metric": r.metric,
                    "criterion": r.criterion,
                    **r.result.to_dict(),
                    "chance": r.chance,
                    **({"tau_like": r.tau_like} if r.tau_like else {}),
                    "signature": self.row_signature(r),
                }
                for r in self.rows
            ],
        }


def rated_systems(names: Sequence[str], human_scores: Any) -> tuple[str, ...]:
    """The systems of ``names`` whose human system score (``human_scores[name]``, a mapping) is a number:
    the systems that enter a correlation with it (a system without one is set aside).

    >>> rated_systems(["A", "B", "C"], {"A": 1.0, "B": float("nan")})
    ('A',)
    """
    out = []
    for name in names:
        value = human_scores.get(name)
        if value is not None and np.isfinite(value):
            out.append(name)
    return tuple(out)


def systems_entering(study: Study, systems: Sequence[str], criterion: str | None) -> list[str]:
    """The systems of ``systems`` that enter a number computed against ``criterion`` (``a+b``: every one
    of them; no criterion: all): those rated on it (:func:`rated_systems`), as ``meta`` counts them."""
    names = list(systems)
    for c in (criterion or "").split("+"):
        if c in study.criteria:
            names = list(rated_systems(names, study.system_scores(c)))
    return names


def choose_systems(study: Study, systems: Sequence[str] | None, include_human: bool) -> list[str]:
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
    study: Study,
    options: BleuOptions,
    systems: Sequence[str],
    references: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Per-segment BLEU statistics of each system against the study's reference streams; a segment the
    system has no output for is a row of zeros (:func:`bleu_core.study.output_rows.counted_statistics`:
    not counted in its corpus BLEU)."""
    from ..engine.bleu import system_statistics_for
    from ..study.output_rows import counted_statistics

    refs = list(study.references) if references is None else list(references)
    unknown = [r for r in refs if r not in study.references]
    if unknown or not refs:
        raise StatsInputError(
            f"unknown reference stream(s) {', '.join(map(repr, unknown)) or '(none given)'}; "
            f"the study has: {', '.join(study.references) or 'no references'}"
        )
    stats = system_statistics_for(
        {name: study.systems[name] for name in systems}, study.reference_streams(refs), options
    )
    return counted_statistics(study, stats)


def sentence_scores(stats: dict[str, Any], options: BleuOptions) -> np.ndarray:
    """Segment BLEU (:func:`bleu_core.engine.segment_level.segment_bleu`) of every system and segment: ``K × S``."""
    from ..engine.segment_level import segment_bleu

    return np.stack([segment_bleu(s.array, options) for s in stats.values()])


def _with_chance(
    criterion: str,
    result: CorrelationResult,
    metric: np.ndarray,
    human: np.ndarray,
    seed: int,
    rule: TauLikeRule | None = None,
    select: np.ndarray | None = None,
) -> MetaRow:
    """BLEU's row with its chance line (and, on ``kendall-wmt``, its tau-like rule)."""
    line = correlation_chance(result, metric, human, seed=seed, rule=rule, select=select)
    wmt = result.method == "kendall-wmt" and rule is not None
    return MetaRow(
        "BLEU",
        criterion,
        result,
        None if line is None else line.to_dict(),
        rule.to_dict() if wmt and rule is not None else None,
    )


def meta_evaluate(
    study: Study,
    options: BleuOptions | None = None,
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
        criteria: human criteria to use (default: all the study has, standardised ones first:
            :func:`~bleu_core.study.criterion_order.criteria_order`).
        systems: systems to evaluate (default: the machine systems; ``include_human`` adds the human
            translations, which BLEU notoriously under-rates).
        references: reference stream names (default: all).
        n_resamples: bootstrap resamples for every interval (0 = none); ``seed`` one seed for all.
    """
    options = default_options(options)
    names = choose_systems(study, systems, include_human)
    if len(names) < 3:
        raise StatsInputError(
            f"system-level correlation needs at least 3 systems, got {len(names)}"
            + ("" if include_human else "; add systems or include the human translations")
        )
    chosen = criteria_order(study.criteria) if criteria is None else list(criteria)
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
    run: dict[str, Any] = {"n_resamples": n_resamples, "confidence": confidence, "seed": seed}
    rows: list[MetaRow] = []
    rated: dict[str, tuple[str, ...]] = {}
    for c in chosen:
        seg = study.segment_scores(c)[rows_index]
        by_system = study.system_scores(c)
        rated[c] = rated_systems(names, by_system)
        fixed = [by_system.get(n, np.nan) for n in names]
        human = human_source(names, seg, fixed)
        # the one human side of every surface: official system scores, segments resampled around them
        sys_res = system_correlations(bleu, human, human_scores=fixed, methods=methods, **run)
        observed = (bleu.observed(), np.asarray(fixed) if human is None else human.observed())
        rows.extend(_with_chance(c, r, *observed, seed) for r in sys_res.values())
        if not np.all(np.isnan(seg)):
            wmt = study_tau_like(study, c, rows_index)  # the pairs WMT's tau-like counts
            for r in segment_correlations(sentence, seg, methods=segment_methods, **run, **wmt):
                rows.append(_with_chance(c, r, sentence, seg, seed, wmt["rule"], wmt["select"]))
        documents = document_correlations(study, stats, options, c, names)  # as BLEU vs human
        rows += [MetaRow("BLEU", c, r) for r in documents]
    return MetaResult(
        study=study.name,
        systems=tuple(names),
        references=tuple(refs),
        n_segments=stack.n_segments,
        rows=tuple(rows),
        n_resamples=n_resamples,
        seed=seed,
        confidence_level=confidence,
        signature=make_signature(options, refs),
        segment_signature=segment_signature(options, refs),
        human_included=bool(set(names) & study.human_systems) if study.human_systems else None,
        rated=rated,
    )
