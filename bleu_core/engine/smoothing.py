"""Smoothing of zero n-gram precisions (for sentence-level BLEU).

A short sentence often has no matching 4-gram, so its unsmoothed BLEU is 0 however good it is. Smoothing
replaces zero precisions by something small. Two families, by name:

* sacrebleu's methods, with its exact semantics and defaults (these are what sacrebleu's signature reports):
  ``none``; ``floor`` (zero counts get ``smooth_value``/total, default 0.1); ``add-k`` (add k, default 1, to
  matches and totals of orders n >= 2); ``exp`` (the NIST/mteval method: the k-th zero precision becomes
  1 / (2^k · total)).
* Chen & Cherry (2014) methods 1-7 (``chen-cherry-1`` ... ``chen-cherry-7``) as NLTK's ``SmoothingFunction``
  implements them, including NLTK's final formula (orders with zero precision are left out of the geometric mean;
  no unigram match gives 0). Method 6 needs a non-zero trigram precision: where it is zero NLTK raises, we leave the
  precisions unsmoothed.

Both families work on arrays with any leading shape (many sentences at once).
"""

from __future__ import annotations

import numpy as np

from .options import SMOOTHING_NAMES

SACREBLEU_METHODS = ("none", "floor", "add-k", "exp")
CHEN_CHERRY_METHODS = tuple(n for n in SMOOTHING_NAMES if n.startswith("chen-cherry-"))

SMOOTHING_DESCRIPTIONS = {
    "none": "no smoothing: one zero precision makes BLEU 0",
    "floor": "zero match counts become a small epsilon (sacrebleu 'floor', Chen & Cherry method 1)",
    "add-k": "add k to matches and totals for n >= 2 (Lin & Och 2004; Chen & Cherry method 2)",
    "exp": "k-th zero precision becomes 1/(2^k total) (NIST mteval; sacrebleu default; Chen & Cherry method 3)",
    "chen-cherry-1": "NLTK method 1: epsilon added to zero match counts",
    "chen-cherry-2": "NLTK method 2: add 1 to matches and totals for n >= 2",
    "chen-cherry-3": "NLTK method 3: NIST geometric sequence for zero counts",
    "chen-cherry-4": "NLTK method 4: like 3 but scaled by K / ln(hypothesis length), shorter = more smoothing",
    "chen-cherry-5": "NLTK method 5: average of the precisions of neighbouring orders",
    "chen-cherry-6": "NLTK method 6: interpolate with a prior from lower orders (alpha)",
    "chen-cherry-7": "NLTK method 7: methods 4 and 5 combined",
}

#: sacrebleu's floor for log(0) (``sacrebleu.utils.my_log``).
LOG_ZERO = -9999999999.0


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


def sacrebleu_precisions(
    matches: np.ndarray,
    totals: np.ndarray,
    method: str,
    value: float | None,
    effective_order: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precisions (in percent, as sacrebleu computes them) and the number of orders used.

    Returns ``(precisions_percent, eff_order, no_match)`` where ``no_match`` marks rows with no match at all
    (sacrebleu returns BLEU 0 for them, issue #141).
    """
    if value is None and method in ("add-k", "floor"):
        raise ValueError(
            f"smoothing {method!r} needs its value (BleuOptions.resolved_smooth_value)"
        )
    amount = 0.0 if value is None else value
    n = matches.shape[-1]
    correct = matches.astype(np.float64, copy=True)
    total = totals.astype(np.float64, copy=True)
    no_match = np.asarray(~(correct > 0).any(axis=-1))
    if method == "add-k" and n > 1:
        correct[..., 1:] += amount
        total[..., 1:] += amount
    # sacrebleu stops at the first order with no hypothesis n-grams ("if total == 0: break").
    valid = np.cumprod(total > 0, axis=-1).astype(bool)
    if effective_order:
        eff = valid.sum(axis=-1)
        eff = np.where(eff == 0, n, eff)
    else:
        eff = np.full(correct.shape[:-1], n)
    zero = (correct == 0) & valid
    plain = 100.0 * _safe_div(correct, total)
    if method == "exp":
        k = np.cumsum(zero, axis=-1)
        smoothed = 100.0 / (np.power(2.0, k) * np.where(total > 0, total, 1.0))
        precisions = np.where(zero, smoothed, plain)
    elif method == "floor":
        precisions = np.where(zero, 100.0 * _safe_div(np.full_like(total, amount), total), plain)
    else:
        precisions = plain
    precisions = np.where(valid, precisions, 0.0)
    precisions = np.where(no_match[..., None], 0.0, precisions)
    return precisions, eff, no_match


def chen_cherry_precisions(
    matches: np.ndarray,
    totals: np.ndarray,
    hyp_len: np.ndarray,
    method: int,
    value: float | None,
    next_matches: np.ndarray | None = None,
    next_totals: np.ndarray | None = None,
) -> np.ndarray:
    """Precisions (fractions) after Chen & Cherry method ``method`` exactly as NLTK's ``SmoothingFunction``."""
    correct = matches.astype(np.float64)
    denom = np.maximum(
        totals.astype(np.float64), 1.0
    )  # NLTK: Fraction(numerator, max(1, denominator))
    p = correct / denom
    zero = correct == 0
    n = correct.shape[-1]
    if method == 1:
        p = np.where(zero, value / denom, p)
    elif method == 2:
        if n > 1:
            p[..., 1:] = (correct[..., 1:] + 1.0) / (denom[..., 1:] + 1.0)
    elif method in (3, 4, 7):
        k = np.cumsum(zero, axis=-1)
        if method == 3:
            p = np.where(zero, 1.0 / (np.power(2.0, k) * denom), p)
        else:
            hl = np.asarray(hyp_len, dtype=np.float64)[..., None]
            with np.errstate(divide="ignore", invalid="ignore"):
                numerator = 1.0 / (np.power(2.0, k) * value / np.log(np.where(hl > 1, hl, 2.0)))
            p = np.where(zero & (hl > 1), numerator / denom, p)
    if method in (5, 7):
        if next_matches is None or next_totals is None:
            raise ValueError("Chen & Cherry methods 5 and 7 need statistics of order N+1")
        p_next = next_matches.astype(np.float64) / np.maximum(next_totals.astype(np.float64), 1.0)
        original = np.concatenate([p, p_next[..., None]], axis=-1)
        out = np.empty_like(p)
        prev = original[..., 0] + 1.0
        for i in range(n):
            out[..., i] = (prev + original[..., i] + original[..., i + 1]) / 3.0
            prev = out[..., i]
        p = out
    elif method == 6:
        alpha = value
        hl = np.asarray(hyp_len, dtype=np.float64)
        ok = p[..., 2] > 0 if n > 2 else np.zeros(p.shape[:-1], dtype=bool)
        q = p.copy()
        for i in range(2, n):
            with np.errstate(divide="ignore", invalid="ignore"):
                pi0 = np.where(
                    q[..., i - 2] == 0,
                    0.0,
                    q[..., i - 1] ** 2 / np.where(q[..., i - 2] == 0, 1.0, q[..., i - 2]),
                )
            length = np.maximum(hl - i, 0.0)
            q[..., i] = (correct[..., i] + alpha * pi0) / (length + alpha)
        p = np.where(ok[..., None], q, p)
    return p
