"""Text in ``plain_html`` blocks cannot become Markdown when the block reaches ``st.markdown``.

The judges' screen (``ui.campaigns.rating_widgets.text_box``) renders ``plain_html`` with
``st.markdown(..., unsafe_allow_html=True)``. A blank line inside the text ends CommonMark's HTML block, and
Markdown then reads the rest: an image written in a translation (``![x](https://tracker/p.png)``) would be
fetched by every judge's browser.
"""

from __future__ import annotations

import pytest

from ui.app.markup import plain_html

PAYLOADS = [
    "fine\n\n![x](https://tracker.example/p.png)",
    "fine\n\n[click](javascript:alert(1))",
    "fine\n\n**loud** _words_ `code`",
]


@pytest.mark.parametrize("text", PAYLOADS)
def test_markdown_signs_in_the_text_are_character_references(text):
    body = plain_html(text, label="Translation")
    for sign in ("![", "](", "**", "_words_", "`code`"):
        assert sign not in body


def test_html_in_the_text_stays_escaped_and_the_words_stay():
    body = plain_html("<img src=x onerror=alert(1)> the cat", style=False)
    assert "<img" not in body and "&lt;img" in body and "the cat" in body
