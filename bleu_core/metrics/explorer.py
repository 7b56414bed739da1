"""The parameter explorer: one system scored under every combination of BLEU's options.

The user ticks values for each option (tokenizer, case, smoothing, effective order, maximum order,
reference-length policy, number of references); every combination is scored, with its signature and its
difference from the default (sacrebleu's settings, or the caller's, with all references). When human segment scores are given,
each variant's *sentence* BLEU is correlated with them (Pearson r and Kendall tau-b over the rated segments),
which answers questions like "which sentence-BLEU smoothing tracks adequacy best?".

Statistics are computed once per (tokenizer, case, number of references) at the highest order needed, and
every other option is applied to those same statistics, so large grids stay cheap.

"Number of references" k uses the first k reference streams, in the order given.

>>> grid = ExplorerGrid(smooth=("exp", "none"), max_order=(2, 4))
>>> grid.size
4
>>> result = explore(["the cat is on the mat"], [["the cat sat on the mat"]], grid)
>>> [(r.options.smooth, r.options.max_order, round(r.score, 2)) for r in result.rows]   # no 4-gram matches
[('exp', 2, 70.71), ('exp', 4, 37.99), ('none', 2, 70.71), ('none', 4, 0.0)]
>>> result.rows[3].changed
('smooth: exp → none',)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from bleu_core.engine.bleu import statistics_for
from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.signature import make_signature
from bleu_core.engine.statistics import SegmentStatistics, compute_statistics
from bleu_core.errors import BleuOptionError
from bleu_core.maths.correlation import correlation

#: More combinations than this are refused (the message says how many were asked for).
MAX_COMBINATIONS = 2000
_OPTION_FIELDS = ("tokenize", "lowercase", "smooth", "effective_order", "max_order", "ref_length")


@dataclass(frozen=True)
class ExplorerGrid:
    """The ticked values of every option; ``n_refs=None`` means "all reference streams"."""

    tokenize: tuple[str, ...] = ("13a",)
    lowercase: tuple[bool, ...] = (False,)
    smooth: tuple[str, ...] = ("exp",)
    effective_order: tuple[bool, ...] = (False,)
    max_order: tuple[int, ...] = (4,)
    ref_length: tuple[str, ...] = ("closest",)
    n_refs: tuple[int, ...] | None = None

    @property
    def size(self) -> int:
        """Number of combinations."""
        n = math.prod(len(getattr(self, f)) for f in _OPTION_FIELDS)
        return n * (len(self.n_refs) if self.n_refs else 1)

    def validate(self, available_refs: int) -> None:
        """Raise :class:`BleuOptionError` naming the bad value (empty choice, too many references...)."""
        for f in fields(self):
            values = getattr(self, f.name)
            if values is not None and len(values) == 0:
                raise BleuOptionError(f"tick at least one value for {f.name.replace('_', ' ')}")
        for k in self.n_refs or ():
            if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= available_refs:
                raise BleuOptionError(
                    f"number of references must be from 1 to {available_refs} (the references available), got {k!r}"
                )
        if self.size > MAX_COMBINATIONS:
            raise BleuOptionError(
                f"{self.size} combinations ticked; the explorer scores at most {MAX_COMBINATIONS}. "
                "Untick some values."
            )


@dataclass(frozen=True)
class ExplorerRow:
    """One combination: its options, number of references, corpus score, and segment-level agreement."""

    options: BleuOptions
    n_refs: int
    signature: str
    score: float
    difference: float
    changed: tuple[str, ...]
    pearson: float = math.nan
    kendall: float = math.nan
    n_rated: int = 0


@dataclass(frozen=True)
class ExplorerResult:
    """Every combination's row, the default's score, and the best variant at segment level (if rated)."""

    rows: tuple[ExplorerRow, ...]
    default_score: float
    default_signature: str
    best: ExplorerRow | None
    best_by: str


def _describe_changes(
    options: BleuOptions, n_refs: int, default: BleuOptions, all_refs: int
) -> tuple[str, ...]:
    out = []
    for name in _OPTION_FIELDS:
        a, b = getattr(default, name), getattr(options, name)
        if a != b:
            out.append(f"{name.replace('_', ' ')}: {a} → {b}")
    if n_refs != all_refs:
        out.append(f"references: {all_refs} → {n_refs}")
    return tuple(out)


def _correlations(metric: np.ndarray, human: np.ndarray) -> tuple[float, float, int]:
    """Pearson r and Kendall tau-b of sentence BLEU with the human scores, and the number of rated segments
    (:func:`bleu_core.maths.correlation.correlation`: unrated segments left out, ``nan`` where undefined)."""
    pearson = correlation(metric, human, "pearson")
    return pearson.statistic, correlation(metric, human, "kendall").statistic, pearson.n


def explore(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    grid: ExplorerGrid,
    *,
    human: Sequence[float] | np.ndarray | None = None,
    higher_is_better: bool = True,
    best_by: str = "kendall",
    default: BleuOptions | None = None,
) -> ExplorerResult:
    """Score ``hypotheses`` under every combination of ``grid``.

    Args:
        hypotheses: one system's output, one line per segment.
        references: reference streams (``references[k][i]``).
        grid: the ticked option values.
        human: optional human scores per segment (NaN = unrated) to correlate sentence BLEU with.
        higher_is_better: direction of the human criterion (MQM error scores: ``False``); the best
            variant is the one whose correlation is highest in the criterion's direction.
        best_by: ``"kendall"`` (tau-b) or ``"pearson"``.
        default: the options every row's difference is measured from (the app's sidebar: its tokenizer
            follows the target language); ``None`` = sacrebleu's defaults.
    """
    if best_by not in ("kendall", "pearson"):
        raise BleuOptionError(f"best_by must be 'kendall' or 'pearson', got {best_by!r}")
    all_refs = len(references)
    grid.validate(all_refs)
    human_arr = None
    if human is not None:
        human_arr = np.asarray(human, dtype=np.float64)
        if human_arr.shape != (len(hypotheses),):
            raise BleuOptionError(
                f"{human_arr.size} human scores for {len(hypotheses)} segments: give one score (or NaN) per segment"
            )
    default = BleuOptions() if default is None else default
    option_sets = []
    for values in itertools.product(*(getattr(grid, f) for f in _OPTION_FIELDS)):
        option_sets.append(BleuOptions(**dict(zip(_OPTION_FIELDS, values, strict=True))))
    top_order = max(o.statistics_order for o in option_sets)
    cache: dict[tuple[str, bool, int], SegmentStatistics] = {}

    def stats_for(tokenize: str, lowercase: bool, k: int) -> SegmentStatistics:
        key = (tokenize, lowercase, k)
        if key not in cache:
            cache[key] = compute_statistics(
                hypotheses,
                references[:k],
                max_order=top_order,
                tokenize=tokenize,
                lowercase=lowercase,
            )
        return cache[key]

    base_stats = statistics_for(hypotheses, references, default)
    default_score = float(bleu_from_stats(base_stats.total(), default).score)
    rows = []
    for opts in option_sets:
        for k in grid.n_refs or (all_refs,):
            stats = stats_for(opts.tokenize, opts.lowercase, k)
            score = float(bleu_from_stats(stats.total(), opts).score)
            r = tau = math.nan
            n_rated = 0
            if human_arr is not None:
                sentence = np.asarray(bleu_from_stats(stats.array, opts).score, dtype=np.float64)
                r, tau, n_rated = _correlations(sentence, human_arr)
            rows.append(
                ExplorerRow(
                    options=opts,
                    n_refs=k,
                    signature=make_signature(opts, stats.n_refs),
                    score=score,
                    difference=score - default_score,
                    changed=_describe_changes(opts, k, default, all_refs),
                    pearson=r,
                    kendall=tau,
                    n_rated=n_rated,
                )
            )
    best = None
    if human_arr is not None:
        sign = 1.0 if higher_is_better else -1.0
        rated = [row for row in rows if not math.isnan(getattr(row, best_by))]
        if rated:
            best = max(rated, key=lambda row: sign * getattr(row, best_by))
    return ExplorerResult(
        rows=tuple(rows),
        default_score=default_score,
        default_signature=make_signature(default, base_stats.n_refs),
        best=best,
        best_by=best_by,
    )
