"""One hypothesis token by token: what BLEU credited, where each token sits, which error spans cover it.

:func:`token_records` places the tokenizer's tokens back in the text (:func:`bleu_core.tokenize.token_offsets.token_offsets`),
asks :func:`bleu_core.engine.matches.match_provenance` which of them lie in a matched n-gram of the chosen max order,
and attaches the target-side error spans that overlap each token's characters. The result,
:class:`SegmentTokens`, counts itself into the 2 × 2 table (:class:`~bleu_core.study.agreement_counts.AgreementCounts`)
and cuts the text into :class:`TextPiece` s a page can draw: every character once, in order, with its token's
status and the spans over it. :func:`segment_token_records` does the same for one item of a study. The rules
themselves (what "matched" and "inside a span" mean) are written out in :mod:`bleu_core.study.error_agreement`.

>>> seg = token_records("a big cat", ["a cat"])
>>> [(t.text, t.status) for t in seg.tokens]
[('a', 'matched'), ('big', 'unmatched'), ('cat', 'matched')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bleu_core.engine.matches import Status, match_provenance
from bleu_core.errors import BleuOptionError, StudyError
from bleu_core.study.agreement_counts import AgreementCounts
from bleu_core.study.spans import ErrorSpan, spans_of
from bleu_core.tokenize.token_offsets import token_offsets, tokens_overlapping

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = [
    "SegmentTokens",
    "TextPiece",
    "TokenRecord",
    "check_max_order",
    "reference_streams",
    "segment_token_records",
    "token_records",
]


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
    check_max_order(max_order)
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
    refs = [ref for stream in reference_streams(study, references) if (ref := stream[i])]
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


def check_max_order(max_order: int) -> None:
    """Raise :class:`~bleu_core.errors.BleuOptionError` unless ``max_order`` is a whole number from 1 to 9."""
    if not isinstance(max_order, int) or isinstance(max_order, bool) or not 1 <= max_order <= 9:
        raise BleuOptionError(f"max order must be a whole number from 1 to 9, got {max_order!r}")


def reference_streams(study: Study, names: Sequence[str] | None) -> list[list[str | None]]:
    """The texts of the reference streams ``names`` (all of the study's when ``None``), one list per stream."""
    chosen = list(study.references) if names is None else list(names)
    unknown = [name for name in chosen if name not in study.references]
    if unknown or not chosen:
        raise StudyError(
            f"unknown reference {', '.join(map(repr, unknown)) or '(none chosen)'}; the study has: "
            f"{', '.join(study.references)}",
            file=study.name,
        )
    return [study.references[name] for name in chosen]
