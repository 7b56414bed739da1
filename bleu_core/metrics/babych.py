"""Babych & Hartley (2004) Tables 1-3 for any study: BLEU vs weighted P/R/F, correlations, stability.

For every system of the study:

* **BLEU** with all reference streams (the paper's "BLEU [1&2]"; 0-1 scale as printed there);
* **precision, recall and F** of n-grams (N = 4) against each reference stream *used alone*, unweighted
  (the paper's §4 "baseline") and weighted by tf.idf and by S-score, the weights being computed from that same
  reference (Tables 1 and 2, one column per reference run);
* **Pearson r** of each of those scores with each human criterion across systems (the tables' last rows;
  machine systems only by default, as the paper's "Corr r(2) with [ade] – MT"); systems without a human score
  are skipped pairwise, like the paper's REVERSO "NA";
* **stability** (Table 3): for each system, the standard deviation (``ddof=1``, which is what reproduces the
  paper's figures from its Tables 1-2) of a score across the alternative single references, and the average
  of those standard deviations over systems. It needs at least two reference streams.

Segments where the system or the reference has no text are left out of that system-reference run. A system
that is itself a reference stream (a human translation used as reference) is not scored against itself.

>>> sd, average = stability({"candide": [0.4767, 0.4709], "globalink": [0.4289, 0.4277]})
>>> round(sd["candide"], 4), round(average, 4)       # Table 1 tf.idf precision -> Table 3: 0.0041, 0.0008
(0.0041, 0.0025)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.engine.bleu import corpus_bleu
from bleu_core.engine.options import BleuOptions
from bleu_core.errors import BleuOptionError
from bleu_core.maths.correlation import CorrelationResult, correlation
from bleu_core.metrics.weighted import BASELINE, prf_from_counts, weighted_counts_many
from bleu_core.metrics.weighting import (
    group_tokens,
    s_score_weights,
    segment_documents,
    tfidf_weights,
)
from bleu_core.tokenize.tokenizers import get_tokenizer

if TYPE_CHECKING:
    from bleu_core.study.model import Study

SCHEMES: tuple[str, ...] = (BASELINE, "tf.idf", "s-score")
MEASURES: tuple[str, ...] = ("precision", "recall", "f")
SCHEME_LABELS = {BASELINE: "baseline", "tf.idf": "tf.idf", "s-score": "S-score"}


def pearson_pairwise(x: Sequence[float], y: Sequence[float]) -> CorrelationResult:
    """Pearson r skipping pairs with a missing value (NaN); NaN when fewer than 3 pairs or a constant side.

    The coefficient, its p-value and ``n`` come from :func:`bleu_core.maths.correlation.correlation`; this function
    only insists that the two lists pair up (one value per system on each side).

    >>> ade = [0.677, 0.710, 0.718, float("nan"), 0.789]      # Table 1, REVERSO is NA
    >>> recall = [0.3363, 0.3146, 0.3332, 0.3643, 0.3759]     # weighted recall, tf.idf, reference run
    >>> r = pearson_pairwise(recall, ade)
    >>> round(r.statistic, 3), r.n                            # printed: 0.7966
    (0.797, 4)
    """
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    if a.shape != b.shape:
        raise BleuOptionError(
            f"correlation needs two equally long lists, got {a.size} and {b.size} values"
        )
    return correlation(a, b, "pearson")


def stability(runs: Mapping[str, Sequence[float]]) -> tuple[dict[str, float], float]:
    """Per-system standard deviation (``ddof=1``) across reference runs, and their average (Table 3).

    Systems with fewer than two defined values get NaN and are left out of the average.
    """
    sds: dict[str, float] = {}
    for system, values in runs.items():
        arr = np.asarray(values, dtype=np.float64)
        arr = arr[~np.isnan(arr)]
        sds[system] = float(np.std(arr, ddof=1)) if arr.size >= 2 else math.nan
    defined = [v for v in sds.values() if not math.isnan(v)]
    return sds, (float(np.mean(defined)) if defined else math.nan)


@dataclass(frozen=True)
class CorrelationRow:
    """Pearson r of one feature (BLEU, or a measure with a scheme and one reference) with one criterion."""

    feature: str
    scheme: str | None
    measure: str | None
    reference: str | None
    criterion: str
    result: CorrelationResult


@dataclass(frozen=True)
class BabychTables:
    """Tables 1-3 of Babych & Hartley (2004) computed on a study (see the module doc)."""

    systems: tuple[str, ...]
    correlated_systems: tuple[str, ...]
    references: tuple[str, ...]
    bleu: dict[str, float]
    scores: dict[tuple[str, str, str], dict[str, float]]
    human: dict[str, dict[str, float]]
    correlations: tuple[CorrelationRow, ...]
    stability: dict[tuple[str, str], dict[str, float]]
    stability_average: dict[tuple[str, str], float]
    notes: tuple[str, ...]


def feature_label(scheme: str, measure: str, reference: str) -> str:
    """Column label, e.g. ``"recall (tf.idf) [ref-A]"``."""
    return f"{measure} ({SCHEME_LABELS[scheme]}) [{reference}]"


def _reference_names(study: Study, references: Sequence[str] | None) -> list[str]:
    """The reference streams to score against (all of the study's by default), checked to exist."""
    ref_names = list(study.references) if references is None else list(references)
    unknown = [r for r in ref_names if r not in study.references]
    if unknown or not ref_names:
        raise BleuOptionError(
            f"unknown reference stream(s) {', '.join(map(repr, unknown)) or '(none given)'}; "
            f"the study has: {', '.join(study.references) or 'no references'}"
        )
    return ref_names


def _system_names(study: Study, systems: Sequence[str] | None, include_human: bool) -> list[str]:
    """The systems to score (the machine systems by default, every system with ``include_human``),
    checked to exist."""
    if systems is None:
        systems = list(study.systems) if include_human else list(study.machine_systems)
    missing = [s for s in systems if s not in study.systems]
    if missing:
        raise BleuOptionError(
            f"unknown system(s) {', '.join(map(repr, missing))}; the study has: {', '.join(study.systems)}"
        )
    return list(systems)


def _reference_weights(
    study: Study, ref_names: Sequence[str], tokenizer: Any, docs: Sequence[Any]
) -> tuple[dict[str, list[list[str] | None]], dict[str, list[Any]]]:
    """Each reference stream's tokens (``None`` where it has no text) and its weight tables, one per
    scheme of :data:`SCHEMES` (``None`` for the unweighted baseline), computed from that stream alone."""
    ref_tokens: dict[str, list[list[str] | None]] = {}
    tables: dict[str, list[Any]] = {}
    for name in ref_names:
        stream = study.references[name]
        toks = tokenizer.tokenize_corpus([t or "" for t in stream])
        ref_tokens[name] = [
            tok if t is not None else None for tok, t in zip(toks, stream, strict=True)
        ]
        present = [i for i, t in enumerate(stream) if t is not None]
        grouped = group_tokens([toks[i] for i in present], [docs[i] for i in present])
        tables[name] = [None, tfidf_weights(grouped), s_score_weights(grouped)]
    return ref_tokens, tables


def _system_bleu(
    study: Study, system: str, keep: Sequence[int], ref_names: Sequence[str], options: BleuOptions
) -> float:
    """BLEU of ``system`` on its translated segments ``keep`` against every reference stream but
    itself (NaN when nothing is left)."""
    other_refs = [r for r in ref_names if r != system]
    if not (other_refs and keep):
        return math.nan
    hyps = study.systems[system]
    return corpus_bleu(
        [hyps[i] or "" for i in keep],  # keep: translated segments
        [[study.references[r][i] for i in keep] for r in other_refs],
        options,
    ).bleu


def _score_system(
    study: Study,
    system: str,
    *,
    ref_names: Sequence[str],
    refs: tuple[dict[str, list[list[str] | None]], dict[str, list[Any]]],
    tokenizer: Any,
    docs: Sequence[Any],
    bleu_opts: BleuOptions,
    max_order: int,
    ngram_rule: str,
    shared: dict[str, dict],
    scores: dict[tuple[str, str, str], dict[str, float]],
) -> float:
    """Fill ``scores`` with the precision, recall and F of ``system`` against each reference stream
    alone, under every scheme, and return its BLEU with all the streams.

    A stream that is the system itself, or shares no segment with it, gives NaN. ``shared`` keeps the
    reference-side work of each stream across systems.
    """
    ref_tokens, tables = refs
    hyps = study.systems[system]
    hyp_toks = tokenizer.tokenize_corpus([h or "" for h in hyps])
    keep = [i for i, h in enumerate(hyps) if h is not None]
    bleu = _system_bleu(study, system, keep, ref_names, bleu_opts)
    for ref in ref_names:
        idx = [i for i in keep if ref_tokens[ref][i] is not None]
        if ref == system or not idx:
            for sc in SCHEMES:
                for m in MEASURES:
                    scores[(sc, m, ref)][system] = math.nan
            continue
        counts = weighted_counts_many(
            [hyp_toks[i] for i in idx],
            [ref_tokens[ref][i] or [] for i in idx],  # idx has the present ones only
            [docs[i] for i in idx],
            tables[ref],
            max_order=max_order,
            ngram_rule=ngram_rule,
            cache=shared[ref],
        )
        for k, sc in enumerate(SCHEMES):
            prf = prf_from_counts(counts[k].sum(axis=0), max_order)
            for m, value in zip(MEASURES, (prf.precision, prf.recall, prf.f), strict=True):
                scores[(sc, m, ref)][system] = float(value)
    return bleu


def _correlation_rows(
    human: dict[str, dict[str, float]],
    correlated: Sequence[str],
    bleu: dict[str, float],
    scores: dict[tuple[str, str, str], dict[str, float]],
) -> list[CorrelationRow]:
    """Pearson r of BLEU and of every scheme/measure/reference score with each human criterion,
    across the ``correlated`` systems (the tables' last rows)."""
    rows: list[CorrelationRow] = []
    for criterion, by_system in human.items():
        h = [by_system.get(s, math.nan) for s in correlated]
        bleu_r = pearson_pairwise([bleu[s] for s in correlated], h)
        rows.append(CorrelationRow("BLEU", None, None, None, criterion, bleu_r))
        for (sc, m, ref), values in scores.items():
            r = pearson_pairwise([values[s] for s in correlated], h)
            rows.append(CorrelationRow(feature_label(sc, m, ref), sc, m, ref, criterion, r))
    return rows


def _stability_tables(
    scores: dict[tuple[str, str, str], dict[str, float]],
    ref_names: Sequence[str],
    systems: Sequence[str],
) -> tuple[dict[tuple[str, str], dict[str, float]], dict[tuple[str, str], float]]:
    """Table 3: per ``(measure, scheme)``, each system's standard deviation across the reference
    runs and their average (:func:`stability`)."""
    stab: dict[tuple[str, str], dict[str, float]] = {}
    stab_avg: dict[tuple[str, str], float] = {}
    for m in MEASURES:
        for sc in SCHEMES:
            runs = {s: [scores[(sc, m, r)][s] for r in ref_names] for s in systems}
            stab[(m, sc)], stab_avg[(m, sc)] = stability(runs)
    return stab, stab_avg


def babych_tables(
    study: Study,
    *,
    references: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    include_human: bool = False,
    options: BleuOptions | None = None,
    ngram_rule: str = "max",
) -> BabychTables:
    """Compute the paper's Tables 1-3 on ``study`` (a :class:`bleu_core.study.Study`).

    The steps: check the references and systems; tokenize each reference stream and compute its
    weights; score every system (BLEU, and weighted P/R/F against each stream alone); correlate
    those scores with the human criteria; measure their stability across the streams. ``options``
    (default :class:`~bleu_core.engine.options.BleuOptions`) set BLEU and, with its tokenizer, case and max
    order, the weighted measures too.
    """
    ref_names = _reference_names(study, references)
    systems = _system_names(study, systems, include_human)
    bleu_opts = options or BleuOptions()
    tokenizer = get_tokenizer(bleu_opts.tokenize, lowercase=bleu_opts.lowercase)
    docs = segment_documents([s.doc_id for s in study.segments], study.n_segments)
    refs = _reference_weights(study, ref_names, tokenizer, docs)

    scores: dict[tuple[str, str, str], dict[str, float]] = {
        (sc, m, r): {} for sc in SCHEMES for m in MEASURES for r in ref_names
    }
    shared: dict[str, dict] = {
        name: {} for name in ref_names
    }  # reference-side work, once per stream
    bleu = {
        system: _score_system(
            study,
            system,
            ref_names=ref_names,
            refs=refs,
            tokenizer=tokenizer,
            docs=docs,
            bleu_opts=bleu_opts,
            max_order=bleu_opts.max_order,
            ngram_rule=ngram_rule,
            shared=shared,
            scores=scores,
        )
        for system in systems
    }

    human = {c: study.system_scores(c) for c in study.criteria}
    correlated = [s for s in systems if include_human or s not in study.human_systems]
    rows = _correlation_rows(human, correlated, bleu, scores)

    notes = []
    stab: dict[tuple[str, str], dict[str, float]] = {}
    stab_avg: dict[tuple[str, str], float] = {}
    if len(ref_names) >= 2:
        stab, stab_avg = _stability_tables(scores, ref_names, systems)
    else:
        notes.append("stability (Table 3) needs at least two reference streams; this study has one")
    if not study.criteria:
        notes.append("the study has no human criteria: no correlations")
    return BabychTables(
        systems=tuple(systems),
        correlated_systems=tuple(correlated),
        references=tuple(ref_names),
        bleu=bleu,
        scores=scores,
        human=human,
        correlations=tuple(rows),
        stability=stab,
        stability_average=stab_avg,
        notes=tuple(notes),
    )
