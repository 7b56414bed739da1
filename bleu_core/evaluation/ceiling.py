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
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.study.formats.esa import SECOND_OPINIONS

from ..maths.resampling import DEFAULT_SEED, make_rng
from .ceiling_flags import ceiling_flags, chance_of
from .chance import CHANCE_STATISTICS, SYSTEM_LEVEL, WMT_RULE, ranking_rule, statistic_value
from .errors import StatsInputError
from .statistic_names import statistic_name
from .tau_like import DA_Z_THRESHOLD

if TYPE_CHECKING:
    from bleu_core.study.model import Study


@dataclass(frozen=True)
class HumanCeiling:
    """One human score set's statistic against another's.

    Attributes:
        statistic: the statistic's value (NaN when not available).
        name: the statistic's name; ``source``: ``raters`` or ``criteria``.
        available: whether a second human opinion existed; ``note`` says what was compared or why not.
        n_items: (system, segment) items with both opinions, ``n_systems`` the systems they belong
            to; ``seed``: the draw of the rater split (and of the interval's resamples).
        n_segments: the segments the value rests on: for a statistic that compares systems within a
            segment, those with 2+ such systems; else those with an item.
        confidence_interval: the 95 % percentile interval over ``n_resamples`` resamples of those
            segments (``None``: not resampled or not available).
    """

    name: str
    statistic: float
    available: bool
    source: str
    n_items: int
    seed: int | None
    note: str
    n_systems: int = 0
    n_segments: int = 0
    confidence_interval: tuple[float, float] | None = None
    n_resamples: int = 0

    def to_dict(self) -> dict[str, Any]:
        ci = self.confidence_interval
        return {
            "statistic_name": self.name,
            "statistic": None if math.isnan(self.statistic) else self.statistic,
            "available": self.available,
            "source": self.source,
            "n_items": self.n_items,
            "n_systems": self.n_systems,
            "n_segments": self.n_segments,
            "confidence_interval": None if ci is None else [float(ci[0]), float(ci[1])],
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "note": self.note,
        }


def rater_items(
    study: Study, criterion: str, systems: Sequence[str]
) -> dict[tuple[int, int], dict[Any, tuple[str, str, list[float]]]]:
    """Every rated (system row, segment column) item of ``criterion``: rater → (group, label, scores).

    Read from the study's ratings and its second opinions (``metadata["second_opinions"]``); a rating
    without a rater counts as a rater of its own. The label names the rater for people: ``"human2: b1"``
    when the rating has a group (WMT25's pass), else the rater. The one grouping the ceiling
    (:func:`rater_split`) and the disagreements (:func:`disagreements`) share.
    """
    from bleu_core.study import Rating

    row = {s: i for i, s in enumerate(systems)}
    col = {seg.id: j for j, seg in enumerate(study.segments)}
    aside = [Rating(*r) for r in (study.metadata or {}).get(SECOND_OPINIONS) or []]
    by_item: dict[tuple[int, int], dict[Any, tuple[str, str, list[float]]]] = defaultdict(dict)
    for n, r in enumerate([*study.ratings, *aside]):
        if r.criterion == criterion and r.segment_id in col and r.system in row:
            rater = ("unnamed", n) if r.rater is None else r.rater
            label = str(r.rater) if not r.group else f"{r.group}: {r.rater}"
            item = by_item[(row[r.system], col[r.segment_id])]
            item.setdefault(rater, (r.group or "", label, []))[2].append(r.score)
    return by_item


def rater_split(
    study: Study, criterion: str, systems: Sequence[str], *, seed: int | None = DEFAULT_SEED
) -> tuple[np.ndarray, np.ndarray, int]:
    """Two ``systems × segments`` arrays, *human 1* and *human 2*, from the items with 2+ raters.

    For each item rated by two or more different raters (a rater's repeats: their mean; a rating without
    a rater counts as a rater of its own), two raters are drawn at random (``seed``) and their scores put
    one on each side; every other item is NaN on both. Where every rater of the item belongs to a group
    (WMT25's passes ``human1``, ``human2``), no draw: the first two groups in order go to human 1 and
    human 2, so the ceiling is pass against pass. The study's ratings and its second opinions
    (``metadata["second_opinions"]``) are read (:func:`rater_items`). Returns the arrays and the seed used.
    """
    rng, seed = make_rng(seed)
    first = np.full((len(systems), len(study.segments)), np.nan)
    second = first.copy()
    for (i, j), raters in sorted(rater_items(study, criterion, systems).items()):
        if len(raters) >= 2:
            if all(group for group, _, _ in raters.values()):
                ordered = sorted(raters.values(), key=lambda v: (v[0], v[1]))
                first[i, j], second[i, j] = (float(np.mean(v[2])) for v in ordered[:2])
                continue
            scores = [float(np.mean(v)) for _, _, v in raters.values()]
            a, b = rng.choice(len(scores), size=2, replace=False)
            first[i, j], second[i, j] = scores[a], scores[b]
    return first, second, seed


def split_words(study: Study, criterion: str, systems: Sequence[str], seed: int) -> str:
    """How :func:`rater_split` chose the two sides: ``human1 against human2`` where every item with two
    raters has them by pass (group), ``drawn with seed N`` where none does, both said when mixed."""
    items = [r for r in rater_items(study, criterion, systems).values() if len(r) >= 2]
    grouped = [all(group for group, _, _ in r.values()) for r in items]
    groups = sorted({group for r in items for group, _, _ in r.values() if group})
    by_pass = " against ".join(groups[:2]) if len(groups) >= 2 else "pass against pass"
    if grouped and all(grouped):
        return by_pass
    if any(grouped):
        return f"{by_pass} where the ratings name it, else drawn with seed {seed}"
    return f"drawn with seed {seed}"


DISAGREEMENT_POINTS = 50.0
"""Two raters of an item disagree when their scores differ by more than this (WMT25's users' outliers)."""


@dataclass(frozen=True)
class Disagreement:
    """An item whose raters' scores differ by more than the threshold: ``scores`` (label, score) each."""

    system: str
    segment_id: str
    doc_id: str | None
    scores: tuple[tuple[str, float], ...]
    gap: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "segment_id": self.segment_id,
            "doc_id": self.doc_id,
            "scores": [{"rater": label, "score": score} for label, score in self.scores],
            "gap": self.gap,
        }


def disagreements(
    study: Study,
    criterion: str,
    *,
    systems: Sequence[str] | None = None,
    threshold: float = DISAGREEMENT_POINTS,
) -> list[Disagreement]:
    """The items of ``criterion`` whose raters differ by more than ``threshold`` points (highest minus
    lowest rater; a rater's repeats: their mean), largest gap first; ``systems`` default to all."""
    names = list(study.systems if systems is None else systems)
    found = []
    for (i, j), raters in rater_items(study, criterion, names).items():
        if len(raters) < 2:
            continue
        scores = tuple(sorted((label, float(np.mean(v))) for _, label, v in raters.values()))
        values = [v for _, v in scores]
        gap = max(values) - min(values)
        if gap > threshold:
            segment = study.segments[j]
            found.append(Disagreement(names[i], segment.id, segment.doc_id, scores, gap))
    return sorted(found, key=lambda d: (-d.gap, d.system, d.segment_id))


def two_rater_criteria(study: Study) -> list[str]:
    """The criteria of ``study`` with at least one item rated by two different raters."""
    out = []
    for name in study.criteria:
        items = rater_items(study, name, list(study.systems))
        if any(len(raters) >= 2 for raters in items.values()):
            out.append(name)
    return out


def human_ceilings(
    study: Study,
    criterion: str,
    *,
    systems: Sequence[str] | None = None,
    seed: int | None = DEFAULT_SEED,
    statistics: Sequence[str] = CHANCE_STATISTICS,
) -> list[HumanCeiling]:
    """The human ceiling of every statistic in ``statistics`` (one rater against another, ``seed``): the
    human-vs-human value to read beside each metric-vs-human number, with its items and systems."""
    return [
        human_ceiling(study, criterion, name, systems=systems, seed=seed) for name in statistics
    ]


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
            f"{statistic_name(statistic)} compares systems within a segment: {groups} segments have 2+ "
            "such systems"
        )
        if groups == 0:
            return math.nan, where
        return statistic_value(statistic, m, h, tau_like), where
    except StatsInputError as err:
        return math.nan, str(err)


def human_ceiling(
    study: Study,
    criterion: str,
    statistic: str,
    *,
    systems: Sequence[str] | None = None,
    other: str | None = None,
    seed: int | None = DEFAULT_SEED,
    tau_like: tuple[float, Any] = WMT_RULE,
    n_resamples: int = 0,
) -> HumanCeiling:
    """The human ceiling of ``statistic`` for ``criterion`` (see the module docstring), with its 95 %
    interval over ``n_resamples`` resamples of its segments (0: none).

    ``systems`` default to the study's machine systems; ``other`` names a second criterion to compare
    with instead of splitting raters. Scores are oriented by each criterion's ``higher_is_better``.
    ``tau_like`` is ``kendall-wmt``'s threshold (in ``criterion``'s units) and selecting scores, as
    :func:`bleu_core.evaluation.chance.ranking_rule` gives them for the ranking the ceiling stands beside.
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
        source, what = (
            "raters",
            f"one rater against another ({split_words(study, criterion, names, used)})",
        )
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
    within = statistic not in SYSTEM_LEVEL and statistic != "soft-pairwise-accuracy"
    columns = np.flatnonzero(both.sum(axis=0) >= (2 if within else 1))
    interval = None
    if n_resamples > 0 and not math.isnan(value) and columns.size:
        interval = _interval(statistic, second, gold, tau_like, columns, n_resamples, seed)
    return HumanCeiling(
        statistic, value, not math.isnan(value), source, n_items, used, note, n_systems,
        int(columns.size), interval, n_resamples if interval is not None else 0,
    )  # fmt: skip


def _interval(
    statistic: str,
    metric: np.ndarray,
    human: np.ndarray,
    tau_like: tuple[float, Any],
    columns: np.ndarray,
    n_resamples: int,
    seed: int | None,
) -> tuple[float, float] | None:
    """The 95 % percentile interval of the ceiling over ``n_resamples`` resamples of its segments
    (``columns``, drawn with replacement from ``seed``); ``None`` when no resample is defined."""
    from ..maths.resampling import percentile_interval

    rng, _ = make_rng(seed)
    values = []
    for _ in range(n_resamples):
        pick = rng.choice(columns, size=columns.size, replace=True)
        v, _why = _value(statistic, metric[:, pick], human[:, pick], tau_like)
        if not math.isnan(v):
            values.append(v)
    if not values:
        return None
    return percentile_interval(np.asarray(values), 0.95)


def add_ceiling(
    ranking: Any,
    study: Study,
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
        n_resamples=min(ranking.n_resamples, CEILING_RESAMPLES),
    )
    found = ceiling.to_dict()  # with why to read it with care (below chance, few items)
    found["flags"] = ceiling_flags(found, chance_of(ranking.extra.get("chance")))
    return replace(ranking, extra={**ranking.extra, "ceiling": found})


CEILING_RESAMPLES = 200
"""At most this many resamples for the interval of a ranking's human ceiling (the ranking's own count
when smaller): the ceiling is a reading aid, and each resample recomputes the statistic."""

RATERS = "raters"
"""The ``--ceiling`` value (and the default) that splits the raters of each ranking's criterion."""


def check_ceiling_criterion(
    study: Study, other: str | None, where: str = "this study"
) -> str | None:
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


def with_ceilings(rankings: Sequence[Any], study: Study, other: str | None) -> list[Any]:
    """Every ranking with its human ceiling from the second criterion ``other`` (a ranking against
    ``other`` itself, or every ranking when ``other`` is ``None`` or :data:`RATERS`: its raters split)."""
    chosen = check_ceiling_criterion(study, other)
    if chosen is None:
        return list(rankings)
    return [add_ceiling(r, study, other=chosen) for r in rankings]
