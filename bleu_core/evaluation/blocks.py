"""BLEU on blocks of consecutive segments and paired t-tests between neighbours (paper §3, Table 2).

Papineni et al. ask whether a BLEU difference is reliable by splitting their 500-sentence test corpus
into 20 blocks of 25 consecutive sentences, scoring every system on each block, and reporting for each
system the mean and standard deviation of its 20 block scores and the paired t-statistic against its
left neighbour in the table (systems ordered by score). "A paired t-statistic of 1.7 or above is 95 %
significant": with 20 blocks (19 degrees of freedom) the one-sided 95 % critical value is 1.73, so the
p-values here are one-sided by default (``alternative="greater"``: the right system is better).

Block scores come from the per-segment statistics: each block's statistics are the sum of its rows,
and one vectorised BLEU call scores every block of every system.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..maths.resampling import check_count
from .errors import StatsInputError
from .systems import bleu_scores, default_options, stack_systems

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions

#: The paper's layout: 20 blocks of 25 sentences.
PAPER_BLOCKS = 20
PAPER_BLOCK_SIZE = 25
Alternative = Literal["greater", "two-sided", "less"]
_ALTERNATIVES: tuple[Alternative, ...] = ("greater", "two-sided", "less")


@dataclass(frozen=True)
class NeighbourTest:
    """Paired t-test of a system's block scores against its left neighbour's.

    Attributes:
        system, neighbour: the system and the next lower-scoring system.
        statistic: paired t-statistic (positive when ``system`` has the higher block scores).
        pvalue: p-value for the chosen alternative (one-sided "greater" by default, as the paper reads it).
        df: degrees of freedom (blocks − 1).
        mean_difference: mean of the block score differences (BLEU points).
        confidence_interval: two-sided 95 % t interval of the mean difference.
    """

    system: str
    neighbour: str
    statistic: float
    pvalue: float
    df: int
    mean_difference: float
    confidence_interval: tuple[float, float]


@dataclass(frozen=True, eq=False)
class BlockResult:
    """Block BLEU of several systems, laid out like the paper's Table 2.

    Attributes:
        systems: names ordered by mean block BLEU, lowest first (the paper's left-to-right order).
        scores: BLEU (0-100) per system per block, ``K × B`` in ``systems`` order.
        mean, std: per system mean and standard deviation (ddof=1) of the block scores.
        tests: one :class:`NeighbourTest` per system after the first.
        n_blocks, block_size: the layout; ``leftover`` segments after the last block are not used.
            With the whole test set split (``block_size=None``) ``block_size`` is the smaller of the
            two sizes and ``block_sizes`` lists every block's size (they differ by at most one).
        alternative: the t-test alternative used for the p-values.
        warnings: messages for the reader (e.g. segments left over).
        block_sizes: the size of every block, in order.
    """

    systems: tuple[str, ...]
    scores: np.ndarray
    mean: np.ndarray
    std: np.ndarray
    tests: tuple[NeighbourTest, ...]
    n_blocks: int
    block_size: int
    leftover: int
    alternative: str
    warnings: tuple[str, ...]
    block_sizes: tuple[int, ...] = ()

    @property
    def layout(self) -> str:
        """The layout in words: ``20 blocks of 25 segments`` or ``20 blocks of 99-100 segments``.

        >>> BlockResult((), np.zeros((0, 2)), np.zeros(0), np.zeros(0), (), 2, 5, 0, "greater", (),
        ...             (6, 5)).layout
        '2 blocks of 5-6 segments'
        """
        sizes = self.block_sizes or (self.block_size,)
        low, high = min(sizes), max(sizes)
        span = f"{low}" if low == high else f"{low}-{high}"
        return f"{self.n_blocks} blocks of {span} segments"

    def table(self) -> list[list[str]]:
        """Rows ``Mean``, ``StdDev``, ``t`` like Table 2 (BLEU on the 0-1 scale, as printed there)."""
        t_row = ["—"] + [
            f"{t.statistic:.2g}" if abs(t.statistic) < 10 else f"{t.statistic:.0f}"
            for t in self.tests
        ]
        return [
            ["", *self.systems],
            ["Mean", *(f"{m / 100:.3f}" for m in self.mean)],
            ["StdDev", *(f"{s / 100:.3f}" for s in self.std)],
            ["t", *t_row],
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_blocks": self.n_blocks,
            "block_size": self.block_size,
            "leftover": self.leftover,
            "block_sizes": list(self.block_sizes),
            "alternative": self.alternative,
            "warnings": list(self.warnings),
            "systems": [
                {"system": s, "mean": float(m), "std": float(d), "blocks": self.scores[k].tolist()}
                for k, (s, m, d) in enumerate(zip(self.systems, self.mean, self.std, strict=True))
            ],
            "tests": [
                {
                    "system": t.system,
                    "neighbour": t.neighbour,
                    "statistic": t.statistic,
                    "pvalue": t.pvalue,
                    "df": t.df,
                    "mean_difference": t.mean_difference,
                    "confidence_interval": list(t.confidence_interval),
                }
                for t in self.tests
            ],
        }


def block_layout(n_segments: int, n_blocks: int, block_size: int | None) -> tuple[int, int, int]:
    """Validate a layout and return ``(n_blocks, block_size, leftover)``.

    ``block_size=None`` uses every segment: blocks of ``n_segments // n_blocks`` segments (returned), the
    first ``n_segments % n_blocks`` of them one longer (:func:`block_sizes`), nothing left over.

    >>> block_layout(500, 20, 25)
    (20, 25, 0)
    >>> block_layout(529, 20, None)
    (20, 26, 0)
    >>> block_layout(100, 20, 25)
    Traceback (most recent call last):
    ...
    bleu_core.errors.StatsInputError: 20 blocks of 25 segments need 500 segments but the test set has 100; use fewer or smaller blocks (e.g. 20 blocks of 5)
    """
    b = check_count(n_blocks, "number of blocks", minimum=2)
    if block_size is None:
        k = n_segments // b
        if k < 1:
            raise StatsInputError(
                f"{b} blocks need at least {b} segments but the test set has {n_segments}; use fewer blocks"
            )
    else:
        k = check_count(block_size, "block size")
        if b * k > n_segments:
            hint = max(1, n_segments // b)
            raise StatsInputError(
                f"{b} blocks of {k} segments need {b * k} segments but the test set has "
                f"{n_segments}; use fewer or smaller blocks (e.g. {b} blocks of {hint})"
            )
        return b, k, n_segments - b * k
    return b, k, 0


def block_sizes(n_segments: int, n_blocks: int, block_size: int | None) -> tuple[int, ...]:
    """The size of every block: ``block_size`` each, or (``None``) all segments spread over the blocks.

    >>> block_sizes(529, 20, None)[:10], sum(block_sizes(529, 20, None))
    ((27, 27, 27, 27, 27, 27, 27, 27, 27, 26), 529)
    >>> block_sizes(100, 4, 20)
    (20, 20, 20, 20)
    """
    b, k, _ = block_layout(n_segments, n_blocks, block_size)
    extra = n_segments - b * k if block_size is None else 0
    return tuple(k + 1 if i < extra else k for i in range(b))


def _checked_alternative(alternative: str) -> Alternative:
    """*alternative* if it is one of :data:`_ALTERNATIVES`, else a :class:`StatsInputError`."""
    for known in _ALTERNATIVES:
        if alternative == known:
            return known
    raise StatsInputError(
        f"unknown alternative {alternative!r}; choose one of: {', '.join(_ALTERNATIVES)}"
    )


def block_bleu(
    systems: Mapping[str, Any],
    options: BleuOptions | None = None,
    *,
    n_blocks: int = PAPER_BLOCKS,
    block_size: int | None = PAPER_BLOCK_SIZE,
    alternative: str = "greater",
    score: Callable[[np.ndarray], np.ndarray] | None = None,
) -> BlockResult:
    """BLEU per block of consecutive segments, mean, standard deviation and neighbour t-tests.

    Args:
        systems: ``{name: SegmentStatistics}`` over the same segments.
        options: :class:`~bleu_core.engine.options.BleuOptions` (defaults when ``None``).
        n_blocks, block_size: the layout (paper: 20 × 25). ``block_size=None`` splits the whole test
            set into ``n_blocks`` blocks whose sizes differ by at most one (every segment is used).
            With a size, segments after the last block are left out (with a warning).
        alternative: ``greater`` (one-sided, the paper's reading), ``two-sided`` or ``less``.
        score: another metric's corpus score from summed statistics (``systems`` then hold that
            metric's per-segment statistics, see :mod:`bleu_core.evaluation.metric_statistics`; ``options``
            is ignored).
    """
    from scipy import stats as sps

    tail = _checked_alternative(alternative)
    stack = stack_systems(systems)
    b, k, leftover = block_layout(stack.n_segments, n_blocks, block_size)
    sizes = block_sizes(stack.n_segments, n_blocks, block_size)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    used = stack.array[:, : int(sum(sizes))]
    block_totals = np.add.reduceat(used, starts, axis=1)
    if score is None:
        scores = bleu_scores(block_totals, default_options(options))  # K × B
    else:
        scores = np.asarray(score(block_totals), dtype=np.float64)
    order = np.argsort(scores.mean(axis=1), kind="stable")
    scores = scores[order]
    names = tuple(stack.names[i] for i in order)
    tests = []
    if len(names) > 1:  # every neighbour pair at once: scipy's t-test is vectorised over rows
        right, left = scores[1:], scores[:-1]
        res = sps.ttest_rel(right, left, axis=1, alternative=tail)
        ci = sps.ttest_rel(right, left, axis=1).confidence_interval(0.95)
        t, p = np.atleast_1d(res.statistic), np.atleast_1d(res.pvalue)
        low, high = np.atleast_1d(ci.low), np.atleast_1d(ci.high)
        mean_difference = np.mean(right - left, axis=1)
        for pos in range(1, len(names)):
            tests.append(
                NeighbourTest(
                    system=names[pos],
                    neighbour=names[pos - 1],
                    statistic=float(t[pos - 1]),
                    pvalue=float(p[pos - 1]),
                    df=b - 1,
                    mean_difference=float(mean_difference[pos - 1]),
                    confidence_interval=(float(low[pos - 1]), float(high[pos - 1])),
                )
            )
    warnings = []
    if leftover:
        hint = (
            f"; a block size of {stack.n_segments // b} would use more of them"
            if stack.n_segments // b > k
            else ""
        )
        warnings.append(
            f"{leftover} of {stack.n_segments} segments after the last block are not used "
            f"({b} blocks of {k}){hint}"
        )
    return BlockResult(
        systems=names,
        scores=scores,
        mean=scores.mean(axis=1),
        std=scores.std(axis=1, ddof=1),
        tests=tuple(tests),
        n_blocks=b,
        block_size=k,
        leftover=leftover,
        alternative=alternative,
        warnings=tuple(warnings),
        block_sizes=sizes,
    )
