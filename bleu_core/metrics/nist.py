"""NIST (Doddington 2002): n-gram co-occurrence weighted by information, with a gentler length penalty.

BLEU counts every matched n-gram as 1. NIST weights it by how *informative* it is in the references::

    Info(w1..wn) = log2( count(w1..wn-1) / count(w1..wn) )

with counts over all reference translations of the corpus (for a unigram, ``count(w1..w0)`` is the total
number of reference words). A rare continuation carries more information than a frequent one ("of the").
The score sums, over orders n = 1..N (N = 5 by default), the information of the co-occurring n-grams divided
by the number of hypothesis n-grams (an *arithmetic* sum, unlike BLEU's geometric mean), times a brevity
factor::

    NIST = sum_n [ sum_matched Info / hypothesis n-grams of order n ] * exp(beta * ln^2(min(Lsys / Lref, 1)))

``Lref`` is the average reference length (averaged over the references of each segment, summed over
segments) and ``beta`` makes the factor 0.5 when ``Lsys / Lref = 2/3``.

Matching clips each hypothesis n-gram at its largest count in any one reference (as BLEU and mteval-v13a do).
With one reference this is exactly NLTK's ``corpus_nist``; with several, NLTK instead picks, per segment and
order, the single reference with the best information precision, so scores can differ slightly.
Orders for which the hypothesis has no n-grams add 0 (NLTK raises ``ZeroDivisionError``).

Segment-level NIST uses the same corpus-wide information weights with the segment's own counts and lengths.

Two implementations give the same statistics: :func:`corpus_nist_from_tokens` (below) is the *reference
implementation*, a ``Counter`` per segment, easy to check by eye; :mod:`bleu_core.metrics.nist_statistics`
computes every segment (and every system) at once from integer token ids with numpy, and is what
:func:`corpus_nist` and the metric registry run. The tests compare the two.

>>> hyp = "the cat sat on the mat".split()
>>> ref = "the cat sat on a mat".split()
>>> # 5 of 6 unigrams match, each worth log2(6 / 1) bits; every bigram is worth log2(1 / 1) = 0 bits here
>>> round(corpus_nist_from_tokens([hyp], [[ref]], max_order=2).corpus, 4)
2.1541
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from bleu_core.engine.statistics import ngram_counts
from bleu_core.errors import BleuOptionError
from bleu_core.metrics.base import MetricSpec, MetricStatistics, ScoringContext, assemble
from bleu_core.metrics.nist_statistics import check_nist_order

#: beta of the length penalty: exp(beta * ln(2/3)^2) = 0.5 (Doddington 2002, eq. 3; NLTK, mteval-v13a).
BETA = math.log(0.5) / math.log(1.5) ** 2
DEFAULT_NIST_ORDER = 5


def information_weights(
    reference_tokens: Sequence[Sequence[Sequence[str]]], max_order: int = DEFAULT_NIST_ORDER
) -> dict[tuple[str, ...], float]:
    """``Info`` of every n-gram (orders 1..N) seen in the references of the corpus.

    >>> info = information_weights([[["a", "b"], ["a", "c"]]], max_order=2)
    >>> info[("a",)], info[("a", "b")]    # log2(4 / 2), log2(count(a) / count(a b)) = log2(2 / 1)
    (1.0, 1.0)
    """
    freq: Counter[tuple[str, ...]] = Counter()
    total_words = 0
    for refs in reference_tokens:
        for ref in refs:
            freq.update(ngram_counts(ref, max_order))
            total_words += len(ref)
    info: dict[tuple[str, ...], float] = {}
    for ngram, count in freq.items():
        context = freq[ngram[:-1]] if len(ngram) > 1 else total_words
        info[ngram] = math.log2(context / count)
    return info


def length_penalty(hyp_len: np.ndarray | float, ref_len: np.ndarray | float) -> np.ndarray:
    """NIST's brevity factor ``exp(beta * ln^2(min(hyp/ref, 1)))``; 0 for an empty hypothesis.

    >>> round(float(length_penalty(2.0, 3.0)), 12)
    0.5
    >>> float(length_penalty(4.0, 3.0)), float(length_penalty(0.0, 3.0))
    (1.0, 0.0)
    """
    hyp = np.asarray(hyp_len, dtype=np.float64)
    ref = np.asarray(ref_len, dtype=np.float64)
    ratio = np.divide(hyp, ref, out=np.ones_like(hyp * ref), where=ref > 0)
    ratio = np.minimum(ratio, 1.0)
    with np.errstate(divide="ignore"):
        log_ratio = np.log(ratio)
    return np.where(ratio > 0, np.exp(BETA * log_ratio**2), 0.0)


@dataclass(frozen=True)
class NistScores:
    """NIST of the corpus and of every segment.

    ``stats`` has shape ``(S, 2 + 2N)``: hypothesis length, average reference length, matched information
    for n = 1..N, hypothesis n-grams for n = 1..N. Rows add up, so any subset's NIST is
    :func:`nist_from_stats` of its column sums.
    """

    corpus: float
    segment: np.ndarray
    stats: np.ndarray
    max_order: int


def nist_from_stats(stats: np.ndarray, max_order: int) -> np.ndarray:
    """NIST from statistics rows (any leading shape; see :class:`NistScores`)."""
    stats = np.asarray(stats, dtype=np.float64)
    info = stats[..., 2 : 2 + max_order]
    totals = stats[..., 2 + max_order : 2 + 2 * max_order]
    per_order = np.divide(info, totals, out=np.zeros_like(info), where=totals > 0)
    return per_order.sum(axis=-1) * length_penalty(stats[..., 0], stats[..., 1])


def corpus_nist_from_tokens(
    hypothesis_tokens: Sequence[Sequence[str]],
    reference_tokens: Sequence[Sequence[Sequence[str]]],
    *,
    max_order: int = DEFAULT_NIST_ORDER,
    information: dict[tuple[str, ...], float] | None = None,
    cache: dict | None = None,
) -> NistScores:
    """NIST of tokenised segments; ``reference_tokens[i]`` holds the references of segment i.

    ``information``: the weights (:func:`information_weights` of these references) when already known.
    ``cache``: a dict shared by calls with the same weights (one per system of a study), so that each
    segment's reference n-gram counts are computed once.
    """
    check_nist_order(max_order)
    if len(hypothesis_tokens) != len(reference_tokens):
        raise BleuOptionError(
            f"{len(hypothesis_tokens)} hypotheses but {len(reference_tokens)} reference sets: give the "
            "references of every segment."
        )
    info = information_weights(reference_tokens, max_order) if information is None else information
    stats = np.zeros((len(hypothesis_tokens), 2 + 2 * max_order))
    memo = {} if cache is None else cache
    for row, hyp, refs in zip(stats, hypothesis_tokens, reference_tokens, strict=True):
        if not refs:
            raise BleuOptionError("NIST needs at least one reference per segment")
        key = (max_order, tuple(tuple(r) for r in refs))
        ref_max = memo.get(key)
        if ref_max is None:
            ref_max = Counter()
            for ref in refs:
                ref_max |= ngram_counts(ref, max_order)
            memo[key] = ref_max
        row[0] = len(hyp)
        row[1] = sum(len(r) for r in refs) / len(refs)
        for ngram, count in ngram_counts(hyp, max_order).items():
            n = len(ngram)
            row[1 + max_order + n] += count
            matched = min(count, ref_max.get(ngram, 0))
            if matched:
                row[1 + n] += matched * info[ngram]
    return NistScores(
        float(nist_from_stats(stats.sum(axis=0), max_order)),
        nist_from_stats(stats, max_order),
        stats,
        max_order,
    )


def corpus_nist(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    max_order: int = DEFAULT_NIST_ORDER,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> NistScores:
    """NIST of a corpus; ``references`` are reference streams (``references[k][i]``; ``None`` = missing).

    Vectorised (:mod:`bleu_core.metrics.nist_statistics`); the same scores as :func:`corpus_nist_from_tokens`
    of the tokens.

    >>> round(corpus_nist(["the cat sat on the mat"], [["the cat sat on a mat"]], max_order=2).corpus, 4)
    2.1541
    """
    from bleu_core.engine.statistics import check_corpus
    from bleu_core.fast.batch_tokenizers import BatchTokenizer
    from bleu_core.metrics.nist_statistics import (
        hypothesis_statistics_from_text,
        reference_ngrams_from_text,
    )

    check_corpus(hypotheses, references)
    check_nist_order(max_order)
    tokenizer = BatchTokenizer(tokenize, lowercase)
    refs = reference_ngrams_from_text(tokenizer, references, max_order)
    stats = hypothesis_statistics_from_text(refs, tokenizer, hypotheses).stats
    return NistScores(
        float(nist_from_stats(stats.sum(axis=0), max_order)),
        nist_from_stats(stats, max_order),
        stats,
        max_order,
    )


def _registry_statistics(ctx: ScoringContext, spec: MetricSpec) -> MetricStatistics:
    """Every system's NIST statistics, vectorised (:mod:`bleu_core.metrics.nist_statistics`): the
    references' n-grams, information weights and clipping limits are computed once per (reference streams,
    segments) and shared by every system scored against them; one tokenizer numbers the tokens of all."""
    from bleu_core.fast.batch_tokenizers import BatchTokenizer
    from bleu_core.metrics.nist_statistics import (
        ReferenceNgrams,
        hypothesis_statistics_from_text,
        reference_ngrams_from_text,
    )

    per_system = {}
    tokenizer = BatchTokenizer(ctx.tokenize, ctx.lowercase)
    # reference n-grams per (reference streams, segments)
    references: dict[tuple, ReferenceNgrams] = {}
    for k, system in enumerate(ctx.systems):
        ctx.report(k, len(ctx.systems), f"NIST: system {k + 1} of {len(ctx.systems)} ({system})")
        if (usable := ctx.usable_inputs(system)) is None:
            continue
        idx, hyps, streams = usable
        key = (tuple(ctx.refs_for(system)), tuple(idx))
        if key not in references:
            references[key] = reference_ngrams_from_text(tokenizer, streams, DEFAULT_NIST_ORDER)
        stats = hypothesis_statistics_from_text(references[key], tokenizer, hyps).stats
        per_system[system] = (idx, stats, nist_from_stats(stats, DEFAULT_NIST_ORDER))
    notes = ["information weights come from the references of the segments each system translated"]
    return assemble(ctx, per_system, 2 + 2 * DEFAULT_NIST_ORDER, notes)


def _registry_from_stats(ctx: ScoringContext, spec: MetricSpec) -> partial[np.ndarray]:
    return partial(nist_from_stats, max_order=DEFAULT_NIST_ORDER)


#: The registry's NIST: orders 1-5, the word tokenizer and case of the study's settings.
NIST = MetricSpec(
    "NIST",
    True,
    "information-weighted n-gram co-occurrence, 1-5 grams (Doddington 2002)",
    "nist",
    _registry_statistics,
    _registry_from_stats,
)
