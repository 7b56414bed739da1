"""Bootstrap confidence intervals of the statistics a metric ranking sorts by.

A WMT findings table gives each metric's statistic and its significance cluster; the interval says
how far the statistic itself could move on another draw of the test data. Each interval resamples
what the clusters' test treats as the unit of the statistic, with one set of draws shared by every
metric of a ranking (paired):

* **system level** (pairwise accuracy, Pearson, Spearman, Kendall): the *systems* are drawn with replacement
  (Deutsch et al. 2021's BOOT-SYSTEMS). For pairwise accuracy a pair of draws of the same system
  says nothing about a metric, so a resample's accuracy counts every pair of *different* systems
  ``i < j`` with weight ``c_i · c_j`` (``c`` = times drawn): ``Σ c_i c_j agree_ij / Σ c_i c_j``.
  Pearson and Kendall are computed on the drawn scores, duplicates included.
* **segment level** (acc*_eq, tau*_eq, grouped by item): the *items* are drawn; each metric keeps
  the tie threshold calibrated on the full data (as the pairs permutation test does), so a
  resample's statistic is the count-weighted mean of the per-item values.
* **soft pairwise accuracy**: the *segments* are drawn (Thompson et al. 2024 resample segments);
  the human and the metric pairwise p-values are recomputed on each resampled test set with the
  same random sign flips, so a resample costs one permutation test per metric.

Percentile intervals (2.5th and 97.5th percentiles at 95 %); resamples where the statistic is
undefined are skipped and said in the note, and more than half undefined gives no interval.

>>> human = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
>>> metric = np.array([1.0, 3.0, 2.0, 4.0, 6.0, 5.0])
>>> (lo, hi), note = system_intervals({"m": metric}, human, "pairwise-accuracy",
...                                   n_resamples=200, seed=1)["m"]
>>> bool(lo <= 13 / 15 <= hi), note        # observed: 13 of 15 pairs agree
(True, '')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..maths.resampling import check_level, make_rng, percentile_interval
from .errors import StatsInputError

Interval = tuple[tuple[float, float] | None, str]


def _interval(values: np.ndarray, confidence: float) -> Interval:
    ok = values[~np.isnan(values)]
    if ok.size < max(2, 0.5 * values.size):
        return None, f"no interval: the statistic is undefined in {values.size - ok.size} of " \
            f"{values.size} resamples"  # fmt: skip
    note = "" if ok.size == values.size else f"{values.size - ok.size} undefined resamples skipped"
    return percentile_interval(ok, confidence), note


def _draws(n: int, n_resamples: int, seed: int | None) -> tuple[np.ndarray, np.ndarray]:
    """``M × n`` indices drawn with replacement and the matching ``M × n`` draw counts."""
    rng, _ = make_rng(seed)
    idx = rng.integers(0, n, size=(n_resamples, n))
    counts = np.zeros((n_resamples, n))
    np.add.at(counts, (np.arange(n_resamples)[:, None], idx), 1.0)
    return idx, counts


def system_intervals(
    metrics: Mapping[str, np.ndarray],
    human: np.ndarray,
    statistic: str,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = None,
) -> dict[str, Interval]:
    """Intervals of a system-level statistic (``pairwise-accuracy``, ``pearson``, ``spearman``,
    ``kendall``).

    ``metrics`` maps names to oriented system scores (``K``), ``human`` the ``K`` human scores; the
    systems are resampled. Returns ``{name: (interval or None, note)}``.
    """
    level = check_level(confidence)
    h = np.asarray(human, dtype=np.float64)
    idx, counts = _draws(h.size, n_resamples, seed)
    out: dict[str, Interval] = {}
    for name, values in metrics.items():
        m = np.asarray(values, dtype=np.float64)
        if statistic == "pairwise-accuracy":
            dm, dh = m[:, None] - m[None, :], h[:, None] - h[None, :]
            valid = ~(np.isnan(dm) | np.isnan(dh))
            np.fill_diagonal(valid, False)
            agree = ((np.sign(dm) == np.sign(dh)) & valid).astype(np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                rows = ((counts @ agree) * counts).sum(1) / ((counts @ valid) * counts).sum(1)
        elif statistic in ("pearson", "spearman", "kendall"):
            from .correlation import ROW_FUNCTIONS

            with np.errstate(invalid="ignore", divide="ignore"):
                rows = np.asarray(ROW_FUNCTIONS[statistic](m[idx], h[idx]), dtype=np.float64)
        else:
            raise StatsInputError(f"no system-level interval for {statistic!r}")
        out[name] = _interval(rows, level)
    return out


def item_intervals(
    item_values: Mapping[str, np.ndarray],
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = None,
) -> dict[str, Interval]:
    """Intervals of an average over items (``S`` per-item values each, NaN = item without pairs).

    A resample draws ``S`` items with replacement and averages the defined values of the drawn
    items, counting each as often as it was drawn.
    """
    level = check_level(confidence)
    first = next(iter(item_values.values()), None)
    if first is None:
        return {}
    _, counts = _draws(np.asarray(first).size, n_resamples, seed)
    out: dict[str, Interval] = {}
    for name, values in item_values.items():
        v = np.asarray(values, dtype=np.float64)
        ok = ~np.isnan(v)
        with np.errstate(invalid="ignore", divide="ignore"):
            rows = (counts @ np.where(ok, v, 0.0)) / (counts @ ok.astype(np.float64))
        out[name] = _interval(rows, level)
    return out


def pooled_item_intervals(
    item_sums: Mapping[str, np.ndarray],
    item_pairs: np.ndarray,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = None,
) -> dict[str, Interval]:
    """Intervals of a statistic pooled over the pairs of all items (WMT's tau-like:
    ``Σ (C − D) / Σ (C + D)``): ``item_sums[name]`` is each item's sum of pair values, ``item_pairs``
    its number of pairs. A resample draws the items with replacement: ``Σ c·sums / Σ c·pairs``.

    >>> out = pooled_item_intervals({"m": np.array([2.0, -1.0, 3.0])}, np.array([2.0, 1.0, 3.0]),
    ...                             n_resamples=50, seed=1)
    >>> out["m"][0][1] <= 1.0, out["m"][1]
    (True, '')
    """
    level = check_level(confidence)
    pairs = np.asarray(item_pairs, dtype=np.float64)
    _, counts = _draws(pairs.size, n_resamples, seed)
    total = counts @ pairs
    out: dict[str, Interval] = {}
    for name, sums in item_sums.items():
        with np.errstate(invalid="ignore", divide="ignore"):
            rows = (counts @ np.asarray(sums, dtype=np.float64)) / total
        out[name] = _interval(np.where(total > 0, rows, np.nan), level)
    return out


def soft_pairwise_intervals(
    metric_segments: Mapping[str, np.ndarray],
    human_segments: np.ndarray,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = None,
    n_permutations: int = 1000,
    permutation_seed: int = 4,
    batch: int | None = None,
) -> dict[str, Interval]:
    """Intervals of soft pairwise accuracy: the segments (columns, all scored) are resampled.

    ``metric_segments`` maps names to oriented ``K × S`` scores and ``human_segments`` is ``K × S``,
    with no missing score (the caller keeps the segments every system has). Each resampled test set
    is scored with the permutation test of :func:`bleu_core.evaluation.pairwise.pairwise_pvalues` (same
    ``n_permutations`` and sign flips for every resample, metric and the humans).
    """
    from .pairwise import batched_pairwise_pvalues, pvalue_batch, sign_matrix

    level = check_level(confidence)
    h = np.asarray(human_segments, dtype=np.float64)
    idx, _ = _draws(h.shape[1], n_resamples, seed)
    signs = sign_matrix(n_permutations, h.shape[1], permutation_seed)

    def pvalues(scores: np.ndarray, rows: np.ndarray) -> np.ndarray:  # (R, pairs)
        return batched_pairwise_pvalues(scores[:, rows].transpose(1, 0, 2), signs)

    values = {name: np.empty(n_resamples) for name in metric_segments}
    batch = batch or pvalue_batch(h.shape[0], n_permutations)
    for start in range(0, n_resamples, batch):
        rows = idx[start : start + batch]
        ph = pvalues(h, rows)
        for name, m in metric_segments.items():
            pm = pvalues(np.asarray(m, dtype=np.float64), rows)
            values[name][start : start + rows.shape[0]] = 1.0 - np.abs(ph - pm).mean(axis=1)
    return {name: _interval(v, level) for name, v in values.items()}


def format_interval(ci: Any, digits: int = 3) -> str:
    """``[low, high]`` with ``digits`` decimals, ``""`` when there is none.

    >>> format_interval((0.79, 0.8351))
    '[0.790, 0.835]'
    """
    if ci is None:
        return ""
    low, high = ci
    return f"[{low:.{digits}f}, {high:.{digits}f}]"
