"""Correlation between metric scores and human scores, at system and segment level.

*System level*: one metric score and one human score per system; Pearson's r, Spearman's rho and
Kendall's tau-b (with ties), with scipy's p-values. *Segment level*: one score per (system, segment);
Pearson and Kendall tau-b over all rated pairs (``grouping="none"``), or the mean over segments of
the correlation across the systems' translations of that segment (``grouping="item"``, the
"grouped by item" variant of WMT and Deutsch et al. 2021).

WMT's **tau-like** Kendall (WMT17-20 "DARR") compares, for every source segment, every pair of
translations whose human scores differ by more than a threshold (WMT used 25 DA points; 0 by default
here, i.e. human ties are dropped): *Concordant* when the metric orders the pair as the humans do,
*Discordant* when it orders it the other way **or ties it** (a metric tie is penalised), and
``tau = (C − D) / (C + D)``.

>>> x = [1.0, 2.0, 3.0, 4.0]
>>> round(correlation(x, [1.0, 3.0, 2.0, 4.0], "kendall").statistic, 4)
0.6667
>>> correlation(x, [2.0, 4.0, 6.0, float("nan")], "pearson").n
3
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .errors import StatsInputError

METHODS = ("pearson", "spearman", "kendall")
SEGMENT_METHODS = ("pearson", "kendall", "kendall-wmt")
GROUPINGS = ("none", "item")
_PAIR_CELLS = 2_000_000
"""(row × system pair) cells per block where every pair of systems is compared (:func:`kendall_rows`,
:func:`wmt_pair_counts`, :func:`masked_kendall_columns`): ~16 MB per float64 temporary."""


@dataclass(frozen=True)
class CorrelationResult:
    """A correlation coefficient with its test and (optionally) a bootstrap interval.

    Attributes:
        method: ``pearson``, ``spearman``, ``kendall`` (tau-b) or ``kendall-wmt`` (tau-like).
        statistic: the coefficient (``nan`` when undefined: fewer than 3 pairs or a constant input).
        pvalue: two-sided p-value of "no correlation" (scipy), ``None`` where no test applies
            (averages over items, WMT tau-like).
        n: number of pairs used (segment level grouped by item: number of items averaged).
        confidence_interval: bootstrap percentile interval ``(low, high)`` or ``None``.
        confidence_level, n_resamples, seed: how the interval was computed.
        level: ``system`` or ``segment``; ``grouping`` at segment level (``none`` or ``item``).
        note: why a value is missing, when it is.
    """

    method: str
    statistic: float
    pvalue: float | None
    n: int
    confidence_interval: tuple[float, float] | None = None
    confidence_level: float | None = None
    n_resamples: int | None = None
    seed: int | None = None
    level: str = "system"
    grouping: str | None = None
    note: str = ""
    interval_method: str | None = None

    def with_interval(
        self, interval: tuple[float, float], level: float, n_resamples: int, seed: int
    ) -> CorrelationResult:
        return replace(
            self,
            confidence_interval=(float(interval[0]), float(interval[1])),
            confidence_level=level,
            n_resamples=n_resamples,
            seed=seed,
            interval_method="bootstrap percentile",
        )

    def with_fisher_interval(self, level: float = 0.95) -> CorrelationResult:
        """For Pearson r with n > 3: the Fisher z-transform interval (scipy's ``pearsonr`` interval).

        Used where there is nothing to resample (a table of published system scores).
        """
        if self.method != "pearson" or self.n <= 3 or not np.isfinite(self.statistic):
            return self
        from scipy import stats as sps

        z = np.arctanh(np.clip(self.statistic, -1 + 1e-15, 1 - 1e-15))
        half = sps.norm.ppf(0.5 + level / 2) / np.sqrt(self.n - 3)
        low, high = np.tanh(z - half), np.tanh(z + half)
        return replace(
            self,
            confidence_interval=(float(low), float(high)),
            confidence_level=level,
            interval_method="Fisher z",
        )

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        if self.confidence_interval is not None:
            d["confidence_interval"] = list(self.confidence_interval)
        return d


def check_method(method: str, allowed: tuple[str, ...] = METHODS) -> str:
    if method not in allowed:
        raise StatsInputError(
            f"unknown correlation {method!r}; choose one of: {', '.join(allowed)}"
        )
    return method


def paired_values(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two equally long 1-D float arrays with every pair containing a NaN dropped (pairwise deletion)."""
    xa = np.asarray(x, dtype=np.float64).ravel()
    ya = np.asarray(y, dtype=np.float64).ravel()
    if xa.shape != ya.shape:
        raise StatsInputError(
            f"cannot correlate {xa.size} metric scores with {ya.size} human scores: they must pair up"
        )
    keep = ~(np.isnan(xa) | np.isnan(ya))
    return xa[keep], ya[keep]


def correlation(x: Any, y: Any, method: str = "pearson") -> CorrelationResult:
    """Pearson, Spearman or Kendall tau-b of ``x`` and ``y`` with scipy's two-sided p-value.

    Pairs with a NaN on either side are skipped. With fewer than 3 pairs, or a constant side, the
    coefficient is undefined and returned as ``nan`` with a ``note``.
    """
    from scipy import stats as sps

    check_method(method)
    xa, ya = paired_values(x, y)
    n = int(xa.size)
    if n < 3:
        return CorrelationResult(method, float("nan"), float("nan"), n, note=f"only {n} pair(s)")
    if np.all(xa == xa[0]) or np.all(ya == ya[0]):
        return CorrelationResult(method, float("nan"), float("nan"), n, note="constant scores")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "pearson":
            res = sps.pearsonr(xa, ya)
        elif method == "spearman":
            res = sps.spearmanr(xa, ya)
        else:
            res = sps.kendalltau(xa, ya, variant="b")
    return CorrelationResult(method, float(res.statistic), float(res.pvalue), n)


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
    metric: np.ndarray, human: np.ndarray, threshold: float = 0.0, penalise_ties: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Per segment, the number of Concordant and Discordant translation pairs (WMT tau-like).

    Only pairs of systems that both have a human and a metric score on that segment, and whose human
    scores differ by more than ``threshold``, count. A metric tie counts as Discordant
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
            valid = (np.abs(dh) > threshold) & ~np.isnan(dm)
            if not penalise_ties:
                valid &= dm != 0
            agree = ((dh > 0) & (dm > 0)) | ((dh < 0) & (dm < 0))
        n_valid = valid.sum(axis=0)
        n_agree = (valid & agree).sum(axis=0)
        concordant[cols] = n_agree
        discordant[cols] = n_valid - n_agree
    return concordant, discordant


def kendall_wmt(
    metric: Any, human: Any, threshold: float = 0.0, penalise_ties: bool = True
) -> CorrelationResult:
    """WMT's tau-like Kendall over pairs of translations of the same segment.

    >>> human = np.array([[1.0, 5.0], [2.0, 4.0], [3.0, 3.0]])   # 3 systems × 2 segments
    >>> metric = np.array([[0.1, 0.9], [0.2, 0.9], [0.3, 0.1]])
    >>> r = kendall_wmt(metric, human)
    >>> r.statistic, r.n          # seg 1: 3 concordant; seg 2: 2 concordant, 1 metric tie
    (0.6666666666666666, 6)
    """
    return wmt_result(*wmt_pair_counts(metric, human, threshold, penalise_ties))


def wmt_result(c: np.ndarray, d: np.ndarray) -> CorrelationResult:
    """WMT's tau-like from per-segment Concordant and Discordant counts (:func:`wmt_pair_counts`)."""
    total = float(c.sum() + d.sum())
    stat = float((c.sum() - d.sum()) / total) if total else float("nan")
    note = "" if total else "no pair of translations with different human scores"
    return CorrelationResult(
        "kendall-wmt", stat, None, int(total), level="segment", grouping="item", note=note
    )


def _undefined_columns(x: np.ndarray, y: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Columns where :func:`correlation` is undefined: fewer than 3 pairs, or a constant side."""

    def constant(a: np.ndarray) -> np.ndarray:
        return np.where(valid, a, np.inf).min(axis=0) == np.where(valid, a, -np.inf).max(axis=0)

    return (valid.sum(axis=0) < 3) | constant(x) | constant(y)


def masked_pearson_columns(x: np.ndarray, y: np.ndarray) -> np.ndarray:
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
    r[_undefined_columns(x, y, valid)] = np.nan
    return r


def masked_kendall_columns(x: np.ndarray, y: np.ndarray) -> np.ndarray:
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
    out[_undefined_columns(x, y, valid)] = np.nan
    return out


MASKED_COLUMN_FUNCTIONS = {"pearson": masked_pearson_columns, "kendall": masked_kendall_columns}


def item_correlations(metric: Any, human: Any, method: str) -> np.ndarray:
    """Per segment, the correlation across systems of that segment's translations (``nan`` if undefined).

    Segments every system has go through the row functions (:data:`ROW_FUNCTIONS`); segments with
    missing scores (a sparse DA campaign: most of them) through the masked column functions
    (:data:`MASKED_COLUMN_FUNCTIONS`, pairwise deletion, as :func:`correlation` of each segment), or one
    :func:`correlation` per segment for a method without one (Spearman).
    """
    m, h = _check_matrix(metric, human)
    out = np.full(m.shape[1], np.nan)
    complete = ~(np.isnan(m).any(axis=0) | np.isnan(h).any(axis=0))
    if m.shape[0] >= 3 and complete.any():  # segments every system has: one vectorised call
        with np.errstate(invalid="ignore", divide="ignore"):
            out[complete] = ROW_FUNCTIONS[method](m[:, complete].T, h[:, complete].T)
    partial = np.flatnonzero(~complete)  # segments with missing scores: pairwise deletion
    if partial.size and method in MASKED_COLUMN_FUNCTIONS:
        out[partial] = MASKED_COLUMN_FUNCTIONS[method](m[:, partial], h[:, partial])
    else:
        for s in partial:
            out[s] = correlation(m[:, s], h[:, s], method).statistic
    return out


def segment_correlation(
    metric: Any,
    human: Any,
    method: str = "pearson",
    *,
    grouping: str = "none",
    threshold: float = 0.0,
) -> CorrelationResult:
    """Segment-level correlation of ``metric`` and ``human``, both ``systems × segments`` (NaN = missing).

    ``grouping="none"`` correlates all rated (system, segment) pairs at once (scipy p-value);
    ``grouping="item"`` averages, over segments, the correlation across systems (no p-value; ``n`` is
    the number of segments with a defined correlation). ``kendall-wmt`` is always by item.
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
    note = "" if defined.size else "no segment has 3 or more systems with varying scores"
    return CorrelationResult(
        method, stat, None, int(defined.size), level="segment", grouping="item", note=note
    )
