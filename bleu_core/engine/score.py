"""From sufficient statistics to BLEU: one pure, vectorised function.

    BLEU = BP · exp( Σ_n w_n · log p_n )        (BLEU paper §2.3)

where p_n is the modified (clipped) n-gram precision — matches over hypothesis n-grams, summed over the corpus —
and BP the brevity penalty. :func:`bleu_from_stats` takes statistics with any leading shape: a single row (corpus
sums) gives corpus BLEU, a matrix of rows gives every sentence BLEU at once, a stack of resampled sums gives a
bootstrap distribution.

With the default options the numbers are sacrebleu's: the same floating-point steps in the same order (precisions
in percent, ``sum(log p) / N``, sacrebleu's floor for log 0).

>>> from bleu_core.engine.statistics import compute_statistics
>>> from bleu_core.engine.options import BleuOptions
>>> stats = compute_statistics(["the cat sat on the mat"], [["the cat is on the mat"]])
>>> result = bleu_from_stats(stats.total(), BleuOptions())
>>> round(float(result.score), 4), result.matches.tolist(), result.totals.tolist()
(37.9918, [5.0, 3.0, 1.0, 0.0], [6.0, 5.0, 4.0, 3.0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .brevity_penalty import brevity_penalty
from .options import BleuOptions
from .smoothing import LOG_ZERO, chen_cherry_precisions, sacrebleu_precisions
from .statistics import HYP_LEN, N_LENGTH_COLUMNS, SegmentStatistics, order_of

_POLICY_COLUMN = {"closest": 1, "shortest": 2, "average": 3}


@dataclass(frozen=True)
class BleuArrays:
    """BLEU and its parts for every row of a statistics array (numpy arrays with the rows' leading shape).

    ``bleu`` is on the paper's 0-1 scale, ``score`` on sacrebleu's 0-100. ``precisions`` are fractions after
    smoothing; ``matches``/``totals`` are the raw clipped counts (before any add-k). ``geometric_mean`` is the
    weighted geometric mean of the precisions (0-1; 0 where BLEU is 0 for want of a match), so that
    ``bleu = bp * geometric_mean``.
    """

    bleu: np.ndarray
    score: np.ndarray
    precisions: np.ndarray
    bp: np.ndarray
    ratio: np.ndarray
    hyp_len: np.ndarray
    ref_len: np.ndarray
    matches: np.ndarray
    totals: np.ndarray
    geometric_mean: np.ndarray


def split_statistics(
    array: np.ndarray, max_order: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """(hyp_len, ref columns (…,3), matches (…,N), totals (…,N), next_matches, next_totals) of an array."""
    available = order_of(array)
    if available < max_order:
        raise ValueError(
            f"these statistics cover n-grams up to order {available}; recompute them with max order {max_order}"
        )
    m0 = N_LENGTH_COLUMNS
    t0 = N_LENGTH_COLUMNS + available
    matches = array[..., m0 : m0 + max_order]
    totals = array[..., t0 : t0 + max_order]
    nxt_m = array[..., m0 + max_order] if available > max_order else None
    nxt_t = array[..., t0 + max_order] if available > max_order else None
    return array[..., HYP_LEN], array[..., 1:4], matches, totals, nxt_m, nxt_t


def bleu_from_stats(
    stats: SegmentStatistics | ArrayLike, options: BleuOptions | None = None
) -> BleuArrays:
    """BLEU of every row of ``stats`` (shape ``(..., 4 + 2M)`` with M >= options.max_order)."""
    options = options or BleuOptions()
    array = (
        stats.array if isinstance(stats, SegmentStatistics) else np.asarray(stats, dtype=np.float64)
    )
    n = options.max_order
    hyp_len, ref_cols, matches, totals, nxt_m, nxt_t = split_statistics(array, n)
    ref_len = ref_cols[..., _POLICY_COLUMN[options.ref_length] - 1]
    bp = brevity_penalty(hyp_len, ref_len)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(ref_len > 0, hyp_len / np.where(ref_len > 0, ref_len, 1.0), 0.0)
    weights = np.asarray(options.weight_vector, dtype=np.float64)

    if options.smooth.startswith("chen-cherry-"):
        method = int(options.smooth.rsplit("-", 1)[1])
        if method in (5, 7) and nxt_m is None:
            raise ValueError(
                f"smoothing {options.smooth} needs statistics up to order {n + 1}; compute them with "
                "max_order=options.statistics_order"
            )
        p = chen_cherry_precisions(
            matches, totals, hyp_len, method, options.resolved_smooth_value, nxt_m, nxt_t
        )
        positive = p > 0
        logs = np.where(positive, np.log(np.where(positive, p, 1.0)), 0.0)
        log_mean = (weights * logs).sum(axis=-1)
        no_unigram = matches[..., 0] == 0
        geometric_mean = np.where(no_unigram, 0.0, np.exp(log_mean))
        bleu = bp * geometric_mean
        score = 100.0 * bleu
        precisions = p
    else:
        p_pct, eff, no_match = sacrebleu_precisions(
            matches, totals, options.smooth, options.resolved_smooth_value, options.effective_order
        )
        positive = p_pct > 0
        logs = np.where(positive, np.log(np.where(positive, p_pct, 1.0)), LOG_ZERO)
        included = np.arange(n) < np.asarray(eff)[..., None]
        if options.uniform_weights:
            log_mean = np.where(included, logs, 0.0).sum(axis=-1) / eff
        else:
            w = np.where(included, weights, 0.0)
            wsum = w.sum(axis=-1)
            with np.errstate(divide="ignore", invalid="ignore"):
                log_mean = np.where(
                    wsum > 0, (w * logs).sum(axis=-1) / np.where(wsum > 0, wsum, 1.0), LOG_ZERO
                )
        mean_pct = np.where(no_match, 0.0, np.exp(log_mean))
        score = bp * mean_pct
        bleu = score / 100.0
        precisions = p_pct / 100.0
        geometric_mean = mean_pct / 100.0
    return BleuArrays(
        bleu=np.asarray(bleu),
        score=np.asarray(score),
        precisions=precisions,
        bp=np.asarray(bp),
        ratio=np.asarray(ratio),
        hyp_len=np.asarray(hyp_len),
        ref_len=np.asarray(ref_len),
        matches=matches,
        totals=totals,
        geometric_mean=np.asarray(geometric_mean),
    )
