"""Which pairs WMT's tau-like (``kendall-wmt``) counts, for each kind of human criterion.

WMT's DARR statistic (WMT17-20; mt-metrics-eval's ``KendallLike``) counts a pair of translations of
one segment when their **raw DA scores (0-100) differ by at least 25 points**. The 25 means something
only on DA's scale, so :func:`tau_like_rule` chooses the pairs by the criterion:

* **a stated 0-100 scale** (raw DA, ESA): 25 points, as WMT; another stated scale: the same quarter of
  the scale (a 1-5 adequacy: 1 point);
* **DA z** (standardised per rater, no scale): where the study has the raw DA of the same items,
  the pairs are **WMT's own**: raw DA differs by 25 points or more, and the pair counts with the
  order DA z gives it, when DA z orders it as raw DA does. A pair whose raw DA and DA z disagree
  (possible: the mean z of two different sets of raters) is left out, and how many is said. This is
  the nearest thing to WMT's definition with DA z as the gold: every pair counted is one WMT counted,
  in the direction WMT counted it. Without raw DA: :data:`DA_Z_THRESHOLD` z units, 25 points over a
  typical rater's standard deviation of ~30 DA points (WMT21: the segment scores' raw / z standard
  deviations are 30.5 for zh-en and 33.0 for de-en);
* **MQM** (minus a weighted error count, no scale): :data:`MQM_THRESHOLD` = 1 point, one minor
  error of MQM's weighting (mean over raters): two translations count as different when one has at
  least a minor error's worth more. A stated choice: WMT did not report tau-like on MQM;
* **any other criterion without a scale**: a quarter of the range its segment scores span, the
  same share of the scale as WMT's 25 of 100, in the criterion's own units.

The rule (threshold, units, what chose the pairs, why) is carried to every output beside the number.

>>> tau_like_rule("da", (0.0, 100.0)).threshold, tau_like_rule("mqm", None).describe()
(25.0, 'pairs with |Δmqm| ≥ 1 MQM point (one minor error; a stated choice: WMT reports no tau-like on MQM), metric ties discordant')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..study.criterion_order import DA_Z_NAMES
from .correlation import WMT_DARR_THRESHOLD, CorrelationResult, wmt_pair_counts
from .errors import StatsInputError

if TYPE_CHECKING:
    from bleu_core.study.model import Study

DA_Z_THRESHOLD = WMT_DARR_THRESHOLD / 30.0
"""DA z threshold without raw DA: 25 DA points over a typical rater's ~30-point standard deviation."""
MQM_THRESHOLD = 1.0
"""MQM threshold: one minor error (MQM weight 1), mean over raters."""
_BLOCK_CELLS = 2_000_000


@dataclass(frozen=True)
class TauLikeRule:
    """How ``kendall-wmt`` chooses its pairs for one criterion.

    Attributes:
        criterion: the gold criterion (the pairs' order); ``threshold`` in ``units``.
        select: the criterion whose differences choose the pairs (raw DA for DA z), or ``""``: the
            gold's own differences.
        how: why this threshold, in a few words.
    """

    criterion: str
    threshold: float
    units: str
    how: str
    select: str = ""

    def describe(self) -> str:
        """The rule in one phrase, shown beside the number."""
        chooser = self.select or self.criterion
        text = f"pairs with |Δ{chooser}| ≥ {self.threshold:.4g} {self.units} ({self.how})"
        if self.select:
            text += f", ordered by {self.criterion} where it agrees"
        return text + ", metric ties discordant"

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": self.criterion,
            "threshold": self.threshold,
            "units": self.units,
            "select": self.select or None,
            "how": self.how,
            "said": self.describe(),
        }


def tau_like_rule(
    name: str,
    scale: tuple[float, float] | None,
    *,
    scores: Any = None,
    raw_da: str = "",
) -> TauLikeRule:
    """The tau-like rule of the criterion ``name`` on ``scale`` (see the module docstring).

    ``raw_da`` names a raw DA criterion (0-100) rated on the same items, for DA z; ``scores`` (the
    criterion's segment scores, NaN = unrated) give the observed range of a criterion without a
    scale that is neither DA z nor MQM.

    >>> tau_like_rule("da_z", None, raw_da="da").describe()
    'pairs with |Δda| ≥ 25 DA points (WMT DARR), ordered by da_z where it agrees, metric ties discordant'
    >>> round(tau_like_rule("da_z", None).threshold, 3), tau_like_rule("adequacy", (1.0, 5.0)).threshold
    (0.833, 1.0)
    """
    if scale is not None:
        width = abs(float(scale[1]) - float(scale[0]))
        if width == 100:
            return TauLikeRule(name, WMT_DARR_THRESHOLD, "points", "WMT DARR, 0-100 scale")
        value = WMT_DARR_THRESHOLD / 100.0 * width
        how = f"a quarter of the {scale[0]:g}-{scale[1]:g} scale, as WMT's 25 of DA's 100"
        return TauLikeRule(name, value, "points", how)
    low = name.lower()
    if low in DA_Z_NAMES:
        if raw_da:
            return TauLikeRule(name, WMT_DARR_THRESHOLD, "DA points", "WMT DARR", raw_da)
        how = "25 DA points over a rater's ~30-point SD; no raw DA to choose WMT's pairs"
        return TauLikeRule(name, DA_Z_THRESHOLD, "z", how)
    if low.startswith("mqm"):
        how = "one minor error; a stated choice: WMT reports no tau-like on MQM"
        return TauLikeRule(name, MQM_THRESHOLD, "MQM point", how)
    values = np.asarray([] if scores is None else scores, dtype=np.float64)
    values = values[np.isfinite(values)]
    span = float(values.max() - values.min()) if values.size else 0.0
    if span <= 0:
        how = "no scale and no spread of scores: WMT's 25 kept"
        return TauLikeRule(name, WMT_DARR_THRESHOLD, "points", how)
    how = (
        f"a quarter of the observed range {values.min():.4g} to {values.max():.4g}; no stated scale"
    )
    return TauLikeRule(name, 0.25 * span, "points", how)


def study_rule(study: Study, criterion: str, systems_index: Any = None) -> TauLikeRule:
    """:func:`tau_like_rule` for ``study``'s ``criterion`` (rows ``systems_index`` of its segment
    scores): for DA z, the study's raw DA (a criterion named ``da`` on 0-100) when it rates exactly
    the same items."""
    crit = study.criteria[criterion]
    scores = study.segment_scores(criterion)
    if systems_index is not None:
        scores = scores[systems_index]
    raw = ""
    other = study.criteria.get("da")
    if criterion.lower() in DA_Z_NAMES and other is not None and other.scale is not None:
        raw_scores = study.segment_scores("da")
        raw_scores = raw_scores if systems_index is None else raw_scores[systems_index]
        if abs(other.scale[1] - other.scale[0]) == 100 and np.array_equal(
            np.isnan(raw_scores), np.isnan(scores)
        ):
            raw = "da"
    return tau_like_rule(criterion, crit.scale, scores=scores, raw_da=raw)


def tau_like_counts(
    metric: Any, human: Any, threshold: float, select: Any = None
) -> tuple[np.ndarray, np.ndarray, int]:
    """Per segment, Concordant and Discordant pairs of WMT's tau-like, and the pairs left out.

    Without ``select``: :func:`~bleu_core.evaluation.correlation.wmt_pair_counts` (``|Δhuman| ≥
    threshold``), nothing left out. With ``select`` (``systems × segments``, raw DA for a DA z gold):
    a pair counts when ``|Δselect| ≥ threshold`` and ``human`` orders it as ``select`` does; the
    pairs chosen whose ``human`` order disagrees (or ties) are left out and counted.

    >>> raw = np.array([[10.0], [50.0], [90.0]]); z = np.array([[-1.0], [0.5], [0.2]])
    >>> c, d, out = tau_like_counts(np.array([[1.0], [2.0], [3.0]]), z, 25, raw)
    >>> int(c.sum()), int(d.sum()), out     # 50 v 90: z says the other way, left out
    (2, 0, 1)
    """
    m = np.asarray(metric, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if select is None:
        c, d = wmt_pair_counts(m, h, threshold)
        return c, d, 0
    g = np.asarray(select, dtype=np.float64)
    if not (m.shape == h.shape == g.shape) or m.ndim != 2:
        raise StatsInputError(
            f"metric, gold and selecting scores must be systems × segments arrays of one shape, "
            f"got {m.shape}, {h.shape} and {g.shape}"
        )
    k, s = m.shape
    iu, ju = np.triu_indices(k, k=1)
    c, d = np.zeros(s), np.zeros(s)
    left_out = 0
    block = max(1, _BLOCK_CELLS // max(1, iu.size))
    for start in range(0, s, block):
        cols = slice(start, start + block)
        dg, dh, dm = g[iu, cols] - g[ju, cols], h[iu, cols] - h[ju, cols], m[iu, cols] - m[ju, cols]
        with np.errstate(invalid="ignore"):
            chosen = (np.abs(dg) >= threshold) & ~np.isnan(dm) & ~np.isnan(dh)
            same = np.sign(dh) == np.sign(dg)
            agree = ((dh > 0) & (dm > 0)) | ((dh < 0) & (dm < 0))
        left_out += int((chosen & ~same).sum())
        valid = chosen & same
        c[cols] = (valid & agree).sum(axis=0)
        d[cols] = valid.sum(axis=0) - c[cols]
    return c, d, left_out


@dataclass(frozen=True)
class TauLikePairs:
    """The pairs of translations WMT's tau-like counts, one entry per pair.

    ``item`` is the segment (column), ``better`` and ``worse`` the systems (rows) in the gold's
    order; ``n_items`` the number of segments; ``left_out`` the chosen pairs the gold orders
    against the selecting scores (see :func:`tau_like_counts`).
    """

    item: np.ndarray
    better: np.ndarray
    worse: np.ndarray
    n_items: int
    left_out: int = 0

    def values(self, metric: Any) -> np.ndarray:
        """+1 for each pair ``metric`` orders as the gold, -1 where it orders it the other way or
        ties it (WMT: a metric tie is discordant)."""
        m = np.asarray(metric, dtype=np.float64)
        return np.where(m[self.better, self.item] > m[self.worse, self.item], 1.0, -1.0)


def tau_like_pairs(human: Any, threshold: float, select: Any = None) -> TauLikePairs:
    """Every pair :func:`tau_like_counts` counts, for metrics scored wherever ``human`` is (NaN =
    unrated); with ``select``, chosen by it and kept where ``human`` orders it the same way.

    >>> p = tau_like_pairs(np.array([[10.0, 5.0], [50.0, 80.0], [20.0, 60.0]]), 25)
    >>> p.item.tolist(), p.better.tolist(), p.worse.tolist()
    ([0, 0, 1, 1], [1, 1, 1, 2], [0, 2, 0, 0])
    >>> p.values(np.array([[1.0, 1.0], [3.0, 2.0], [2.0, 1.0]])).tolist()   # a tie: -1
    [1.0, 1.0, 1.0, -1.0]
    """
    h = np.asarray(human, dtype=np.float64)
    g = h if select is None else np.asarray(select, dtype=np.float64)
    if g.shape != h.shape or h.ndim != 2:
        raise StatsInputError(
            f"gold and selecting scores must be systems × segments arrays of one shape, "
            f"got {h.shape} and {g.shape}"
        )
    iu, ju = np.triu_indices(h.shape[0], k=1)
    dh, dg = (h[iu] - h[ju]).T, (g[iu] - g[ju]).T  # segments × pairs: ordered by segment
    with np.errstate(invalid="ignore"):
        chosen = (np.abs(dg) >= threshold) & ~np.isnan(dh)
        keep = chosen & (np.sign(dh) == np.sign(dg))
    item, pair = np.nonzero(keep)
    up = dh[item, pair] > 0
    better = np.where(up, iu[pair], ju[pair])
    worse = np.where(up, ju[pair], iu[pair])
    return TauLikePairs(item, better, worse, h.shape[1], int((chosen & ~keep).sum()))


def tau_like_result(
    c: np.ndarray, d: np.ndarray, rule: TauLikeRule, left_out: int = 0
) -> CorrelationResult:
    """The tau-like ``(C − D) / (C + D)`` with ``rule`` (and the pairs left out) in its note."""
    total = float(c.sum() + d.sum())
    stat = float((c.sum() - d.sum()) / total) if total else float("nan")
    note = rule.describe() if total else f"no pair of translations: {rule.describe()}"
    if left_out:
        note += f"; {left_out} pairs left out where {rule.criterion} and {rule.select} disagree"
    return CorrelationResult(
        "kendall-wmt", stat, None, int(total), level="segment", grouping="item", note=note
    )


def tau_like_of(study: Study, criterion: str, systems_index: Any) -> tuple[TauLikeRule, Any]:
    """The rule of :func:`study_rule` and the scores choosing its pairs, oriented as the ranking's
    human scores (higher = better; ``None`` when the criterion's own scores choose them)."""
    rule = study_rule(study, criterion, systems_index)
    if not rule.select:
        return rule, None
    sign = 1.0 if study.criteria[rule.select].higher_is_better else -1.0
    return rule, sign * study.segment_scores(rule.select)[systems_index]


def study_tau_like(study: Study, criterion: str, systems_index: Any = None) -> dict[str, Any]:
    """The keyword arguments ``rule`` and ``select`` of
    :func:`bleu_core.evaluation.meta.segment_correlations` for ``study``'s ``criterion`` (rows
    ``systems_index``; scores as the study has them, not oriented): every surface that shows WMT's
    tau-like (``meta``, the Correlation and Metrics pages) counts the same pairs through it."""
    rule = study_rule(study, criterion, systems_index)
    select = None
    if rule.select:
        select = study.segment_scores(rule.select)
        select = select if systems_index is None else select[systems_index]
    return {"rule": rule, "select": select}
