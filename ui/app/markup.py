"""Safe text for every room: the shared style sheet, user text as escaped HTML, Markdown escaping.

User text (study, system, criterion and rater names, translations) never reaches ``st.markdown`` raw:
:func:`md_escape` for Markdown, :func:`html_text` inside HTML (escaped for HTML *and* defused for the
Markdown pass Streamlit runs over it), :func:`label_html` / :func:`plain_html` for labelled blocks, and
:func:`markdown_table` builds tables from escaped cells.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

STYLE = """
<style>
/* A segment may be a paragraph of several sentences (WMT24+): its lines wrap, a word longer than the line
   (a URL, a run of CJK text one tokenizer keeps whole) breaks rather than widening the page, and a
   marked token broken across two lines keeps its background and underline on both. */
.bs-seg { line-height: 2.1; font-size: 1.02rem; margin: 0.1rem 0 0.5rem 0; overflow-wrap: anywhere; }
.bs-tok { position: relative; padding: 0.12rem 0.18rem; margin: 0 0.04rem; border-radius: 0.25rem;
          cursor: help; outline: none; -webkit-box-decoration-break: clone;
          box-decoration-break: clone; }
.bs-matched { background: #cfe3ff; color: #0b3d91; border-bottom: 2px solid #2f6fdd; }
.bs-clipped { background: #ffe1c2; color: #8a3b00; text-decoration: line-through;
              border-bottom: 2px dashed #e07000; }
.bs-unmatched { color: #555; border-bottom: 2px dotted #9a9a9a; }
.bs-none { color: #888; }
.bs-ref { background: #e3f4e1; border-bottom: 2px solid #3c9a3c; }
.bs-sel { outline: 2px solid #d0006f; outline-offset: 1px; }
.bs-pop { display: none; position: absolute; left: 0; top: 1.9rem; z-index: 20; min-width: 16rem;
          max-width: 28rem; white-space: pre-line; background: #fff; color: #222; text-decoration: none;
          border: 1px solid #bbb; border-radius: 0.35rem; padding: 0.35rem 0.5rem; font-size: 0.82rem;
          line-height: 1.35; box-shadow: 0 2px 8px rgba(0,0,0,0.18); }
.bs-tok:hover > .bs-pop, .bs-tok:focus > .bs-pop { display: block; }
.bs-legend span { margin-right: 0.8rem; }
.bs-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
         white-space: nowrap; }
.bs-tok:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
.bs-label { font-size: 0.8rem; color: #666; margin-bottom: -0.2rem; }
/* A formula wider than the page would scroll inside a box no keyboard can reach (WCAG 2.1.1): it is drawn
   smaller instead, and the long ones are written on several lines (pages/learn.py). */
.katex-display { overflow: visible !important; }
@media (max-width: 640px) { .katex-display { font-size: 0.72em; } }
</style>
"""


def label_html(text: str) -> str:
    """A small label line (escaped)."""
    return f'<div class="bs-label">{html.escape(text)}</div>'


def plain_html(text: str | None, *, label: str | None = None, style: bool = True) -> str:
    r"""Untokenised text (a source sentence) in the same layout, escaped for HTML and Markdown
    (:func:`html_text`: the block may reach ``st.markdown``, where a blank line inside the text ends the HTML
    block and Markdown would read what follows); ``style=False``: no style sheet.

    >>> plain_html("a\n\n![x](http://e/p.png)", style=False)
    '<div class="bs-seg">a\n\n&#33;&#91;x&#93;&#40;http://e/p.png&#41;</div>'
    """
    body = html_text(text) if text else "<em>(none)</em>"
    head = label_html(label) if label else ""
    return f'{STYLE if style else ""}{head}<div class="bs-seg">{body}</div>'


_MARKDOWN_SPECIALS = set("\\`*_{}[]()#+-.!|<>~$:")


def md_escape(text: str) -> str:
    r"""Escape user text for Streamlit markdown (labels, captions, headers): it shows literally.

    >>> md_escape("![x](http://e/i.png) *a*")
    '\\!\\[x\\]\\(http\\:\\/\\/e\\/i\\.png\\) \\*a\\*'
    """
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS or ch == "/" else ch for ch in str(text))


def markdown_table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    r"""A markdown table for ``st.markdown``; every cell is escaped (user text shows literally).

    Light to draw: no data-grid script in the browser, no pandas on the server (small tables only).

    >>> print(markdown_table(["system", "n"], [("a|b", 3), ("x\ny", None)]))
    | system | n |
    |---|---|
    | a\|b | 3 |
    | x y |  |
    """

    def cell(value: object) -> str:
        return md_escape(" ".join(str("" if value is None else value).split()))

    lines = ["| " + " | ".join(cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


_MARKDOWN_ENTITIES = {ord(ch): f"&#{ord(ch)};" for ch in "\\`*_[]()!|~$"}


def html_text(text: str) -> str:
    """User text for HTML that ``st.markdown(..., unsafe_allow_html=True)`` renders: HTML-escaped
    (:func:`html.escape`), and every Markdown sign written as a character reference, so no Markdown parser
    can make a link, an image or emphasis of it, whatever block the HTML ends up in.

    >>> html_text("![x](http://e/x.png) <b>")
    '&#33;&#91;x&#93;&#40;http://e/x.png&#41; &lt;b&gt;'
    """
    return html.escape(str(text)).translate(_MARKDOWN_ENTITIES)
