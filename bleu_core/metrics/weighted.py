"""Weighted n-gram precision, recall and F-score with one reference (Babych & Hartley 2004, §2).

The procedure of the paper: n-grams of the hypothesis are matched against a *single* reference translation,
with BLEU's clipping (a hypothesis n-gram matches at most as often as it occurs in the reference). Each
n-gram occurrence normally counts 1; when its words are salient in the document (tf.idf or S-score weight
> 1, see :mod:`bleu_core.metrics.weighting`) it counts the weight instead. With the same counting applied to
the hypothesis and to the reference n-grams::

    precision = weighted matched n-grams / weighted hypothesis n-grams
    recall    = weighted matched n-grams / weighted reference n-grams
    F         = 2 * precision * recall / (precision + recall)

**An n-gram with several words** (the paper does not say; pick with ``ngram_rule``):

* ``"max"`` (default) — the n-gram counts the largest multiplier of its words. This follows the prose
  ("all counts for the N-grams containing this item are increased by the S-score"): an n-gram containing a
  salient word counts that word's weight, and when it contains several it counts the most salient one's,
  never a sum, so a single match never counts more than its most salient word.
* ``"last"`` — the n-gram counts its last word's multiplier. This is what the paper's Perl excerpt does
  literally: the weight is set inside the loop that extends the n-gram one word at a time.
* ``"mean"`` — the mean of its words' multipliers.

Here a word's *multiplier* is its weight when the weight is > 1 and 1 otherwise (also 1 for words without a
weight). Because the multiplier depends only on the n-gram and the document, the weighted clipped count of an
n-gram type is its multiplier times its ordinary clipped count.

**Orders**: counts of orders 1..N are pooled (summed) before dividing, the "straightforward" counting the
paper describes (N = 4 in its tables). Per-order counts stay available in :attr:`WeightedScores.counts`.

**Levels**: segment, document and corpus scores come from the same per-segment counts, summed over the
segments of a document or of the corpus before dividing. ``0 / 0`` (an empty hypothesis or reference) is
taken as 0.

>>> from bleu_core.metrics.weighting import WordWeights
>>> w = WordWeights("tf.idf", {"d": {"cat": 3.0}}, n_documents=2)
>>> counts = weighted_counts([["the", "cat"]], [["a", "cat"]], ["d"], w, max_order=2)
>>> counts.tolist()   # matched 1..2, hypothesis 1..2, reference 1..2
[[3.0, 0.0, 4.0, 3.0, 4.0, 3.0]]
>>> prf = prf_from_counts(counts, max_order=2)
>>> float(prf.precision[0]), float(prf.recall[0])
(0.42857142857142855, 0.42857142857142855)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from bleu_core.engine.statistics import ngram_counts
from bleu_core.errors import BleuOptionError
from bleu_core.metrics.base import MetricSpec, MetricStatistics, ScoringContext, assemble
from bleu_core.metrics.weighting import (
    WordWeights,
    group_tokens,
    s_score_weights,
    segment_documents,
    tfidf_weights,
    word_weights,
)

NGRAM_RULES: tuple[str, ...] = ("max", "last", "mean")
BASELINE = "none"


def _check_rule(ngram_rule: str) -> None:
    if ngram_rule not in NGRAM_RULES:
        raise BleuOptionError(
            f"unknown n-gram weighting rule {ngram_rule!r}; choose one of: {', '.join(NGRAM_RULES)}"
        )


def _combine(multipliers: list[float], rule: str) -> float:
    if rule == "max":
        return max(multipliers)
    if rule == "last":
        return multipliers[-1]
    return sum(multipliers) / len(multipliers)


def _ngram_multipliers(
    ngrams: set[tuple[str, ...]],
    doc: str,
    weights: WordWeights | None,
    rule: str,
    memo: dict[tuple[str, ...], float] | None = None,
) -> dict[tuple[str, ...], float]:
    """The multiplier of every n-gram in ``ngrams`` (``memo``: already known multipliers in this document)."""
    if weights is None:
        return dict.fromkeys(ngrams, 1.0)
    if memo is None:
        memo = {}
    missing = [ngram for ngram in ngrams if ngram not in memo]
    if missing:
        words = {w for ngram in missing for w in ngram}
        word_multiplier = {w: weights.multiplier(doc, w) for w in words}
        for ngram in missing:
            memo[ngram] = _combine([word_multiplier[w] for w in ngram], rule)
    return memo


def weighted_counts(
    hypothesis_tokens: Sequence[Sequence[str]],
    reference_tokens: Sequence[Sequence[str]],
    segment_docs: Sequence[str],
    weights: WordWeights | None,
    *,
    max_order: int = 4,
    ngram_rule: str = "max",
) -> np.ndarray:
    """Per-segment weighted counts, shape ``(S, 3N)``: matched, hypothesis and reference n-grams, n = 1..N.

    ``weights=None`` gives the unweighted baseline (every n-gram counts 1).
    """
    return weighted_counts_many(
        hypothesis_tokens,
        reference_tokens,
        segment_docs,
        [weights],
        max_order=max_order,
        ngram_rule=ngram_rule,
    )[0]


def weighted_counts_many(
    hypothesis_tokens: Sequence[Sequence[str]],
    reference_tokens: Sequence[Sequence[str]],
    segment_docs: Sequence[str],
    weights: Sequence[WordWeights | None],
    *,
    max_order: int = 4,
    ngram_rule: str = "max",
    cache: dict | None = None,
) -> np.ndarray:
    """:func:`weighted_counts` for several weight tables at once (n-grams counted once): ``(K, S, 3N)``.

    ``cache``: pass the same (initially empty) dict to every call with the same weight tables, e.g. one call
    per system against one reference: each reference segment's n-grams and weights are then computed once.
    """
    _check_rule(ngram_rule)
    if max_order < 1:
        raise BleuOptionError(f"max_order must be at least 1, got {max_order}")
    if not (len(hypothesis_tokens) == len(reference_tokens) == len(segment_docs)):
        raise BleuOptionError(
            f"{len(hypothesis_tokens)} hypotheses, {len(reference_tokens)} references and "
            f"{len(segment_docs)} document ids: give one of each per segment."
        )
    out = np.zeros((len(weights), len(hypothesis_tokens), 3 * max_order), dtype=np.float64)
    # Reference-side work (reference n-gram counts, their weighted totals, n-gram multipliers) depends only
    # on the reference and its document: a ``cache`` shared by calls with the same weight tables (one call
    # per system of a study) does it once per reference segment.
    memo = {} if cache is None else cache
    key = (max_order, ngram_rule, tuple(id(w) for w in weights))
    memo.setdefault(
        ("tables", key), list(weights)
    )  # keeps the tables alive while their ids are keys
    refs_memo = memo.setdefault(("refs", key), {})
    mult_memo = memo.setdefault(("multipliers", key), {})
    rows = zip(hypothesis_tokens, reference_tokens, segment_docs, strict=True)
    for s, (hyp, ref, doc) in enumerate(rows):
        hyp_counts = ngram_counts(hyp, max_order)
        ref_key = (doc, tuple(ref))
        known = refs_memo.get(ref_key)
        if known is None:
            ref_counts = ngram_counts(ref, max_order)
            ref_rows = np.zeros((len(weights), max_order))
            for k, table in enumerate(weights):
                multipliers = _ngram_multipliers(
                    set(ref_counts), doc, table, ngram_rule, mult_memo.setdefault((k, doc), {})
                )
                ref_row = ref_rows[k]
                for ngram, count in ref_counts.items():
                    ref_row[len(ngram) - 1] += multipliers[ngram] * count
            known = refs_memo[ref_key] = (ref_counts, ref_rows)
        ref_counts, ref_rows = known
        for k, table in enumerate(weights):
            multipliers = _ngram_multipliers(
                set(hyp_counts), doc, table, ngram_rule, mult_memo.setdefault((k, doc), {})
            )
            row = out[k, s]
            for ngram, count in hyp_counts.items():
                n = len(ngram) - 1
                m = multipliers[ngram]
                row[max_order + n] += m * count
                matched = min(count, ref_counts.get(ngram, 0))
                if matched:
                    row[n] += m * matched
            row[2 * max_order :] = ref_rows[k]
    return out


@dataclass(frozen=True)
class PRF:
    """Precision, recall and F-score (arrays of any shape, or floats)."""

    precision: np.ndarray
    recall: np.ndarray
    f: np.ndarray


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros_like(num, dtype=np.float64), where=den > 0)


def prf_from_counts(counts: np.ndarray, max_order: int) -> PRF:
    """Pooled precision, recall and F from counts of shape ``(..., 3N)`` (see :func:`weighted_counts`).

    >>> prf_from_counts(np.array([1.0, 2.0, 4.0]), max_order=1)
    PRF(precision=array(0.5), recall=array(0.25), f=array(0.33333333))
    """
    counts = np.asarray(counts, dtype=np.float64)
    matched = counts[..., :max_order].sum(axis=-1)
    hyp = counts[..., max_order : 2 * max_order].sum(axis=-1)
    ref = counts[..., 2 * max_order : 3 * max_order].sum(axis=-1)
    precision = _ratio(matched, hyp)
    recall = _ratio(matched, ref)
    f = _ratio(2 * precision * recall, precision + recall)
    return PRF(precision, recall, f)


@dataclass(frozen=True)
class WeightedScores:
    """Weighted (or baseline) n-gram P/R/F of one system against one reference, at every level.

    ``counts`` is ``(S, 3N)`` per segment (see :func:`weighted_counts`), ``segment_docs`` the document of each
    segment, ``scheme`` one of ``"none"`` (baseline), ``"tf.idf"``, ``"s-score"``.
    """

    scheme: str
    ngram_rule: str
    max_order: int
    counts: np.ndarray
    segment_docs: tuple[str, ...]

    def segment(self) -> PRF:
        """P/R/F of every segment (arrays of length S)."""
        return prf_from_counts(self.counts, self.max_order)

    def documents(self) -> dict[str, PRF]:
        """P/R/F of every document (summed counts of its segments), in order of first appearance."""
        order = list(dict.fromkeys(self.segment_docs))
        index = {doc: i for i, doc in enumerate(order)}
        sums = np.zeros((len(order), self.counts.shape[1]))
        np.add.at(sums, [index[d] for d in self.segment_docs], self.counts)
        prf = prf_from_counts(sums, self.max_order)
        return {doc: PRF(prf.precision[i], prf.recall[i], prf.f[i]) for doc, i in index.items()}

    def corpus(self) -> PRF:
        """P/R/F of the whole corpus (counts summed over all segments; 0-d arrays)."""
        return prf_from_counts(self.counts.sum(axis=0), self.max_order)


def weighted_scores_from_tokens(
    hypothesis_tokens: Sequence[Sequence[str]],
    reference_tokens: Sequence[Sequence[str]],
    *,
    doc_ids: Sequence[str | None] | None = None,
    schemes: Sequence[str] = (BASELINE, "tf.idf", "s-score"),
    max_order: int = 4,
    ngram_rule: str = "max",
) -> dict[str, WeightedScores]:
    """Weighted P/R/F for each scheme (``"none"`` = unweighted baseline), weights from this reference."""
    docs = segment_documents(doc_ids, len(reference_tokens))
    grouped = group_tokens(reference_tokens, docs)
    tables = [None if scheme == BASELINE else word_weights(grouped, scheme) for scheme in schemes]
    counts = weighted_counts_many(
        hypothesis_tokens,
        reference_tokens,
        docs,
        tables,
        max_order=max_order,
        ngram_rule=ngram_rule,
    )
    out = {
        scheme: WeightedScores(scheme, ngram_rule, max_order, counts[k], tuple(docs))
        for k, scheme in enumerate(schemes)
    }
    return out


def weighted_scores(
    hypotheses: Sequence[str],
    reference: Sequence[str],
    *,
    doc_ids: Sequence[str | None] | None = None,
    schemes: Sequence[str] = (BASELINE, "tf.idf", "s-score"),
    max_order: int = 4,
    tokenize: str = "13a",
    lowercase: bool = False,
    ngram_rule: str = "max",
) -> dict[str, WeightedScores]:
    """Weighted and baseline n-gram P/R/F of ``hypotheses`` against one ``reference`` stream.

    Text is tokenized with the engine's tokenizer (``tokenize``, ``lowercase``) and the word weights are
    computed from the reference's documents (``doc_ids``; see :func:`~bleu_core.metrics.weighting.segment_documents`).

    >>> scores = weighted_scores(["the cat sat", "a dog"], ["the cat sat", "the dog ran"], schemes=["none"])
    >>> round(float(scores["none"].corpus().precision), 4)   # (3+2+1) + (1) matched of (3+2+1) + (2+1)
    0.7778
    """
    from bleu_core.tokenize.tokenizers import get_tokenizer

    if len(hypotheses) != len(reference):
        raise BleuOptionError(
            f"{len(hypotheses)} hypotheses but {len(reference)} reference lines: give one reference line "
            "per hypothesis."
        )
    tokenizer = get_tokenizer(tokenize, lowercase=lowercase)
    hyp_tokens = tokenizer.tokenize_corpus(list(hypotheses))
    ref_tokens = tokenizer.tokenize_corpus(list(reference))
    return weighted_scores_from_tokens(
        hyp_tokens,
        ref_tokens,
        doc_ids=doc_ids,
        schemes=schemes,
        max_order=max_order,
        ngram_rule=ngram_rule,
    )


def weighted_from_stats(stats: np.ndarray, measure: str) -> np.ndarray:
    """``measure`` (``"precision"``, ``"recall"`` or ``"f"``) of 1-4 gram counts ``(..., 12)``."""
    prf = prf_from_counts(stats, 4)
    return {"precision": prf.precision, "recall": prf.recall, "f": prf.f}[measure]


_SCHEMES = {"tf.idf": 0, "s-score": 1, "none": 2}  # the order of the weight tables counted below


def _single_reference(ctx: ScoringContext) -> str:
    study = ctx.study
    if ctx.single_reference is None:
        return next(iter(study.references))
    if ctx.single_reference not in study.references:
        raise BleuOptionError(
            f"unknown reference stream {ctx.single_reference!r}; the study has: "
            f"{', '.join(study.references)}"
        )
    return ctx.single_reference


def _counts(ctx: ScoringContext) -> tuple[str, dict[str, tuple[list[int], np.ndarray]]]:
    """``(reference stream, {system: (segments, counts under each scheme)})``, counted once per scoring
    run for the nine metrics: weights from that stream and the study's documents."""
    if "weighted" in ctx.cache:
        return ctx.cache["weighted"]
    study = ctx.study
    ref_name = _single_reference(ctx)
    stream = study.references[ref_name]
    ref_toks = ctx.tokens("reference", ref_name)
    docs = segment_documents([s.doc_id for s in study.segments], study.n_segments)
    present = [i for i, t in enumerate(stream) if t is not None]
    grouped = group_tokens([ref_toks[i] for i in present], [docs[i] for i in present])
    tables = [tfidf_weights(grouped), s_score_weights(grouped), None]
    out = {}
    shared: dict = {}  # reference-side n-grams and weights, computed once for all systems
    for system in ctx.systems:
        hyps = study.systems[system]
        idx = [i for i in present if hyps[i] is not None]
        if system == ref_name or not idx:
            continue
        all_toks = ctx.tokens("system", system)
        counts = weighted_counts_many(
            [all_toks[i] for i in idx],
            [ref_toks[i] for i in idx],
            [docs[i] for i in idx],
            tables,
            cache=shared,
        )
        out[system] = (idx, counts)
    ctx.cache["weighted"] = (ref_name, out)
    return ref_name, out


def _registry_statistics(ctx: ScoringContext, spec: MetricSpec) -> MetricStatistics:
    k = _SCHEMES[spec.family.split(":", 1)[1]]
    ref_name, counts = _counts(ctx)
    per_system = {
        system: (idx, c[k], weighted_from_stats(c[k], spec.measure))
        for system, (idx, c) in counts.items()
    }
    return assemble(ctx, per_system, 12, [f"single reference: {ref_name}"])


def _registry_from_stats(ctx: ScoringContext, spec: MetricSpec) -> partial[np.ndarray]:
    return partial(weighted_from_stats, measure=spec.measure)


def _specs() -> tuple[MetricSpec, ...]:
    out = []
    for scheme, label in (("tf.idf", "tf.idf"), ("s-score", "S-score"), ("none", "unweighted")):
        weighted = "weighted by " + label if scheme != "none" else "unweighted"
        for measure in ("precision", "recall", "f"):
            what = measure if measure != "f" else "F-score"
            description = f"Babych & Hartley 2004: n-gram {what} (1-4 grams, {weighted}) against one reference"
            name = f"{'F' if measure == 'f' else measure} ({label})"
            family = f"weighted:{scheme}"
            out.append(
                MetricSpec(
                    name,
                    True,
                    description,
                    family,
                    _registry_statistics,
                    _registry_from_stats,
                    measure=measure,
                    depends_on=("tokenize", "lowercase", "single_reference"),
                )
            )
    return tuple(out)


#: The registry's nine Babych & Hartley metrics: precision, recall and F under tf.idf, S-score and no
#: weights, all counted in one pass against one reference stream (``single_reference``, default the first).
WEIGHTED = _specs()
