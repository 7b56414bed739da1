"""chrF and chrF++ from additive per-segment statistics, like BLEU.

chrF (Popović 2015) compares character n-grams (n = 1..6) of a hypothesis and a reference; chrF++ (Popović
2017) adds word 1-2 grams. For every order the statistics of a segment are three counts: hypothesis n-grams,
reference n-grams and matches (clipped: an n-gram matches at most as often as the reference has it). They
**add up** over segments, so a corpus score, a sentence score and a score on a resampled test set are all the
same pure function of a row of summed statistics: :func:`chrf_from_stats` (sacrebleu's
``CHRF._compute_f_score``, vectorised, bit-identical).

The statistics are computed once, for every system of a study at the same time
(:func:`chrf_statistics_table`). The texts of a chunk of segments become one array of code points
(:func:`~bleu_core.metrics.chrf_units.char_units`; the kernel leaves whitespace out itself, the pure path gets it removed) and, for chrF++, one
array of word ids (:class:`~bleu_core.metrics.chrf_units.WordUnits`: numbered by :mod:`bleu_core.fast.word_index`, each distinct word split
once). The clipped matches are then counted

* by a compiled kernel (``chrf_matches`` in ``bleu_core/fast/_kernels.c``, the default when built; see
  :mod:`bleu_core.fast.compiled`): per segment, the reference n-grams form a trie in a hash table keyed by
  ``(parent n-gram, last unit)`` — compared whole, so exact — and each hypothesis is read once, unit by unit,
  as by an Aho-Corasick automaton; about 25 ns a character, without the GIL;
* or by its numpy path :func:`_match_counts` (``BLEU_STUDY_PURE=1``): every n-gram of every segment gets an
  exact integer id by ranking ``(id of its first n-1 characters, last character)`` pairs, and the counts come
  from one sort per order. Only n-grams whose prefix occurs in both a hypothesis and a reference of the same
  segment are carried to the next order, which makes the higher orders cheap.

Both give the same statistics, float for float (``tests/metrics/test_metrics_chrf_compiled.py``).

**Multiple references** (as sacrebleu does): for each segment, the hypothesis is compared with every
reference and the statistics of the reference with the best *sentence* chrF are kept (the first one on ties).
That choice is not additive — it is made once per segment, and the corpus score sums the chosen rows
(``ChrfTable.reference`` records which reference was chosen). A corpus chrF against two references is therefore
not a function of the two single-reference corpus statistics.

Whitespace is handled as in sacrebleu: by default it is removed before character n-grams are taken
(``"a b"`` and ``"ab"`` have the same character n-grams); words for chrF++ are whitespace-split, with one
punctuation character split off the end (or else the start) of each word.

>>> hyps = ["The cat sat on the mat.", "It rained."]
>>> refs = [["The cat is on the mat.", "It was raining."]]
>>> table = chrf_statistics_table([hyps], refs)
>>> table.stats.shape          # 1 system x 2 segments x (3 counts x 6 orders)
(1, 2, 18)
>>> round(float(table.corpus()[0]), 4)     # sacrebleu.corpus_chrf(hyps, refs).score
48.7814
>>> plus = chrf_statistics_table([hyps], refs, ChrfOptions(word_order=2))
>>> round(float(plus.corpus()[0]), 4)      # sacrebleu.corpus_chrf(hyps, refs, word_order=2).score
51.528
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from bleu_core.errors import BleuOptionError
from bleu_core.fast.compiled import use_compiled
from bleu_core.metrics.base import MetricSpec, MetricStatistics, ScoringContext
from bleu_core.metrics.chrf_units import SPACE, WordUnits, char_units

_INT64_LIMIT = 2**62


@dataclass(frozen=True)
class ChrfOptions:
    """sacrebleu's ``CHRF`` parameters (same names, same defaults): chrF is the default, chrF++ is
    ``word_order=2``.

    >>> ChrfOptions(word_order=2).order, ChrfOptions().n_features
    (8, 18)
    >>> ChrfOptions(beta=0)
    Traceback (most recent call last):
    ...
    bleu_core.errors.BleuOptionError: chrF beta must be a positive integer, got 0
    """

    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        for name in ("char_order", "word_order", "beta"):
            value = getattr(self, name)
            low = 1 if name != "word_order" else 0
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                kind = "a positive integer" if low else "an integer >= 0"
                raise BleuOptionError(
                    f"chrF {name.replace('_', ' ')} must be {kind}, got {value!r}"
                )

    @property
    def order(self) -> int:
        """Character orders plus word orders."""
        return self.char_order + self.word_order

    @property
    def n_features(self) -> int:
        """Width of a statistics row: ``(hypothesis, reference, match)`` counts for every order."""
        return 3 * self.order

    @property
    def name(self) -> str:
        """``chrF2`` / ``chrF2++`` as sacrebleu names it."""
        return f"chrF{self.beta}" + "+" * self.word_order

    def key(self) -> tuple[object, ...]:
        """Everything the statistics depend on: the cache key of chrF's options (BLEU's tokenizer is not
        in it: chrF never tokenizes)."""
        return ("chrF", self.char_order, self.word_order, self.beta, self.lowercase, self.whitespace,
                self.eps_smoothing)  # fmt: skip


def chrf_from_stats(stats: np.ndarray, options: ChrfOptions | None = None) -> np.ndarray:
    """chrF (0-100) of statistics rows of any leading shape ``(..., 3 * order)``.

    Pure and vectorised: the same floating-point operations in the same order as sacrebleu's
    ``CHRF._compute_f_score`` (orders summed one after the other), so the scores equal sacrebleu's bit for bit.
    Use it on one segment's row (sentence chrF), on column sums (corpus chrF) or on ``counts @ rows``
    (bootstrap resamples).

    >>> row = np.array([5, 5, 4] * 6, dtype=float)        # 4 of 5 n-grams match at every order
    >>> float(chrf_from_stats(row))
    80.0
    >>> chrf_from_stats(np.zeros((2, 18))).tolist()        # nothing to compare: 0, like sacrebleu
    [0.0, 0.0]
    """
    options = options or ChrfOptions()
    s = np.asarray(stats, dtype=np.float64)
    if s.shape[-1] != options.n_features:
        raise BleuOptionError(
            f"chrF statistics need {options.n_features} columns (3 per order, {options.order} orders), "
            f"got {s.shape[-1]}"
        )
    eps = 1e-16
    factor = options.beta**2
    shape = s.shape[:-1]
    score = np.zeros(shape)
    avg_prec = np.zeros(shape)
    avg_rec = np.zeros(shape)
    effective = np.zeros(shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(options.order):
            n_hyp, n_ref, n_match = s[..., 3 * i], s[..., 3 * i + 1], s[..., 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / n_hyp, eps)
            rec = np.where(n_ref > 0, n_match / n_ref, eps)
            denom = factor * prec + rec
            score = score + np.where(denom > 0, (1 + factor) * prec * rec / denom, eps)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = avg_prec + np.where(both, prec, 0.0)
            avg_rec = avg_rec + np.where(both, rec, 0.0)
            effective = effective + both
        if options.eps_smoothing:
            return 100 * score / options.order
        avg_prec = np.where(effective > 0, avg_prec / effective, 0.0)
        avg_rec = np.where(effective > 0, avg_rec / effective, 0.0)
        total = avg_prec + avg_rec
        f = (1 + factor) * avg_prec * avg_rec
        f = f / (factor * avg_prec + avg_rec)
        return np.where(total != 0, 100 * f, 0.0)


@dataclass(frozen=True, eq=False)
class ChrfTable:
    """chrF statistics of ``K`` systems on ``S`` segments.

    ``stats`` is ``(K, S, 3 * order)``, columns ``[hyp, ref, match]`` for character orders 1..``char_order``
    then word orders 1..``word_order``; zeros where a system has no output or a segment no usable reference.
    ``reference`` is ``(K, S)``: the index of the reference stream whose statistics were kept (the best
    sentence chrF, first on ties, as sacrebleu), ``-1`` where the row is zeros.
    """

    stats: np.ndarray
    reference: np.ndarray
    options: ChrfOptions

    def corpus(self) -> np.ndarray:
        """Corpus chrF of every system (``K``)."""
        return chrf_from_stats(self.stats.sum(axis=1), self.options)

    def sentence(self) -> np.ndarray:
        """Sentence chrF of every system and segment (``K × S``); NaN where there is no statistic row."""
        return np.where(self.reference >= 0, chrf_from_stats(self.stats, self.options), np.nan)

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        """Corpus chrF on resampled test sets: ``counts`` is ``M × S`` (how often each segment is drawn);
        returns ``M × K``."""
        counts = np.asarray(counts, dtype=np.float64)
        k, n, f = self.stats.shape
        sums = (counts @ self.stats.transpose(1, 0, 2).reshape(n, k * f)).reshape(-1, k, f)
        return chrf_from_stats(sums, self.options)


def _compiled_match_counts(
    units: np.ndarray,
    lengths: np.ndarray,
    present: np.ndarray,
    n_hyp_sides: int,
    n_ref_sides: int,
    max_order: int,
    skip: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_match_counts` in compiled code (:func:`bleu_core.fast.native.chrf_matches`): the same
    ``(K, R, S, max_order)`` clipped matches, and each document's length once the units ``skip`` marks
    (whitespace) are left out (0 where the document is missing).

    ``lengths`` are the documents' lengths in ``units`` (side-major: document ``side * S + segment``),
    ``present`` says which documents exist.
    """
    from bleu_core.fast import native

    starts = np.cumsum(lengths) - lengths
    matches, kept = native.chrf_matches(
        units, starts, np.where(present, lengths, 0), n_hyp_sides, n_ref_sides, max_order, skip
    )
    return matches, kept


def _match_counts(
    units: np.ndarray,
    lengths: np.ndarray,
    doc_seg: np.ndarray,
    doc_side: np.ndarray,
    n_hyp_sides: int,
    n_ref_sides: int,
    n_segments: int,
    max_order: int,
) -> np.ndarray:
    """Clipped matches ``(K, R, S, max_order)`` between every hypothesis document (side ``< K``) and every
    reference document (side ``K + r``) of the same segment.

    ``units`` are the concatenated unit ids (code points or word ids) of all documents, ``lengths`` their
    lengths. Order ``n`` n-grams are identified by the rank of ``(id of the (n-1)-gram prefix, last unit)``
    where the order-0 prefix is the segment, so an id means "this n-gram in this segment". One sort per order
    of ``id * P + side`` (``P`` = number of sides) gives, for every n-gram, its count on every side
    (:func:`_side_runs`), hence the clipped matches (:func:`_clipped_matches`). Only the n-grams found on both
    a hypothesis and a reference side of their segment are carried on to the next order.
    """
    k_sides, r_sides, p = n_hyp_sides, n_ref_sides, n_hyp_sides + n_ref_sides
    out = np.zeros((k_sides, r_sides, n_segments, max_order))
    if units.size == 0 or r_sides == 0:
        return out
    text, sep, alive, side, prefix = _joined_units(units, lengths, doc_seg, doc_side)
    width = sep + 1
    prefix_seg = np.arange(n_segments)  # segment of each prefix id
    for n in range(1, max_order + 1):
        last = text[alive + (n - 1)]
        if n > 1:  # an n-gram that reaches a separator crosses into the next document: dropped
            ok = last != sep
            alive, prefix, side, last = alive[ok], prefix[ok], side[ok], last[ok]
        if alive.size == 0:
            break
        bound = prefix_seg.size * width * p
        if bound >= _INT64_LIMIT:  # pragma: no cover - needs ~10^10 positions
            raise BleuOptionError("chrF: too much text in one chunk; use a smaller chunk_positions")
        order, sorted_keys = _sort_with_order((prefix * width + last) * p + side, bound)
        runs = _side_runs(sorted_keys, p, k_sides, width, prefix_seg, r_sides)
        out[..., n - 1] = _clipped_matches(runs, k_sides, n_segments)
        if n == max_order:
            break
        # carry on only the n-grams found on both sides: the others cannot grow into a match
        n_groups = runs.ref_count.shape[1]
        on_hyp = np.bincount(runs.group[runs.side < k_sides], minlength=n_groups) > 0
        keep = (runs.ref_count.sum(axis=0) > 0) & on_hyp
        group_sorted = np.repeat(runs.group, runs.count)
        mask = keep[group_sorted]
        alive = alive[order[mask]]
        prefix = group_sorted[mask]
        side = np.repeat(runs.side, runs.count)[mask]
        prefix_seg = runs.group_seg
    return out


def _joined_units(
    units: np.ndarray, lengths: np.ndarray, doc_seg: np.ndarray, doc_side: np.ndarray
) -> tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
    """``(text, sep, positions, side, prefix)``: the documents one after the other as *dense* unit ids (fewer
    key bits, so the cheap packed sort applies), each followed by the separator id ``sep`` (one more than the
    largest); then, for every unit, its position in ``text``, its document's side and its order-0 prefix
    (the "empty n-gram" of its segment)."""
    seen = np.zeros(int(units.max()) + 1, dtype=bool)
    seen[units] = True
    dense = np.cumsum(seen) - 1
    sep = int(seen.sum())
    ends = np.cumsum(lengths + 1) - 1
    text = np.empty(units.size + lengths.size, dtype=np.int64)
    is_unit = np.ones(text.size, dtype=bool)
    is_unit[ends] = False
    text[is_unit] = dense[units]
    text[ends] = sep
    side = np.repeat(doc_side.astype(np.int64), lengths)
    prefix = np.repeat(doc_seg.astype(np.int64), lengths)
    return text, sep, np.flatnonzero(is_unit), side, prefix


@dataclass(frozen=True)
class _Runs:
    """One order's sorted keys ``(n-gram * P + side)`` as runs of equal keys: each run is one n-gram on one
    side. ``count``, ``side`` and ``group`` (the n-gram's number, ``0 ..``) are per run; ``group_seg`` is
    the segment of each n-gram, ``ref_count`` (``R × n-grams``) its count on each reference side."""

    count: np.ndarray
    side: np.ndarray
    group: np.ndarray
    group_seg: np.ndarray
    ref_count: np.ndarray


def _side_runs(
    sorted_keys: np.ndarray,
    p: int,
    k_sides: int,
    width: int,
    prefix_seg: np.ndarray,
    r_sides: int,
) -> _Runs:
    """The runs of ``sorted_keys`` (see :class:`_Runs`); ``width`` is the number of unit ids + 1."""
    run_start = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    run_count = np.diff(np.r_[run_start, sorted_keys.size])
    run_key = sorted_keys[run_start]
    run_side = run_key % p
    run_gram = run_key // p
    new_group = np.r_[True, run_gram[1:] != run_gram[:-1]]
    run_group = np.cumsum(new_group) - 1
    is_ref = run_side >= k_sides
    ref_count = np.zeros((r_sides, int(run_group[-1]) + 1))
    ref_count[run_side[is_ref] - k_sides, run_group[is_ref]] = run_count[is_ref]
    group_seg = prefix_seg[run_gram[new_group] // width]
    return _Runs(run_count, run_side, run_group, group_seg, ref_count)


def _clipped_matches(runs: _Runs, k_sides: int, n_segments: int) -> np.ndarray:
    """``(K, R, S)``: per hypothesis side, reference side and segment, the sum over n-grams of
    ``min(count on the hypothesis side, count on the reference side)``."""
    is_hyp = runs.side < k_sides
    h_group = runs.group[is_hyp]
    h_count = runs.count[is_hyp]
    cell = runs.side[is_hyp] * n_segments + runs.group_seg[h_group]
    r_sides = runs.ref_count.shape[0]
    out = np.empty((k_sides, r_sides, n_segments))
    for r in range(r_sides):
        clipped = np.minimum(h_count, runs.ref_count[r, h_group])
        out[:, r] = np.bincount(cell, weights=clipped, minlength=k_sides * n_segments).reshape(
            k_sides, n_segments
        )
    return out


def _sort_with_order(key: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """``(argsort(key), sorted key)`` for non-negative ``key < bound``.

    When the key and the position fit in 63 bits together, the position is packed into the low bits and one
    plain ``np.sort`` (SIMD, several times faster than ``argsort``) gives both; otherwise ``argsort``.
    """
    pos_bits = max(int(key.size - 1).bit_length(), 1)
    if int(bound - 1).bit_length() + pos_bits <= 63:
        packed = np.sort((key << pos_bits) | np.arange(key.size, dtype=np.int64))
        return packed & ((1 << pos_bits) - 1), packed >> pos_bits
    order = np.argsort(key)
    return order, key[order]


def _chunks(weights: np.ndarray, budget: int) -> list[slice]:
    """Consecutive segment ranges whose total weight stays under ``budget`` (at least one segment each)."""
    out, start, acc = [], 0, 0
    for i, w in enumerate(weights.tolist()):
        if acc and acc + w > budget:
            out.append(slice(start, i))
            start, acc = i, 0
        acc += w
    out.append(slice(start, len(weights)))
    return out


def chrf_statistics_table(
    systems: Sequence[Sequence[str | None]],
    references: Sequence[Sequence[str | None]],
    options: ChrfOptions | None = None,
    *,
    usable: np.ndarray | None = None,
    chunk_positions: int = 2_000_000,
    progress: Callable[[int, int, str], None] | None = None,
    compiled: bool | None = None,
) -> ChrfTable:
    """chrF statistics of every system against the reference streams, one row per segment.

    ``systems`` are ``K`` output streams and ``references`` ``R`` reference streams (sacrebleu's convention:
    ``references[r][i]`` is reference ``r`` of segment ``i``), all of the same length ``S``; ``None`` marks a
    missing translation or reference. ``usable`` (``K × R`` booleans, default all) says which references
    each system may use (a system that *is* a reference stream is not scored against itself).
    Segments are processed in chunks of about ``chunk_positions`` characters to bound memory;
    ``progress(done, total, message)`` is called after each chunk. The matches are counted by the compiled
    kernel when :func:`bleu_core.fast.compiled.use_compiled` says so (``compiled=True``/``False`` decides
    outright), else by the numpy path :func:`_match_counts`: the results are identical.

    Returns a :class:`ChrfTable` equal to sacrebleu's ``CHRF._extract_corpus_statistics`` row for row.

    >>> t = chrf_statistics_table([["a b"], [None]], [["ab"]])
    >>> t.reference.tolist(), float(t.sentence()[0, 0])   # whitespace is ignored: a perfect match
    ([[0], [-1]], 100.0)
    """
    options = options or ChrfOptions()
    systems = [list(s) for s in systems]
    references = [list(r) for r in references]
    use = _check_streams(systems, references, usable)
    (k, r), n = use.shape, len(references[0])
    f = options.n_features
    order = options.order
    texts = [*systems, *references]
    hyp_present = np.array([[t is not None for t in s] for s in systems], dtype=bool).reshape(k, n)
    ref_present = np.array([[t is not None for t in s] for s in references], dtype=bool).reshape(
        r, n
    )
    # statistics against each reference: [hyp, ref, match] per order, like sacrebleu's rows
    per_ref = np.zeros((k, r, n, order, 3))
    # chunks of about chunk_positions characters (before whitespace is removed)
    raw_len = np.array([[len(t or "") for t in s] for s in texts], dtype=np.int64).reshape(k + r, n)
    weights = raw_len.sum(axis=0) + 1
    compiled = use_compiled(int(weights.sum()), force=compiled)
    unit_dtype = np.uint32 if compiled else np.int64
    parts = _chunks(weights, chunk_positions)
    words = WordUnits(texts, compiled) if options.word_order else None
    for done, part in enumerate(parts, 1):
        present = np.concatenate([hyp_present[:, part].ravel(), ref_present[:, part].ravel()])
        docs = [t or "" for stream in texts for t in stream[part]]
        for block in _blocks(docs, options, words, compiled, unit_dtype):
            _count_block(per_ref, part, block, present, compiled)
        if progress is not None:
            progress(done, len(parts), f"chrF statistics: {part.stop} of {n} segments")
    ok = use[:, :, None] & ref_present[None, :, :] & hyp_present[:, None, :]
    return _keep_best_reference(per_ref.reshape(k, r, n, f), ok, options)


def _blocks(
    docs: list[str],
    options: ChrfOptions,
    words: WordUnits | None,
    compiled: bool,
    unit_dtype: type[np.integer],
) -> list[tuple]:
    """What :func:`_count_block` counts for the texts ``docs`` of one chunk: their characters, and for
    chrF++ their words. The kernel leaves whitespace out itself (``skip``); the numpy path gets it removed."""
    if options.lowercase:
        docs = [t.lower() for t in docs]
    skip = None if options.whitespace else SPACE
    chars = char_units(docs, compiled or options.whitespace, unit_dtype)
    blocks = [(*chars, options.char_order, 0, skip)]
    if words is not None:
        units = words.units(docs, unit_dtype)
        blocks.append((*units, options.word_order, options.char_order, None))
    return blocks


def _count_block(
    per_ref: np.ndarray, part: slice, block: tuple, present: np.ndarray, compiled: bool
) -> None:
    """Count one block of a chunk of segments into ``per_ref`` (``K × R × S × order × 3``): ``block`` is
    ``(units, lengths, orders, first order, units to skip)`` of the characters or of chrF++'s words of
    every text of the chunk (systems first, then references); each of its orders gets the clipped matches
    and the reference and hypothesis n-gram counts, as sacrebleu's rows."""
    units, raw, order, first, skip = block
    k, r = per_ref.shape[:2]
    m = part.stop - part.start
    if compiled:
        got, lengths = _compiled_match_counts(units, raw, present, k, r, order, skip)
    else:
        lengths = np.where(present, raw, 0)
        side = np.repeat(np.arange(k + r), m)
        seg = np.tile(np.arange(m), k + r)
        got = _match_counts(units, lengths, seg, side, k, r, m, order)
    cells = per_ref[:, :, part, first : first + order]
    cells[..., 2] = got
    ngrams = np.maximum(lengths[:, None] - np.arange(order)[None, :], 0).reshape(k + r, m, order)
    cells[..., 1] = ngrams[k:]
    # sacrebleu reports 0 hypothesis n-grams of an order the reference has none of
    cells[..., 0] = np.where(ngrams[k:][None] > 0, ngrams[:k][:, None], 0)


def _check_streams(
    systems: Sequence[Sequence[str | None]],
    references: Sequence[Sequence[str | None]],
    usable: np.ndarray | None,
) -> np.ndarray:
    """The ``K × R`` usable matrix, after checking that every stream has the first reference's length."""
    if not references:
        raise BleuOptionError("chrF needs at least one reference stream")
    n = len(references[0])
    for what, streams in (("reference", references), ("system", systems)):
        for j, stream in enumerate(streams):
            if len(stream) != n:
                raise BleuOptionError(
                    f"chrF: {what} stream {j + 1} has {len(stream)} segments, the first reference has {n}"
                )
    k, r = len(systems), len(references)
    use = np.ones((k, r), dtype=bool) if usable is None else np.asarray(usable, dtype=bool)
    if use.shape != (k, r):
        raise BleuOptionError(
            f"chrF: usable must be {k} x {r} (systems x references), got {use.shape}"
        )
    return use


def _keep_best_reference(per_ref: np.ndarray, ok: np.ndarray, options: ChrfOptions) -> ChrfTable:
    """Of ``per_ref`` (``K × R × S × F``), each segment's row against the reference with the best sentence
    chrF among those ``ok`` allows (the first of equals, as sacrebleu's strict ``>``); zeros without one."""
    k, r, n, _ = per_ref.shape
    has = ok.any(axis=1)
    if r == 1:  # nothing to choose
        best = np.zeros((k, n), dtype=np.intp)
        stats = per_ref[:, 0]
    else:
        scores = np.where(ok, chrf_from_stats(per_ref, options), -np.inf)
        best = np.argmax(scores, axis=1)
        stats = np.take_along_axis(per_ref, best[:, None, :, None], axis=1)[:, 0]
    stats[~has] = 0.0
    return ChrfTable(stats, np.where(has, best, -1), options)


def _registry_options(ctx: ScoringContext, spec: MetricSpec) -> ChrfOptions:
    return ChrfOptions(word_order=2 if spec.family == "chrf++" else 0, lowercase=ctx.lowercase)


def _registry_from_stats(ctx: ScoringContext, spec: MetricSpec) -> partial[np.ndarray]:
    return partial(chrf_from_stats, options=_registry_options(ctx, spec))


def _registry_statistics(ctx: ScoringContext, spec: MetricSpec) -> MetricStatistics:
    table = chrf_statistics_table(
        [ctx.study.systems[s] for s in ctx.systems],
        list(ctx.study.references.values()),
        _registry_options(ctx, spec),
        usable=ctx.usable_references(),
        progress=ctx.progress,
    )
    several = (
        "several references: each segment keeps the statistics of the reference with the best "
    )
    notes = (several + "sentence chrF (as sacrebleu)",) if len(ctx.study.references) > 1 else ()
    return MetricStatistics(table.stats, table.sentence(), notes)


# the registry's chrF and chrF++: sacrebleu's defaults, case from the study's settings, no word tokenizer
CHRF, CHRF_PLUS = (
    MetricSpec(
        name,
        True,
        description,
        family,
        _registry_statistics,
        _registry_from_stats,
        depends_on=("lowercase",),
    )  # fmt: skip
    for name, description, family in (
        ("chrF", "character 6-gram F-score, recall weighted 2x (sacrebleu)", "chrf"),
        ("chrF++", "chrF plus word 1-2 grams (sacrebleu)", "chrf++"),
    )
)
