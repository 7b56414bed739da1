"""Typed results shared by the paired significance tests (scipy.stats style).

Every result has a ``statistic``, a ``pvalue`` and, where it exists, a ``confidence_interval`` given as
``(low, high)``. Resampling results also carry the number of resamples and the seed.

>>> c = PairedComparison("B", "A", statistic=1.5, pvalue=0.01, confidence_interval=(0.5, 2.5), verdict=">")
>>> c.flipped()
PairedComparison(system='A', baseline='B', statistic=-1.5, pvalue=0.01, confidence_interval=(-2.5, -0.5), verdict='<', sacrebleu_pvalue=None)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

_FLIP = {">": "<", "<": ">", "~": "~"}


@dataclass(frozen=True)
class PairedComparison:
    """One system against a baseline on the same segments.

    Attributes:
        system, baseline: the two system names.
        statistic: observed BLEU(system) − BLEU(baseline), in BLEU points (0-100 scale).
        pvalue: probability of a difference at least this large if the systems were equivalent.
        confidence_interval: bootstrap percentile interval of the difference (``None`` for approximate
            randomisation, which tests without estimating).
        verdict: ``>`` system significantly better, ``<`` significantly worse, ``~`` no significant
            difference (Zhang & Vogel's notation). With an interval (paired bootstrap) it is
            :func:`interval_verdict` of the interval, and ``pvalue`` is that interval's own (``p < alpha``
            exactly when the interval excludes 0); without one (approximate randomisation) it is
            :func:`verdict` of ``pvalue``. Verdict, interval and p-value never disagree.
        sacrebleu_pvalue: the paired bootstrap's p-value as sacrebleu's ``--paired-bs`` computes it (a
            centred |difference|; not used for the verdict), ``None`` for other tests.
    """

    system: str
    baseline: str
    statistic: float
    pvalue: float
    confidence_interval: tuple[float, float] | None
    verdict: str
    sacrebleu_pvalue: float | None = None

    def flipped(self) -> PairedComparison:
        """The same comparison seen from the other system."""
        ci = self.confidence_interval
        return PairedComparison(
            system=self.baseline,
            baseline=self.system,
            statistic=-self.statistic,
            pvalue=self.pvalue,
            confidence_interval=None if ci is None else (-ci[1], -ci[0]),
            verdict=_FLIP[self.verdict],
            sacrebleu_pvalue=self.sacrebleu_pvalue,
        )


@dataclass(frozen=True, eq=False)
class PairedTestResult:
    """Paired significance tests between systems (all pairs, or each system against a baseline).

    Attributes:
        method: ``paired-bootstrap`` or ``approximate-randomization``.
        systems: system names in input order; ``scores`` their observed BLEU.
        comparisons: one :class:`PairedComparison` per tested pair.
        n_resamples: bootstrap resamples or randomisation trials; ``seed`` the generator's seed.
        alpha: significance level of the verdicts; ``confidence_level`` of the intervals.
    """

    method: str
    systems: tuple[str, ...]
    scores: tuple[float, ...]
    comparisons: tuple[PairedComparison, ...]
    n_resamples: int
    seed: int
    alpha: float
    confidence_level: float

    def get(self, system: str, baseline: str) -> PairedComparison:
        """The comparison of ``system`` against ``baseline`` (flipped if it was tested the other way)."""
        for c in self.comparisons:
            if c.system == system and c.baseline == baseline:
                return c
            if c.system == baseline and c.baseline == system:
                return c.flipped()
        raise KeyError(f"{system!r} was not compared with {baseline!r}")

    def matrix(self) -> list[list[str]]:
        """Verdicts as a ``K × K`` table: row system compared with column system (``''`` untested)."""
        table = [["" for _ in self.systems] for _ in self.systems]
        index = {name: i for i, name in enumerate(self.systems)}
        for c in self.comparisons:
            i, j = index[c.system], index[c.baseline]
            table[i][j] = c.verdict
            table[j][i] = _FLIP[c.verdict]
        return table

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "alpha": self.alpha,
            "confidence_level": self.confidence_level,
            "systems": dict(zip(self.systems, self.scores, strict=True)),
            "comparisons": [asdict(c) for c in self.comparisons],
            "matrix": self.matrix(),
        }


def verdict(difference: float, pvalue: float, alpha: float) -> str:
    """The verdict of a paired test read from its p-value: ``>``/``<`` when ``p < alpha`` and the
    difference is not 0 (its sign says which), else ``~``.

    >>> verdict(-1.5, 0.01, 0.05), verdict(1.5, 0.2, 0.05), verdict(1.5, 0.05, 0.05), verdict(0.0, 0.001, 0.05)
    ('<', '~', '~', '~')
    """
    return "~" if not pvalue < alpha or difference == 0 else (">" if difference > 0 else "<")


def interval_verdict(difference: float, low: float, high: float) -> str:
    """The verdict of a paired test read from its interval of the difference: ``>`` when the interval
    lies above 0 and the observed ``difference`` is positive, ``<`` when it lies below 0 and the
    difference is negative, else ``~`` (a NaN bound: ``~``).

    >>> interval_verdict(1.2, 0.1, 2.0), interval_verdict(-0.5, -1.06, 0.01), interval_verdict(-1.0, -2.0, -0.2)
    ('>', '~', '<')
    """
    if difference > 0 and low > 0:
        return ">"
    if difference < 0 and high < 0:
        return "<"
    return "~"


#: The rule of every paired bootstrap verdict, in words (the Significance page and ``significance`` say it).
VERDICT_RULE = (
    "the verdict is > or < when the {level} percentile interval of the resampled differences excludes 0, "
    "else ~; p is that interval's own p-value (the smallest alpha at which it would exclude 0, from the "
    "same resamples), so p < {alpha:g} exactly when the interval excludes 0. sacrebleu's --paired-bs p "
    "(shown as 'p (sacrebleu)') tests a centred |difference|, another null: it can fall below {alpha:g} "
    "while the interval holds 0, or the other way, and the verdict does not use it. Approximate "
    "randomisation has no interval: its verdict is its own p < {alpha:g}"
)


def with_alpha(result: PairedTestResult, alpha: float) -> PairedTestResult:
    """``result`` with its verdicts read at another significance level (p-values do not depend on
    ``alpha``, so nothing is run again): ``p < alpha``. For a paired bootstrap this is the verdict of the
    ``1 − alpha`` percentile interval, whose p-value ``pvalue`` is; the intervals shown keep their level
    (``confidence_level``): call ``BootstrapResult.paired(alpha=...)`` for intervals at the new level."""
    from dataclasses import replace

    comparisons = tuple(
        replace(c, verdict=verdict(c.statistic, c.pvalue, alpha)) for c in result.comparisons
    )
    return replace(result, comparisons=comparisons, alpha=float(alpha))


def pairs_to_test(names: tuple[str, ...], baseline: str | None) -> list[tuple[int, int]]:
    """``(system, baseline)`` index pairs: every system against ``baseline``, or every unordered pair.

    >>> pairs_to_test(("A", "B", "C"), None)
    [(1, 0), (2, 0), (2, 1)]
    >>> pairs_to_test(("A", "B", "C"), "B")
    [(0, 1), (2, 1)]
    """
    from .errors import StatsInputError

    if baseline is None:
        return [(j, i) for i in range(len(names)) for j in range(i + 1, len(names))]
    if baseline not in names:
        raise StatsInputError(
            f"baseline {baseline!r} is not one of the systems: {', '.join(names)}"
        )
    b = names.index(baseline)
    return [(j, b) for j in range(len(names)) if j != b]


def exceedance_pvalue(null_statistics: np.ndarray, observed: float) -> float:
    """``(#{null > observed} + 1) / (M + 1)``: the add-one p-value sacrebleu (after MultEval) uses.

    >>> exceedance_pvalue(np.array([0.1, 0.5, 0.9]), 0.4)
    0.75
    """
    count = int(np.sum(np.asarray(null_statistics) > observed))
    return (count + 1) / (len(null_statistics) + 1)
