"""BLEU of one row of corpus totals in plain Python, step for step as sacrebleu computes it: no numpy.

``bleu-study score`` gets its corpus totals from the compiled kernel (:mod:`bleu_core.fast.file_bleu`) as a
list of numbers; scoring that one row with :func:`bleu_core.engine.score.bleu_from_stats` would import numpy (about
0.1 s of a 0.3 s command) for a dozen floating-point operations. :func:`score_corpus_row` performs them with
:mod:`math`, in the order of sacrebleu's ``BLEU.compute_bleu``: the brevity penalty
(:func:`~bleu_core.engine.brevity_penalty.brevity_penalty_of`, ``exp(1 - ref_len / sys_len)``), precisions ``100. * correct / total`` (exp smoothing: ``100. / (2**k * total)``;
floor: ``100. * value / total``; add-k added to orders 2 and up), sacrebleu's floor for ``log 0``, and
``exp(sum(logs) / eff_order)`` with Python's ``sum``. So the score is sacrebleu's, bit for bit; numpy's
vectorised path (other ``exp``/``log`` routines, another order of additions) agrees with it to about 1e-14.

Options sacrebleu does not have — Chen & Cherry smoothing, non-uniform weights — return ``None``: the caller
then scores with :func:`bleu_core.engine.bleu.score_row`.

The statistics of "the cat sat on the mat" against "the cat is on the mat" (``sacrebleu.corpus_bleu`` gives
37.99178428257963 for it, as in :mod:`bleu_core.engine.score`'s example):

>>> from bleu_core.engine.options import BleuOptions
>>> s = score_corpus_row([6, 6, 6, 6, 5, 3, 1, 0, 6, 5, 4, 3], BleuOptions(), 1)
>>> round(s.score, 4), s.counts, s.totals, s.signature
(37.9918, (5, 3, 1, 0), (6, 5, 4, 3), 'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0')
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .bleu import BleuScore
from .brevity_penalty import brevity_penalty_of
from .options import BleuOptions
from .signature import make_signature

#: sacrebleu's ``my_log(0)``.
LOG_ZERO = -9999999999.0

_POLICY_COLUMN = {"closest": 1, "shortest": 2, "average": 3}


def _precisions(
    correct: list[float], total: list[float], options: BleuOptions
) -> tuple[list[float], int]:
    """Precisions in percent and the effective order: the loop of sacrebleu's ``compute_bleu``."""
    n_orders = len(correct)
    method = options.smooth
    value = options.resolved_smooth_value or 0.0  # None for the methods that take no value
    precisions = [0.0] * n_orders
    smooth_mteval = 1.0
    eff_order = n_orders
    for n in range(1, n_orders + 1):
        if method == "add-k" and n > 1:
            correct[n - 1] += value
            total[n - 1] += value
        if total[n - 1] == 0:
            break
        if options.effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif method == "floor":
                precisions[n - 1] = 100.0 * value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    return precisions, eff_order


def score_corpus_row(row: Sequence[float], options: BleuOptions, n_refs: int) -> BleuScore | None:
    """A :class:`~bleu_core.engine.bleu.BleuScore` from one statistics row (the columns of
    :class:`~bleu_core.engine.statistics.SegmentStatistics`, possibly of a higher order than ``options``), or
    ``None`` for the options only numpy's path computes."""
    if options.smooth.startswith("chen-cherry-") or not options.uniform_weights:
        return None
    n = options.max_order
    available = (len(row) - 4) // 2
    if available < n:
        raise ValueError(f"these statistics cover n-grams up to order {available}, not {n}")
    hyp_len, ref_len = float(row[0]), float(row[_POLICY_COLUMN[options.ref_length]])
    counts = [int(c) for c in row[4 : 4 + n]]
    totals = [int(t) for t in row[4 + available : 4 + available + n]]
    bp = brevity_penalty_of(hyp_len, ref_len)
    if not any(counts):  # sacrebleu's early stop (its issue #141)
        precisions, score = [0.0] * n, 0.0
    else:
        precisions, eff_order = _precisions(
            [float(c) for c in counts], [float(t) for t in totals], options
        )
        logs = [math.log(p) if p != 0.0 else LOG_ZERO for p in precisions[:eff_order]]
        score = bp * math.exp(sum(logs) / eff_order)
    return BleuScore(
        bleu=score / 100.0,
        score=score,
        precisions=tuple(p / 100.0 for p in precisions),
        counts=tuple(counts),
        totals=tuple(totals),
        bp=bp,
        ratio=hyp_len / ref_len if ref_len > 0 else 0.0,
        hyp_len=int(hyp_len),
        ref_len=ref_len,
        signature=make_signature(options, n_refs),
        options=options,
    )
