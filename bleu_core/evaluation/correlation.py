"""Correlation between metric scores and human scores, at system and segment level.

*System level*: one metric score and one human score per system; Pearson's r, Spearman's rho and
Kendall's tau-b (with ties), with scipy's p-values. *Segment level*: one score per (system, segment);
Pearson and Kendall tau-b over all rated pairs (``grouping="none"``), or the mean over segments of
the correlation across the systems' translations of that segment (``grouping="item"``, the
"grouped by item" variant of WMT and Deutsch et al. 2021).

WMT's **tau-like** Kendall (``kendall-wmt``, the "DARR" statistic of WMT17-20) compares, for every
source segment, every pair of translations whose human scores differ by **at least** a threshold
(:data:`WMT_DARR_THRESHOLD` = 25 DA points, the default; mt-metrics-eval's ``KendallLike`` counts
``|Δhuman| >= thresh``, "deliberate … to emulate WMT behaviour"): *Concordant* when the metric orders
the pair as the humans do, *Discordant* when it orders it the other way **or ties it** (a metric tie
is penalised, as WMT counted it), and ``tau = (C − D) / (C + D)`` over the pairs of all segments
pooled (MTME's ``KendallLike(average_by='item')``, micro-averaged). Which pairs count on a criterion
other than raw DA (ESA, DA z, MQM, another scale) is :func:`bleu_core.evaluation.tau_like.tau_like_rule`'s
choice, said beside every number.

Grouped by item, a segment with only **two** systems counts (its correlation is ±1), as MTME's
``AverageCorrelation`` counts every group of two or more scores; a constant side gives no value.

>>> x = [1.0, 2.0, 3.0, 4.0]
>>> round(correlation(x, [1.0, 3.0, 2.0, 4.0], "kendall").statistic, 4)
0.6667
>>> correlation(x, [2.0, 4.0, 6.0, float("nan")], "pearson").n
3

The one correlation of two lists (:func:`correlation`, :class:`CorrelationResult`, :func:`pearson_r`) and the
least-squares line (:func:`linear_fit`, :class:`LinearFit`) are defined in :mod:`bleu_core.maths.correlation` and
:mod:`bleu_core.maths.regression`, below every subpackage, so that metrics, campaigns and the study's mistake
detectors use them too; they are importable from here. This module adds what only the meta-evaluation needs:
the same coefficients vectorised over many rows or columns, and the segment-level variants.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ..maths.correlation import METHODS as METHODS
from ..maths.correlation import CorrelationResult as CorrelationResult
from ..maths.correlation import check_method as check_method
from ..maths.correlation import correlation as correlation
from ..maths.correlation import paired_values as paired_values
from ..maths.correlation import pearson_r as pearson_r
from ..maths.correlation import undefined_note as undefined_note
from ..maths.regression import ConfidenceInterval as ConfidenceInterval
from ..maths.regression import LinearFit as LinearFit
from ..maths.regression import linear_fit as linear_fit
from .errors import StatsInputError

SEGMENT_METHODS = ("pearson", "kendall", "kendall-wmt")
GROUPINGS = ("none", "item")
WMT_DARR_THRESHOLD = 25.0
"""WMT's DA relative-ranking threshold: a pair of translations counts when their DA scores (0-100)
differ by at least 25 points (WMT17-20; MTME ``KendallLike(thresh=25)``)."""
_PAIR_CELLS = 2_000_000
"""(row × system pair) cells per block where every pair of systems is compared (:func:`kendall_rows`,
:func:`wmt_pair_counts`, :func:`masked_kendall_columns`): ~16 MB per float64 temporary."""


# ------------------------------------------------------------------------------ vectorised over rows


def pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r along the last axis of ``x`` and ``y`` (no NaNs); ``nan`` for constant rows.

    >>> pearson_rows(np.array([[1.0, 2, 3], [1, 2, 4]]), np.array([[2.0, 4, 6], [3, 2, 1]])).round(4).tolist()
    [1.0, -0.982]
    """
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (xc * yc).sum(-1) / np.sqrt((xc * xc).sum(-1) * (yc * yc).sum(-1))
    return np.clip(r, -1.0, 1.0)


def spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman rho along the last axis (average ranks for ties)."""
    from scipy.stats import rankdata

    return pearson_rows(rankdata(x, axis=-1), rankdata(y, axis=-1))


def kendall_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall tau-b along the last axis: ``Σ sx·sy / sqrt(Σ sx² · Σ sy²)`` over pairs i < j.

    Memory grows with ``n²``: meant for system-level sizes (tens to a few hundred systems). Rows are
    taken in blocks of :data:`_PAIR_CELLS` (row × pair) cells: the same values as one call over all rows,
    without ``rows × n²`` temporaries (10,000 segments × 50 systems: 12 million pairs).
    """
    n = x.shape[-1]
    lead = np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
    xf = np.broadcast_to(x, (*lead, n)).reshape(-1, n)
    yf = np.broadcast_to(y, (*lead, n)).reshape(-1, n)
    iu, ju = np.triu_indices(n, k=1)
    out = np.empty(xf.shape[0])
    block = max(1, _PAIR_CELLS // max(1, iu.size))
    for start in range(0, xf.shape[0], block):
        xb, yb = xf[start : start + block], yf[start : start + block]
        sx = np.sign(xb[:, iu] - xb[:, ju])
        sy = np.sign(yb[:, iu] - yb[:, ju])
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + block] = (sx * sy).sum(-1) / np.sqrt(
                (sx * sx).sum(-1) * (sy * sy).sum(-1)
            )
    return out.reshape(lead)


ROW_FUNCTIONS = {"pearson": pearson_rows, "spearman": spearman_rows, "kendall": kendall_rows}


# ------------------------------------------------------------------------------ segment level


def _check_matrix(metric: Any, human: Any) -> tuple[np.ndarray, np.ndarray]:
    m = np.asarray(metric, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if m.ndim != 2 or m.shape != h.shape:
        raise StatsInputError(
            f"segment-level scores must be two (systems × segments) arrays of the same shape, "
            f"got {m.shape} and {h.shape}"
        )
    return m, h


def wmt_pair_counts(
    metric: np.ndarray,
    human: np.ndarray,
    threshold: float = WMT_DARR_THRESHOLD,
    penalise_ties: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Per segment, the number of Concordant and Discordant translation pairs (WMT tau-like).

    Only pairs of systems that both have a human and a metric score on that segment, and whose human
    scores differ by at least ``threshold`` (WMT's and MTME's ``>=``), count. A metric tie counts as Discordant
    (``penalise_ties=False`` leaves metric ties out instead: identical translations that different
    raters scored differently are then not held against the metric). Segments are taken in blocks of
    :data:`_PAIR_CELLS` (pair × segment) cells.
    """
    m, h = _check_matrix(metric, human)
    k, s = m.shape
    iu, ju = np.triu_indices(k, k=1)
    concordant = np.zeros(s)
    discordant = np.zeros(s)
    block = max(1, _PAIR_CELLS // max(1, iu.size))
    for start in range(0, s, block):
        cols = slice(start, start + block)
        dh = h[iu, cols] - h[ju, cols]  # P × block
        dm = m[iu, cols] - m[ju, cols]
        with np.errstate(invalid="ignore"):  # NaN compares False: a missing score is no pair
            valid = (np.abs(dh) >= threshold) & ~np.isnan(dm)
            if not penalise_ties:
                valid &= dm != 0
            agree = ((dh > 0) & (dm > 0)) | ((dh < 0) & (dm < 0))
        n_valid = valid.sum(axis=0)
        n_agree = (valid & agree).sum(axis=0)
        concordant[cols] = n_agree
        discordant[cols] = n_valid - n_agree
    return concordant, discordant


def kendall_wmt(
    metric: Any, human: Any, threshold: float = WMT_DARR_THRESHOLD, penalise_ties: bool = True
) -> CorrelationResult:
    """WMT's tau-like Kendall (``kendall-wmt``) over pairs of translations of the same segment.

    A pair counts when its human scores differ by at least ``threshold`` (25 DA points by default,
    WMT's DARR rule); it is Concordant when the metric orders it as the humans do, Discordant when
    the metric orders it the other way or ties it; ``(C - D) / (C + D)`` over all pairs pooled.

    >>> human = np.array([[10.0, 90.0], [40.0, 60.0], [80.0, 50.0]])   # 3 systems × 2 segments
    >>> metric = np.array([[0.1, 0.9], [0.2, 0.9], [0.3, 0.1]])
    >>> r = kendall_wmt(metric, human)   # seg 2: 90 v 60 tied by the metric (D), 90 v 50 C, 60 v 50 out
    >>> r.statistic, r.n
    (0.6, 5)
    >>> kendall_wmt(metric, human, threshold=40).n   # 80 - 40 and 90 - 50 are 40: at least 40, counted
    3
    """
    return wmt_result(*wmt_pair_counts(metric, human, threshold, penalise_ties), threshold)


def wmt_result(
    c: np.ndarray, d: np.ndarray, threshold: float = WMT_DARR_THRESHOLD
) -> CorrelationResult:
    """WMT's tau-like from per-segment Concordant and Discordant counts (:func:`wmt_pair_counts`).

    The ``note`` states the rule beside the number: the threshold and how metric ties count.
    """
    total = float(c.sum() + d.sum())
    stat = float((c.sum() - d.sum()) / total) if total else float("nan")
    rule = f"pairs with |Δhuman| ≥ {threshold:g}, metric ties discordant (WMT DARR)"
    note = rule if total else f"no pair of translations with |Δhuman| ≥ {threshold:g}"
    return CorrelationResult(
        "kendall-wmt", stat, None, int(total), level="segment", grouping="item", note=note
    )


def _undefined_columns(
    x: np.ndarray, y: np.ndarray, valid: np.ndarray, min_pairs: int = 3
) -> np.ndarray:
    """Columns where the correlation is undefined: fewer than ``min_pairs`` pairs (3 for
    :func:`correlation`, 2 for MTME's groups by item), or a constant side."""

    def constant(a: np.ndarray) -> np.ndarray:
        return np.where(valid, a, np.inf).min(axis=0) == np.where(valid, a, -np.inf).max(axis=0)

    return (valid.sum(axis=0) < min_pairs) | constant(x) | constant(y)


def masked_pearson_columns(x: np.ndarray, y: np.ndarray, min_pairs: int = 3) -> np.ndarray:
    """Pearson r of every column of ``x`` and ``y`` (``K × S``, NaN = missing) over the rows where both
    have a value: :func:`correlation` column by column (pairwise deletion) in a few array operations.

    ``nan`` where the correlation is undefined (fewer than 3 pairs, or a constant side). Equal to scipy's
    ``pearsonr`` per column up to rounding (same two-pass formula, means of the kept rows).

    >>> x = np.array([[1.0, 1.0], [2.0, np.nan], [3.0, 2.0], [5.0, 3.0]])
    >>> y = np.array([[2.0, 1.0], [4.0, 9.0], [5.0, 2.0], [9.0, 3.0]])
    >>> masked_pearson_columns(x, y).round(4).tolist()   # column 2: row 2 dropped, exactly linear
    [0.9945, 1.0]
    """
    valid = ~(np.isnan(x) | np.isnan(y))
    n = valid.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        xc = np.where(valid, x - np.where(valid, x, 0.0).sum(axis=0) / n, 0.0)
        yc = np.where(valid, y - np.where(valid, y, 0.0).sum(axis=0) / n, 0.0)
        r = (xc * yc).sum(axis=0) / np.sqrt((xc * xc).sum(axis=0) * (yc * yc).sum(axis=0))
    r = np.clip(r, -1.0, 1.0)
    r[_undefined_columns(x, y, valid, min_pairs)] = np.nan
    return r


def masked_kendall_columns(x: np.ndarray, y: np.ndarray, min_pairs: int = 3) -> np.ndarray:
    """Kendall tau-b of every column of ``x`` and ``y`` (``K × S``, NaN = missing) over the rows where
    both have a value: ``Σ sx·sy / √(Σ sx²) / √(Σ sy²)`` over the row pairs ``i < j`` both kept, with
    ``sx = sign(x_i − x_j)``, the integer counts scipy's ``kendalltau`` forms (same value, same rounding).

    ``nan`` where undefined (fewer than 3 pairs, or a constant side). Memory: ``K(K−1)/2`` pairs times a
    block of columns (:data:`_PAIR_CELLS` cells at a time).

    >>> x = np.array([[1.0, 1.0], [2.0, np.nan], [3.0, 3.0], [4.0, 2.0]])
    >>> y = np.array([[1.0, 1.0], [3.0, 5.0], [2.0, 2.0], [4.0, 3.0]])
    >>> masked_kendall_columns(x, y).round(4).tolist()
    [0.6667, 0.3333]
    """
    k, s = x.shape
    valid = ~(np.isnan(x) | np.isnan(y))
    out = np.full(s, np.nan)
    iu, ju = np.triu_indices(k, k=1)
    block = max(1, _PAIR_CELLS // max(1, iu.size))
    xs, ys = np.where(valid, x, 0.0), np.where(valid, y, 0.0)
    for start in range(0, s, block):
        cols = slice(start, start + block)
        both = valid[iu, cols] & valid[ju, cols]
        sx = np.where(both, np.sign(xs[iu, cols] - xs[ju, cols]), 0.0)
        sy = np.where(both, np.sign(ys[iu, cols] - ys[ju, cols]), 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            tau = (sx * sy).sum(axis=0) / np.sqrt(np.abs(sx).sum(axis=0))
            out[cols] = tau / np.sqrt(np.abs(sy).sum(axis=0))
    out = np.clip(out, -1.0, 1.0)
    out[_undefined_columns(x, y, valid, min_pairs)] = np.nan
    return out


MASKED_COLUMN_FUNCTIONS = {"pearson": masked_pearson_columns, "kendall": masked_kendall_columns}


def item_correlations(metric: Any, human: Any, method: str) -> np.ndarray:
    """Per segment, the correlation across systems of that segment's translations (``nan`` if undefined).

    Segments every system has go through the row functions (:data:`ROW_FUNCTIONS`); segments with
    missing scores (a sparse DA campaign: most of them) through the masked column functions
    (:data:`MASKED_COLUMN_FUNCTIONS`, pairwise deletion), or the row function on each segment's kept
    scores for a method without one (Spearman). As MTME's ``AverageCorrelation``, a segment with two
    scored systems counts (±1); one with a constant side has no value.

    >>> item_correlations([[2.0, 1, 4], [3, 3, 7]], [[1.0, 2, 3], [4, 5, 6]], "pearson").tolist()
    [1.0, 1.0, 1.0]
    """
    m, h = _check_matrix(metric, human)
    out = np.full(m.shape[1], np.nan)
    complete = ~(np.isnan(m).any(axis=0) | np.isnan(h).any(axis=0))
    if m.shape[0] >= 2 and complete.any():  # segments every system has: one vectorised call
        with np.errstate(invalid="ignore", divide="ignore"):
            out[complete] = ROW_FUNCTIONS[method](m[:, complete].T, h[:, complete].T)
    partial = np.flatnonzero(~complete)  # segments with missing scores: pairwise deletion
    if partial.size and method in MASKED_COLUMN_FUNCTIONS:
        out[partial] = MASKED_COLUMN_FUNCTIONS[method](m[:, partial], h[:, partial], 2)
    else:
        for s in partial:
            keep = ~(np.isnan(m[:, s]) | np.isnan(h[:, s]))
            if keep.sum() >= 2:
                with np.errstate(invalid="ignore", divide="ignore"):
                    out[s] = ROW_FUNCTIONS[method](m[keep, s], h[keep, s])
    return out


def segment_correlation(
    metric: Any,
    human: Any,
    method: str = "pearson",
    *,
    grouping: str = "none",
    threshold: float = WMT_DARR_THRESHOLD,
) -> CorrelationResult:
    """Segment-level correlation of ``metric`` and ``human``, both ``systems × segments`` (NaN = missing).

    ``grouping="none"`` correlates all rated (system, segment) pairs at once (scipy p-value);
    ``grouping="item"`` averages, over segments, the correlation across systems (no p-value; ``n`` is
    the number of segments with a defined correlation). ``kendall-wmt`` is always by item, with
    ``threshold`` (WMT's 25 DA points by default; see :func:`bleu_core.evaluation.tau_like.tau_like_rule`).
    """
    check_method(method, SEGMENT_METHODS)
    check_grouping(grouping)
    m, h = _check_matrix(metric, human)
    if method == "kendall-wmt":
        return kendall_wmt(m, h, threshold)
    if grouping == "none":
        res = correlation(m, h, method)
        return replace(res, level="segment", grouping="none")
    return item_result(method, item_correlations(m, h, method))


def check_grouping(grouping: str) -> str:
    if grouping not in GROUPINGS:
        raise StatsInputError(
            f"unknown grouping {grouping!r}; choose one of: {', '.join(GROUPINGS)}"
        )
    return grouping


def item_result(method: str, per_item: np.ndarray) -> CorrelationResult:
    """The segment-level correlation grouped by item from the per-segment ones (:func:`item_correlations`):
    their mean over the segments where it is defined."""
    defined = per_item[~np.isnan(per_item)]
    stat = float(defined.mean()) if defined.size else float("nan")
    note = "" if defined.size else "no segment has 2 or more systems with varying scores"
    return CorrelationResult(
        method, stat, None, int(defined.size), level="segment", grouping="item", note=note
    )
