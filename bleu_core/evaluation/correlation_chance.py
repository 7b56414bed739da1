"""The chance line of every correlation ``meta`` reports: what a random and a constant metric get.

:mod:`bleu_core.evaluation.chance` gives the chance line of the statistics metrics are ranked by; this
module gives it for the correlation rows of :func:`bleu_core.evaluation.study_meta.meta_evaluate`, with
the same two baselines, each computed exactly as the row's own number:

* **random metric**: the metric's own scores permuted (seeded) *within the grouping the row uses*:
  among the systems (system level), among all scored translations (segment level, no grouping),
  among each segment's translations (grouped by item, and WMT's tau-like, which compares the
  translations of one segment). Its expected value is about 0 for every correlation: a coefficient
  near 0 says as little as a shuffled metric. It is *not* 0 for WMT's tau-like when the metric has
  ties: a metric tie counts as discordant, so a metric that ties often (sentence BLEU: every pair of
  zeros) sits below 0 even when shuffled;
* **constant metric**: every translation the same score. A correlation is undefined for it (NaN);
  WMT's tau-like counts every pair as a metric tie, so -1.

Permutations: :data:`PERMUTATIONS` by level (a segment-level permutation recomputes the statistic
over every scored translation, so fewer), said with the number.

>>> from bleu_core.maths.correlation import CorrelationResult
>>> res = CorrelationResult("pearson", 0.9, 0.01, 6, level="system")
>>> line = correlation_chance(res, [1.0, 2, 3, 4, 5, 6], [1.0, 2, 3, 5, 4, 6], seed=1)
>>> abs(line.random) < 0.1, line.constant != line.constant, line.grouping, line.n_permutations
(True, True, 'systems', 1000)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..maths.correlation import CorrelationResult, correlation
from ..maths.resampling import DEFAULT_SEED, make_rng
from .chance import ChanceLine, chance_line, permute_within_items
from .correlation import item_correlations, item_result
from .permuted_correlations import batched_applies, permuted_values, tau_like_values
from .tau_like import TauLikeRule, tau_like_counts

PERMUTATIONS = {"system": 1000, "segment": 100}
"""Random permutations per chance line: system-level values are cheap, a segment-level one is a
pass over every scored translation."""
WMT_RULE = TauLikeRule("", 25.0, "points", "WMT DARR")
"""WMT's tau-like rule where none is given: pairs whose human scores differ by 25 points or more."""


def _line(
    statistic: str,
    values: np.ndarray,
    constant: float,
    seed: int,
    grouping: str,
) -> ChanceLine:
    finite = values[~np.isnan(values)]
    if finite.size:
        mean = float(finite.mean())
        low, high = (float(v) for v in np.percentile(finite, [2.5, 97.5]))
    else:
        mean = low = high = math.nan
    note = "a constant metric has no correlation" if math.isnan(constant) else ""
    return ChanceLine(statistic, mean, (low, high), constant, values.size, seed, grouping, note)


def _permute_all(scores: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``scores`` with its non-NaN entries shuffled among all of them (NaN stay in place)."""
    out = scores.copy()
    where = np.flatnonzero(~np.isnan(scores.ravel()))
    out.ravel()[where] = scores.ravel()[where[rng.permutation(where.size)]]
    return out


def _segment_value(method: str, grouping: str, m: np.ndarray, h: np.ndarray) -> float:
    if grouping == "item":
        return item_result(method, item_correlations(m, h, method)).statistic
    return correlation(m.ravel(), h.ravel(), method).statistic


def tau_like_value(
    metric: np.ndarray, human: np.ndarray, rule: TauLikeRule, select: Any = None
) -> float:
    """WMT's tau-like of ``metric`` with ``rule`` (NaN when no pair counts)."""
    c, d, _ = tau_like_counts(metric, human, rule.threshold, select)
    total = c.sum() + d.sum()
    return float((c.sum() - d.sum()) / total) if total else math.nan


def looped_values(
    method: str,
    grouping: str,
    metric: np.ndarray,
    human: np.ndarray,
    rng: np.random.Generator,
    n: int,
    rule: TauLikeRule,
    select: Any = None,
) -> np.ndarray:
    """The definition, one permutation at a time: ``n`` times, the metric's scores permuted (within each
    segment for a grouping by item and for ``kendall-wmt``, among all scored translations otherwise) and
    the correlation recomputed as for the metric. :mod:`bleu_core.evaluation.permuted_correlations` computes
    the same values from the same draws in blocks; this loop computes them where it cannot (scores with an
    infinity, arrays of the wrong shape: the loop says what is wrong) and is its tests' reference."""
    if method == "kendall-wmt":
        return np.array(
            [
                tau_like_value(permute_within_items(metric, rng), human, rule, select)
                for _ in range(n)
            ]
        )
    permute = permute_within_items if grouping == "item" else _permute_all
    with np.errstate(invalid="ignore", divide="ignore"):
        values = [_segment_value(method, grouping, permute(metric, rng), human) for _ in range(n)]
    return np.array(values)


def _tau_like_line(
    m: np.ndarray, h: np.ndarray, rng: np.random.Generator, n: int, rule: TauLikeRule, select: Any
) -> tuple[np.ndarray, float]:
    """The tau-like's ``n`` random values and its constant metric's value (-1: every counted pair a
    metric tie; NaN without a pair)."""
    if batched_applies(m, h, select):
        values, total = tau_like_values(m, h, rng, n, rule.threshold, select)
        return values, -1.0 if total else math.nan
    values = looped_values("kendall-wmt", "item", m, h, rng, n, rule, select)
    return values, tau_like_value(np.where(np.isnan(m), np.nan, 0.0), h, rule, select)


def correlation_chance(
    result: CorrelationResult,
    metric: Any,
    human: Any,
    *,
    seed: int | None = DEFAULT_SEED,
    rule: TauLikeRule | None = None,
    select: Any = None,
    n_permutations: int | None = None,
) -> ChanceLine | None:
    """The chance line of the correlation ``result`` (a :class:`~bleu_core.maths.correlation.CorrelationResult`)
    of ``metric`` against ``human``: ``(K,)`` system scores at system level, ``systems × segments`` at
    segment level (NaN = missing). ``rule`` and ``select``: the tau-like's rule and its selecting
    scores (:mod:`bleu_core.evaluation.tau_like`). ``None`` for an undefined ``result``.

    Segment-level values are computed in blocks of permutations
    (:mod:`bleu_core.evaluation.permuted_correlations`), from the draws and with the values of
    :func:`looped_values`, which computes them where the blocks cannot."""
    if math.isnan(result.statistic):
        return None
    m = np.asarray(metric, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if result.level == "system":
        n = PERMUTATIONS["system"] if n_permutations is None else n_permutations
        return chance_line(result.method, m, h, n_permutations=n, seed=seed)
    n = PERMUTATIONS["segment"] if n_permutations is None else int(n_permutations)
    rng, seed = make_rng(seed)
    if result.method == "kendall-wmt":
        values, constant = _tau_like_line(m, h, rng, n, rule or WMT_RULE, select)
        return _line(result.method, values, constant, seed, "each segment's systems")
    grouping = result.grouping or "none"
    permuted = None
    if batched_applies(m, h):
        permuted = permuted_values(result.method, grouping, m, h, rng, n)
    if permuted is None:
        permuted = looped_values(result.method, grouping, m, h, rng, n, WMT_RULE)
    where = "each segment's systems" if grouping == "item" else "all scored translations"
    return _line(result.method, permuted, math.nan, seed, where)


def chance_said(line: ChanceLine | None) -> str:
    """The chance line in words: ``random metric 0.001 [-0.05, 0.05] (20 permutations within …,
    seed 7), constant metric n/a``; empty without a line."""
    if line is None:
        return ""
    low, high = line.random_range
    constant = "n/a" if math.isnan(line.constant) else f"{line.constant:.3f}"
    return (
        f"random metric {line.random:.3f} [{low:.3f}, {high:.3f}] ({line.n_permutations} "
        f"permutations within {line.grouping}, seed {line.seed}), constant metric {constant}"
    )
