"""The human ceiling: the same meta-evaluation statistic, one set of human scores against another.

A metric that agrees with the humans on 0.80 of the pairs is excellent if two humans agree on 0.82, and
poor if they agree on 0.95. Where a study has two human opinions of the same translations, this module
computes the statistic with one as the "metric" and the other as the gold, on the same systems and
items, so that every metric's value can be read next to it:

* **two raters of one criterion** (:func:`rater_split`): every (system, segment) rated by two or more
  *different* raters gives one rater's score to *human 1* and another's to *human 2* (which two, and which
  goes where, drawn from a stated seed); a rater's repeats of an item count once (their mean); items
  rated by a single rater are left out of both sides. Ratings kept aside from the scores as second
  opinions (``metadata["second_opinions"]``: WMT24's ESA ratings of ``#incomplete`` documents, see
  :mod:`bleu_core.study.formats.esa`) count here, and only here;
* **two criteria** (:func:`human_ceiling` with ``other=``): e.g. a second rating campaign of the same
  outputs (WMT25's human1/human2, MQM next to DA): the other criterion is the "metric".

Where neither exists the result says so (``available`` False and a ``note``), and the pages say it too.
The note also says on how many items and systems the value rests: on WMT24 en-ja only 363 items of 12
systems have two raters (of 23 systems × 997 segments), so its ceiling is a rough guide.

>>> from bleu_core.study import Criterion, Rating, Segment, Study
>>> ratings = [Rating(s, g, r, None, "da", v) for s, g, r, v in [
...     ("A", "1", "r1", 60), ("A", "1", "r2", 70), ("B", "1", "r1", 20), ("B", "1", "r2", 40),
...     ("C", "1", "r1", 90), ("C", "1", "r2", 80), ("A", "2", "r1", 50)]]
>>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["x", "y"]},
...     {"A": ["a", "a"], "B": ["b", "b"], "C": ["c", "c"]}, frozenset(),
...     {"da": Criterion("da", scale=(0.0, 100.0))}, tuple(ratings))
>>> c = human_ceiling(study, "da", "pairwise-accuracy", seed=1)
>>> c.statistic, c.n_items, c.n_systems, c.available   # the two raters order the 3 systems alike
(1.0, 3, 3, True)
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleu_core.study.formats.esa import SECOND_OPINIONS

from .chance import CHANCE_STATISTICS, SYSTEM_LEVEL, WMT_RULE, ranking_rule, statistic_value
from .errors import StatsInputError
from .resampling import DEFAULT_SEED, make_rng
from .tau_like import DA_Z_THRESHOLD


@dataclass(frozen=True)
class HumanCeiling:
    """One human score set's statistic against another's.

    Attributes:
        statistic: the statistic's value (NaN when not available).
        name: the statistic's name; ``source``: ``raters`` or ``criteria``.
        available: whether a second human opinion existed; ``note`` says what was compared or why not.
        n_items: (system, segment) items with both opinions, ``n_systems`` the systems they belong
            to; ``seed``: the draw of the rater split.
    """

    name: str
    statistic: float
    available: bool
    source: str
    n_items: int
    seed: int | None
    note: str
    n_systems: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "statistic_name": self.name,
            "statistic": None if math.isnan(self.statistic) else self.statistic,
            "available": self.available,
            "source": self.source,
            "n_items": self.n_items,
            "n_systems": self.n_systems,
            "seed": self.seed,
            "note": self.note,
        }


def rater_split(
    study: Any, criterion: str, systems: Sequence[str], *, seed: int | None = DEFAULT_SEED
) -> tuple[np.ndarray, np.ndarray, int]:
    """Two ``systems × segments`` arrays, *human 1* and *human 2*, from the items with 2+ raters.

    For each item rated by two or more different raters (a rater's repeats: their mean; a rating without
    a rater counts as a rater of its own), two raters are drawn at random (``seed``) and their scores put
    one on each side; every other item is NaN on both. The study's ratings and its second opinions
    (``metadata["second_opinions"]``) are read. Returns the arrays and the seed used.
    """
    from bleu_core.study import Rating

    rng, seed = make_rng(seed)
    row = {s: i for i, s in enumerate(systems)}
    col = {seg.id: j for j, seg in enumerate(study.segments)}
    aside = [Rating(*r) for r in (study.metadata or {}).get(SECOND_OPINIONS) or []]
    by_item: dict[tuple[int, int], dict[Any, list[float]]] = defaultdict(lambda: defaultdict(list))
    for n, r in enumerate([*study.ratings, *aside]):
        if r.criterion == criterion and r.segment_id in col and r.system in row:
            rater = ("unnamed", n) if r.rater is None else r.rater
            by_item[(row[r.system], col[r.segment_id])][rater].append(r.score)
    first = np.full((len(systems), len(study.segments)), np.nan)
    second = first.copy()
    for (i, j), raters in sorted(by_item.items()):
        if len(raters) >= 2:
            scores = [float(np.mean(v)) for v in raters.values()]
            a, b = rng.choice(len(scores), size=2, replace=False)
            first[i, j], second[i, j] = scores[a], scores[b]
    return first, second, seed


def _value(
    statistic: str, metric: np.ndarray, human: np.ndarray, tau_like: tuple[float, Any]
) -> tuple[float, str]:
    """The statistic of two ``systems × segments`` human arrays (system scores: means of segments;
    ``tau_like``: the threshold and selecting scores of ``kendall-wmt``)."""
    both = ~(np.isnan(metric) | np.isnan(human))
    m, h = np.where(both, metric, np.nan), np.where(both, human, np.nan)
    try:
        if statistic in SYSTEM_LEVEL:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a system without items: NaN, left out
                ms, hs = np.nanmean(m, axis=1), np.nanmean(h, axis=1)
            if int((~np.isnan(hs)).sum()) < 3:
                return math.nan, "fewer than 3 systems have items with both opinions"
            return statistic_value(statistic, ms, hs, tau_like), ""
        if statistic == "soft-pairwise-accuracy":
            rows = ~np.isnan(h).all(axis=1)
            return statistic_value(statistic, m[rows], h[rows]), ""
        groups = int((both.sum(axis=0) >= 2).sum())
        where = (
            f"{statistic} compares systems within a segment: {groups} segments have 2+ such systems"
        )
        if groups == 0:
            return math.nan, where
        return statistic_value(statistic, m, h, tau_like), where
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
    tau_like: tuple[float, Any] = WMT_RULE,
) -> HumanCeiling:
    """The human ceiling of ``statistic`` for ``criterion`` (see the module docstring).

    ``systems`` default to the study's machine systems; ``other`` names a second criterion to compare
    with instead of splitting raters. Scores are oriented by each criterion's ``higher_is_better``.
    ``tau_like`` is ``kendall-wmt``'s threshold (in ``criterion``'s units) and selecting scores, as
    :func:`bleu_core.stats.chance.ranking_rule` gives them for the ranking the ceiling stands beside.
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
    both = ~(np.isnan(gold) | np.isnan(second))
    n_items, n_systems = int(both.sum()), int(both.any(axis=1).sum())
    if n_items == 0:
        why = (
            f"no item has a score of both {criterion} and {other}"
            if other
            else f"every item has a single {criterion} rating: no human ceiling can be computed"
        )
        return HumanCeiling(statistic, math.nan, False, source, 0, used, why)
    value, why = _value(statistic, second, gold, tau_like)
    note = f"{what}, on {n_items} items of {n_systems} systems" + (f"; {why}" if why else "")
    return HumanCeiling(
        statistic, value, not math.isnan(value), source, n_items, used, note, n_systems
    )


def add_ceiling(
    ranking: Any,
    study: Any,
    *,
    seed: int | None = None,
    criterion: str | None = None,
    other: str | None = None,
) -> Any:
    """``ranking`` with ``extra["ceiling"]``: the human ceiling of its statistic and criterion on its
    systems (the ranking's seed draws the rater split).

    ``criterion`` defaults to the ranking's (give it when the ranking's label is not the criterion's
    name, as in a multi-pair task); ``other`` names a second criterion to compare with instead of
    splitting raters, except for a ranking against ``other`` itself, whose raters are split.
    """
    from dataclasses import replace

    if ranking.statistic not in CHANCE_STATISTICS:
        return ranking
    gold = ranking.criterion if criterion is None else criterion
    threshold, select = ranking_rule(ranking)
    if select is not None:  # pairs chosen by raw DA: a rater's half has no raw DA of its own
        threshold = DA_Z_THRESHOLD
    ceiling = human_ceiling(
        study,
        gold,
        ranking.statistic,
        systems=ranking.systems,
        other=None if other == gold else other,
        seed=ranking.seed if seed is None else seed,
        tau_like=(threshold, None),
    )
    return replace(ranking, extra={**ranking.extra, "ceiling": ceiling.to_dict()})


RATERS = "raters"
"""The ``--ceiling`` value (and the default) that splits the raters of each ranking's criterion."""


def check_ceiling_criterion(study: Any, other: str | None, where: str = "this study") -> str | None:
    """``other`` as the second criterion of the human ceiling: ``None`` for the rater split (``None`` or
    :data:`RATERS`), else a criterion of ``study`` (:class:`StatsInputError` naming ``where`` if not)."""
    if other is None or other == RATERS:
        return None
    if other not in study.criteria:
        raise StatsInputError(
            f"no criterion {other!r} for the human ceiling in {where}; it has: "
            f"{', '.join(study.criteria)} (or '{RATERS}': one rater against another)"
        )
    return other


def with_ceilings(rankings: Sequence[Any], study: Any, other: str | None) -> list[Any]:
    """Every ranking with its human ceiling from the second criterion ``other`` (a ranking against
    ``other`` itself, or every ranking when ``other`` is ``None`` or :data:`RATERS`: its raters split)."""
    chosen = check_ceiling_criterion(study, other)
    if chosen is None:
        return list(rankings)
    return [add_ceiling(r, study, other=chosen) for r in rankings]
