"""Altair charts of the analysis pages (pure functions: DataFrame in, chart out; no ``st.*`` here).

Each chart carries its own title so that the PNG/SVG export stands on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import altair as alt
import numpy as np

from ui.app import chart_layout as layout

# Segment-level scatters have ~8k points (15 systems × 529 segments): above altair's 5000-row guard.
alt.data_transformers.disable_max_rows()

# Encodings are channel objects (alt.X2("x1:Q"), alt.Tooltip("count:Q")), never bare shorthand strings:
# altair turns a string into a channel through a schema lookup that costs milliseconds per use, on
# every re-run of a page after a settings change.

if TYPE_CHECKING:  # pandas lives in the frames modules; here it is only a type
    import pandas as pd


HUMAN_SHAPE = alt.Scale(domain=[False, True], range=["circle", "diamond"])


HUMAN_LEGEND = alt.Legend(labelExpr="datum.label == 'true' ? 'human' : 'machine'")


HUMAN_COLORS = alt.Scale(domain=[False, True], range=["#2f6fdd", "#d0006f"])


#: Where a point's label goes, tried in this order: (name, align, dx, dy) in pixels; ``hidden`` labels are
#: drawn only under the pointer (and are in the tooltip and the table).
LABEL_PLACES = (
    ("right-above", "left", 7, -6),
    ("right-below", "left", 7, 12),
    ("left-above", "right", -7, -6),
    ("left-below", "right", -7, 12),
)
HIDDEN = "hidden"


def label_places(
    xs: Sequence[float],
    ys: Sequence[float],
    labels: Sequence[str],
    *,
    width_px: float = 600.0,
    height_px: float = 380.0,
) -> list[str]:
    """A place from :data:`LABEL_PLACES` for each point's label such that no two labels overlap (nor a
    label another point), greedily from the top of the chart; a label with no free place is
    :data:`HIDDEN` (shown on hover). Positions are the points' scaled to a ``width_px`` × ``height_px``
    plot (the axes span the data, ``zero=False``); a label is 11 px high and ``len × 6.6`` px wide.

    >>> label_places([10.0, 10.01, 30.0], [80.0, 80.0, 50.0], ["Aya23", "Llama3-70B", "X"])
    ['right-above', 'right-below', 'right-above']
    """
    x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    if not x.size:
        return []
    px = (x - np.nanmin(x)) / (float(np.nanmax(x) - np.nanmin(x)) or 1.0) * width_px
    py = (np.nanmax(y) - y) / (float(np.nanmax(y) - np.nanmin(y)) or 1.0) * height_px  # 0: top
    points = [(a - 4, b - 4, a + 4, b + 4) for a, b in zip(px, py, strict=True)]
    placed: list[tuple[float, float, float, float]] = []
    places = [HIDDEN] * len(labels)
    for i in sorted(range(len(labels)), key=lambda k: (py[k], px[k])):
        width = len(str(labels[i])) * layout.CHAR_PX
        others = [b for k, b in enumerate(points) if k != i] + placed
        for name, align, dx, dy in LABEL_PLACES:
            left = px[i] + dx if align == "left" else px[i] + dx - width
            box = (left, py[i] + dy - 10, left + width, py[i] + dy + 1)
            if not any(
                box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in others
            ):
                places[i] = name
                placed.append(box)
                break
    return places


def regression_scatter(
    frame: pd.DataFrame,
    *,
    x: str,
    y: str,
    title: str,
    subtitle: str = "",
    label: str = "system",
    x_title: str | None = None,
    y_title: str | None = None,
    all_labels: bool | None = None,
) -> alt.LayerChart:
    """System-level scatter of ``y`` against ``x`` with the least-squares line (paper, Figures 5-6).

    ``frame`` needs columns ``x``, ``y``, ``label`` and a boolean ``human`` (human translations are diamonds).
    ``all_labels``: write every point's label (default: when there are few points,
    :func:`ui.app.chart_layout.scatter_labels_default`); otherwise a label appears on the point under the
    pointer (the tooltip has it too), so 50 close points do not bury each other in text.
    """
    if all_labels is None:
        all_labels = layout.scatter_labels_default(len(frame))
    # Built from constructors, the data on the layer chart only: chained ``.mark_*()``/``.encode()``
    # calls and ``a + b`` copy the whole chart each time (and ``+`` hashes the data of every layer),
    # 11 ms per chart instead of 2 on every re-run of the page. The Vega-Lite spec is the same.
    enc_x = alt.X(f"{x}:Q", title=x_title or x, scale=alt.Scale(zero=False))
    enc_y = alt.Y(f"{y}:Q", title=y_title or y, scale=alt.Scale(zero=False))
    line = alt.Chart(
        mark=alt.MarkDef(type="line", color="#888", strokeDash=[5, 3]),
        encoding=alt.FacetedEncoding(x=enc_x, y=enc_y),
        transform=[alt.RegressionTransform(regression=y, on=x, method="linear")],
    )
    hover = alt.selection_point(
        name="hovered", on="pointerover", nearest=True, clear="pointerout", empty=False
    )
    points = alt.Chart(
        params=[hover.param],
        mark=alt.MarkDef(type="point", size=80, filled=True),
        encoding=alt.FacetedEncoding(
            x=enc_x,
            y=enc_y,
            shape=alt.Shape("human:N", scale=HUMAN_SHAPE, title="translation", legend=HUMAN_LEGEND),
            color=alt.Color("human:N", scale=HUMAN_COLORS, legend=None),
            tooltip=[
                alt.Tooltip(f"{label}:N"),
                alt.Tooltip(f"{x}:Q", format=".3f"),
                alt.Tooltip(f"{y}:Q", format=".3f"),
            ],
        ),
    )
    on_hover = alt.condition(hover, alt.value(1.0), alt.value(0.0), empty=False)
    shown: dict[str, Any] = {"opacity": on_hover}
    if all_labels:  # every label in a free place (label_places); one without stays on hover
        frame = frame.assign(
            label_place=label_places(frame[x].tolist(), frame[y].tolist(), frame[label].tolist())
        )
        shown = {}
    else:
        frame = frame.assign(label_place=LABEL_PLACES[0][0])
    labels = [
        alt.Chart(
            mark=alt.MarkDef(type="text", align=align, dx=dx, dy=dy, fontSize=11),
            encoding=alt.FacetedEncoding(x=enc_x, y=enc_y, text=alt.Text(f"{label}:N"), **shown),
            transform=[alt.FilterTransform(f"datum.label_place == '{name}'")],
        )
        for name, align, dx, dy in LABEL_PLACES
    ]
    hidden = alt.Chart(  # labels without a free place: under the pointer only
        mark=alt.MarkDef(type="text", align="left", dx=7, dy=-6, fontSize=11),
        encoding=alt.FacetedEncoding(
            x=enc_x, y=enc_y, text=alt.Text(f"{label}:N"), opacity=on_hover
        ),
        transform=[alt.FilterTransform(f"datum.label_place == '{HIDDEN}'")],
    )
    return alt.LayerChart(
        data=frame,
        layer=[line, points, *labels, hidden],
        title=layout.chart_title(title, subtitle),
        height=max(380, layout.band_length(len(frame), per=10)),
    )


def normalised_chart(frame: pd.DataFrame, *, title: str, subtitle: str = "") -> alt.Chart:
    """Range-normalised scores per system, one line per series (paper, Figure 7).

    ``frame`` is :func:`ui.analysis.frames.normalised_frame` output; systems are shown in the order of its
    ``position`` column (or, without one, in the order of the rows).
    """
    # Sorted by a column of the data, not by a list of names in the spec: the spec then stays the same
    # when the scores (and so the order) change, and the browser updates the chart in place
    # (ui.app.context.show_chart).
    sort = (
        alt.EncodingSortField(field="position", op="min")
        if "position" in frame.columns
        else list(dict.fromkeys(frame["system"]))
    )
    systems = list(dict.fromkeys(frame["system"]))
    series = list(dict.fromkeys(frame["series"]))
    width = layout.band_length(len(systems), per=24, minimum=400)
    return alt.Chart(
        frame,
        mark=alt.MarkDef(type="line", point=alt.OverlayMarkDef(size=70, filled=True)),
        encoding=alt.FacetedEncoding(
            x=alt.X(
                "system:N",
                sort=sort,
                axis=layout.category_axis(
                    systems, title="system (ordered by BLEU)", x=True, length_px=width
                ),
            ),
            y=alt.Y(
                "normalised:Q",
                title="score normalised by its range",
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color(
                "series:N", legend=layout.complete_legend(series, title=None, orient="top")
            ),
            tooltip=[
                alt.Tooltip("system:N"),
                alt.Tooltip("series:N"),
                alt.Tooltip("score:Q", format=".3f"),
                alt.Tooltip("normalised:Q", format=".3f"),
            ],
        ),
        title=layout.chart_title(title, subtitle),
        height=360 + layout.x_labels_room(systems, width),
        width=width,
    )


def segment_density(
    cells: pd.DataFrame,
    line: pd.DataFrame,
    *,
    title: str,
    subtitle: str = "",
    x_title: str = "sentence BLEU",
    y_title: str = "human score",
) -> alt.LayerChart:
    """Segment level as a density (counts per cell, :func:`ui.analysis.frames.binned_counts`) with the fitted line.

    ``line`` holds two points ``x``, ``y`` of the least-squares line.
    """
    rects = alt.Chart(
        cells,
        mark=alt.MarkDef(type="rect"),
        encoding=alt.FacetedEncoding(
            x=alt.X("x0:Q", title=x_title),
            x2=alt.X2("x1:Q"),
            y=alt.Y("y0:Q", title=y_title, scale=alt.Scale(zero=False)),
            y2=alt.Y2("y1:Q"),
            color=alt.Color(
                "count:Q", scale=alt.Scale(scheme="blues", type="log"), title="translations"
            ),
            tooltip=[
                alt.Tooltip("x0:Q", title="BLEU from", format=".1f"),
                alt.Tooltip("x1:Q", title="BLEU to", format=".1f"),
                alt.Tooltip("y0:Q", title="human from", format=".2f"),
                alt.Tooltip("y1:Q", title="human to", format=".2f"),
                alt.Tooltip("count:Q"),
            ],
        ),
    )
    fit = alt.Chart(
        line,
        mark=alt.MarkDef(type="line", color="#d0006f", strokeDash=[5, 3]),
        encoding=alt.FacetedEncoding(x=alt.X("x:Q"), y=alt.Y("y:Q")),
    )
    return alt.LayerChart(layer=[rects, fit], title=layout.chart_title(title, subtitle), height=380)


def corpus_bars(frame: pd.DataFrame, *, title: str, subtitle: str = "") -> alt.Chart:
    """Corpus BLEU per system as horizontal bars (human translations highlighted), one row per system."""
    systems = list(frame["system"])
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("system:N", sort="-x", axis=layout.category_axis(systems), title=None),
            x=alt.X("BLEU:Q", title="BLEU (0-100)"),
            color=alt.Color(
                "human:N",
                scale=alt.Scale(domain=[False, True], range=["#2f6fdd", "#d0006f"]),
                title="translation",
                legend=HUMAN_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("system:N"),
                alt.Tooltip("BLEU:Q", format=".2f"),
                alt.Tooltip("BP:Q", format=".3f"),
            ],
        )
        .properties(
            title=layout.chart_title(title, subtitle), height=layout.rows_height(len(systems))
        )
    )
