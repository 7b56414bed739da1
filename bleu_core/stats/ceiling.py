"""The human ceiling: the same meta-evaluation statistic, one set of human scores against another.

A metric that agrees with the humans on 0.80 of the pairs is excellent if two humans agree on 0.82, and
poor if they agree on 0.95. Where a study has two human opinions of the same translations, this module
computes the statistic with one as the "metric" and the other as the gold, on the same systems and
items, so that every metric's value can be read next to it:

* **two raters of one criterion** (:func:`rater_split`): every (system, segment) rated by two or more
  raters gives one rating to *human 1* and another to *human 2* (which two, and which goes where, drawn
  from a stated seed); items with a single rating are left out of both sides;
* **two criteria** (:func:`human_ceiling` with ``other=``): e.g. a second rating campaign of the same
  outputs (WMT25's human1/human2, MQM next to DA): the other criterion is the "metric".

Where neither exists the result says so (``available`` False and a ``note``), and the pages say it too.

>>> from bleu_core.study import Criterion, Rating, Segment, Study
>>> ratings = [Rating(s, g, r, None, "da", v) for s, g, r, v in [
...     ("A", "1", "r1", 60), ("A", "1", "r2", 70), ("B", "1", "r1", 20), ("B", "1", "r2", 40),
...     ("C", "1", "r1", 90), ("C", "1", "r2", 80), ("A", "2", "r1", 50)]]
>>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["x", "y"]},
...     {"A": ["a", "a"], "B": ["b", "b"], "C": ["c", "c"]}, frozenset(),
...     {"da": Criterion("da", scale=(0.0, 100.0))}, tuple(ratings))
>>> c = human_ceiling(study, "da", "pairwise-accuracy", seed=1)
>>> c.statistic, c.n_items, c.available          # the two raters order the 3 systems alike
(1.0, 3, True)
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .chance import CHANCE_STATISTICS, SYSTEM_LEVEL, statistic_value
from .errors import StatsInputError
from .resampling import DEFAULT_SEED, make_rng


@dataclass(frozen=True)
class HumanCeiling:
    """One human score set's statistic against another's.

    Attributes:
        statistic: the statistic's value (NaN when not available).
        name: the statistic's name; ``source``: ``raters`` or ``criteria``.
        available: whether a second human opinion existed; ``note`` says what was compared or why not.
        n_items: (system, segment) items with both opinions; ``seed``: the draw of the rater split.
    """

    name: str
    statistic: float
    available: bool
    source: str
    n_items: int
    seed: int | None
    note: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "statistic_name": self.name,
            "statistic": None if math.isnan(self.statistic) else self.statistic,
            "available": self.available,
            "source": self.source,
            "n_items": self.n_items,
            "seed": self.seed,
            "note": self.note,
        }


def rater_split(
    study: Any, criterion: str, systems: Sequence[str], *, seed: int | None = DEFAULT_SEED
) -> tuple[np.ndarray, np.ndarray, int]:
    """Two ``systems × segments`` arrays, *human 1* and *human 2*, from the items with 2+ raters.

    For each item rated by two or more raters, two of its ratings are drawn at random (``seed``) and
    put one on each side; every other item is NaN on both. Returns the arrays and the seed used.
    """
    rng, seed = make_rng(seed)
    row = {s: i for i, s in enumerate(systems)}
    col = {seg.id: j for j, seg in enumerate(study.segments)}
    by_item: dict[tuple[int, int], list[float]] = defaultdict(list)
    for r in study.ratings:
        if r.criterion == criterion and r.segment_id is not None and r.system in row:
            by_item[(row[r.system], col[r.segment_id])].append(r.score)
    first = np.full((len(systems), len(study.segments)), np.nan)
    second = first.copy()
    for (i, j), scores in by_item.items():
        if len(scores) >= 2:
            a, b = rng.choice(len(scores), size=2, replace=False)
            first[i, j], second[i, j] = scores[a], scores[b]
    return first, second, seed


def _value(statistic: str, metric: np.ndarray, human: np.ndarray) -> tuple[float, str]:
    """The statistic of two ``systems × segments`` human arrays (system scores: means of segments)."""
    both = ~(np.isnan(metric) | np.isnan(human))
    m, h = np.where(both, metric, np.nan), np.where(both, human, np.nan)
    try:
        if statistic in SYSTEM_LEVEL:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a system without items: NaN, left out
                ms, hs = np.nanmean(m, axis=1), np.nanmean(h, axis=1)
            if int((~np.isnan(hs)).sum()) < 3:
                return math.nan, "fewer than 3 systems have items with both opinions"
            return statistic_value(statistic, ms, hs), ""
        if statistic == "soft-pairwise-accuracy":
            rows = ~np.isnan(h).all(axis=1)
            return statistic_value(statistic, m[rows], h[rows]), ""
        return statistic_value(statistic, m, h), ""
    except StatsInputError as err:
        return math.nan, str(err)


def human_ceiling(
    study: Any,
    criterion: str,
    statistic: str,
    *,
    systems: Sequence[str] | None = None,
    other: str | None = None,
    seed: int | None = DEFAULT_SEED,
) -> HumanCeiling:
    """The human ceiling of ``statistic`` for ``criterion`` (see the module docstring).

    ``systems`` default to the study's machine systems; ``other`` names a second criterion to compare
    with instead of splitting raters. Scores are oriented by each criterion's ``higher_is_better``.
    """
    if statistic not in CHANCE_STATISTICS:
        raise StatsInputError(
            f"unknown statistic {statistic!r}; choose from: {', '.join(CHANCE_STATISTICS)}"
        )
    for name in (criterion, other):
        if name is not None and name not in study.criteria:
            raise StatsInputError(
                f"unknown criterion {name!r}; this study has: {', '.join(study.criteria)}"
            )
    names = list(study.machine_systems if systems is None else systems)
    sign = 1.0 if study.criteria[criterion].higher_is_better else -1.0
    if other is not None:
        index = [list(study.systems).index(s) for s in names]
        gold = sign * study.segment_scores(criterion)[index]
        o_sign = 1.0 if study.criteria[other].higher_is_better else -1.0
        second = o_sign * study.segment_scores(other)[index]
        used, source, what = None, "criteria", f"{other} against {criterion}"
    else:
        first, second, used = rater_split(study, criterion, names, seed=seed)
        gold, second = sign * first, sign * second
        source, what = "raters", f"one rater against another (drawn with seed {used})"
    n_items = int((~(np.isnan(gold) | np.isnan(second))).sum())
    if n_items == 0:
        why = (
            f"no item has a score of both {criterion} and {other}"
            if other
            else f"every item has a single {criterion} rating: no human ceiling can be computed"
        )
        return HumanCeiling(statistic, math.nan, False, source, 0, used, why)
    value, why = _value(statistic, second, gold)
    note = f"{what}, on {n_items} items" + (f"; {why}" if why else "")
    return HumanCeiling(statistic, value, not math.isnan(value), source, n_items, used, note)


def add_ceiling(ranking: Any, study: Any, *, seed: int | None = None) -> Any:
    """``ranking`` with ``extra["ceiling"]``: the human ceiling of its statistic and criterion on its
    systems, from two raters of the criterion (the ranking's seed draws the split)."""
    from dataclasses import replace

    if ranking.statistic not in CHANCE_STATISTICS:
        return ranking
    ceiling = human_ceiling(
        study,
        ranking.criterion,
        ranking.statistic,
        systems=ranking.systems,
        seed=ranking.seed if seed is None else seed,
    )
    return replace(ranking, extra={**ranking.extra, "ceiling": ceiling.to_dict()})
