"""Presentation mode: one switch that sets Learn BLEU and the projector in type read from the back of a room.

Slides use about 32 px text at 1920×1080; the pages' usual 16 px body and Vega's 11 px chart labels are read
only from the front rows. With the switch on:

* the page's root font size becomes :data:`BODY_PX` (Streamlit sizes text, headings, tables and formulas in
  ``rem``, so everything grows together) and the content may use the whole width of the screen;
* every chart drawn through :func:`show_altair` has its labels at :data:`LABEL_PX` or more and its titles at
  :data:`TITLE_PX` or more (:func:`scale_fonts`: the chart's own font sizes, where it sets them, are raised
  too, never lowered; a label width limit set for a font grows with it).

The switch lives in the address (``?present=1``): a reload (F5), a bookmark or a second tab keeps it.

>>> spec = {"mark": {"type": "text", "fontSize": 10}, "encoding": {"x": {"axis": {"labelFontSize": 11}}}}
>>> scaled = scale_fonts(spec)
>>> scaled["mark"]["fontSize"], scaled["encoding"]["x"]["axis"]["labelFontSize"], scaled["config"]["axis"]
(22, 22, {'labelFontSize': 22, 'titleFontSize': 26})
>>> spec["mark"]["fontSize"]  # the chart given is not changed
10
>>> scale_fonts({"axis": {"labelFontSize": 11, "labelLimit": 110}})["axis"]["labelLimit"]  # widths grow too
220.0
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import streamlit as st

from ui.app import state as K

#: The address parameter that keeps presentation mode across reloads.
PRESENT_PARAM = "present"
#: Body text in presentation mode (px; slides use ≈ 32 px, 28 px is the least read from the back).
BODY_PX = 28
#: Chart labels (axis labels, legend labels, text marks) and chart titles in presentation mode (px).
LABEL_PX = 22
TITLE_PX = 26

PRESENTATION_STYLE = f"""
<style>
html {{ font-size: {BODY_PX}px; }}
.block-container, [data-testid="stMainBlockContainer"] {{ max-width: 100% !important; }}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stTableStyledTable"],
[data-testid="stMain"] [data-testid="stMetricLabel"] p {{ font-size: 1rem !important; }}
h1 {{ font-size: 2.2rem !important; }}
h2 {{ font-size: 1.6rem !important; }}
h3 {{ font-size: 1.3rem !important; }}
</style>
"""

#: Vega's default label size (px); a chart with a fixed height gets EXTRA_HEIGHT_PER_PX px more per px its
#: labels grow (about six lines of text: title, subtitle, axis labels and titles, legend), so its plot keeps
#: its room.
VEGA_LABEL_PX = 11
EXTRA_HEIGHT_PER_PX = 6
_PARTS = ("layer", "vconcat", "hconcat", "concat")
#: Which font-size keys of a Vega-Lite spec are labels and which are titles.
_LABEL_KEYS = frozenset({"labelFontSize", "fontSize"})
_TITLE_KEYS = frozenset({"titleFontSize", "subtitleFontSize"})


def _raise_sizes(node: Any, label_px: int, title_px: int) -> Any:
    if isinstance(node, Mapping):
        out: dict[str, Any] = {}
        size, limit = node.get("labelFontSize"), node.get("labelLimit")
        if isinstance(size, int | float) and isinstance(limit, int | float) and 0 < size < label_px:
            out["labelLimit"] = (
                limit * label_px / size
            )  # a label cut at N px was sized for its font
        for key, value in node.items():
            if key in out:
                continue
            if key in _TITLE_KEYS and isinstance(value, int | float):
                out[key] = max(value, title_px)
            elif key in _LABEL_KEYS and isinstance(value, int | float):
                out[key] = max(value, label_px)
            elif key in ("datasets", "data", "values"):
                out[key] = value  # the data: never a font size
            else:
                out[key] = _raise_sizes(value, label_px, title_px)
        return out
    if isinstance(node, list):
        return [_raise_sizes(v, label_px, title_px) for v in node]
    return node


def scale_fonts(
    spec: Mapping[str, Any], *, label_px: int = LABEL_PX, title_px: int = TITLE_PX
) -> dict[str, Any]:
    """A copy of the Vega-Lite *spec* whose labels are at least *label_px* and titles at least *title_px*:
    every font size the spec sets is raised to that floor, and the ``config`` gives the floor to the axes,
    legends, headers, titles and text marks that set none; a fixed height grows with the labels.

    >>> scale_fonts({"height": 220, "mark": "line"})["height"]
    286
    """
    scaled: dict[str, Any] = _raise_sizes(copy.deepcopy(dict(spec)), label_px, title_px)
    extra = EXTRA_HEIGHT_PER_PX * max(0, label_px - VEGA_LABEL_PX)
    for part in [scaled, *(c for k in _PARTS for c in scaled.get(k, []) if isinstance(c, dict))]:
        if isinstance(part.get("height"), int | float):  # a fixed height: room for the larger text
            part["height"] = part["height"] + extra
    config = scaled.setdefault("config", {})
    for part in ("axis", "legend", "header"):
        entry = config.setdefault(part, {})
        entry["labelFontSize"] = max(entry.get("labelFontSize", 0), label_px)
        entry["titleFontSize"] = max(entry.get("titleFontSize", 0), title_px)
    title = config.setdefault("title", {})
    title["fontSize"] = max(title.get("fontSize", 0), title_px)
    title["subtitleFontSize"] = max(title.get("subtitleFontSize", 0), label_px)
    for mark in ("text", "mark"):
        entry = config.setdefault(mark, {})
        entry["fontSize"] = max(entry.get("fontSize", 0), label_px)
    return scaled


def presenting() -> bool:
    """Whether presentation mode is on (first read from the address: ``?present=1``)."""
    state = st.session_state
    if K.PRESENT not in state:
        state[K.PRESENT] = st.query_params.get(PRESENT_PARAM) == "1"
    return bool(state[K.PRESENT])


def _keep_in_address() -> None:
    if st.session_state.get(K.PRESENT):
        st.query_params[PRESENT_PARAM] = "1"
    elif PRESENT_PARAM in st.query_params:
        del st.query_params[PRESENT_PARAM]


def presentation_switch(where: Any = None) -> bool:
    """The switch (in *where*, e.g. a column; the page by default) and, when on, the large-type style.
    Returns whether presentation mode is on."""
    presenting()
    target = where if where is not None else st
    on = bool(
        target.toggle(
            "Presentation mode",
            key=K.PRESENT,
            on_change=_keep_in_address,
            help=f"Large type for a projector: {BODY_PX} px text, chart labels {LABEL_PX} px and more. "
            "Kept in the address (?present=1), so a reload keeps it.",
        )
    )
    if on:
        st.query_params[PRESENT_PARAM] = "1"
        st.html(PRESENTATION_STYLE)
    return on


def show_altair(chart: Any, **kwargs: Any) -> None:
    """``st.altair_chart(chart, width="stretch", **kwargs)``; in presentation mode the chart's spec with
    :func:`scale_fonts` applied."""
    kwargs.setdefault("width", "stretch")
    if not st.session_state.get(K.PRESENT):
        st.altair_chart(chart, **kwargs)
        return
    st.vega_lite_chart(scale_fonts(chart.to_dict()), **kwargs)
