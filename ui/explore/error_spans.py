"""HTML of one translation with BLEU's matches *and* the raters' MQM error spans.

BLEU styles each token as :mod:`ui.explore.highlight` does (matched / clipped away / unmatched at the chosen
order); the raters' error spans are underlined below the text, by severity (Critical: dark red, wavy;
Major: red; Minor: amber, dashed; other severities: grey, dotted). Hovering a token (or focusing it with a
click or Tab) pops up its n-grams and every error span covering it: severity, category and rater.

The text is drawn from :meth:`bleu_core.study.error_agreement.SegmentTokens.pieces`: the original
characters cut at every token and span boundary, so a span that starts inside a token underlines only its
characters. This module only escapes each piece (:func:`html.escape`: a ``<script>`` in a translation, a
category or a rater name shows as text) and styles it.

>>> from bleu_core.study.error_agreement import token_records
>>> from bleu_core.study.spans import ErrorSpan
>>> span = ErrorSpan("A", "1", "<b>r</b>", "target", 4, 7, "Accuracy/<i>", "Major")
>>> seg = token_records("the cat sat", ["the cat"], [span])
>>> html_out = spans_hypothesis_html(seg, popups=True)
>>> "<b>" in html_out or "<i>" in html_out
False
>>> '<span class="bs-err bs-err-major">cat</span>' in html_out
True
>>> print(span_description(span))
Major error · Accuracy/&lt;i&gt; · rater &lt;b&gt;r&lt;/b&gt;
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

from bleu_core.study.error_agreement import AgreementCounts, SegmentTokens
from bleu_core.study.spans import ErrorSpan
from ui.explore.highlight import STATUS_LABELS, occurrences

SEVERITY_ORDER = ("critical", "major", "minor", "neutral")
"""Severities from worst to mildest (compared case-insensitively); others rank after these."""

SPAN_STYLE = (
    "<style>"
    # a span broken across two lines of a paragraph keeps its mark on both
    ".bs-err{padding-bottom:1px;-webkit-box-decoration-break:clone;box-decoration-break:clone}"
    ".bs-err-critical{box-shadow:inset 0 -4px 0 #7a0010}"
    ".bs-err-major{box-shadow:inset 0 -3px 0 #d62728}"
    ".bs-err-minor{background-image:linear-gradient(90deg,#e0a000 60%,transparent 40%);"
    "background-size:6px 2px;background-repeat:repeat-x;background-position:0 100%}"
    ".bs-err-other{background-image:linear-gradient(90deg,#888 40%,transparent 60%);"
    "background-size:4px 2px;background-repeat:repeat-x;background-position:0 100%}"
    ".bs-gap.bs-err{cursor:help}"
    ".bs-errtok{cursor:help}"
    ".bs-counts{font-size:0.9rem;margin:0.1rem 0 0.6rem 0;color:#333}"
    ".bs-counts b{font-variant-numeric:tabular-nums}"
    ".bs-src-err{position:relative;cursor:help;outline:none}"
    ".bs-src-err:hover>.bs-pop,.bs-src-err:focus>.bs-pop{display:block}"
    "</style>"
)
"""Style of the error spans (put once in a block that does not change, like :data:`ui.app.markup.STYLE`)."""


def severity_rank(severity: str) -> int:
    """0 for the worst severity; unknown severities after the known ones.

    >>> [severity_rank(s) for s in ("Major", "minor", "Critical", "Kudos")]
    [1, 2, 0, 4]
    """
    key = severity.strip().lower()
    return SEVERITY_ORDER.index(key) if key in SEVERITY_ORDER else len(SEVERITY_ORDER)


def severity_class(spans: Iterable[ErrorSpan]) -> str:
    """The CSS class of the worst severity among ``spans`` (``""`` without spans).

    >>> severity_class([ErrorSpan("A", "1", None, "target", 0, 1, "Other", "Minor"),
    ...                 ErrorSpan("A", "1", None, "target", 0, 1, "Other", "Major")])
    'bs-err bs-err-major'
    """
    ranks = [severity_rank(s.severity) for s in spans]
    if not ranks:
        return ""
    worst = min(ranks)
    name = SEVERITY_ORDER[worst] if worst < 3 else "other"
    return f"bs-err bs-err-{name}"


def rater_label(rater: str | None) -> str:
    """A rater's name for the screen (``None``: the study does not name the rater)."""
    return "(unnamed rater)" if rater is None else rater


def span_text(span: ErrorSpan) -> str:
    """One span in words, not escaped: ``"Major error · Accuracy/Mistranslation · rater r1"``."""
    return f"{span.severity} error · {span.category} · rater {rater_label(span.rater)}"


def span_description(span: ErrorSpan) -> str:
    """:func:`span_text`, escaped for HTML."""
    return html.escape(span_text(span))


def _unique(spans: Iterable[ErrorSpan]) -> list[ErrorSpan]:
    return sorted(dict.fromkeys(spans), key=lambda s: (severity_rank(s.severity), s.start, s.end))


def _ngram_lines(matches: Any, order: int, reference_names: Sequence[str]) -> list[list[str]]:
    """Per hypothesis token, the covering order-``order`` n-grams in words (not escaped)."""
    lines: list[list[str]] = [[] for _ in matches.hypothesis_tokens]
    for occ in occurrences(matches, order):
        holders = [
            f"{name} ×{count}"
            for name, count in zip(reference_names, occ.ref_counts, strict=False)
            if count
        ]
        text = (
            f"“{' '.join(occ.ngram)}” ({STATUS_LABELS.get(occ.status, occ.status)}) in: "
            f"{', '.join(holders) or 'no reference'}; clip count {occ.clip}"
        )
        for i in range(occ.start, min(occ.end, len(lines))):
            lines[i].append(text)
    return lines


def spans_hypothesis_html(
    segment: SegmentTokens,
    *,
    matches: Any = None,
    order: int = 1,
    reference_names: Sequence[str] = (),
    selected: Sequence[int] = (),
    popups: bool = True,
) -> str:
    """The hypothesis of ``segment`` (:class:`~bleu_core.study.error_agreement.SegmentTokens`): each token
    styled by its BLEU status, error spans underlined by severity, a pop-up per token naming its n-grams
    (when ``matches``, the segment's :class:`bleu_core.engine.matches.SegmentMatches`, is given) and the spans
    covering it. ``selected``: token indices outlined (an n-gram picked in a table). Characters between
    tokens that a span covers are underlined too, with the spans as their ``title``.
    """
    grams = (
        _ngram_lines(matches, order, reference_names)
        if matches is not None
        else [[] for _ in segment.tokens]
    )
    chosen = set(selected)
    out: list[str] = []
    pieces = segment.pieces()
    k = 0
    while k < len(pieces):
        piece = pieces[k]
        if piece.token is None:
            text = html.escape(piece.text)
            if piece.spans:
                tip = html.escape("\n".join(span_text(s) for s in _unique(piece.spans)))
                out.append(
                    f'<span class="bs-gap {severity_class(piece.spans)}" title="{tip}">{text}</span>'
                )
            else:
                out.append(text)
            k += 1
            continue
        index = piece.token
        token = segment.tokens[index]
        inner = []
        while k < len(pieces) and pieces[k].token == index:
            part = pieces[k]
            text = html.escape(part.text)
            cls = severity_class(part.spans)
            inner.append(f'<span class="{cls}">{text}</span>' if cls else text)
            k += 1
        cls = f"bs-tok bs-{token.status}" + (" bs-errtok" if token.spans else "")
        cls += " bs-sel" if index in chosen else ""
        lines = grams[index] if index < len(grams) else []
        lines = lines + [span_text(s) for s in _unique(token.spans)]
        tip = html.escape("\n".join(lines))
        body = "".join(inner)
        if not popups:
            title = f' title="{tip}"' if tip else ""
            out.append(f'<span class="{cls}"{title}>{body}</span>')
        else:
            pop = f'<span class="bs-pop">{tip}</span>' if tip else ""
            out.append(f'<span class="{cls}" tabindex="0">{body}{pop}</span>')
    if not out:
        return '<div class="bs-seg bs-none"><em>(empty)</em></div>'
    return '<div class="bs-seg bs-spans">' + "".join(out) + "</div>"


def source_spans_html(source: str, spans: Sequence[ErrorSpan]) -> str:
    """The source with the source-side spans (omissions: what the translation left out) underlined, each
    with a pop-up naming severity, category and rater; the text escaped."""
    cuts = sorted({0, len(source), *(c for s in spans for c in (s.start, s.end))})
    out = []
    for start, end in zip(cuts, cuts[1:], strict=False):
        if start >= end:
            continue
        text = html.escape(source[start:end])
        covering = [s for s in spans if s.overlaps(start, end)]
        if not covering:
            out.append(text)
            continue
        tip = html.escape("\n".join(span_text(s) for s in _unique(covering)))
        out.append(
            f'<span class="bs-src-err {severity_class(covering)}" tabindex="0">{text}'
            f'<span class="bs-pop">{tip}</span></span>'
        )
    return '<div class="bs-seg">' + "".join(out) + "</div>"


def counts_line(counts: AgreementCounts, *, order: int, annotated: bool = True) -> str:
    """The translation-level line under the hypothesis, as HTML (numbers only: nothing to escape).

    >>> print(counts_line(AgreementCounts(1, 15, 4, 15), order=1))  # doctest: +NORMALIZE_WHITESPACE
    <div class="bs-counts">BLEU vs the raters (order 1): <b>1</b> of 16 matched tokens lie inside error
    spans (<i>rewarded errors</i>) · <b>15</b> of 19 unmatched tokens lie outside every span
    (<i>penalised correct words</i>)</div>
    """
    if not annotated:
        return '<div class="bs-counts">BLEU vs the raters: no chosen rater annotated this translation.</div>'
    matched = counts.matched_in_error + counts.matched_clean
    unmatched = counts.unmatched_in_error + counts.unmatched_clean
    return (
        f'<div class="bs-counts">BLEU vs the raters (order {int(order)}): '
        f"<b>{counts.matched_in_error}</b> of {matched} matched tokens lie inside error spans "
        f"(<i>rewarded errors</i>) · <b>{counts.unmatched_clean}</b> of {unmatched} unmatched tokens "
        "lie outside every span (<i>penalised correct words</i>)</div>"
    )


def spans_legend_html(severities: Sequence[str]) -> str:
    """A legend of the span underlines for ``severities`` (escaped)."""
    marks = "".join(
        f'<span class="{severity_class([ErrorSpan("", "", None, "target", 0, 0, "", s)])}">'
        f"{html.escape(s)} error</span> "
        for s in sorted(set(severities), key=lambda s: (severity_rank(s), s))
    )
    return (
        f'<div class="bs-legend">Raters\' error spans (hover a token: severity, category, rater): '
        f"{marks}</div>"
    )


def empty_spans_note(spans: Sequence[ErrorSpan]) -> str:
    """A line listing spans that cover no character (``start == end``): errors without a place."""
    empty = [s for s in spans if s.start == s.end]
    if not empty:
        return ""
    items = "; ".join(span_description(s) for s in _unique(empty))
    return f'<div class="bs-counts">Marked without characters: {items}</div>'
