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
  :func:`bleu_core.token_offsets.token_offsets`;
* a token is **inside a span** when its characters overlap the span's
  (:func:`bleu_core.token_offsets.tokens_overlapping`); only spans on the target side can cover hypothesis
  tokens (source-side spans, e.g. omissions, are counted apart in :attr:`SystemAgreement.source_spans`);
* at **max order n** a token is **matched** when it lies inside a *matched* n-gram of order n, with
  BLEU's clipping against the chosen references (:func:`bleu_core.matches.match_provenance`, status
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
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.errors import BleuOptionError, StudyError
from bleu_core.matches import Status, match_provenance
from bleu_core.study.spans import ErrorSpan, spans_of
from bleu_core.token_offsets import token_offsets, token_offsets_corpus, tokens_overlapping
from bleu_core.tokenizers import get_tokenizer

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

#: The four cells of the table, in the order of :attr:`SystemAgreement.segment_counts` columns.
COUNT_NAMES: tuple[str, ...] = (
    "matched_in_error",
    "matched_clean",
    "unmatched_in_error",
    "unmatched_clean",
)


@dataclass(frozen=True)
class AgreementCounts:
    """The 2 × 2 table of tokens: BLEU matched or not × inside an error span or not.

    >>> c = AgreementCounts(3, 7, 5, 2)
    >>> c.tokens, c.in_error, round(c.rewarded_error_rate, 3), round(c.penalised_clean_rate, 3)
    (17, 8, 0.375, 0.222)
    """

    matched_in_error: int = 0
    matched_clean: int = 0
    unmatched_in_error: int = 0
    unmatched_clean: int = 0

    @property
    def tokens(self) -> int:
        """All tokens counted."""
        return (
            self.matched_in_error
            + self.matched_clean
            + self.unmatched_in_error
            + self.unmatched_clean
        )

    @property
    def in_error(self) -> int:
        """Tokens inside at least one span."""
        return self.matched_in_error + self.unmatched_in_error

    @property
    def clean(self) -> int:
        """Tokens outside every span."""
        return self.matched_clean + self.unmatched_clean

    @property
    def rewarded_error_rate(self) -> float:
        """Share of the tokens in error that BLEU matched (``nan`` without tokens in error)."""
        return self.matched_in_error / self.in_error if self.in_error else math.nan

    @property
    def penalised_clean_rate(self) -> float:
        """Share of the clean tokens that BLEU did not match (``nan`` without clean tokens)."""
        return self.unmatched_clean / self.clean if self.clean else math.nan

    def __add__(self, other: AgreementCounts) -> AgreementCounts:
        return AgreementCounts(
            *(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True))
        )

    def as_tuple(self) -> tuple[int, int, int, int]:
        """The four counts in :data:`COUNT_NAMES` order."""
        return (
            self.matched_in_error,
            self.matched_clean,
            self.unmatched_in_error,
            self.unmatched_clean,
        )

    def to_dict(self) -> dict[str, int]:
        """The four counts by name."""
        return dict(zip(COUNT_NAMES, self.as_tuple(), strict=True))


# ------------------------------------------------------------------------------------------- one segment
@dataclass(frozen=True)
class TokenRecord:
    """One hypothesis token: what BLEU counted (``token``), where it is (``text[start:end]`` of the
    hypothesis, ``text`` holding those original characters), its BLEU ``status`` at the chosen max order
    and the error spans covering it (overlapping at least one of its characters)."""

    index: int
    token: str
    text: str
    start: int
    end: int
    status: Status
    spans: tuple[ErrorSpan, ...]

    @property
    def matched(self) -> bool:
        """BLEU credited the token (status ``matched``)."""
        return self.status == "matched"

    @property
    def in_error(self) -> bool:
        """At least one span covers the token."""
        return bool(self.spans)


@dataclass(frozen=True)
class TextPiece:
    """A piece of the hypothesis to draw: ``text == hypothesis[start:end]``, the token it belongs to
    (``None`` for characters between tokens or dropped by the tokenizer) with its BLEU ``status``, and the
    spans that cover these characters. Pieces are cut at token and span boundaries and cover the whole text
    in order, so a renderer only escapes ``text`` and styles each piece."""

    text: str
    start: int
    end: int
    token: int | None
    status: Status | None
    spans: tuple[ErrorSpan, ...]


@dataclass(frozen=True)
class SegmentTokens:
    """Per-token records of one hypothesis (see :func:`token_records`)."""

    text: str
    tokens: tuple[TokenRecord, ...]
    spans: tuple[ErrorSpan, ...]
    max_order: int

    def counts(self) -> AgreementCounts:
        """The 2 × 2 table of this hypothesis's tokens."""
        cells = [0, 0, 0, 0]
        for token in self.tokens:
            cells[(0 if token.matched else 2) + (0 if token.in_error else 1)] += 1
        return AgreementCounts(*cells)

    def pieces(self) -> tuple[TextPiece, ...]:
        """The whole text cut at every token and span boundary (see :class:`TextPiece`).

        >>> from bleu_core.study.spans import ErrorSpan
        >>> seg = token_records("a cat.", ["a dog ."], [ErrorSpan("A", "1", None, "target", 3, 5, "Other", "Minor")])
        >>> [(p.text, p.status, len(p.spans)) for p in seg.pieces()]
        [('a', 'matched', 0), (' ', None, 0), ('c', 'unmatched', 0), ('at', 'unmatched', 1), ('.', 'matched', 0)]
        >>> [t.in_error for t in seg.tokens]     # "at" overlaps the token "cat": it is inside the span
        [False, True, False]
        """
        cuts = {0, len(self.text)}
        for token in self.tokens:
            cuts.update((token.start, token.end))
        for span in self.spans:
            cuts.update((span.start, span.end))
        bounds = sorted(c for c in cuts if 0 <= c <= len(self.text))
        owner: list[int | None] = [None] * len(self.text)
        for token in self.tokens:
            for i in range(token.start, token.end):
                owner[i] = token.index
        pieces = []
        for start, end in zip(bounds, bounds[1:], strict=False):
            if start == end:
                continue
            index = owner[start]
            pieces.append(
                TextPiece(
                    self.text[start:end],
                    start,
                    end,
                    index,
                    None if index is None else self.tokens[index].status,
                    tuple(s for s in self.spans if s.overlaps(start, end)),
                )
            )
        return tuple(pieces)


def _token_statuses(
    hypothesis: str,
    references: Sequence[str],
    orders: Sequence[int],
    tokenize: str,
    lowercase: bool,
) -> dict[int, tuple[Status, ...]]:
    matches = match_provenance(
        hypothesis, list(references), max_order=max(orders), tokenize=tokenize, lowercase=lowercase
    )
    return {n: matches.token_status(n) for n in orders}


def token_records(
    hypothesis: str,
    references: Sequence[str],
    spans: Iterable[ErrorSpan] = (),
    *,
    max_order: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> SegmentTokens:
    """Every token of ``hypothesis`` with its offsets, BLEU status at ``max_order`` against
    ``references`` and the target-side ``spans`` covering it. Renders nothing: see
    :meth:`SegmentTokens.pieces` for the drawing order."""
    _check_order(max_order)
    target = tuple(s for s in spans if s.side == "target")
    offsets = token_offsets(hypothesis, tokenize, lowercase)
    refs = [r for r in references if r is not None]
    if not refs:
        raise StudyError("token_records needs at least one reference text")
    status = _token_statuses(hypothesis, refs, [max_order], tokenize, lowercase)[max_order]
    covering: list[list[ErrorSpan]] = [[] for _ in offsets]
    for span in target:
        for i in tokens_overlapping(offsets, span.start, span.end):
            covering[i].append(span)
    records = tuple(
        TokenRecord(i, token, hypothesis[start:end], start, end, status[i], tuple(covering[i]))
        for i, (token, start, end) in enumerate(offsets)
    )
    return SegmentTokens(hypothesis, records, target, max_order)


def segment_token_records(
    study: Study,
    system: str,
    segment_id: str,
    *,
    references: Sequence[str] | None = None,
    max_order: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
    raters: Iterable[str | None] | None = None,
    severities: Iterable[str] | None = None,
    categories: Iterable[str] | None = None,
) -> SegmentTokens:
    """:func:`token_records` of ``system``'s translation of segment ``segment_id`` in ``study``, against
    the chosen reference streams (all by default), with the study's spans (filtered by ``raters``,
    ``severities``, ``categories`` as in :func:`bleu_core.study.spans.spans_of`)."""
    if system not in study.systems:
        raise StudyError(f"unknown system {system!r}; the study has: {', '.join(study.systems)}")
    try:
        i = study.segment_index(segment_id)
    except KeyError:
        raise StudyError(f"unknown segment {segment_id!r}", file=study.name) from None
    hypothesis = study.systems[system][i]
    if hypothesis is None:
        raise StudyError(f"system {system!r} has no translation of segment {segment_id!r}")
    refs = [stream[i] for stream in _reference_streams(study, references) if stream[i]]
    spans = spans_of(
        study.error_spans,
        system=system,
        segment_id=segment_id,
        raters=raters,
        severities=severities,
        categories=categories,
    )
    return token_records(
        hypothesis, refs, spans, max_order=max_order, tokenize=tokenize, lowercase=lowercase
    )


# ------------------------------------------------------------------------------------------- whole study
@dataclass(frozen=True)
class SystemAgreement:
    """The agreement table of one system.

    ``by_severity`` / ``by_category`` hold one complete table per severity / top-level category, computed
    as if only spans of that severity / category existed (so their ``in_error`` cells do not add up to the
    overall table when one token is in spans of two kinds). ``segment_counts`` has one row per study
    segment and the four counts as columns (:data:`COUNT_NAMES` order), ``-1`` for items that were not
    annotated or have no translation.
    """

    system: str
    counts: AgreementCounts
    by_severity: dict[str, AgreementCounts]
    by_category: dict[str, AgreementCounts]
    segment_counts: np.ndarray = field(compare=False)
    annotated_segments: int
    source_spans: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (without the per-segment array)."""
        return {
            "system": self.system,
            **self.counts.to_dict(),
            "annotated_segments": self.annotated_segments,
            "source_side_spans": self.source_spans,
            "by_severity": {k: v.to_dict() for k, v in self.by_severity.items()},
            "by_category": {k: v.to_dict() for k, v in self.by_category.items()},
        }


@dataclass(frozen=True)
class SegmentRank:
    """One (system, segment) item in a ranking, with its table."""

    system: str
    segment_id: str
    value: int
    counts: AgreementCounts


@dataclass(frozen=True)
class ErrorAgreement:
    """:func:`error_agreement`'s result: a table per system and overall, with the settings used."""

    systems: dict[str, SystemAgreement]
    segment_ids: tuple[str, ...]
    references: tuple[str, ...]
    max_order: int
    tokenize: str
    lowercase: bool
    filters: dict[str, list[str | None] | None] = field(default_factory=dict)
    #: wall-clock seconds the computation took (not part of equality)
    seconds: float = field(default=0.0, compare=False)

    @property
    def counts(self) -> AgreementCounts:
        """The table summed over every system."""
        total = AgreementCounts()
        for agreement in self.systems.values():
            total = total + agreement.counts
        return total

    def _summed(self, attribute: str) -> dict[str, AgreementCounts]:
        total: dict[str, AgreementCounts] = {}
        for agreement in self.systems.values():
            for key, counts in getattr(agreement, attribute).items():
                total[key] = total.get(key, AgreementCounts()) + counts
        return total

    @property
    def by_severity(self) -> dict[str, AgreementCounts]:
        """Per-severity tables summed over systems."""
        return self._summed("by_severity")

    @property
    def by_category(self) -> dict[str, AgreementCounts]:
        """Per-top-level-category tables summed over systems."""
        return self._summed("by_category")

    def segment_ranking(
        self,
        by: str = "matched_in_error",
        *,
        systems: Iterable[str] | None = None,
        top: int | None = 20,
    ) -> list[SegmentRank]:
        """Annotated items sorted by one count, largest first (ties: system order, then segment order).

        ``by="matched_in_error"`` gives the "most rewarded errors", ``by="unmatched_clean"`` the "most
        penalised correct words".
        """
        if by not in COUNT_NAMES:
            raise BleuOptionError(f"unknown count {by!r}; choose one of: {', '.join(COUNT_NAMES)}")
        column = COUNT_NAMES.index(by)
        chosen = list(self.systems) if systems is None else list(systems)
        items: list[SegmentRank] = []
        for name in chosen:
            rows = self.systems[name].segment_counts
            for i in np.flatnonzero(rows[:, 0] >= 0):
                row = rows[i]
                items.append(
                    SegmentRank(
                        name, self.segment_ids[i], int(row[column]), AgreementCounts(*map(int, row))
                    )
                )
        items.sort(key=lambda item: -item.value)  # stable: keeps system and segment order on ties
        return items if top is None else items[:top]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready result (what ``python -m bleu_core spans --format json`` prints)."""
        return {
            "max_order": self.max_order,
            "tokenize": self.tokenize,
            "lowercase": self.lowercase,
            "references": list(self.references),
            "filters": self.filters,
            "overall": {
                **self.counts.to_dict(),
                "by_severity": {k: v.to_dict() for k, v in self.by_severity.items()},
                "by_category": {k: v.to_dict() for k, v in self.by_category.items()},
            },
            "systems": [agreement.to_dict() for agreement in self.systems.values()],
        }


def _check_order(max_order: int) -> None:
    if not isinstance(max_order, int) or isinstance(max_order, bool) or not 1 <= max_order <= 9:
        raise BleuOptionError(f"max order must be a whole number from 1 to 9, got {max_order!r}")


def _reference_streams(study: Study, names: Sequence[str] | None) -> list[list[str | None]]:
    chosen = list(study.references) if names is None else list(names)
    unknown = [name for name in chosen if name not in study.references]
    if unknown or not chosen:
        raise StudyError(
            f"unknown reference {', '.join(map(repr, unknown)) or '(none chosen)'}; the study has: "
            f"{', '.join(study.references)}",
            file=study.name,
        )
    return [study.references[name] for name in chosen]


def _max_reference_counts(
    references: Sequence[Sequence[str]], max_order: int
) -> dict[tuple[str, ...], int]:
    """For every n-gram (orders 1..max_order) the most times one reference holds it: BLEU's clip."""
    clip: dict[tuple[str, ...], int] = {}
    for tokens in references:
        counts: Counter[tuple[str, ...]] = Counter()
        tokens = tuple(tokens)
        for n in range(1, max_order + 1):
            counts.update(tokens[i : i + n] for i in range(len(tokens) - n + 1))
        for gram, count in counts.items():
            if count > clip.get(gram, 0):
                clip[gram] = count
    return clip


def _overlap_mask(starts: list[int], ends: list[int], start: int, end: int) -> int:
    """Bit t set when token t overlaps ``[start, end)``: the rule of
    :func:`bleu_core.token_offsets.tokens_overlapping` on precomputed token starts and ends."""
    mask = 0
    if start < end:
        for t in range(bisect_right(ends, start), bisect_left(starts, end)):
            if starts[t] < ends[t]:
                mask |= 1 << t
    return mask


def _matched_mask(hypothesis: tuple[str, ...], clip: dict[tuple[str, ...], int], n: int) -> int:
    """Bit t set when token t lies in a matched n-gram: the same rule as
    :func:`bleu_core.matches.match_provenance` (the first ``clip`` occurrences of an n-gram, left to
    right, are matched), without building its records. ``tests/study/test_spans.py`` checks they agree."""
    seen: dict[tuple[str, ...], int] = {}
    mask = 0
    window = (1 << n) - 1
    get = clip.get
    for i, gram in enumerate(zip(*(hypothesis[k:] for k in range(n)), strict=False)):
        limit = get(gram, 0)
        if limit:
            index = seen.get(gram, 0)
            seen[gram] = index + 1
            if index < limit:
                mask |= window << i
    return mask


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
) -> dict[int, ErrorAgreement]:
    """:func:`error_agreement` for several max orders at once (one tokenisation, one n-gram pass):
    how the table changes when a token must sit in a matched bigram, trigram... to count as matched."""
    started = time.perf_counter()
    orders = sorted(set(orders))
    if not orders:
        raise BleuOptionError("give at least one max order")
    for n in orders:
        _check_order(n)
    names = list(study.systems) if systems is None else list(systems)
    for name in names:
        if name not in study.systems:
            raise StudyError(
                f"unknown system {name!r}; the study has: {', '.join(study.systems)}",
                file=study.name,
            )
    streams = _reference_streams(study, references)
    rater_list = None if raters is None else list(raters)
    severity_list = None if severities is None else list(severities)
    category_list = None if categories is None else list(categories)
    chosen_spans = spans_of(
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
    for span in chosen_spans:
        by_item.setdefault((span.system, span.segment_id), []).append(span)
        annotated.add((span.system, span.segment_id))
    rank = {"critical": 0, "major": 1, "minor": 2, "neutral": 3}
    severity_keys = sorted(
        {s.severity for s in chosen_spans}, key=lambda k: (rank.get(k.lower(), 4), k)
    )
    category_keys = sorted({s.top_category for s in chosen_spans})
    # group key -> predicate over a span; "" is every span
    groups: list[tuple[str, str, str]] = [("all", "", "")]
    groups += [("severity", key, key) for key in severity_keys]
    groups += [("category", key, key) for key in category_keys]

    # Tokenise every distinct hypothesis once (batch tokenizer), and count each segment's reference
    # n-grams once for all systems.
    wanted = {
        (name, i)
        for name in names
        for i, segment in enumerate(study.segments)
        if study.systems[name][i] is not None and (name, segment.id) in annotated
    }
    distinct = list(dict.fromkeys(study.systems[name][i] for name, i in wanted))
    placed: dict[str, tuple[tuple[str, ...], list[int], list[int]]] = {
        text: (
            tuple(token for token, _, _ in offsets),
            [start for _, start, _ in offsets],
            [end for _, _, end in offsets],
        )
        for text, offsets in zip(
            distinct, token_offsets_corpus(distinct, tokenize, lowercase), strict=True
        )
    }
    tokenizer = get_tokenizer(tokenize, lowercase)
    reference_tokens = [
        tokenizer.tokenize_corpus([text or "" for text in stream]) for stream in streams
    ]
    top = max(orders)
    reference_counts: dict[int, dict[tuple[str, ...], int] | None] = {}
    n_segments = study.n_segments
    results: dict[int, dict[str, SystemAgreement]] = {n: {} for n in orders}
    for name in names:
        texts = study.systems[name]
        cells = {n: [[0, 0, 0, 0] for _ in groups] for n in orders}
        segment_counts = {n: np.full((n_segments, 4), -1, dtype=np.int64) for n in orders}
        annotated_segments = 0
        source_spans = 0
        for i, segment in enumerate(study.segments):
            if (name, i) not in wanted:
                continue
            if i not in reference_counts:
                refs = [
                    tokens[i]
                    for tokens, stream in zip(reference_tokens, streams, strict=True)
                    if stream[i]
                ]
                reference_counts[i] = _max_reference_counts(refs, top) if refs else None
            clip_of = reference_counts[i]
            if clip_of is None:
                continue
            annotated_segments += 1
            hypothesis, starts, ends = placed[texts[i]]
            everything = (1 << len(hypothesis)) - 1
            group_masks = [0] * len(groups)
            for span in by_item.get((name, segment.id), ()):
                if span.side != "target":
                    source_spans += 1
                    continue
                mask = _overlap_mask(starts, ends, span.start, span.end)
                for g, (kind, key, _) in enumerate(groups):
                    if (
                        kind == "all"
                        or (kind == "severity" and span.severity == key)
                        or (kind == "category" and span.top_category == key)
                    ):
                        group_masks[g] |= mask
            for n in orders:
                matched = _matched_mask(hypothesis, clip_of, n)
                unmatched = everything & ~matched
                table = cells[n]
                for g, error in enumerate(group_masks):
                    clean = everything & ~error
                    row = (
                        (matched & error).bit_count(),
                        (matched & clean).bit_count(),
                        (unmatched & error).bit_count(),
                        (unmatched & clean).bit_count(),
                    )
                    cell = table[g]
                    for k in range(4):
                        cell[k] += row[k]
                    if g == 0:
                        segment_counts[n][i] = row
        for n in orders:
            table = cells[n]

            def counts_of(g: int, table: list[list[int]] = table) -> AgreementCounts:
                return AgreementCounts(*table[g])

            results[n][name] = SystemAgreement(
                system=name,
                counts=counts_of(0),
                by_severity={
                    key: counts_of(g)
                    for g, (kind, key, _) in enumerate(groups)
                    if kind == "severity"
                },
                by_category={
                    key: counts_of(g)
                    for g, (kind, key, _) in enumerate(groups)
                    if kind == "category"
                },
                segment_counts=segment_counts[n],
                annotated_segments=annotated_segments,
                source_spans=source_spans,
            )
    seconds = time.perf_counter() - started
    filters = {"raters": rater_list, "severities": severity_list, "categories": category_list}
    return {
        n: ErrorAgreement(
            systems=results[n],
            segment_ids=tuple(study.segment_ids),
            references=tuple(study.references if references is None else references),
            max_order=n,
            tokenize=tokenize,
            lowercase=lowercase,
            filters=dict(filters),
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
