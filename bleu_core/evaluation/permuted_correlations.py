"""Segment-level correlations of many permutations of a metric's scores at once, the human side computed once.

The random metric of :func:`bleu_core.evaluation.correlation_chance.correlation_chance` recomputes a segment-level
correlation for each of its permutations of the metric's scores (100 by default), over every scored
translation. Only the metric side moves: the human scores, which pairs of translations count, and where the
scores are missing (a permutation moves scores, never a NaN) are the same for every permutation. This module
computes those once, and the metric side of a block of permutations in a few array operations. It draws the
permutations as the one-at-a-time loop (:func:`~bleu_core.evaluation.correlation_chance.looped_values`) does, from
the same generator in the same order, so each permutation is the loop's, and so is each value:

* **pooled Pearson** (all scored translations): the human side centred and scaled once; the r of a block
  of permutations is one matrix product (the same value as scipy's up to the last bits of rounding);
* **pooled Kendall** (tau-b): the human ranks and ties counted once; per permutation a radix sort of the
  metric's ranks, scipy's own count of discordant pairs, and scipy's formula on those integers: the same
  tau, bit for bit;
* **by item** (Pearson, Kendall): Pearson with the formula of
  :func:`~bleu_core.evaluation.correlation.item_correlations` (two passes over each segment's systems both
  scored, summed system by system), the human side centred once; Kendall from the sign of every pair of
  systems on every segment, the human signs once and the metric's as small integers (its ranks within the
  segment order its pairs as its scores do), summed to the loop's integer counts and divided as the loop
  divides them;
* **WMT's tau-like**: the pairs that count and the human order of each are fixed; a permutation only asks
  of each pair whether the metric orders it the humans' way (a metric tie is discordant). A constant
  metric ties every counted pair: -1, NaN without a pair.

Scores with an infinity (a difference of two infinities is NaN, which the loop treats as missing) are
left to the loop, as are arrays of the wrong shape (the loop says what is wrong).

>>> from bleu_core.evaluation.correlation_chance import WMT_RULE, looped_values
>>> m = np.array([[0.1, 0.7, 0.3], [0.2, 0.8, 0.3], [0.3, 0.9, np.nan], [0.5, 0.1, 0.2]])
>>> h = np.array([[10.0, 90, 20], [40, 60, 80], [80, 20, 50], [30, 70, np.nan]])
>>> fast = permuted_values("kendall", "item", m, h, np.random.default_rng(3), 5)
>>> np.array_equal(fast, looped_values("kendall", "item", m, h, np.random.default_rng(3), 5, WMT_RULE))
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

_BLOCK_CELLS = 2_000_000
"""Cells of the largest temporary array of a block of permutations (16 MB of float64 at most)."""


def batched_applies(metric: np.ndarray, human: np.ndarray, select: Any = None) -> bool:
    """Whether the batched computation applies: ``systems × segments`` arrays of one shape whose scores are
    finite or NaN (otherwise the loop computes the values, or says what is wrong with the input)."""
    arrays = [metric, human] + ([] if select is None else [np.asarray(select, dtype=np.float64)])
    if metric.ndim != 2 or any(a.shape != metric.shape for a in arrays):
        return False
    return not any(np.isinf(a).any() for a in arrays)


def _block(n: int, cells_per_permutation: int) -> int:
    return max(1, min(n, _BLOCK_CELLS // max(1, cells_per_permutation)))


def within_item_arrangement(valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where a within-item permutation puts the scores it draws (``valid``: the scored entries,
    ``systems × segments``): ``target[s, t]``, segments first, is the row of segment ``s`` that takes the
    ``t``-th score drawn (the scored rows in their order, then the unscored ones, which keep their own
    score); ``place`` is its inverse, ``target[s, place[s, i]] == i``."""
    target = np.argsort(~valid.T, axis=1, kind="stable")
    return target, np.argsort(target, axis=1)


def within_item_draws(valid: np.ndarray, rng: np.random.Generator, n: int) -> Iterator[np.ndarray]:
    """The ``n`` permutations :func:`~bleu_core.evaluation.chance.permute_within_items` draws (the same draws,
    in the same order), in blocks: ``drawn[b, s, t]`` is the row whose score permutation ``b`` puts at
    row ``target[s, t]`` of segment ``s`` (:func:`within_item_arrangement`; ``valid``: the scored entries,
    ``systems × segments``).

    >>> x = np.array([[1.0, 5.0], [2.0, np.nan], [3.0, 6.0]])
    >>> from bleu_core.evaluation.chance import permute_within_items
    >>> (drawn,) = within_item_draws(~np.isnan(x), np.random.default_rng(0), 1)
    >>> _, place = within_item_arrangement(~np.isnan(x))
    >>> once = permute_within_items(x, np.random.default_rng(0))
    >>> np.array_equal(permute_rows(x, drawn, place)[0].T, once, equal_nan=True)
    True
    """
    k, s = valid.shape
    scored = valid.T
    rest = 2.0 + np.arange(k) / k  # unscored rows: after the scored ones, in their own order
    every = bool(scored.all())
    block = _block(n, k * s)
    for start in range(0, n, block):
        size = min(block, n - start)
        # one draw of (size, k, s) is the loop's `size` draws of (k, s), one after the other; with
        # distinct keys the scored rows sort as the loop sorts them
        keys = rng.random((size, k, s)).transpose(0, 2, 1)
        yield np.argsort(keys if every else np.where(scored, keys, rest), axis=-1)


def permute_rows(
    scores: np.ndarray, drawn: np.ndarray, place: np.ndarray | None = None
) -> np.ndarray:
    """``scores`` (``systems × segments``) permuted by a block of :func:`within_item_draws`, segments first
    (``B × S × K``): in the order drawn, or with ``place`` (:func:`within_item_arrangement`) each score at
    the row the permutation puts it."""
    out = np.take_along_axis(np.ascontiguousarray(scores.T)[None], drawn, axis=-1)
    return out if place is None else np.take_along_axis(out, place[None], axis=-1)


def arranged(scores: np.ndarray, target: np.ndarray) -> np.ndarray:
    """A fixed side (``systems × segments``) in the order the scores are drawn: ``S × K``, row ``t`` of
    segment ``s`` the one that takes the ``t``-th score drawn. A statistic that sums over the pairs of a
    segment's systems gets the same sum with both sides in this order."""
    return np.take_along_axis(np.ascontiguousarray(scores.T), target, axis=1)


def column_ranks(scores: np.ndarray) -> np.ndarray:
    """Dense ranks (1, 2, …) of each column's scores, as the smallest integer type that holds them: two
    scores of one column compare as their ranks do (NaN entries get a rank that means nothing).

    >>> column_ranks(np.array([[0.5, 2.0], [0.1, np.nan], [0.5, 1.0]])).tolist()   # the NaN: 3
    [[2, 2], [1, 3], [2, 1]]
    """
    k = scores.shape[0]
    dtype = np.int8 if k < 128 else np.int16 if k < 16_384 else np.int64
    order = np.argsort(scores, axis=0, kind="stable")  # NaN last
    ordered = np.take_along_axis(scores, order, axis=0)
    new = np.ones(scores.shape, dtype=bool)
    new[1:] = ordered[1:] != ordered[:-1]
    ranks = np.empty(scores.shape, dtype=dtype)
    np.put_along_axis(ranks, order, np.cumsum(new, axis=0, dtype=dtype), axis=0)
    return ranks


def _item_means(per_item: np.ndarray) -> list[float]:
    """:func:`~bleu_core.evaluation.correlation.item_result`'s mean of each row's defined values."""
    out = []
    for row in per_item:
        defined = row[~np.isnan(row)]
        out.append(float(defined.mean()) if defined.size else float("nan"))
    return out


def item_pearson_values(
    metric: np.ndarray, human: np.ndarray, rng: np.random.Generator, n: int
) -> np.ndarray:
    """Pearson by item of ``n`` within-item permutations of ``metric``, computed as
    :func:`~bleu_core.evaluation.correlation.item_correlations` computes it (the two-pass formula over each
    segment's systems both scored, each sum over one segment's systems as numpy sums a contiguous
    row), the human side once: its centred scores and their sum of squares. NaN where a segment with a
    missing score has fewer than 2 pairs or a constant side (as ``masked_pearson_columns``)."""
    valid = ~(np.isnan(metric) | np.isnan(human)).T  # segments × systems, as every array below
    count = valid.sum(axis=1)
    _, place = within_item_arrangement(~np.isnan(metric))
    h = np.ascontiguousarray(human.T)
    with np.errstate(invalid="ignore", divide="ignore"):
        yc = np.where(valid, h - (np.where(valid, h, 0.0).sum(axis=1) / count)[:, None], 0.0)
    syy = (yc * yc).sum(axis=1)
    undefined_y = (count < 2) | _constant(h, valid)
    partial = ~valid.all(axis=1)
    values: list[float] = []
    for drawn in within_item_draws(~np.isnan(metric), rng, n):
        x = permute_rows(metric, drawn, place)  # B × S × K
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(valid, x, 0.0).sum(axis=2, keepdims=True) / count[:, None]
            xc = np.where(valid, x - mean, 0.0)
            r = np.clip((xc * yc).sum(axis=2) / np.sqrt((xc * xc).sum(axis=2) * syy), -1.0, 1.0)
        r[partial & (undefined_y | _constant(x, valid))] = np.nan
        values += _item_means(r)
    return np.array(values)


def _constant(x: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Along the last axis: whether the scores ``valid`` keeps are all equal (none kept: False)."""
    return np.where(valid, x, np.inf).min(axis=-1) == np.where(valid, x, -np.inf).max(axis=-1)


def item_kendall_values(
    metric: np.ndarray, human: np.ndarray, rng: np.random.Generator, n: int
) -> np.ndarray:
    """Kendall tau-b by item of ``n`` within-item permutations of ``metric``, from the integer counts
    :func:`~bleu_core.evaluation.correlation.item_correlations` forms: per segment ``Σ sx·sy``, ``Σ |sx|`` and
    ``Σ |sy|`` over the pairs of systems both scored, ``sx``, ``sy`` the signs of the pair's differences
    (sums over pairs: both sides in the order drawn, :func:`arranged`). A segment every system has divides
    as ``kendall_rows`` does, one with missing scores as ``masked_kendall_columns`` does (clipped; NaN
    for a constant side or fewer than 2 pairs)."""
    k, s = metric.shape
    scored = ~np.isnan(metric)
    valid = scored & ~np.isnan(human)
    target, _ = within_item_arrangement(scored)
    iu, ju = np.triu_indices(k, k=1)
    valid_t, human_t = arranged(valid, target), arranged(column_ranks(human), target)
    both = (
        valid_t[:, iu] & valid_t[:, ju]
    )  # segments × pairs: fixed, a permutation keeps NaN in place
    sy = np.sign(human_t[:, iu] - human_t[:, ju]) * both
    y_sum = np.abs(sy).sum(axis=1, dtype=np.int64).astype(np.float64)
    both_pairs = both.sum(axis=1)
    complete = valid.all(axis=0)
    ranks = column_ranks(metric)
    total = np.int16 if iu.size < 2**15 else np.int64  # |Σ sx·sy| is at most the number of pairs
    values: list[float] = []
    for drawn in _blocks_of(within_item_draws(scored, rng, n), iu.size * s):
        r = permute_rows(ranks, drawn)
        num = (np.sign(r[:, :, iu] - r[:, :, ju]) * sy).sum(axis=2, dtype=total).astype(np.float64)
        x_sum = (both_pairs - _tied_pairs_where(r, valid_t)).astype(np.float64)  # Σ |sx|
        with np.errstate(invalid="ignore", divide="ignore"):
            rows = num / np.sqrt(x_sum * y_sum)  # kendall_rows: segments every system has
            masked = np.clip(num / np.sqrt(x_sum) / np.sqrt(y_sum), -1.0, 1.0)
        masked[(x_sum == 0) | (y_sum == 0)] = np.nan
        values += _item_means(np.where(complete, rows, masked))
    return np.array(values)


def _tied_pairs_where(ranks: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Per permutation and segment, the pairs of ``valid`` entries with equal ``ranks`` (``B × S × K``,
    ranks from 1): one count of each rank per segment, ``Σ c·(c − 1) / 2``."""
    b, s, k = ranks.shape
    bins = k + 2  # ranks 1 … k + 1 (a NaN's), and 0 for the entries left out
    key = np.where(valid, ranks, 0) + (np.arange(b * s) * bins).reshape(b, s, 1)
    count = np.bincount(key.ravel(), minlength=b * s * bins).reshape(b, s, bins)[:, :, 1:]
    return (count * (count - 1) // 2).sum(axis=2)


def _blocks_of(blocks: Iterator[np.ndarray], cells: int) -> Iterator[np.ndarray]:
    """``blocks`` cut into pieces of at most :data:`_BLOCK_CELLS` / ``cells`` permutations."""
    for big in blocks:
        step = _block(big.shape[0], cells)
        for start in range(0, big.shape[0], step):
            yield big[start : start + step]


def _tau_like_cells(
    metric: np.ndarray, human: np.ndarray, threshold: float, select: Any
) -> tuple[np.ndarray, np.ndarray, int]:
    """The pairs :func:`~bleu_core.evaluation.tau_like.tau_like_counts` counts, which a permutation of the metric
    does not change: ``better`` and ``worse`` of each pair the humans order (flat indices into a block
    of permuted scores in the order drawn, ``segments × systems``: :func:`permute_rows`), and how many pairs count in all (a pair the humans tie, possible only
    with a threshold of 0, counts and is always discordant)."""
    k, s = metric.shape
    iu, ju = np.triu_indices(k, k=1)
    dh = human[iu] - human[ju]
    missing = np.isnan(metric[iu]) | np.isnan(metric[ju])
    with np.errstate(invalid="ignore"):
        if select is None:  # wmt_pair_counts: |Δhuman| ≥ threshold
            counted = (np.abs(dh) >= threshold) & ~missing
        else:  # chosen by the selecting scores, kept where the gold orders the pair as they do
            dg = select[iu] - select[ju]
            chosen = (np.abs(dg) >= threshold) & ~missing & ~np.isnan(dh)
            counted = chosen & (np.sign(dh) == np.sign(dg))
    pair, seg = np.nonzero(counted & (dh != 0))
    up = dh[pair, seg] > 0
    _, place = within_item_arrangement(~np.isnan(metric))  # row i is drawn place[i]-th
    better = seg * k + place[seg, np.where(up, iu[pair], ju[pair])]
    worse = seg * k + place[seg, np.where(up, ju[pair], iu[pair])]
    return better, worse, int(counted.sum())


def tau_like_values(
    metric: np.ndarray,
    human: np.ndarray,
    rng: np.random.Generator,
    n: int,
    threshold: float,
    select: Any = None,
) -> tuple[np.ndarray, int]:
    """WMT's tau-like ``(C − D) / (C + D)`` of ``n`` within-item permutations of ``metric``, and the number
    of pairs that count (the same for every permutation, and for a constant metric, which gets -1)."""
    g = None if select is None else np.asarray(select, dtype=np.float64)
    better, worse, total = _tau_like_cells(metric, human, threshold, g)
    if not total:
        return np.full(n, np.nan), 0
    ranks = column_ranks(metric)
    k, s = metric.shape
    concordant: list[np.ndarray] = []
    for drawn in _blocks_of(within_item_draws(~np.isnan(metric), rng, n), better.size):
        permuted = np.ascontiguousarray(permute_rows(ranks, drawn).reshape(drawn.shape[0], k * s).T)
        agree = permuted[better] > permuted[worse]  # a tie is discordant
        concordant.append(agree.sum(axis=0))
    c = np.concatenate(concordant).astype(np.float64) if concordant else np.zeros(0)
    return (c - (total - c)) / float(total), total


def _pooled_sides(
    metric: np.ndarray, human: np.ndarray
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """What a permutation among all scored translations (``_permute_all``) does not change: how many
    scores it shuffles, which of them the humans scored too (``kept``), the scores, and the human
    scores at ``kept``."""
    m, h = metric.ravel(), human.ravel()
    where = np.flatnonzero(~np.isnan(m))  # the metric's scored entries: shuffled among themselves
    kept = np.flatnonzero(~np.isnan(h[where]))  # of those, the ones the humans scored
    return where.size, kept, m[where], h[where[kept]]


def _pooled_blocks(
    size: int, kept: np.ndarray, labels: np.ndarray, rng: np.random.Generator, n: int
) -> Iterator[np.ndarray]:
    """``n`` permutations of ``size`` scores drawn as ``_permute_all`` draws them (one
    ``rng.permutation(size)`` each, in order), in blocks: row ``b`` holds the ``labels`` (scores, or their
    ranks) permutation ``b`` puts at the entries ``kept``."""
    block = _block(n, kept.size)
    for start in range(0, n, block):
        out = np.empty((min(block, n - start), kept.size), dtype=labels.dtype)
        for row in out:
            np.take(labels, rng.permutation(size)[kept], out=row)
        yield out


def pooled_pearson_values(
    metric: np.ndarray, human: np.ndarray, rng: np.random.Generator, n: int
) -> np.ndarray:
    """Pearson's r over all scored translations of ``n`` permutations of ``metric`` among them: ``Σ x̃·ỹ``
    with the human side ``ỹ`` centred and scaled to norm 1 once (the same r as scipy's ``pearsonr`` up to
    rounding; NaN with fewer than 3 pairs or a constant side, as :func:`~bleu_core.maths.correlation.correlation`)."""
    size, kept, values, y = _pooled_sides(metric, human)
    if y.size < 3 or np.all(y == y[0]):
        return np.full(n, np.nan)
    ym = y - y.mean()
    y_unit = ym / np.sqrt(np.dot(ym, ym))
    # a permutation can put one score at every kept entry only if one score is that frequent
    may_be_constant = values.size and np.unique(values, return_counts=True)[1].max() >= kept.size
    out: list[np.ndarray] = []
    for x in _pooled_blocks(size, kept, values, rng, n):
        xm = x - x.mean(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.clip((xm @ y_unit) / np.sqrt(np.einsum("ij,ij->i", xm, xm)), -1.0, 1.0)
        if may_be_constant:
            r[x.min(axis=1) == x.max(axis=1)] = np.nan
        out.append(r)
    return np.concatenate(out)


def _tied_pairs(new_run: np.ndarray) -> np.ndarray:
    """Per row, the pairs within runs of equal values (``new_run``: True where a run starts, and at the
    start of every row): ``Σ L·(L − 1) / 2`` over the runs' lengths ``L``."""
    starts = np.flatnonzero(new_run)
    length = np.diff(starts, append=new_run.size)
    first = np.searchsorted(starts, np.arange(new_run.shape[0]) * new_run.shape[1])
    return np.add.reduceat(length * (length - 1) // 2, first)


def _kendall_dis_counter() -> Any:
    """scipy's count of discordant pairs (the Cython routine ``kendalltau`` calls), or None."""
    try:
        from scipy.stats._stats import _kendall_dis
    except ImportError:  # a scipy without it: the loop computes pooled Kendall
        return None
    return _kendall_dis


def pooled_kendall_values(
    metric: np.ndarray, human: np.ndarray, rng: np.random.Generator, n: int
) -> np.ndarray | None:
    """Kendall's tau-b over all scored translations of ``n`` permutations of ``metric`` among them, as
    scipy's ``kendalltau`` computes it: ``(tot − xtie − ytie + ntie − 2·dis) / √(tot − xtie) / √(tot − ytie)``
    from integer counts, the human ranks and ties counted once. None without scipy's counter."""
    count_discordant = _kendall_dis_counter()
    if count_discordant is None:
        return None
    shuffled, kept, values, y = _pooled_sides(metric, human)
    size = y.size
    if size < 3 or np.all(y == y[0]):
        return np.full(n, np.nan)
    by_y = np.argsort(y, kind="stable")
    y_sorted = y[by_y]
    y_rank = np.r_[True, y_sorted[1:] != y_sorted[:-1]].cumsum(dtype=np.intp)  # 1, 2, … in y order
    y_tie = int(_tied_pairs(np.r_[True, y_sorted[1:] != y_sorted[:-1]][None])[0])
    x_rank = np.unique(values, return_inverse=True)[1].ravel()
    x_rank = x_rank.astype(np.uint16 if x_rank.size and x_rank.max() < 65_536 else np.intp)
    tot = size * (size - 1) // 2
    out: list[float] = []
    for x in _pooled_blocks(shuffled, kept[by_y], x_rank, rng, n):  # metric ranks, human order
        order = np.argsort(x, axis=1, kind="stable")  # a radix sort on 16-bit ranks
        xs = np.take_along_axis(x, order, axis=1).astype(np.intp)
        ys = y_rank[order]
        new = np.ones(xs.shape, dtype=bool)
        np.not_equal(xs[:, 1:], xs[:, :-1], out=new[:, 1:])
        x_ties = _tied_pairs(new)
        new[:, 1:] |= ys[:, 1:] != ys[:, :-1]
        joint_ties = _tied_pairs(new)
        for row in range(xs.shape[0]):
            x_tie = int(x_ties[row])
            if x_tie == tot or y_tie == tot:
                out.append(float("nan"))
                continue
            dis = int(count_discordant(xs[row], ys[row]))
            con_minus_dis = tot - x_tie - y_tie + int(joint_ties[row]) - 2 * dis
            tau = con_minus_dis / np.sqrt(tot - x_tie) / np.sqrt(tot - y_tie)
            out.append(float(np.minimum(1.0, max(-1.0, tau))))
    return np.array(out)


def permuted_values(
    method: str,
    grouping: str,
    metric: np.ndarray,
    human: np.ndarray,
    rng: np.random.Generator,
    n: int,
    *,
    threshold: float = 25.0,
    select: Any = None,
) -> np.ndarray | None:
    """The segment-level ``method`` (``grouping``) of ``n`` permutations of ``metric`` against ``human``,
    permuted as the loop permutes them (within each segment by item and for ``kendall-wmt``, among all
    scored translations otherwise). None where this module cannot compute it (a method other than
    these three, pooled Kendall without scipy's counter): the loop computes it then."""
    if method == "kendall-wmt":
        return tau_like_values(metric, human, rng, n, threshold, select)[0]
    if method not in ("pearson", "kendall"):
        return None
    if grouping == "item":
        by_item = item_kendall_values if method == "kendall" else item_pearson_values
        return by_item(metric, human, rng, n)
    if method == "kendall":
        return pooled_kendall_values(metric, human, rng, n)
    return pooled_pearson_values(metric, human, rng, n)
