"""Token-level agreement between BLEU and MQM raters: rewarded errors and penalised correct words.

BLEU marks each hypothesis token *matched* (credited: it is in a matched n-gram) or not; MQM raters mark
error spans. Crossing the two gives a 2 × 2 table of tokens (:class:`AgreementCounts`):

================  ==========================  ==============================
                  inside an error span        outside every span
================  ==========================  ==============================
BLEU matched      ``matched_in_error``        ``matched_clean``
                  (a *rewarded error*)
BLEU not matched  ``unmatched_in_error``      ``unmatched_clean``
                                              (a *penalised correct word*)
================  ==========================  ==============================

Definitions (one place for all of bleu-study):

* tokens are the chosen tokenizer's (``tokenize``, ``lowercase``), placed in the text by
  :func:`bleu_core.tokenize.token_offsets.token_offsets`;
* a token is **inside a span** when its characters overlap the span's
  (:func:`bleu_core.tokenize.token_offsets.tokens_overlapping`); only spans on the target side can cover hypothesis
  tokens (source-side spans, e.g. omissions, are counted apart in :attr:`SystemAgreement.source_spans`);
* at **max order n** a token is **matched** when it lies inside a *matched* n-gram of order n, with
  BLEU's clipping against the chosen references (:func:`bleu_core.engine.matches.match_provenance`, status
  ``matched``); at order 1 that is the token's own unigram match. A ``clipped`` token (in a reference, but
  the reference's count is used up) earns BLEU nothing, so it counts as not matched;
* only (system, segment) items the raters annotated are counted: items with a segment-level rating (by the
  chosen raters) or with a span. An MQM item without errors has a rating and no span: all its tokens are
  clean.

A hand-made example: the raters marked "sofa" (Major) and "quickly" (Minor); BLEU matched "the", "cat",
"on", "the" and "quickly".

>>> from bleu_core.study.spans import ErrorSpan
>>> hyp = "the cat sat quickly on the sofa"
>>> spans = [ErrorSpan("A", "1", "r1", "target", 27, 31, "Accuracy/Mistranslation", "Major"),
...          ErrorSpan("A", "1", "r1", "target", 12, 19, "Style/Awkward", "Minor")]
>>> seg = token_records(hyp, ["the cat quickly sat on the mat"], spans)
>>> [(t.text, t.status, [s.severity for s in t.spans]) for t in seg.tokens]  # doctest: +NORMALIZE_WHITESPACE
[('the', 'matched', []), ('cat', 'matched', []), ('sat', 'matched', []),
 ('quickly', 'matched', ['Minor']), ('on', 'matched', []), ('the', 'matched', []),
 ('sofa', 'unmatched', ['Major'])]
>>> seg.counts()
AgreementCounts(matched_in_error=1, matched_clean=5, unmatched_in_error=1, unmatched_clean=0)
>>> token_records(hyp, ["the cat quickly sat on the mat"], spans, max_order=2).counts()
AgreementCounts(matched_in_error=0, matched_clean=4, unmatched_in_error=2, unmatched_clean=1)

At order 2 "sat" and "quickly" are in no matched bigram ("cat sat", "sat quickly" and "quickly on" are not
in the reference): the rewarded error "quickly" is no longer rewarded, and the clean "sat" is penalised.

:meth:`SegmentTokens.pieces` cuts the text into pieces to draw (tokens, the gaps between them, span
boundaries), each with its status and spans.

The code is in several modules: :mod:`~bleu_core.study.agreement_counts` (the 2 × 2 table),
:mod:`~bleu_core.study.agreement_results` (the results: a table per system and overall),
:mod:`~bleu_core.study.segment_tokens` (one hypothesis token by token, for pages that draw it),
:mod:`~bleu_core.study.agreement_arrays` with :mod:`~bleu_core.study.matched_tokens` (every translation at
once, as numpy arrays: the study-wide count), :mod:`~bleu_core.study.token_masks` (one translation at a time,
tokens as bits: the reference the arrays are tested against) and this one (the whole study: one table per
system, per severity and per category). Every public name they share is importable from here.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.errors import BleuOptionError, StudyError
from bleu_core.study.agreement_arrays import item_tables
from bleu_core.study.agreement_counts import COUNT_NAMES, AgreementCounts
from bleu_core.study.agreement_results import ErrorAgreement, SegmentRank, SystemAgreement
from bleu_core.study.segment_tokens import (
    SegmentTokens,
    TextPiece,
    TokenRecord,
    check_max_order,
    reference_streams,
    segment_token_records,
    token_records,
)
from bleu_core.study.spans import ErrorSpan, spans_of
from bleu_core.study.token_masks import matched_mask, max_reference_counts, overlap_mask
from bleu_core.tokenize.token_offsets import TokenColumns, token_columns_corpus
from bleu_core.tokenize.tokenizers import get_tokenizer

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = [
    "COUNT_NAMES",
    "AgreementCounts",
    "ErrorAgreement",
    "SegmentRank",
    "SegmentTokens",
    "SystemAgreement",
    "TextPiece",
    "TokenRecord",
    "error_agreement",
    "error_agreement_by_order",
    "segment_token_records",
    "token_records",
]

SEVERITY_ORDER = {"critical": 0, "major": 1, "minor": 2, "neutral": 3}
"""The order of the per-severity tables (case-insensitive; other severities follow, alphabetically)."""


# ------------------------------------------------------------------------------------------- counting
@dataclass(frozen=True)
class _ChosenErrors:
    """What counts as an error: the chosen spans by (system, segment id), the items the chosen raters
    annotated (a segment rating or a span), and the span groups each table is counted for — every span
    (``("all", "")``), then one group per severity and one per top-level category."""

    by_item: dict[tuple[str, str], list[ErrorSpan]]
    annotated: set[tuple[str, str]]
    groups: tuple[tuple[str, str], ...]
    filters: dict[str, list[Any] | None]


def _chosen_errors(
    study: Study,
    raters: Iterable[str | None] | None,
    severities: Iterable[str] | None,
    categories: Iterable[str] | None,
) -> _ChosenErrors:
    rater_list = None if raters is None else list(raters)
    severity_list = None if severities is None else list(severities)
    category_list = None if categories is None else list(categories)
    chosen = spans_of(
        study.error_spans,
        side=None,
        raters=rater_list,
        severities=severity_list,
        categories=category_list,
    )
    rater_set = None if rater_list is None else set(rater_list)
    annotated = {
        (r.system, r.segment_id)
        for r in study.ratings
        if r.segment_id is not None and (rater_set is None or r.rater in rater_set)
    }
    by_item: dict[tuple[str, str], list[ErrorSpan]] = {}
    for span in chosen:
        by_item.setdefault((span.system, span.segment_id), []).append(span)
        annotated.add((span.system, span.segment_id))
    severity_keys = sorted(
        {s.severity for s in chosen}, key=lambda k: (SEVERITY_ORDER.get(k.lower(), 4), k)
    )
    groups = (
        ("all", ""),
        *(("severity", key) for key in severity_keys),
        *(("category", key) for key in sorted({s.top_category for s in chosen})),
    )
    filters = {"raters": rater_list, "severities": severity_list, "categories": category_list}
    return _ChosenErrors(by_item, annotated, groups, filters)


def _in_group(span: ErrorSpan, kind: str, key: str) -> bool:
    return (
        kind == "all"
        or (kind == "severity" and span.severity == key)
        or (kind == "category" and span.top_category == key)
    )


@dataclass
class _StudyTexts:
    """The texts to count, tokenised once: every annotated hypothesis (``placed``: its tokens, their
    start and end characters) and every reference stream; each segment's clip table is counted once, on
    first use, for all systems."""

    wanted: set[tuple[str, int]]
    placed: dict[str, TokenColumns]
    reference_tokens: list[list[list[str]]]
    streams: list[list[str | None]]
    top: int
    clips: dict[int, dict[tuple[str, ...], int] | None] = field(default_factory=dict)

    def refs(self, i: int) -> list[list[str]]:
        """The tokens of segment ``i``'s references that have a text (none: the segment is not counted)."""
        pairs = zip(self.reference_tokens, self.streams, strict=True)
        return [tokens[i] for tokens, stream in pairs if stream[i]]

    def clip(self, i: int) -> dict[tuple[str, ...], int] | None:
        """BLEU's clip counts of segment ``i``'s references (``None`` when it has no reference text)."""
        if i not in self.clips:
            refs = self.refs(i)
            self.clips[i] = max_reference_counts(refs, self.top) if refs else None
        return self.clips[i]


def _study_texts(
    study: Study,
    names: Sequence[str],
    annotated: set[tuple[str, str]],
    streams: list[list[str | None]],
    tokenize: str,
    lowercase: bool,
    top: int,
) -> _StudyTexts:
    wanted = {
        (name, i)
        for name in names
        for i, segment in enumerate(study.segments)
        if study.systems[name][i] is not None and (name, segment.id) in annotated
    }
    distinct = list(dict.fromkeys(study.systems[name][i] or "" for name, i in wanted))
    placed = dict(zip(distinct, token_columns_corpus(distinct, tokenize, lowercase), strict=True))
    tokenizer = get_tokenizer(tokenize, lowercase)
    reference_tokens = [
        tokenizer.tokenize_corpus([text or "" for text in stream]) for stream in streams
    ]
    return _StudyTexts(wanted, placed, reference_tokens, streams, top)


def _error_masks(
    spans: Iterable[ErrorSpan],
    starts: Sequence[int],
    ends: Sequence[int],
    groups: Sequence[tuple[str, str]],
) -> tuple[list[int], int]:
    """Per group, the tokens inside one of its target-side spans (a bit mask); and the number of
    source-side spans, which cover no hypothesis token."""
    masks = [0] * len(groups)
    on_source = 0
    for span in spans:
        if span.side != "target":
            on_source += 1
            continue
        mask = overlap_mask(starts, ends, span.start, span.end)
        for g, (kind, key) in enumerate(groups):
            if _in_group(span, kind, key):
                masks[g] |= mask
    return masks, on_source


def _table_rows(
    matched: int, everything: int, error_masks: Sequence[int]
) -> list[tuple[int, int, int, int]]:
    """One item's 2 × 2 table per group (:data:`COUNT_NAMES` order) from its bit masks.

    Every mask is a subset of ``everything``, so the clean cells are the matched / unmatched totals minus
    the in-error cells; groups with the same error mask (often none: ``0``) share their row.

    >>> _table_rows(0b0110, 0b1111, [0b0011, 0, 0b0011])
    [(1, 1, 1, 1), (0, 2, 0, 2), (1, 1, 1, 1)]
    """
    unmatched = everything & ~matched
    n_matched = matched.bit_count()
    n_unmatched = unmatched.bit_count()
    known: dict[int, tuple[int, int, int, int]] = {0: (0, n_matched, 0, n_unmatched)}
    rows = []
    for error in error_masks:
        row = known.get(error)
        if row is None:
            matched_in_error = (matched & error).bit_count()
            unmatched_in_error = (unmatched & error).bit_count()
            row = (
                matched_in_error,
                n_matched - matched_in_error,
                unmatched_in_error,
                n_unmatched - unmatched_in_error,
            )
            known[error] = row
        rows.append(row)
    return rows


def _system_agreements(
    study: Study, name: str, orders: Sequence[int], texts: _StudyTexts, errors: _ChosenErrors
) -> dict[int, SystemAgreement]:
    """``name``'s tables at every max order in ``orders``: its annotated items, summed."""
    groups = errors.groups
    counted: list[int] = []  # the segments counted, in order
    rows_of: dict[int, list[list[tuple[int, int, int, int]]]] = {n: [] for n in orders}
    source_spans = 0
    for i, segment in enumerate(study.segments):
        if (name, i) not in texts.wanted:
            continue
        clip_of = texts.clip(i)
        if clip_of is None:
            continue
        counted.append(i)
        hypothesis, starts, ends = texts.placed[study.systems[name][i] or ""]
        spans = errors.by_item.get((name, segment.id), ())
        error_masks, on_source = _error_masks(spans, starts, ends, groups)
        source_spans += on_source
        everything = (1 << len(hypothesis)) - 1
        for n in orders:
            rows_of[n].append(
                _table_rows(matched_mask(hypothesis, clip_of, n), everything, error_masks)
            )
    annotated_segments = len(counted)
    cells: dict[int, list[list[int]]] = {}
    segment_counts: dict[int, np.ndarray] = {}
    for n in orders:
        # per group, the four counts summed over the counted segments
        cells[n] = [
            [sum(column) for column in zip(*rows, strict=True)]
            for rows in zip(*rows_of[n], strict=True)
        ] or [[0, 0, 0, 0] for _ in groups]
        segment_counts[n] = np.full((study.n_segments, 4), -1, dtype=np.int64)
        if counted:
            segment_counts[n][counted] = np.array([rows[0] for rows in rows_of[n]], dtype=np.int64)
    return {
        n: SystemAgreement(
            system=name,
            counts=AgreementCounts(*cells[n][0]),
            by_severity=_group_tables(groups, cells[n], "severity"),
            by_category=_group_tables(groups, cells[n], "category"),
            segment_counts=segment_counts[n],
            annotated_segments=annotated_segments,
            source_spans=source_spans,
        )
        for n in orders
    }


def _array_agreements(
    study: Study,
    names: Sequence[str],
    orders: Sequence[int],
    texts: _StudyTexts,
    errors: _ChosenErrors,
) -> dict[str, dict[int, SystemAgreement]]:
    """:func:`_system_agreements` of every system in ``names`` at once, counted as arrays
    (:func:`bleu_core.study.agreement_arrays.item_tables`); the same tables."""
    index = {group: g for g, group in enumerate(errors.groups)}
    references = [texts.refs(i) for i in range(study.n_segments)]
    items: list[tuple[int, int]] = []  # (system position, segment), system by system
    errors_of, placed, on_source = [], [], np.zeros(len(names), dtype=np.int64)
    for s, name in enumerate(names):
        for i, segment in enumerate(study.segments):
            if (name, i) not in texts.wanted or not references[i]:
                continue
            items.append((s, i))
            placed.append(texts.placed[study.systems[name][i] or ""])
            spans = errors.by_item.get((name, segment.id), ())
            on_source[s] += sum(span.side != "target" for span in spans)
            errors_of.append(
                [(span.start, span.end, (0, index["severity", span.severity],
                  index["category", span.top_category])) for span in spans if span.side == "target"]
            )  # fmt: skip
    segments = [i for _, i in items]
    tables = item_tables(placed, segments, references, errors_of, len(errors.groups), orders)
    owners = np.array([s for s, _ in items], dtype=np.int64)
    out: dict[str, dict[int, SystemAgreement]] = {}
    for s, name in enumerate(names):
        lo, hi = np.searchsorted(owners, [s, s + 1])
        counted = segments[lo:hi]
        out[name] = {}
        for n in orders:
            rows = tables[n][lo:hi]
            cells = rows.sum(axis=0).tolist() if hi > lo else [[0] * 4 for _ in errors.groups]
            segment_counts = np.full((study.n_segments, 4), -1, dtype=np.int64)
            segment_counts[counted] = rows[:, 0, :]
            out[name][n] = SystemAgreement(
                system=name,
                counts=AgreementCounts(*cells[0]),
                by_severity=_group_tables(errors.groups, cells, "severity"),
                by_category=_group_tables(errors.groups, cells, "category"),
                segment_counts=segment_counts,
                annotated_segments=len(counted),
                source_spans=int(on_source[s]),
            )
    return out


def _group_tables(
    groups: Sequence[tuple[str, str]], cells: list[list[int]], kind: str
) -> dict[str, AgreementCounts]:
    return {key: AgreementCounts(*cells[g]) for g, (k, key) in enumerate(groups) if k == kind}


def _checked_systems(study: Study, systems: Iterable[str] | None) -> list[str]:
    names = list(study.systems) if systems is None else list(systems)
    for name in names:
        if name not in study.systems:
            raise StudyError(
                f"unknown system {name!r}; the study has: {', '.join(study.systems)}",
                file=study.name,
            )
    return names


def error_agreement_by_order(
    study: Study,
    orders: Sequence[int] = (1, 2, 3, 4),
    *,
    systems: Iterable[str] | None = None,
    references: Sequence[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    raters: Iterable[str | None] | None = None,
    severities: Iterable[str] | None = None,
    categories: Iterable[str] | None = None,
    method: str = "arrays",
) -> dict[int, ErrorAgreement]:
    """:func:`error_agreement` for several max orders at once (one tokenisation, one n-gram pass):
    how the table changes when a token must sit in a matched bigram, trigram... to count as matched.

    ``method``: ``"arrays"`` counts every translation at once (:mod:`bleu_core.study.agreement_arrays`);
    ``"oracle"`` one translation at a time with bit masks (:mod:`bleu_core.study.token_masks`), the
    plain path the tests hold the arrays to. Both give the same tables."""
    started = time.perf_counter()
    orders = sorted(set(orders))
    if not orders:
        raise BleuOptionError("give at least one max order")
    for n in orders:
        check_max_order(n)
    names = _checked_systems(study, systems)
    streams = reference_streams(study, references)
    errors = _chosen_errors(study, raters, severities, categories)
    texts = _study_texts(study, names, errors.annotated, streams, tokenize, lowercase, max(orders))
    results: dict[int, dict[str, SystemAgreement]] = {n: {} for n in orders}
    if method == "arrays":
        per_system = _array_agreements(study, names, orders, texts, errors)
    elif method == "oracle":
        per_system = {
            name: _system_agreements(study, name, orders, texts, errors) for name in names
        }
    else:
        raise BleuOptionError(f"unknown method {method!r}; choose 'arrays' or 'oracle'")
    for name in names:
        for n, agreement in per_system[name].items():
            results[n][name] = agreement
    seconds = time.perf_counter() - started
    return {
        n: ErrorAgreement(
            systems=results[n],
            segment_ids=tuple(study.segment_ids),
            references=tuple(study.references if references is None else references),
            max_order=n,
            tokenize=tokenize,
            lowercase=lowercase,
            filters=dict(errors.filters),
            seconds=seconds,
        )
        for n in orders
    }


def error_agreement(
    study: Study,
    *,
    systems: Iterable[str] | None = None,
    references: Sequence[str] | None = None,
    max_order: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
    raters: Iterable[str | None] | None = None,
    severities: Iterable[str] | None = None,
    categories: Iterable[str] | None = None,
) -> ErrorAgreement:
    """The token-level agreement table of every system (or ``systems``) of ``study``.

    ``references`` names the reference streams (all by default); ``max_order`` the order n at which a token
    counts as matched (inside a matched n-gram); ``raters``, ``severities`` and ``categories`` (full or
    top-level, case-insensitive) choose which spans count as errors — e.g. ``severities=["Major"]`` for
    "rewarded Major errors".

    >>> from bleu_core.study.demo import load_demo
    >>> from bleu_core.tokenize.token_offsets import token_offsets
    >>> result = error_agreement(load_demo("ted-en-de").subset(["Nemo"], 20))
    >>> counts = result.systems["Nemo"].counts
    >>> counts.tokens == sum(len(token_offsets(t)) for t in load_demo("ted-en-de").systems["Nemo"][:20])
    True
    """
    return error_agreement_by_order(
        study,
        (max_order,),
        systems=systems,
        references=references,
        tokenize=tokenize,
        lowercase=lowercase,
        raters=raters,
        severities=severities,
        categories=categories,
    )[max_order]
