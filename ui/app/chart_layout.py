"""Sizes, axes and legends that keep every label of a chart readable, from 2 systems to 50 and more.

Vega-Lite's defaults suit a handful of categories: a fixed chart height, labels cut at 180 px, labels that
would overlap silently dropped (``labelOverlap``), a legend that stops after a few symbols. With 50
systems that hides most of the names. The charts of every room take their sizes and label settings from
here instead of repeating numbers:

* a chart's length along a category axis grows with the number of categories (:func:`band_length`);
* category axes never drop a label (``labelOverlap=False``) and cut a label only beyond
  :data:`MAX_LABEL_PX` (the marks' tooltips carry the full name) (:func:`category_axis`);
* legends list every entry (``symbolLimit=0``), in columns when there are many (:func:`complete_legend`),
  and the chart is made tall enough for them (:func:`legend_height`): Streamlit fits the whole chart,
  legend and turned axis labels included, into the chart's height (:func:`x_labels_room`);
* scatter labels are drawn for every point up to :data:`SCATTER_LABELS_UP_TO` points, beyond that on hover
  unless the reader asks for all of them (:func:`scatter_labels_default`).

The same chart object goes to the screen and to the PNG/SVG export, so the export gets the same sizes.

>>> band_length(3), band_length(50)
(120, 1100)
>>> label_limit(["A", "Facebook-AI"]) < label_limit(["a-rather-long-system-name-2021"])
True
>>> legend_columns(9), legend_columns(50)
(1, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

ROW_PX = 22
"""Pixels per category along an axis (one label line of an 11 px font, with air)."""

MIN_BAND_PX = 120
"""The shortest category axis (a chart with 2-3 categories)."""

CHAR_PX = 6.6
"""Rough width of one character of the 11 px label font (Vega's default sans-serif)."""

MAX_LABEL_PX = 360
"""Labels longer than this (≈ 55 characters) are cut with an ellipsis; the tooltip has the full name."""

LEGEND_ROWS = 20
"""Legend entries per column before the legend wraps into another column."""

LEGEND_ROW_PX = 28
"""Height of one legend entry as the browser draws it (Streamlit's theme: about 26 px), with air."""

SCATTER_LABELS_UP_TO = 12
"""A scatter labels every point up to this many points; beyond, labels show on hover (toggle on the page)."""

FONT_PX = 11


def band_length(n: int, *, per: int = ROW_PX, minimum: int = MIN_BAND_PX) -> int:
    """Length (px) of a category axis with ``n`` categories: ``per`` px each, at least ``minimum``."""
    return max(minimum, per * max(0, n))


CHROME_PX = 110
"""Height of a chart's title, subtitle and x axis: Streamlit fits the whole chart into its height
(Vega's ``autosize: fit``), so a chart sized for its rows adds this (:func:`rows_height`)."""


def rows_height(n: int, *, per: int = ROW_PX) -> int:
    """Height (px) of a chart with ``n`` rows on its y axis: the rows and the chart's title and x axis.

    >>> rows_height(7, per=26), rows_height(50)
    (292, 1210)
    """
    return band_length(n, per=per) + CHROME_PX


def label_limit(names: Sequence[Any], *, maximum: int = MAX_LABEL_PX) -> int:
    """Pixels a label may take so that the longest of ``names`` is shown whole (up to ``maximum``)."""
    longest = max((len(str(n)) for n in names), default=1)
    return min(maximum, int(math.ceil(longest * CHAR_PX)) + 8)


def x_label_angle(names: Sequence[Any], length_px: float | None = None) -> int:
    """0° when the labels fit side by side on an x axis of ``length_px`` pixels, else -45° or -90° (many).

    >>> x_label_angle(["1", "2", "3"]), x_label_angle(["system-%d" % i for i in range(40)], 600)
    (0, -90)
    """
    n = max(1, len(names))
    longest = max((len(str(v)) for v in names), default=1)
    if length_px is None:
        length_px = band_length(n, per=40)
    if longest * CHAR_PX + 6 <= length_px / n:
        return 0
    return -45 if n <= 20 else -90


def category_axis(
    names: Sequence[Any],
    *,
    title: str | None = None,
    x: bool = False,
    length_px: float | None = None,
) -> Any:
    """An axis that shows every one of ``names`` (no overlap dropping, cut only beyond MAX_LABEL_PX)."""
    import altair as alt

    kwargs: dict[str, Any] = {
        "labelOverlap": False,
        "labelLimit": label_limit(names),
        "labelFontSize": FONT_PX,
    }
    if title is not None:
        kwargs["title"] = title
    if x:
        angle = x_label_angle(names, length_px)
        kwargs["labelAngle"] = angle
        if angle:
            kwargs["labelAlign"] = "right"
            kwargs["labelBaseline"] = "middle" if angle == -90 else "top"
    return alt.Axis(**kwargs)


def chart_title(title: str, subtitle: str = "") -> Any:
    """A chart's title, with its subtitle when there is one (every chart carries its own title, so that an
    exported PNG/SVG stands on its own)."""
    import altair as alt

    return alt.TitleParams(title, subtitle=subtitle) if subtitle else alt.TitleParams(title)


def legend_columns(n: int) -> int:
    """Columns of a legend with ``n`` entries (:data:`LEGEND_ROWS` per column)."""
    return max(1, math.ceil(n / LEGEND_ROWS))


def complete_legend(
    names: Sequence[Any], *, title: str | None = None, orient: str = "right"
) -> Any:
    """A legend that lists every one of ``names``: no symbol limit, labels whole, in columns if many."""
    import altair as alt

    kwargs: dict[str, Any] = {
        "symbolLimit": 0,
        "labelLimit": label_limit(names),
        "columns": legend_columns(len(names)),
        "orient": orient,
        "labelFontSize": FONT_PX,
        "rowPadding": 2,
        "symbolSize": 60,
    }
    if title is not None:
        kwargs["title"] = title
    return alt.Legend(**kwargs)


def legend_height(n: int) -> int:
    """Height (px) of the whole chart that a legend of ``n`` entries (in :func:`legend_columns`) needs.

    Streamlit fits a chart into its height (Vega's ``autosize: fit``), legend included: a legend taller
    than the chart is cut off, so a chart with a long legend must be at least this tall.

    >>> legend_height(5), legend_height(50)
    (220, 556)
    """
    rows = math.ceil(n / legend_columns(n))
    return rows * LEGEND_ROW_PX + 80


def x_labels_room(names: Sequence[Any], length_px: float | None = None) -> int:
    """Extra chart height (px) that the labels of an x axis over ``names`` take when they are turned.

    Streamlit fits axis labels into the chart's height, so a chart with turned labels is made taller by
    this much and keeps its plot area.

    >>> x_labels_room(["a", "b"]), x_labels_room(["system-%d" % i for i in range(40)], 600) > 60
    (0, True)
    """
    angle = x_label_angle(names, length_px)
    if angle == 0:
        return 0
    room = label_limit(names)
    return room if angle == -90 else int(room * 0.72)


def scatter_labels_default(n_points: int) -> bool:
    """Whether a scatter of ``n_points`` labels every point by default (else: labels on hover).

    >>> scatter_labels_default(8), scatter_labels_default(50)
    (True, False)
    """
    return n_points <= SCATTER_LABELS_UP_TO


def matrix_cell(n: int) -> int:
    """Side (px) of one cell of an n × n matrix: large enough for the cell's text, smaller when n is large.

    >>> matrix_cell(5), matrix_cell(50)
    (34, 18)
    """
    return 34 if n <= 15 else 24 if n <= 30 else 18
