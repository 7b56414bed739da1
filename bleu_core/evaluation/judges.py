"""Pairwise comparisons of human judgments between adjacent systems (paper §4, Figures 3-4).

Judges differ (some are more liberal) and sentences differ (some are easier). The paper removes both
effects by comparing *each judge's* scores *for the same sentence* across two systems: for adjacent
systems in the order of their mean score, it takes the difference ``score(better) − score(worse)``
for every (judge, sentence) that judge rated for both systems, and reports the mean difference with
a 95 % t confidence interval (N − 1 degrees of freedom; N was 350-470 in the paper). It does this per
group of judges (monolingual and bilingual).

Here it works for any criterion and any rater groups of a :class:`~bleu_core.study.Study`. Systems are
ordered from worst to best, following the criterion's direction (``higher_is_better``); differences
are signed so that a positive mean means the better-ranked system was judged better by the same judge
on the same sentence. Ratings without a rater id are treated as coming from one anonymous judge, and
ratings without a group form the group ``"all raters"``; repeated ratings of the same (judge, system,
sentence) are averaged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..maths.resampling import check_level
from .errors import StatsInputError

if TYPE_CHECKING:
    from bleu_core.study.model import Study

#: Group name used for ratings that carry no group.
NO_GROUP = "all raters"
_ANONYMOUS = "\x00anonymous"


@dataclass(frozen=True)
class AdjacentPair:
    """Same-judge, same-sentence score differences between two adjacent systems.

    Attributes:
        lower, higher: the worse- and better-ranked system (by mean score in the group).
        statistic: mean difference (higher − lower, in the criterion's "better" direction).
        confidence_interval: t interval of the mean difference at the chosen level.
        pvalue: two-sided one-sample t-test p-value that the mean difference is 0.
        n: number of (judge, sentence) differences; ``df = n − 1``.
    """

    lower: str
    higher: str
    statistic: float
    confidence_interval: tuple[float, float]
    pvalue: float
    n: int

    @property
    def significant(self) -> bool:
        """Whether the interval excludes 0."""
        low, high = self.confidence_interval
        return bool(low > 0 or high < 0)


@dataclass(frozen=True)
class GroupJudgments:
    """One rater group: systems from worst to best and the adjacent pairwise comparisons."""

    group: str
    systems: tuple[str, ...]
    means: tuple[float, ...]
    n_raters: int
    pairs: tuple[AdjacentPair, ...]


@dataclass(frozen=True)
class JudgeResult:
    """Pairwise judge comparisons per rater group for one criterion."""

    criterion: str
    higher_is_better: bool
    confidence_level: float
    groups: tuple[GroupJudgments, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": self.criterion,
            "higher_is_better": self.higher_is_better,
            "confidence_level": self.confidence_level,
            "groups": [
                {
                    "group": g.group,
                    "n_raters": g.n_raters,
                    "systems": dict(zip(g.systems, g.means, strict=True)),
                    "pairs": [
                        {
                            "lower": p.lower,
                            "higher": p.higher,
                            "statistic": p.statistic,
                            "confidence_interval": list(p.confidence_interval),
                            "pvalue": p.pvalue,
                            "n": p.n,
                        }
                        for p in g.pairs
                    ],
                }
                for g in self.groups
            ],
        }


def _mean_difference(diffs: np.ndarray, level: float) -> tuple[float, tuple[float, float], float]:
    from scipy import stats as sps

    if diffs.size < 2:
        mean = float(diffs.mean()) if diffs.size else float("nan")
        return mean, (float("nan"), float("nan")), float("nan")
    if np.all(diffs == diffs[0]):  # no spread: the t interval collapses to the point
        mean = float(diffs[0])
        return mean, (mean, mean), (1.0 if mean == 0 else 0.0)
    res = sps.ttest_1samp(diffs, 0.0)
    ci = res.confidence_interval(level)
    return float(diffs.mean()), (float(ci.low), float(ci.high)), float(res.pvalue)


def _mean(values: list[float]) -> float:
    """``float(np.mean(values))``, without numpy's per-call cost for the short lists of one judge's scores
    of one item (half a million of them on a 50 × 10k study: 6 s through ``np.mean``). Below 8 values
    numpy adds in order from 0.0 and divides by the count, so the plain sum gives the same float.

    >>> _mean([0.1, 0.2, 0.3]) == float(np.mean([0.1, 0.2, 0.3]))
    True
    """
    if len(values) < 8:
        return sum(values, 0.0) / len(values)
    return float(np.mean(values))


def judge_comparisons(
    study: Study,
    criterion: str,
    *,
    groups: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> JudgeResult:
    """Adjacent-system comparisons of same-judge, same-sentence scores, per rater group.

    Args:
        study: a :class:`~bleu_core.study.Study` with segment-level ratings for ``criterion``.
        criterion: the human criterion (e.g. ``adequacy``, ``fluency``, ``mqm``).
        groups: rater groups to analyse (default: every group in the ratings).
        systems: systems to include (default: every rated system).
        confidence: level of the t intervals (the paper: 0.95).
    """
    level = check_level(confidence)
    if criterion not in study.criteria:
        known = ", ".join(study.criteria) or "none"
        raise StatsInputError(f"unknown criterion {criterion!r}; this study has: {known}")
    sign = 1.0 if study.criteria[criterion].higher_is_better else -1.0
    wanted = None if systems is None else set(systems)
    # group -> (rater, segment) -> system -> [scores]
    table: dict[str, dict[tuple[str, str], dict[str, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for r in study.ratings:
        if r.criterion != criterion or r.segment_id is None:
            continue
        if wanted is not None and r.system not in wanted:
            continue
        group = NO_GROUP if r.group is None else r.group
        rater = _ANONYMOUS if r.rater is None else r.rater
        table[group][(rater, r.segment_id)][r.system].append(float(r.score))
    if not table:
        raise StatsInputError(
            f"no segment-level ratings for criterion {criterion!r}"
            + ("" if wanted is None else f" of systems {', '.join(sorted(wanted))}")
            + "; judge comparisons need per-segment scores from each judge"
        )
    chosen = sorted(table) if groups is None else list(groups)
    for g in chosen:
        if g not in table:
            raise StatsInputError(
                f"no ratings from rater group {g!r}; groups with ratings: {', '.join(sorted(table))}"
            )
    results = []
    for g in chosen:
        items = {key: {s: _mean(v) for s, v in by_sys.items()} for key, by_sys in table[g].items()}
        all_scores: dict[str, list[float]] = defaultdict(list)
        for by_sys in table[g].values():
            for s, v in by_sys.items():
                all_scores[s].extend(v)
        names = list(all_scores)
        means = {s: float(np.mean(v)) for s, v in all_scores.items()}
        order = sorted(names, key=lambda s: (sign * means[s], s))
        pairs = []
        for lo, hi in zip(order, order[1:], strict=False):
            diffs = np.array(
                [sign * (by[hi] - by[lo]) for by in items.values() if lo in by and hi in by]
            )
            mean, ci, p = _mean_difference(diffs, level)
            pairs.append(AdjacentPair(lo, hi, mean, ci, p, int(diffs.size)))
        raters = {key[0] for key in table[g]}
        results.append(
            GroupJudgments(
                group=g,
                systems=tuple(order),
                means=tuple(means[s] for s in order),
                n_raters=len(raters),
                pairs=tuple(pairs),
            )
        )
    return JudgeResult(criterion, sign > 0, level, tuple(results))
