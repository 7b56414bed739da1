"""A registry of metrics: name → how to score every system of a study, at system and segment level.

Every metric here is computed from **additive per-segment statistics** (BLEU's clipped counts, NIST's
information sums, PER's error counts, sacrebleu's chrF/TER statistics, weighted n-gram counts): a system's
corpus score is a function of the column sums of its rows. So one :class:`MetricScores` object gives the
system scores (``observed()``), the segment scores (``segment``), and the system scores on any resampled test
set (``resampled(counts)`` with an ``M × S`` count matrix), which is what bootstrap confidence intervals need.
It has the same shape as the statistics helper's score sources (``names``, ``n_segments``, ``observed``,
``resampled``), so :func:`bleu_core.stats.meta.system_correlations` accepts it directly.

Conventions:

* **Systems**: all of the study's systems by default. Segments a system did not translate (``None``) have
  zero statistics (so they do not count in its corpus score) and a NaN segment score.
* **References**: multi-reference metrics use every reference stream, except that a system which *is* a
  reference stream (same name) is scored without its own stream. The Babych & Hartley weighted metrics are
  single-reference: they use the first usable stream (``single_reference`` chooses another), with weights from
  that stream and the study's documents.
* **Segment level**: sentence BLEU uses effective order (as sacrebleu's ``sentence_bleu``).

>>> [spec.name for spec in METRICS.values()][:6]
['BLEU', 'chrF', 'chrF++', 'TER', 'NIST', 'PER']
>>> get_metric("bleu").name
'BLEU'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from bleu_core.errors import BleuOptionError
from bleu_core.options import BleuOptions


@dataclass(frozen=True, eq=False)
class MetricScores:
    """One metric's scores for every system of a study.

    ``stats`` is ``(K, S, F)``: additive statistics per system and segment (zeros where missing);
    ``from_stats`` maps statistics of shape ``(..., F)`` to scores of shape ``(...)``.
    """

    metric: str
    names: tuple[str, ...]
    stats: np.ndarray
    from_stats: Callable[[np.ndarray], np.ndarray]
    segment: np.ndarray
    higher_is_better: bool
    description: str = ""
    notes: tuple[str, ...] = ()

    @property
    def n_segments(self) -> int:
        return int(self.stats.shape[1])

    def observed(self) -> np.ndarray:
        """System-level score of every system (``K``); NaN for a system with no scorable segment."""
        sums = self.stats.sum(axis=1)
        scores = np.asarray(self.from_stats(sums), dtype=np.float64)
        return np.where(self.stats.any(axis=(1, 2)), scores, np.nan)

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        """System scores on resampled test sets: ``counts`` is ``M × S``; returns ``M × K``."""
        counts = np.asarray(counts, dtype=np.float64)
        k, n, f = self.stats.shape
        flat = self.stats.transpose(1, 0, 2).reshape(n, k * f)  # S × (K·F): one matrix product
        sums = (counts @ flat).reshape(counts.shape[0], k, f)
        return np.asarray(self.from_stats(sums), dtype=np.float64)

    def system_scores(self) -> dict[str, float]:
        """``{system: score}``."""
        return dict(zip(self.names, self.observed().tolist(), strict=True))


@dataclass(frozen=True)
class MetricSpec:
    """A registered metric: its name, direction, a sentence that explains it, and its family."""

    name: str
    higher_is_better: bool
    description: str
    family: str
    measure: str = ""


def _weighted_specs() -> list[MetricSpec]:
    out = []
    for scheme, label in (("tf.idf", "tf.idf"), ("s-score", "S-score"), ("none", "unweighted")):
        for measure in ("precision", "recall", "f"):
            name = f"{'F' if measure == 'f' else measure} ({label})"
            weighted = "weighted by " + label if scheme != "none" else "unweighted"
            out.append(
                MetricSpec(
                    name,
                    True,
                    f"Babych & Hartley 2004: n-gram {measure if measure != 'f' else 'F-score'} (1-4 grams, "
                    f"{weighted}) against one reference",
                    f"weighted:{scheme}",
                    measure,
                )
            )
    return out


METRICS: dict[str, MetricSpec] = {
    spec.name: spec
    for spec in [
        MetricSpec(
            "BLEU", True, "sacrebleu's BLEU (13a, closest reference length, exp smoothing)", "bleu"
        ),
        MetricSpec(
            "chrF", True, "character 6-gram F-score, recall weighted 2x (sacrebleu)", "chrf"
        ),
        MetricSpec("chrF++", True, "chrF plus word 1-2 grams (sacrebleu)", "chrf++"),
        MetricSpec(
            "TER", False, "edits incl. phrase shifts per reference word, x100 (sacrebleu)", "ter"
        ),
        MetricSpec(
            "NIST",
            True,
            "information-weighted n-gram co-occurrence, 1-5 grams (Doddington 2002)",
            "nist",
        ),
        MetricSpec("PER", False, "position-independent word error rate (bag of words)", "per"),
        *_weighted_specs(),
    ]
}
DEFAULT_METRICS: tuple[str, ...] = (
    "BLEU",
    "chrF",
    "TER",
    "NIST",
    "PER",
    "recall (tf.idf)",
    "recall (S-score)",
    "F (tf.idf)",
)


def metric_names() -> list[str]:
    """Every registered metric name."""
    return list(METRICS)


def get_metric(name: str) -> MetricSpec:
    """A metric by name (case-insensitive); the error lists the valid names."""
    for key, spec in METRICS.items():
        if key.lower() == name.lower():
            return spec
    raise BleuOptionError(f"unknown metric {name!r}; choose one of: {', '.join(METRICS)}")


def metric_inputs_key(
    metric: str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    single_reference: str | None = None,
) -> tuple[object, ...]:
    """The settings ``metric``'s scores depend on, and only those: a cache key to pair with the study's.

    chrF, chrF++ and TER never use the word tokenizer, so changing BLEU's tokenizer keeps their key (and
    their cached scores); only the Babych & Hartley metrics depend on ``single_reference``.

    >>> metric_inputs_key("chrF", tokenize="13a") == metric_inputs_key("chrF", tokenize="intl")
    True
    >>> metric_inputs_key("BLEU", tokenize="13a") == metric_inputs_key("BLEU", tokenize="intl")
    False
    """
    spec = get_metric(metric)
    if spec.family in ("chrf", "chrf++", "ter"):
        return (spec.name, lowercase)
    if spec.family.startswith("weighted:"):
        return (spec.name, tokenize, lowercase, single_reference)
    return (spec.name, tokenize, lowercase)


@dataclass
class _Context:
    study: Any
    systems: list[str]
    tokenize: str
    lowercase: bool
    single_reference: str | None
    cache: dict[str, Any] = field(default_factory=dict)
    ter_cache_dir: Any = None
    progress: Callable[[int, int, str], None] | None = None

    def refs_for(self, system: str) -> list[str]:
        return [r for r in self.study.references if r != system]

    def report(self, done: int, total: int, message: str) -> None:
        """Tell the caller's ``progress`` how far a metric has got (nothing without one)."""
        if self.progress is not None:
            self.progress(done, total, message)

    def present(self, system: str) -> list[int]:
        return [i for i, h in enumerate(self.study.systems[system]) if h is not None]

    def tokens(self, kind: str, name: str) -> list[list[str]]:
        """Tokens of every segment of a system (``kind="system"``) or reference stream (``"reference"``),
        under the word tokenizer; tokenised once per scoring run and shared by NIST, PER and weighted."""
        key = ("tokens", kind, name)
        if key not in self.cache:
            from bleu_core.tokenizers import get_tokenizer

            texts = (self.study.systems if kind == "system" else self.study.references)[name]
            tokenizer = get_tokenizer(self.tokenize, lowercase=self.lowercase)
            self.cache[key] = tokenizer.tokenize_corpus([t or "" for t in texts])
        return self.cache[key]

    def token_inputs(
        self, system: str, idx: Sequence[int]
    ) -> tuple[list[list[str]], list[list[list[str]]]]:
        """(hypothesis tokens, tokens of each segment's references) for segments ``idx`` of ``system``."""
        hyp = self.tokens("system", system)
        streams = [
            (self.study.references[r], self.tokens("reference", r)) for r in self.refs_for(system)
        ]
        refs = [[toks[i] for texts, toks in streams if texts[i] is not None] for i in idx]
        return [hyp[i] for i in idx], refs


def _assemble(
    ctx: _Context,
    spec: MetricSpec,
    per_system: dict[str, tuple[list[int], np.ndarray, np.ndarray]],
    n_features: int,
    from_stats: Callable[[np.ndarray], np.ndarray],
    notes: Sequence[str] = (),
) -> MetricScores:
    n = ctx.study.n_segments
    stats = np.zeros((len(ctx.systems), n, n_features))
    segment = np.full((len(ctx.systems), n), np.nan)
    for k, system in enumerate(ctx.systems):
        if system not in per_system:
            continue
        idx, rows, seg = per_system[system]
        stats[k, idx] = rows
        segment[k, idx] = seg
    return MetricScores(
        spec.name,
        tuple(ctx.systems),
        stats,
        from_stats,
        segment,
        spec.higher_is_better,
        spec.description,
        tuple(notes),
    )


def _inputs(
    ctx: _Context, system: str
) -> tuple[list[int], list[str], list[list[str | None]]] | None:
    refs = ctx.refs_for(system)
    idx = ctx.present(system)
    if not refs:
        return None
    streams = [[ctx.study.references[r][i] for i in idx] for r in refs]
    idx_kept = [j for j in range(len(idx)) if any(s[j] is not None for s in streams)]
    idx = [idx[j] for j in idx_kept]
    if not idx:
        return None
    hyps = [ctx.study.systems[system][i] for i in idx]
    return idx, hyps, [[s[j] for j in idx_kept] for s in streams]


# Statistics -> score functions live at module level (with functools.partial) so MetricScores pickle,
# which Streamlit's cache_data and multiprocessing need.


def _bleu_from_stats(stats: np.ndarray, options: BleuOptions) -> np.ndarray:
    from bleu_core.score import bleu_from_stats

    return np.asarray(bleu_from_stats(stats, options).score, dtype=np.float64)


def _chrf_from_stats(stats: np.ndarray, metric: Any) -> np.ndarray:
    """sacrebleu's ``CHRF._compute_f_score`` on rows of any leading shape (kept for callers passing a
    sacrebleu ``CHRF``): :func:`bleu_core.metrics.chrf.chrf_from_stats`."""
    from bleu_core.metrics.chrf import ChrfOptions, chrf_from_stats

    options = ChrfOptions(
        char_order=metric.char_order,
        word_order=metric.word_order,
        beta=metric.beta,
        eps_smoothing=metric.eps_smoothing,
    )
    return chrf_from_stats(stats, options)


def _per_from_stats(stats: np.ndarray) -> np.ndarray:
    s = np.asarray(stats, dtype=np.float64)
    err, ref = s[..., 0], s[..., 1]
    rate = np.divide(err, ref, out=np.zeros_like(err), where=ref > 0)
    return np.where(ref > 0, rate, np.where(err > 0, 1.0, 0.0))


def _weighted_from_stats(stats: np.ndarray, measure: str) -> np.ndarray:
    from bleu_core.metrics.weighted import prf_from_counts

    prf = prf_from_counts(stats, 4)
    return {"precision": prf.precision, "recall": prf.recall, "f": prf.f}[measure]


def _bleu(ctx: _Context, spec: MetricSpec) -> MetricScores:
    """BLEU statistics of all systems that share the same reference streams in one batched pass
    (:func:`~bleu_core.statistics.compute_system_statistics`: the references are tokenised once)."""
    from bleu_core.score import bleu_from_stats
    from bleu_core.statistics import compute_statistics, compute_system_statistics

    options = BleuOptions(tokenize=ctx.tokenize, lowercase=ctx.lowercase)
    sentence = options.with_(effective_order=True)
    per_system = {}
    width = 4 + 2 * options.max_order
    groups: dict[tuple[str, ...], list[str]] = {}
    for system in ctx.systems:
        groups.setdefault(tuple(ctx.refs_for(system)), []).append(system)
    for refs, members in groups.items():
        streams = [ctx.study.references[r] for r in refs]
        if streams and all(any(t is not None for t in seg) for seg in zip(*streams, strict=True)):
            batch = compute_system_statistics(
                {s: ctx.study.systems[s] for s in members},
                streams,
                max_order=options.max_order,
                tokenize=ctx.tokenize,
                lowercase=ctx.lowercase,
            )
            for system in members:
                idx = ctx.present(system)
                if idx:
                    rows = batch[system].array[idx]
                    per_system[system] = (
                        idx,
                        rows,
                        np.asarray(bleu_from_stats(rows, sentence).score),
                    )
            continue
        for (
            system
        ) in members:  # some segment lacks every reference: score the usable segments alone
            got = _inputs(ctx, system)
            if got is None:
                continue
            idx, hyps, refs_ = got
            st = compute_statistics(
                hyps,
                refs_,
                max_order=options.max_order,
                tokenize=ctx.tokenize,
                lowercase=ctx.lowercase,
            )
            per_system[system] = (
                idx,
                st.array,
                np.asarray(bleu_from_stats(st.array, sentence).score),
            )
    return _assemble(ctx, spec, per_system, width, partial(_bleu_from_stats, options=options))


def bleu_scores_from_statistics(
    names: Sequence[str],
    stats: np.ndarray,
    present: np.ndarray,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> MetricScores:
    """BLEU as :func:`score_study` gives it, from statistics counted elsewhere (the app's shared ones,
    counted once per setting for every page) instead of counting again.

    ``stats`` is ``(K, S, F)``: every system's statistics against all the study's reference streams, with
    BLEU's default options but ``tokenize``/``lowercase`` (order 4: ``F = 12``); ``present`` (``K × S``)
    is where a system has a translation. Rows without one count nothing (zeros) and have no sentence
    score (NaN), as in :func:`score_study`; the caller checks that every segment has a reference text
    (otherwise :func:`score_study` scores the usable segments alone).

    >>> from bleu_core.statistics import compute_statistics
    >>> rows = compute_statistics(["the cat", "a dog"], [["the cat", "a dog barks"]]).array
    >>> m = bleu_scores_from_statistics(["A"], rows[None], np.array([[True, False]]))
    >>> m.stats[0, 1].tolist() == [0.0] * 12, bool(np.isnan(m.segment[0, 1])), round(float(m.segment[0, 0]), 1)
    (True, True, 100.0)
    """
    options = BleuOptions(tokenize=tokenize, lowercase=lowercase)
    from bleu_core.score import bleu_from_stats

    present = np.asarray(present, dtype=bool)
    table = np.where(present[..., None], np.asarray(stats, dtype=np.float64), 0.0)
    sentence = np.asarray(
        bleu_from_stats(table, options.with_(effective_order=True)).score, dtype=np.float64
    )
    spec = get_metric("BLEU")
    return MetricScores(
        spec.name,
        tuple(names),
        table,
        partial(_bleu_from_stats, options=options),
        np.where(present, sentence, np.nan),
        spec.higher_is_better,
        spec.description,
    )


def _usable_references(ctx: _Context) -> np.ndarray:
    """``K × R``: which reference streams each system is scored against (not its own stream)."""
    refs = list(ctx.study.references)
    return np.array([[r != system for r in refs] for system in ctx.systems], dtype=bool).reshape(
        len(ctx.systems), len(refs)
    )


def chrf_options(metric: str, *, lowercase: bool = False) -> Any:
    """The :class:`~bleu_core.metrics.chrf.ChrfOptions` the registry scores ``"chrF"``/``"chrF++"`` with.

    >>> chrf_options("chrF++").word_order
    2
    """
    from bleu_core.metrics.chrf import ChrfOptions

    family = get_metric(metric).family
    if family not in ("chrf", "chrf++"):
        raise BleuOptionError(f"{metric!r} is not a chrF metric")
    return ChrfOptions(word_order=2 if family == "chrf++" else 0, lowercase=lowercase)


def _chrf(ctx: _Context, spec: MetricSpec) -> MetricScores:
    """chrF/chrF++ from additive statistics computed for all systems at once
    (:mod:`bleu_core.metrics.chrf`); with several references, each segment keeps the statistics of the
    reference with the best sentence chrF, as sacrebleu."""
    from bleu_core.metrics.chrf import chrf_from_stats, chrf_statistics_table

    options = chrf_options(spec.name, lowercase=ctx.lowercase)
    table = chrf_statistics_table(
        [ctx.study.systems[s] for s in ctx.systems],
        list(ctx.study.references.values()),
        options,
        usable=_usable_references(ctx),
        progress=ctx.progress,
    )
    notes = []
    if len(ctx.study.references) > 1:
        notes.append(
            "several references: each segment keeps the statistics of the reference with the best "
            "sentence chrF (as sacrebleu)"
        )
    return MetricScores(
        spec.name,
        tuple(ctx.systems),
        table.stats,
        partial(chrf_from_stats, options=options),
        table.sentence(),
        spec.higher_is_better,
        spec.description,
        tuple(notes),
    )


def _ter(ctx: _Context, spec: MetricSpec) -> MetricScores:
    """sacrebleu's TER per segment (:mod:`bleu_core.metrics.ter`), read from ``ctx.ter_cache_dir`` when it
    was computed before."""
    from bleu_core.metrics.ter import TerOptions, ter_from_stats, ter_statistics_table

    table = ter_statistics_table(
        {s: ctx.study.systems[s] for s in ctx.systems},
        ctx.study.references,
        TerOptions(case_sensitive=not ctx.lowercase),
        cache_dir=ctx.ter_cache_dir,
        progress=ctx.progress,
    )
    return MetricScores(
        spec.name,
        tuple(ctx.systems),
        table.stats,
        ter_from_stats,
        table.sentence(),
        spec.higher_is_better,
        spec.description,
    )


def _nist(ctx: _Context, spec: MetricSpec) -> MetricScores:
    """NIST statistics, vectorised (:mod:`bleu_core.metrics.nist_statistics`): the references' n-grams,
    information weights and clipping limits are computed once per (reference streams, segments) and shared
    by every system scored against them; one tokenizer numbers the tokens of all."""
    from bleu_core.fast.batch_tokenizers import BatchTokenizer
    from bleu_core.metrics.nist import DEFAULT_NIST_ORDER, nist_from_stats
    from bleu_core.metrics.nist_statistics import (
        hypothesis_statistics_from_text,
        reference_ngrams_from_text,
    )

    per_system = {}
    tokenizer = BatchTokenizer(ctx.tokenize, ctx.lowercase)
    references: dict[tuple, Any] = {}  # reference n-grams per (reference streams, segments)
    for k, system in enumerate(ctx.systems):
        ctx.report(k, len(ctx.systems), f"NIST: system {k + 1} of {len(ctx.systems)} ({system})")
        got = _inputs(ctx, system)
        if got is None:
            continue
        idx, hyps, streams = got
        key = (tuple(ctx.refs_for(system)), tuple(idx))
        if key not in references:
            references[key] = reference_ngrams_from_text(tokenizer, streams, DEFAULT_NIST_ORDER)
        stats = hypothesis_statistics_from_text(references[key], tokenizer, hyps).stats
        per_system[system] = (idx, stats, nist_from_stats(stats, DEFAULT_NIST_ORDER))
    notes = ["information weights come from the references of the segments each system translated"]
    return _assemble(
        ctx,
        spec,
        per_system,
        2 + 2 * DEFAULT_NIST_ORDER,
        partial(nist_from_stats, max_order=DEFAULT_NIST_ORDER),
        notes,
    )


def _per_step(
    report: Callable[[int, int, str], None],
    step: int,
    steps: int,
    what: str,
    done: int,
    total: int,
    _message: str,
) -> None:
    """Progress within one of ``steps`` reference streams, as progress over all of them."""
    report(step * max(total, 1) + done, steps * max(total, 1), what)


def _per(ctx: _Context, spec: MetricSpec) -> MetricScores:
    """PER (:mod:`bleu_core.metrics.per`) from one batched unigram count per reference stream.

    A segment's ``correct`` words against one reference are BLEU's clipped unigram matches with that single
    reference, so :func:`~bleu_core.statistics.compute_system_statistics` (``max_order=1``) gives them for all
    systems at once, each text tokenised once; per segment the reference with the lowest PER wins (ties: the
    first), as :func:`~bleu_core.metrics.per.segment_per` does (tests/metrics/test_metrics_registry.py compares them)."""
    from bleu_core.statistics import compute_system_statistics

    per_system: dict[str, tuple[list[int], np.ndarray, np.ndarray]] = {}
    inputs = {system: _inputs(ctx, system) for system in ctx.systems}
    groups: dict[tuple[str, ...], list[str]] = {}
    for system, got in inputs.items():
        if got is not None:
            groups.setdefault(tuple(ctx.refs_for(system)), []).append(system)
    for refs, members in groups.items():
        hyps = {system: [t or "" for t in ctx.study.systems[system]] for system in members}
        per_ref = []
        for r, ref in enumerate(refs):
            texts = ctx.study.references[ref]
            what = f"PER: {len(members)} systems against reference {ref} ({r + 1} of {len(refs)})"
            ctx.report(r, len(refs), what)
            counted = compute_system_statistics(
                hyps,
                [[t or "" for t in texts]],
                max_order=1,
                tokenize=ctx.tokenize,
                lowercase=ctx.lowercase,
                progress=None
                if ctx.progress is None
                else partial(_per_step, ctx.report, r, len(refs), what),
            )
            per_ref.append((counted, np.array([t is None for t in texts])))
        for system in members:
            idx = inputs[system][0]  # type: ignore[index]
            errors, lengths, rates = [], [], []
            for counted, missing in per_ref:
                a = counted[system].array
                hyp_len, ref_len, correct = a[:, 0], a[:, 1], a[:, 4]
                err = ref_len - correct + np.maximum(0.0, hyp_len - ref_len)
                rate = _per_from_stats(np.stack([err, ref_len], axis=1))
                errors.append(err)
                lengths.append(ref_len)
                rates.append(np.where(missing, np.inf, rate))
            best = np.argmin(np.stack(rates), axis=0)  # the first of equal rates, as min() does
            cols = np.arange(best.size)
            stats = np.stack([np.stack(errors)[best, cols], np.stack(lengths)[best, cols]], axis=1)[
                idx
            ]
            per_system[system] = (list(idx), stats, _per_from_stats(stats))
    return _assemble(ctx, spec, per_system, 2, _per_from_stats)


def _weighted_counts(ctx: _Context) -> tuple[str, dict[str, tuple[list[int], np.ndarray]]]:
    if "weighted" in ctx.cache:
        return ctx.cache["weighted"]
    from bleu_core.metrics.weighted import weighted_counts_many
    from bleu_core.metrics.weighting import (
        group_tokens,
        s_score_weights,
        segment_documents,
        tfidf_weights,
    )

    study = ctx.study
    if ctx.single_reference is not None:
        if ctx.single_reference not in study.references:
            raise BleuOptionError(
                f"unknown reference stream {ctx.single_reference!r}; the study has: {', '.join(study.references)}"
            )
        ref_name = ctx.single_reference
    else:
        ref_name = next(iter(study.references))
    stream = study.references[ref_name]
    ref_toks = ctx.tokens("reference", ref_name)
    docs = segment_documents([s.doc_id for s in study.segments], study.n_segments)
    present = [i for i, t in enumerate(stream) if t is not None]
    grouped = group_tokens([ref_toks[i] for i in present], [docs[i] for i in present])
    tables = [tfidf_weights(grouped), s_score_weights(grouped), None]
    out = {}
    shared: dict = {}  # reference-side n-grams and weights, computed once for all systems
    for system in ctx.systems:
        if system == ref_name:
            continue
        hyps = study.systems[system]
        idx = [i for i in present if hyps[i] is not None]
        if not idx:
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


def _weighted(ctx: _Context, spec: MetricSpec) -> MetricScores:
    scheme = spec.family.split(":", 1)[1]
    k = {"tf.idf": 0, "s-score": 1, "none": 2}[scheme]
    ref_name, counts = _weighted_counts(ctx)
    from_stats = partial(_weighted_from_stats, measure=spec.measure)
    per_system = {system: (idx, c[k], from_stats(c[k])) for system, (idx, c) in counts.items()}
    notes = [f"single reference: {ref_name}"]
    return _assemble(ctx, spec, per_system, 12, from_stats, notes)


def _compute(ctx: _Context, spec: MetricSpec) -> MetricScores:
    family = spec.family
    if family == "bleu":
        return _bleu(ctx, spec)
    if family in ("chrf", "chrf++"):
        return _chrf(ctx, spec)
    if family == "ter":
        return _ter(ctx, spec)
    if family == "nist":
        return _nist(ctx, spec)
    if family == "per":
        return _per(ctx, spec)
    return _weighted(ctx, spec)


def score_study(
    study: Any,
    metrics: Sequence[str] = DEFAULT_METRICS,
    *,
    systems: Sequence[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    single_reference: str | None = None,
    ter_cache_dir: Any = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, MetricScores]:
    """Score every system of ``study`` with each metric in ``metrics`` (registry names).

    ``tokenize``/``lowercase`` apply to the word-based metrics (BLEU, NIST, PER, weighted); chrF and TER use
    sacrebleu's own processing (``lowercase`` maps to their case options; ``tokenize`` does not affect them,
    see :func:`metric_inputs_key`). ``ter_cache_dir`` keeps TER's per-segment statistics on disk
    (:func:`bleu_core.metrics.ter.ter_statistics_table`); ``progress(done, total, message)`` is told how far
    TER, chrF (chunk by chunk), NIST (system by system) and PER (reference by reference) have got.
    """
    specs = [get_metric(m) for m in metrics]
    chosen = list(study.systems) if systems is None else list(systems)
    unknown = [s for s in chosen if s not in study.systems]
    if unknown:
        raise BleuOptionError(
            f"unknown system(s) {', '.join(map(repr, unknown))}; the study has: {', '.join(study.systems)}"
        )
    if not study.references:
        raise BleuOptionError(
            "the study has no reference translations: reference-based metrics need one"
        )
    ctx = _Context(
        study, chosen, tokenize, lowercase, single_reference, ter_cache_dir=ter_cache_dir,
        progress=progress,
    )  # fmt: skip
    return {spec.name: _compute(ctx, spec) for spec in specs}
