"""One interface for every metric of the registry: a :class:`MetricSpec` declared beside the metric.

Every metric here is computed from **additive per-segment statistics** (BLEU's clipped counts, NIST's
information sums, PER's error counts, sacrebleu's chrF/TER statistics, weighted n-gram counts): a system's
corpus score is a pure function of the column sums of its rows. A metric module declares what the registry
needs in a :class:`MetricSpec` (as sacrebleu's ``metrics/base.py`` gives every metric one interface):

* ``name``, ``higher_is_better`` (direction), ``description``, ``family`` (metrics of one family share
  their counting, e.g. the nine Babych & Hartley weighted metrics);
* ``statistics(context, spec)``: the per-segment statistics of every system of a study (``K × S × F``) and
  the segment scores, as :class:`MetricStatistics`;
* ``from_stats(context, spec)``: the pure function from statistics of shape ``(..., F)`` to scores
  ``(...)`` under the context's settings;
* ``depends_on``: which settings (``tokenize``, ``lowercase``, ``single_reference``) the scores depend on,
  so a cache keeps a metric's scores when only other settings change.

Resampling is the same for every metric: the statistics of a resampled test set are ``counts @ stats``
(``counts`` an ``M × S`` count matrix), and the scores are ``from_stats`` of those sums
(:meth:`MetricScores.resampled`), which is what bootstrap intervals and permutation tests need.

>>> spec = MetricSpec("toy", True, "a toy", "toy", statistics=None, from_stats=None)
>>> spec.inputs_key(tokenize="intl", lowercase=True, single_reference=None)
('toy', 'intl', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.tokenize.tokenizers import get_tokenizer

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = [
    "MetricScores",
    "MetricSpec",
    "MetricStatistics",
    "ScoringContext",
    "assemble",
]

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True, eq=False)
class MetricScores:
    """One metric's scores for every system of a study.

    ``stats`` is ``(K, S, F)``: additive statistics per system and segment (zeros where missing);
    ``from_stats`` maps statistics of shape ``(..., F)`` to scores of shape ``(...)``. It has the shape of
    the statistics helper's score sources (``names``, ``n_segments``, ``observed``, ``resampled``), so
    :func:`bleu_core.evaluation.meta.system_correlations` accepts it directly.
    """

    metric: str
    names: tuple[str, ...]
    stats: np.ndarray
    from_stats: Callable[[np.ndarray], np.ndarray]
    segment: np.ndarray
    higher_is_better: bool
    description: str = ""
    notes: tuple[str, ...] = ()

    @property
    def n_segments(self) -> int:
        return int(self.stats.shape[1])

    def observed(self) -> np.ndarray:
        """System-level score of every system (``K``); NaN for a system with no scorable segment."""
        sums = self.stats.sum(axis=1)
        scores = np.asarray(self.from_stats(sums), dtype=np.float64)
        return np.where(self.stats.any(axis=(1, 2)), scores, np.nan)

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        """System scores on resampled test sets: ``counts`` is ``M × S``; returns ``M × K``."""
        counts = np.asarray(counts, dtype=np.float64)
        k, n, f = self.stats.shape
        flat = self.stats.transpose(1, 0, 2).reshape(n, k * f)  # S × (K·F): one matrix product
        sums = (counts @ flat).reshape(counts.shape[0], k, f)
        return np.asarray(self.from_stats(sums), dtype=np.float64)

    def system_scores(self) -> dict[str, float]:
        """``{system: score}``."""
        return dict(zip(self.names, self.observed().tolist(), strict=True))


@dataclass(frozen=True, eq=False)
class MetricStatistics:
    """What a metric's ``statistics`` returns: ``stats`` ``(K, S, F)`` (zeros where a system has no
    scorable segment), ``segment`` scores ``(K, S)`` (NaN there) and notes shown with the scores."""

    stats: np.ndarray
    segment: np.ndarray
    notes: tuple[str, ...] = ()


@dataclass
class ScoringContext:
    """One scoring run over a study: the systems, the settings, and what metrics share while scoring.

    ``cache`` holds work shared between metrics of one run (word tokens, the weighted metrics' counts);
    ``progress(done, total, message)`` is told how far a slow metric has got.
    """

    study: Study
    systems: list[str]
    tokenize: str
    lowercase: bool
    single_reference: str | None
    cache: dict[Any, Any] = field(default_factory=dict)
    ter_cache_dir: Any = None
    progress: Progress | None = None

    def refs_for(self, system: str) -> list[str]:
        """The reference streams ``system`` is scored against: all but a stream of the same name."""
        return [r for r in self.study.references if r != system]

    def report(self, done: int, total: int, message: str) -> None:
        """Tell the caller's ``progress`` how far a metric has got (nothing without one)."""
        if self.progress is not None:
            self.progress(done, total, message)

    def present(self, system: str) -> list[int]:
        """Segments ``system`` translated."""
        return [i for i, h in enumerate(self.study.systems[system]) if h is not None]

    def tokens(self, kind: str, name: str) -> list[list[str]]:
        """Tokens of every segment of a system (``kind="system"``) or reference stream (``"reference"``),
        under the word tokenizer; tokenised once per scoring run and shared by NIST, PER and weighted."""
        key = ("tokens", kind, name)
        if key not in self.cache:
            texts = (self.study.systems if kind == "system" else self.study.references)[name]
            tokenizer = get_tokenizer(self.tokenize, lowercase=self.lowercase)
            self.cache[key] = tokenizer.tokenize_corpus([t or "" for t in texts])
        return self.cache[key]

    def usable_inputs(
        self, system: str
    ) -> tuple[list[int], list[str], list[list[str | None]]] | None:
        """``(segments, hypotheses, reference streams)`` of the segments of ``system`` that have a
        translation and at least one reference; ``None`` when there is none."""
        refs = self.refs_for(system)
        idx = self.present(system)
        if not refs:
            return None
        streams = [[self.study.references[r][i] for i in idx] for r in refs]
        idx_kept = [j for j in range(len(idx)) if any(s[j] is not None for s in streams)]
        idx = [idx[j] for j in idx_kept]
        if not idx:
            return None
        hyps = [self.study.systems[system][i] or "" for i in idx]  # idx: translated segments
        return idx, hyps, [[s[j] for j in idx_kept] for s in streams]

    def usable_references(self) -> np.ndarray:
        """``K × R``: which reference streams each system is scored against (not its own stream)."""
        refs = list(self.study.references)
        usable = [[r != system for r in refs] for system in self.systems]
        return np.array(usable, dtype=bool).reshape(len(self.systems), len(refs))


def assemble(
    ctx: ScoringContext,
    per_system: Mapping[str, tuple[Sequence[int], np.ndarray, np.ndarray]],
    n_features: int,
    notes: Sequence[str] = (),
) -> MetricStatistics:
    """:class:`MetricStatistics` from ``{system: (segments, their statistics, their scores)}``;
    systems left out (nothing scorable) keep zero statistics and NaN scores."""
    n = ctx.study.n_segments
    stats = np.zeros((len(ctx.systems), n, n_features))
    segment = np.full((len(ctx.systems), n), np.nan)
    for k, system in enumerate(ctx.systems):
        if system not in per_system:
            continue
        idx, rows, seg = per_system[system]
        stats[k, idx] = rows
        segment[k, idx] = seg
    return MetricStatistics(stats, segment, tuple(notes))


@dataclass(frozen=True)
class MetricSpec:
    """A metric as the registry knows it (see the module docstring).

    ``statistics`` and ``from_stats`` take the :class:`ScoringContext` and the spec itself, so one
    function can serve a family (chrF and chrF++, the nine weighted metrics; ``measure`` tells those
    apart). ``from_stats`` must return a picklable function (module level, or a ``functools.partial``
    of one): Streamlit's cache and process pools pickle :class:`MetricScores`.
    """

    name: str
    higher_is_better: bool
    description: str
    family: str
    statistics: Callable[[ScoringContext, MetricSpec], MetricStatistics] = field(repr=False)
    from_stats: Callable[[ScoringContext, MetricSpec], Callable[[np.ndarray], np.ndarray]] = field(
        repr=False
    )
    measure: str = ""
    depends_on: tuple[str, ...] = ("tokenize", "lowercase")

    def inputs_key(
        self, *, tokenize: str, lowercase: bool, single_reference: str | None
    ) -> tuple[object, ...]:
        """The settings this metric's scores depend on, and only those, after its name."""
        settings = {
            "tokenize": tokenize,
            "lowercase": lowercase,
            "single_reference": single_reference,
        }
        return (self.name, *(settings[s] for s in self.depends_on))

    def score(self, ctx: ScoringContext) -> MetricScores:
        """Every system's statistics and scores in one scoring run."""
        counted = self.statistics(ctx, self)
        return MetricScores(
            self.name,
            tuple(ctx.systems),
            counted.stats,
            self.from_stats(ctx, self),
            counted.segment,
            self.higher_is_better,
            self.description,
            counted.notes,
        )
