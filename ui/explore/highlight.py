"""HTML for match highlighting: which hypothesis n-grams BLEU counts, clips away or misses.

Every piece of user text (tokens, n-grams, reference and system names) goes through :func:`html.escape`
before it reaches HTML, so a hypothesis containing ``<script>`` shows as text and never runs.

For a chosen order n, each hypothesis token is styled by the n-gram occurrences of order n that cover it:

* **matched** (solid blue): inside at least one occurrence that BLEU counts;
* **clipped away** (orange, struck through): only inside occurrences beyond the clip count (the n-gram
  occurs more often in the hypothesis than in any single reference);
* **unmatched** (grey, dotted underline): only inside occurrences found in no reference.

Hovering a token (or focusing it with a click or Tab) pops up every covering n-gram with the references
that hold it, how often, and the clip count. Reference tokens that belong to an n-gram of the hypothesis
are marked too.

>>> print(token_span("<b>", "matched", "tip & more"))
<span class="bs-tok bs-matched" tabindex="0">&lt;b&gt;<span class="bs-sr"> (matched)</span><span class="bs-pop">tip &amp; more</span></span>

Where many hypotheses are shown at once (Explore's table of every system), the same text is the token's
``title`` (the browser's own tooltip): one element a token instead of two, which the browser re-draws
faster after a settings change (the ``char`` tokenizer makes ~1,900 tokens for 15 systems).

>>> print(token_span("<b>", "matched", 'say "hi"', popup=False))
<span class="bs-tok bs-matched" title="say &quot;hi&quot;">&lt;b&gt;<span class="bs-sr"> (matched)</span></span>

A page showing several blocks puts :data:`STYLE` and :data:`TABLE_STYLE` once in a block that does not
change with the settings and builds the others with ``style=False``: a ``<style>`` element in a block that is
re-drawn makes the browser re-style the whole page.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ui.app.markup import STYLE, label_html, md_escape, plain_html

STATUSES = ("matched", "clipped", "unmatched")


STATUS_LABELS = {"matched": "matched", "clipped": "clipped away", "unmatched": "unmatched"}


TABLE_STYLE = (
    "<style>.bs-table{border-collapse:collapse;width:100%;font-size:0.95rem}"
    ".bs-table th{font-weight:600;text-align:left;border-bottom:2px solid #ccc;padding:0.3rem}"
    ".bs-table td{border-bottom:1px solid #eee;padding:0.25rem 0.3rem;vertical-align:top}"
    ".bs-num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
    ".bs-sys{white-space:nowrap;font-weight:600}.bs-table .bs-seg{margin:0}"
    ".bs-table td:nth-child(2){width:55%}</style>"
)


"""Style of :func:`comparison_table`."""


@dataclass(frozen=True)
class Occurrence:
    """One hypothesis n-gram occurrence (normalised view of :mod:`bleu_core.engine.matches`)."""

    order: int
    start: int
    end: int
    ngram: tuple[str, ...]
    status: str
    ref_counts: tuple[int, ...]
    clip: int


@dataclass(frozen=True)
class NgramRow:
    """One hypothesis n-gram type of one order with its counts (for tables and the Learn page)."""

    ngram: tuple[str, ...]
    count: int
    ref_counts: tuple[int, ...]
    clip: int

    @property
    def text(self) -> str:
        return " ".join(self.ngram)

    @property
    def counted(self) -> int:
        return min(self.count, self.clip)


def hypothesis_tokens(matches: Any) -> list[str]:
    return list(matches.hypothesis_tokens)


def reference_tokens(matches: Any) -> list[list[str]]:
    return [list(t) for t in matches.reference_tokens]


def occurrences(matches: Any, order: int | None = None) -> list[Occurrence]:
    """The n-gram occurrences of ``matches`` (all orders, or one), as :class:`Occurrence`."""
    result = []
    for occ in matches.occurrences:
        if order is not None and occ.order != order:
            continue
        result.append(
            Occurrence(
                order=int(occ.order),
                start=int(occ.start),
                end=int(occ.end),
                ngram=tuple(occ.ngram),
                status=str(occ.status),
                ref_counts=tuple(int(c) for c in occ.ref_counts),
                clip=int(occ.clip),
            )
        )
    return result


def ngram_rows(matches: Any, order: int) -> list[NgramRow]:
    """Hypothesis n-gram types of ``order`` in order of first occurrence, with counts."""
    rows: dict[tuple[str, ...], list[Any]] = {}
    for occ in occurrences(matches, order):
        if occ.ngram in rows:
            rows[occ.ngram][1] += 1
        else:
            rows[occ.ngram] = [occ.ngram, 1, occ.ref_counts, occ.clip]
    return [NgramRow(*row) for row in rows.values()]


SPOKEN_STATUS = {**STATUS_LABELS, "ref": "also in the hypothesis"}


def spoken_status(status: str) -> str:
    """The token's status as text a screen reader says and the eye does not see (``.bs-sr``): colour,
    underline style and strike-through say the same to the eye.

    >>> spoken_status("clipped")
    '<span class="bs-sr"> (clipped away)</span>'
    """
    label = SPOKEN_STATUS.get(status)
    return f'<span class="bs-sr"> ({html.escape(label)})</span>' if label else ""


def token_span(
    text: str, status: str, tooltip: str, *, selected: bool = False, popup: bool = True
) -> str:
    """One token as a styled span with a hover/focus pop-up, or a ``title`` tooltip (both escaped)."""
    cls = f"bs-tok bs-{status}" + (" bs-sel" if selected else "")
    said = spoken_status(status)
    if not popup:
        tip = f' title="{html.escape(tooltip)}"' if tooltip else ""
        return f'<span class="{cls}"{tip}>{html.escape(text)}{said}</span>'
    pop = f'<span class="bs-pop">{html.escape(tooltip)}</span>' if tooltip else ""
    return f'<span class="{cls}" tabindex="0">{html.escape(text)}{said}{pop}</span>'


def _describe(occ: Occurrence, reference_names: Sequence[str]) -> str:
    holders = [
        f"{name} ×{count}"
        for name, count in zip(reference_names, occ.ref_counts, strict=False)
        if count
    ]
    where = ", ".join(holders) if holders else "no reference"
    return (
        f"“{' '.join(occ.ngram)}” ({STATUS_LABELS.get(occ.status, occ.status)})\n"
        f"  in: {where}; clip count {occ.clip}"
    )


def hypothesis_html(
    matches: Any,
    order: int,
    reference_names: Sequence[str],
    *,
    selected: tuple[str, ...] | None = None,
    popups: bool = True,
) -> str:
    """The hypothesis with tokens styled by the status of the order-``order`` n-grams covering them.

    ``popups=False``: the covering n-grams as each token's ``title`` (see :func:`token_span`).
    """
    tokens = hypothesis_tokens(matches)
    covering: list[list[Occurrence]] = [[] for _ in tokens]
    selected_positions: set[int] = set()
    for occ in occurrences(matches, order):
        for i in range(occ.start, min(occ.end, len(tokens))):
            covering[i].append(occ)
        if selected is not None and occ.ngram == selected:
            selected_positions.update(range(occ.start, occ.end))
    spans = []
    for i, token in enumerate(tokens):
        occs = covering[i]
        statuses = {o.status for o in occs}
        status = next((s for s in STATUSES if s in statuses), "none")
        tip = "\n".join(_describe(o, reference_names) for o in occs)
        spans.append(token_span(token, status, tip, selected=i in selected_positions, popup=popups))
    if not spans:
        return '<div class="bs-seg bs-none"><em>(empty)</em></div>'
    return '<div class="bs-seg">' + " ".join(spans) + "</div>"


def reference_html(
    ref_tokens: Sequence[str],
    hyp_ngrams: dict[tuple[str, ...], int],
    order: int,
    *,
    selected: tuple[str, ...] | None = None,
) -> str:
    """A reference with the tokens that belong to an order-``order`` n-gram of the hypothesis marked."""
    hit: dict[int, list[tuple[str, ...]]] = {}
    sel: set[int] = set()
    for start in range(len(ref_tokens) - order + 1):
        gram = tuple(ref_tokens[start : start + order])
        if gram in hyp_ngrams:
            for i in range(start, start + order):
                hit.setdefault(i, []).append(gram)
        if selected is not None and gram == selected:
            sel.update(range(start, start + order))
    spans = []
    for i, token in enumerate(ref_tokens):
        grams = hit.get(i)
        if grams:
            tip = "\n".join(f"“{' '.join(g)}” ×{hyp_ngrams[g]} in the hypothesis" for g in grams)
            spans.append(token_span(token, "ref", tip, selected=i in sel))
        else:
            cls = "bs-tok bs-none" + (" bs-sel" if i in sel else "")
            spans.append(f'<span class="{cls}">{html.escape(token)}</span>')
    if not spans:
        return '<div class="bs-seg bs-none"><em>(empty)</em></div>'
    return '<div class="bs-seg">' + " ".join(spans) + "</div>"


def legend_html() -> str:
    """A legend of the token styles, naming the shape of each as well as showing its colour."""
    return (
        '<div class="bs-legend">'
        '<span class="bs-tok bs-matched">matched</span> solid underline · '
        '<span class="bs-tok bs-clipped">clipped away</span> struck through · '
        '<span class="bs-tok bs-unmatched">unmatched</span> dotted underline · '
        '<span class="bs-tok bs-ref">in a reference: also in the hypothesis</span> green underline'
        "</div>"
    )


def segment_block(
    matches: Any,
    order: int,
    reference_names: Sequence[str],
    *,
    system: str | None = None,
    show_references: bool = True,
    selected: tuple[str, ...] | None = None,
    style: bool = True,
) -> str:
    """Style sheet (unless ``style=False``), hypothesis and (optionally) references of one segment."""
    parts = [STYLE] if style else []
    if system is not None:
        parts.append(label_html(system))
    parts.append(hypothesis_html(matches, order, reference_names, selected=selected))
    if show_references:
        hyp_counts: dict[tuple[str, ...], int] = {}
        for row in ngram_rows(matches, order):
            hyp_counts[row.ngram] = row.count
        for name, tokens in zip(reference_names, reference_tokens(matches), strict=False):
            parts.append(label_html(name))
            parts.append(reference_html(tokens, hyp_counts, order, selected=selected))
    return "\n".join(parts)


def texts_block(texts: Sequence[tuple[str, str | None]]) -> str:
    """The style sheets of a match-highlighting page, the legend, and labelled plain texts (source,
    references), escaped: the block of a page that does not change with the BLEU settings, so the other
    blocks can be built with ``style=False``.
    """
    return (
        STYLE
        + TABLE_STYLE
        + legend_html()
        + "".join(plain_html(text, label=label, style=False) for label, text in texts)
    )


def _fmt(value: float | None, spec: str = ".1f") -> str:
    if value is None or value != value:  # nan
        return "—"
    return format(value, spec)


HUMAN_MARK = "◆ human"
"""The marker of a human translation (plain text: an emoji shows as an empty box in some browsers)."""

NOT_IN_RELEASE = "not in the release"
"""A system's translation the study does not have (``None`` in the study)."""


def comparison_table(
    entries: Sequence[dict[str, Any]],
    order: int,
    reference_names: Sequence[str],
    criteria: Sequence[str] = (),
    *,
    style: bool = True,
) -> str:
    """One HTML table: each system's highlighted hypothesis beside its sentence-level numbers.

    Tokens carry their n-grams as ``title`` tooltips (one element a token; see :func:`token_span`). With
    ``style=False`` the style sheets (:data:`STYLE`, :data:`TABLE_STYLE`) are left to another block.

    ``entries`` hold ``system``, ``human`` (bool), ``matches`` (:class:`bleu_core.engine.matches.SegmentMatches`),
    ``bleu`` (0-100), ``counts`` ([(matches, total)] per order), ``bp``, ``scores`` ({criterion: value}).
    An entry's ``hypothesis_html``, when given, is drawn instead of the plain highlighting (Explore puts the
    raters' error spans there: :func:`ui.explore.span_view.mark_entries`; it must be escaped HTML).
    """
    head = (
        "".join(f"<th>p{n}</th>" for n in range(1, len(entries[0]["counts"]) + 1))
        if entries
        else ""
    )
    crit_head = "".join(f"<th>{html.escape(c)}</th>" for c in criteria)
    rows = []
    for e in entries:
        name = html.escape(e["system"]) + (
            f' <span class="bs-human" title="human translation">{HUMAN_MARK}</span>'
            if e["human"]
            else ""
        )
        if e.get("missing"):  # the release has no output of this system for this segment
            blanks = "".join("<td class='bs-num'>—</td>" for _ in e["counts"])
            crit = "".join("<td class='bs-num'>—</td>" for _ in criteria)
            rows.append(
                f"<tr><td class='bs-sys'>{name}</td><td><i>{NOT_IN_RELEASE}</i></td>"
                f"<td class='bs-num'>—</td>{blanks}<td class='bs-num'>—</td>{crit}</tr>"
            )
            continue
        counts = "".join(f'<td class="bs-num">{int(m)}/{int(t)}</td>' for m, t in e["counts"])
        crit = "".join(
            f'<td class="bs-num">{_fmt(e["scores"].get(c), ".2f")}</td>' for c in criteria
        )
        hyp = e.get("hypothesis_html") or hypothesis_html(
            e["matches"], order, reference_names, popups=False
        )
        rows.append(
            f"<tr><td class='bs-sys'>{name}</td>"
            f"<td>{hyp}</td>"
            f"<td class='bs-num'><b>{_fmt(e['bleu'])}</b></td>{counts}"
            f"<td class='bs-num'>{_fmt(e['bp'], '.3f')}</td>{crit}</tr>"
        )
    return (
        (STYLE + TABLE_STYLE if style else "")
        + "<table class='bs-table'><thead><tr><th>system</th><th>hypothesis (order "
        + str(int(order))
        + ")</th><th>BLEU</th>"
        + head
        + "<th>BP</th>"
        + crit_head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def browse_label(
    *,
    systems: Sequence[str],
    n_systems: int,
    docs: Sequence[str],
    bleu_range: tuple[float, float],
    search: str,
    sort: str,
    descending: bool,
) -> str:
    r"""The label of Explore's "Filter and sort" pop-over: the filters in force and the sort, user text escaped.

    (The seven browse widgets sit in a pop-over: drawn on the page they cost 40-55 ms of every re-run in the
    browser, see benchmarks/RESULTS-app.md.)

    >>> browse_label(systems=[], n_systems=13, docs=[], bleu_range=(0.0, 100.0), search="",
    ...              sort="sentence BLEU", descending=True)
    'Filter and sort · all 13 systems · sorted by sentence BLEU ↓'
    >>> print(browse_label(systems=["A"], n_systems=13, docs=["d1", "d2"], bleu_range=(20.0, 80.0),
    ...                    search="*cat*", sort="segment order", descending=False))
    Filter and sort · 1 of 13 systems · 2 documents · BLEU 20-80 · “\*cat\*” · sorted by segment order ↑
    """
    parts = [f"{len(systems)} of {n_systems} systems" if systems else f"all {n_systems} systems"]
    if docs:
        parts.append(f"{len(docs)} document{'s' if len(docs) != 1 else ''}")
    low, high = bleu_range
    if (low, high) != (0.0, 100.0):
        parts.append(f"BLEU {low:g}-{high:g}")
    if search.strip():
        parts.append(f"“{md_escape(search.strip())}”")
    parts.append(f"sorted by {sort} {'↓' if descending else '↑'}")
    return " · ".join(["Filter and sort", *parts])
