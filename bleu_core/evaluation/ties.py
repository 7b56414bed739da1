"""Kendall variants that take ties into account, and tie calibration (Deutsch et al. 2023).

Deutsch, Foster & Freitag (2023), "Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration" count, over pairs of translations, **C** concordant and **D**
discordant pairs, **T_h** pairs tied only in the human scores, **T_m** only in the metric scores,
and **T_hm** in both, and define

* ``tau_23 = (C + T_hm - D - T_h - T_m) / (C + D + T_h + T_m + T_hm)``
* ``acc_23 = (C + T_hm) / (C + D + T_h + T_m + T_hm)``  (pairwise accuracy with ties, *acc\\*_eq*)

Metrics rarely give two translations exactly the same score, so acc_23 would penalise every metric
on the human ties; **tie calibration** declares a metric tie whenever ``|Δmetric| <= ε`` and picks
the ε that maximises the statistic (searching every observed ``|Δmetric|``, as MTME's
``tau_optimization`` does). acc*_eq is acc_23 with the calibrated ε.

Scores are ``systems × items`` arrays (NaN = missing); ``average_by`` says how they are grouped
(MTME's ``_Reshape``): ``none`` = one group of all scores, ``sys`` = one group per system (its
items), ``item`` = one group per item (the systems' translations of one segment), the usual WMT
choice. A statistic is computed per group and the groups are averaged; pairs with a missing score
are left out (MTME's None filtering), a group with fewer than 2 scores is skipped, a group of 2
systems (one pair) counts.

>>> human = np.array([[1.0], [2.0], [2.0], [3.0], [4.0]])     # MTME stats_test: 5 systems, 1 item
>>> metric = np.array([[2.0], [1.0], [1.5], [5.0], [3.0]])
>>> kendall_variant(metric, human, "acc23", average_by="item").statistic
0.6
>>> tie_calibrated(metric, human, "acc23", average_by="item").statistic
0.7
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..maths.resampling import DEFAULT_SEED, make_rng
from .errors import StatsInputError

AVERAGINGS = ("none", "sys", "item")
VARIANTS = ("b", "c", "23", "acc23")
THRESHOLD_VARIANTS = ("b", "23", "acc23")  # tau-c takes no tie threshold
MAX_PAIRS = 30_000_000


@dataclass(frozen=True)
class AveragedResult:
    """A statistic averaged over groups.

    Attributes:
        statistic: the mean over groups with a defined value (``nan`` when none).
        n_groups: groups averaged; ``average_by``: ``none``, ``sys`` or ``item``.
        method: what was computed; ``pvalue`` is ``None`` (no test for an average).
    """

    method: str
    statistic: float
    n_groups: int
    average_by: str
    pvalue: float | None = None


@dataclass(frozen=True)
class TieCalibrationResult:
    """A tie-calibrated Kendall variant (``acc23`` = acc*_eq, or ``23`` = tau_23).

    Attributes:
        statistic: the best value; ``threshold``: the ε achieving it (first best, smallest ε).
        thresholds, values: every ε tried and the statistic there (MTME's ``thresholds``/``taus``).
        n_groups, n_pairs: groups averaged and pairs used.
        seed: the seed of the pair sample when ``sample_rate < 1`` drew it from :data:`DEFAULT_SEED` (no
            ``rng`` given), so the result can be reproduced; ``None`` otherwise.
    """

    variant: str
    statistic: float
    threshold: float
    average_by: str
    n_groups: int
    n_pairs: int
    thresholds: np.ndarray
    values: np.ndarray
    pvalue: float | None = None
    seed: int | None = None


def groups(scores: Any, average_by: str) -> np.ndarray:
    """The ``groups × members`` matrix for ``average_by`` (MTME's ``_Reshape``).

    >>> groups(np.arange(6.0).reshape(2, 3), "item").tolist()
    [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    """
    a = np.asarray(scores, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise StatsInputError(f"scores must be a systems × items array, got shape {a.shape}")
    if average_by == "none":
        return a.reshape(1, -1)
    if average_by == "sys":
        return a
    if average_by == "item":
        return a.T
    raise StatsInputError(
        f"unknown averaging {average_by!r}; choose one of: {', '.join(AVERAGINGS)}"
    )


def _pair(metric: Any, human: Any) -> tuple[np.ndarray, np.ndarray]:
    m = np.asarray(metric, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if m.shape != h.shape:
        raise StatsInputError(
            f"metric and human scores must have the same shape, got {m.shape} and {h.shape}"
        )
    return m, h


def average_correlation(
    metric: Any,
    human: Any,
    statistic: Callable[[np.ndarray, np.ndarray], float],
    average_by: str = "none",
    *,
    replace_nans_with_zeros: bool = False,
    name: str = "",
) -> AveragedResult:
    """``statistic(metric_group, human_group)`` per group, averaged (MTME's ``AverageCorrelation``).

    Entries with a missing human score are dropped from each group (the metric side is assumed
    complete, as in MTME); groups left with fewer than 2 entries are skipped; a NaN statistic is
    skipped, or counted as 0 with ``replace_nans_with_zeros``.

    >>> from scipy.stats import pearsonr
    >>> m = np.array([[2.0, 1, 4], [3, 3, 7]]); h = np.array([[1.0, 2, 3], [4, 5, 6]])
    >>> round(average_correlation(m, h, lambda x, y: pearsonr(y, x)[0], "sys").statistic, 3)
    0.76
    """
    m, h = _pair(metric, human)
    gm, gh = groups(m, average_by), groups(h, average_by)
    total, n = 0.0, 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for rm, rh in zip(gm, gh, strict=True):
            keep = ~np.isnan(rh)
            if keep.sum() < 2:
                continue
            value = float(statistic(rm[keep], rh[keep]))
            if math.isnan(value):
                if replace_nans_with_zeros:
                    n += 1
                continue
            total += value
            n += 1
    return AveragedResult(
        name or getattr(statistic, "__name__", "statistic"),
        total / n if n else math.nan,
        n,
        average_by,
    )


# ------------------------------------------------------------------------------ pair counts


@dataclass(frozen=True)
class PairOutcomes:
    """Every pair of scores within a group, for one metric against the human scores.

    ``group`` is the group index of each pair, ``metric_diff`` ``|Δmetric|``, ``human_tie`` and
    ``outcome`` (``con``=0, ``dis``=1, ``ties_human``=2, ``ties_metric``=3, ``ties_both``=4, with
    metric ties exact: ε = 0); ``group_sizes`` the pairs per group (groups without pairs: 0).
    """

    group: np.ndarray
    metric_diff: np.ndarray
    human_tie: np.ndarray
    outcome: np.ndarray
    group_sizes: np.ndarray

    def outcomes_at(self, epsilon: float) -> np.ndarray:
        """Outcomes when ``|Δmetric| <= epsilon`` is a metric tie."""
        if epsilon < 0:
            raise StatsInputError(f"a tie threshold must be >= 0, got {epsilon}")
        tied = self.metric_diff <= epsilon
        out = self.outcome.copy()
        out[tied] = np.where(self.human_tie[tied], 4, 3)
        return out

    def counts(self, epsilon: float = 0.0) -> np.ndarray:
        """``groups × 5`` counts (C, D, T_h, T_m, T_hm)."""
        out = np.zeros((self.group_sizes.size, 5), dtype=np.int64)
        np.add.at(out, (self.group, self.outcomes_at(epsilon)), 1)
        return out


def pair_outcomes(
    metric: Any, human: Any, average_by: str = "item", *, valid: np.ndarray | None = None
) -> PairOutcomes:
    """All within-group pairs where both scores exist on both sides (MTME's None filtering)."""
    m, h = _pair(metric, human)
    gm, gh = groups(m, average_by), groups(h, average_by)
    r, n = gm.shape
    n_pairs = r * n * (n - 1) // 2
    if n_pairs > MAX_PAIRS:
        raise StatsInputError(
            f"{n_pairs:,} pairs of scores in {r} group(s) of {n}: too many to enumerate; "
            "average by item or by system instead of none"
        )
    iu, ju = np.triu_indices(n, k=1)
    dm = gm[:, iu] - gm[:, ju]
    dh = gh[:, iu] - gh[:, ju]
    ok = ~(np.isnan(dm) | np.isnan(dh))
    if valid is not None:
        ok &= groups(valid.astype(np.float64), average_by)[:, iu].astype(bool)
        ok &= groups(valid.astype(np.float64), average_by)[:, ju].astype(bool)
    grp = np.broadcast_to(np.arange(r)[:, None], dm.shape)[ok]
    dm, dh = dm[ok], dh[ok]
    mt, ht = dm == 0, dh == 0
    same = np.sign(dm) == np.sign(dh)
    outcome = np.where(mt & ht, 4, np.where(mt, 3, np.where(ht, 2, np.where(same, 0, 1)))).astype(
        np.int8
    )
    return PairOutcomes(grp, np.abs(dm), ht, outcome, np.bincount(grp, minlength=r))


def _variant_values(counts: np.ndarray, variant: str) -> np.ndarray:
    c, d, th, tm, tb = (counts[:, i].astype(np.float64) for i in range(5))
    tot = c + d + th + tm + tb
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "23":
            return (c + tb - d - th - tm) / tot
        if variant == "acc23":
            return (c + tb) / tot
        if variant == "b":
            xtie, ytie = tm + tb, th + tb
            out = (c - d) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
            return np.where((xtie == tot) | (ytie == tot), np.nan, out)
    raise StatsInputError(
        f"unknown Kendall variant {variant!r}; choose one of: {', '.join(VARIANTS)}"
    )


def kendall_variant(
    metric: Any,
    human: Any,
    variant: str = "acc23",
    *,
    average_by: str = "none",
    epsilon: float = 0.0,
    replace_nans_with_zeros: bool = False,
) -> AveragedResult:
    """Kendall's tau-b, tau-c, tau_23 or acc_23 per group, averaged (MTME's ``KendallVariants``).

    A metric tie is ``|Δmetric| <= epsilon`` (exact ties for 0). tau-c takes no ε (as in MTME).
    """
    if variant not in VARIANTS:
        raise StatsInputError(
            f"unknown Kendall variant {variant!r}; choose one of: {', '.join(VARIANTS)}"
        )
    if variant == "c":
        if epsilon:
            raise StatsInputError("tau-c is not defined with a tie threshold (epsilon must be 0)")
        from scipy.stats import kendalltau

        return average_correlation(
            metric,
            human,
            lambda x, y: kendalltau(y, x, variant="c")[0],
            average_by,
            replace_nans_with_zeros=replace_nans_with_zeros,
            name="kendall-c",
        )
    res = at_tie_threshold(
        metric,
        human,
        epsilon,
        variant,
        average_by=average_by,
        replace_nans_with_zeros=replace_nans_with_zeros,
    )
    return AveragedResult(f"kendall-{variant}", res.statistic, res.n_groups, average_by)


@dataclass(frozen=True)
class ThresholdResult:
    """A Kendall variant at one given tie threshold ε (acc*_eq at the ε a user chose, say).

    Attributes:
        statistic: the mean over groups with a defined value (``nan`` when none); ``n_groups`` of them.
        counts: the pairs behind it, summed over the groups: C, D, T_h, T_m, T_hm (module docstring),
            with a metric tie wherever ``|Δmetric| <= epsilon``.
    """

    variant: str
    statistic: float
    epsilon: float
    average_by: str
    n_groups: int
    counts: tuple[int, int, int, int, int]


def at_tie_threshold(
    metric: Any,
    human: Any,
    epsilon: float,
    variant: str = "acc23",
    *,
    average_by: str = "item",
    replace_nans_with_zeros: bool = False,
) -> ThresholdResult:
    """acc_23 (``variant="acc23"``), tau_23 or tau-b per group with the metric tie threshold *epsilon*
    (``|Δmetric| <= epsilon`` is a metric tie), averaged over the groups, with the pair counts.

    At the ε that :func:`tie_calibrated` finds this is acc*_eq (its ``statistic``); at any other ε, the
    value on its curve (``values``) there.

    >>> human = np.array([[1.0], [2.0], [2.0], [3.0], [4.0]])     # MTME stats_test, as above
    >>> metric = np.array([[2.0], [1.0], [1.5], [5.0], [3.0]])
    >>> res = at_tie_threshold(metric, human, 0.5)
    >>> res.statistic, res.counts   # metric 2 vs 1.5: T_m; 1 vs 1.5 (humans 2, 2): T_hm; (6 + 1) / 10
    (0.7, (6, 2, 0, 1, 1))
    """
    if variant not in THRESHOLD_VARIANTS:
        raise StatsInputError(
            f"a tie threshold applies to the Kendall variants {', '.join(THRESHOLD_VARIANTS)}, "
            f"not {variant!r}"
        )
    outcomes = pair_outcomes(metric, human, average_by)
    per_group = outcomes.counts(epsilon)
    values = _variant_values(per_group, variant)[outcomes.group_sizes > 0]
    if replace_nans_with_zeros:
        values = np.nan_to_num(values)
    values = values[~np.isnan(values)]
    stat = float(values.mean()) if values.size else math.nan
    c, d, th, tm, tb = (int(n) for n in per_group.sum(axis=0))
    return ThresholdResult(
        variant, stat, float(epsilon), average_by, int(values.size), (c, d, th, tm, tb)
    )


OUTCOME_VALUES = {  # value of each outcome (C, D, T_h, T_m, T_hm) in the numerator
    "acc23": np.array([1.0, 0.0, 0.0, 0.0, 1.0]),
    "23": np.array([1.0, -1.0, -1.0, -1.0, 1.0]),
}


def tie_calibrated(
    metric: Any,
    human: Any,
    variant: str = "acc23",
    *,
    average_by: str = "item",
    sample_rate: float = 1.0,
    rng: np.random.Generator | None = None,
) -> TieCalibrationResult:
    """acc*_eq (``variant="acc23"``) or tau_23 with the metric's tie threshold optimised.

    Deutsch et al. (2023), §5: every observed ``|Δmetric|`` is a candidate ε; pairs are turned
    into metric ties in increasing order of ``|Δmetric|`` and the average over groups of the
    statistic is tracked; the ε (starting at 0) with the highest value wins. Vectorised: turning a
    pair into a tie changes its group's numerator by ``value(tie) - value(outcome)``, so the curve
    is a cumulative sum over the sorted pairs. ``sample_rate < 1`` keeps each pair with that
    probability (MTME's speed-up, an approximation; ``rng`` draws it, by default a generator seeded with
    :data:`~bleu_core.maths.resampling.DEFAULT_SEED`, so the result is reproducible and its ``seed``
    says which).
    """
    if variant not in OUTCOME_VALUES:
        raise StatsInputError("tie calibration is defined for the '23' and 'acc23' variants")
    if not 0 < sample_rate <= 1:
        raise StatsInputError(f"sample_rate must be in (0, 1], got {sample_rate}")
    o = pair_outcomes(metric, human, average_by)
    seed = None
    if sample_rate < 1:
        if rng is None:
            rng, seed = make_rng(DEFAULT_SEED)
        keep = rng.random(o.group.size) <= sample_rate
        o = PairOutcomes(
            o.group[keep],
            o.metric_diff[keep],
            o.human_tie[keep],
            o.outcome[keep],
            np.bincount(o.group[keep], minlength=o.group_sizes.size),
        )
    sizes = o.group_sizes.astype(np.float64)
    n_groups = int((sizes > 0).sum())
    if not n_groups:
        return TieCalibrationResult(
            variant, math.nan, 0.0, average_by, 0, 0, np.zeros(1), np.full(1, np.nan), seed=seed
        )
    table = OUTCOME_VALUES[variant]
    per_pair = table[o.outcome] / sizes[o.group]
    tie_value = np.where(o.human_tie, table[4], table[3]) / sizes[o.group]
    start = float(per_pair.sum()) / n_groups
    order = np.argsort(o.metric_diff, kind="stable")
    diffs = o.metric_diff[order]
    curve = start + np.cumsum((tie_value - per_pair)[order]) / n_groups
    last = np.r_[diffs[1:] != diffs[:-1], True]  # end of each run of equal |Δmetric|
    thresholds, values = diffs[last], curve[last]
    if thresholds.size == 0 or thresholds[0] != 0.0:
        thresholds, values = np.r_[0.0, thresholds], np.r_[start, values]
    best = int(np.flatnonzero(values >= np.nanmax(values) - 1e-12)[0])
    return TieCalibrationResult(
        variant,
        float(values[best]),
        float(thresholds[best]),
        average_by,
        n_groups,
        int(o.group.size),
        thresholds,
        values,
        seed=seed,
    )


def kendall_like(
    metric: Any,
    human: Any,
    threshold: float = 25.0,
    *,
    average_by: str = "item",
    convention: str = "mtme",
) -> AveragedResult:
    """WMT's tau-like Kendall ``(C - D) / (C + D)`` with a choice of convention.

    ``convention="mtme"`` (MTME's ``KendallLike``, WMT20): a pair counts when
    ``|Δhuman| >= threshold`` (so with threshold 0 human ties count, and are Discordant), a metric
    tie is Discordant; groups are pooled (weighted by their pair counts). ``"bleu-study"`` is
    :func:`bleu_core.evaluation.correlation.kendall_wmt` (the same rule, by item, vectorised).

    >>> gold = np.array([[10.0], [11], [100], [150]]); m = np.array([[2.0], [1], [4], [3]])
    >>> kendall_like(m, gold).statistic, kendall_like(m, gold, 1).statistic   # MTME stats_test
    (0.6, 0.3333333333333333)
    """
    if convention == "bleu-study":
        from .correlation import kendall_wmt

        res = kendall_wmt(metric, human, threshold)
        return AveragedResult("kendall-like", res.statistic, res.n, "item")
    if convention != "mtme":
        raise StatsInputError(f"unknown convention {convention!r}; choose mtme or bleu-study")
    m, h = _pair(metric, human)
    gm, gh = groups(m, average_by), groups(h, average_by)
    n = gm.shape[1]
    iu, ju = np.triu_indices(n, k=1)
    dh = gh[:, iu] - gh[:, ju]
    dm = gm[:, iu] - gm[:, ju]
    ok = ~(np.isnan(dh) | np.isnan(dm)) & (np.abs(np.nan_to_num(dh)) >= threshold)
    agree = ((dh > 0) & (dm > 0)) | ((dh < 0) & (dm < 0))
    c = int((ok & agree).sum())
    d = int((ok & ~agree).sum())
    stat = (c - d) / (c + d) if c + d else 0.0
    return AveragedResult("kendall-like", stat, c + d, average_by)
