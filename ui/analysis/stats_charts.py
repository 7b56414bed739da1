"""Altair charts of the statistics pages (significance, judges, correlation): DataFrame in, chart out.

No ``st.*`` here. Every chart carries its own title (and the seed / resample count in the subtitle where it
shows a resampling result) so that an exported PNG/SVG stands on its own.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ui.app import chart_layout as layout

VERDICT_COLOURS = alt.Scale(domain=[">", "<", "~"], range=["#0072b2", "#e69f00", "#d9d9d9"])
"""Blue, orange and grey (Okabe & Ito's colour-blind-safe palette), and every cell also carries its
verdict sign as text: the matrix never depends on telling red from green."""


def block_chart(
    frame: pd.DataFrame,
    *,
    title: str,
    subtitle: str = "",
    value: str = "BLEU",
    y_title: str = "block BLEU (0-100)",
) -> alt.Chart:
    """Score per block per system (columns ``system``, ``block``, ``value``): one line per system (paper
    §3)."""
    order = list(dict.fromkeys(frame["system"]))
    return (
        alt.Chart(frame)
        .mark_line(point=alt.OverlayMarkDef(size=30, filled=True), strokeWidth=1.5)
        .encode(
            x=alt.X("block:O", title="block of consecutive segments"),
            y=alt.Y(f"{value}:Q", title=y_title),
            color=alt.Color(
                "system:N",
                sort=order,
                scale=alt.Scale(scheme="tableau20" if len(order) > 10 else "tableau10"),
                legend=layout.complete_legend(order, title="system (low → high mean)"),
            ),
            tooltip=["system:N", "block:O", alt.Tooltip(f"{value}:Q", format=".4g")],
        )
        .properties(
            title=layout.chart_title(title, subtitle),
            height=max(340, layout.legend_height(len(order))),
        )
    )


def interval_chart(
    frame: pd.DataFrame, *, x_title: str, title: str, subtitle: str = "", zero_line: bool = False
) -> alt.LayerChart:
    """Point estimates with intervals, one row per ``label`` (columns ``label``, ``value``, ``low``, ``high``)."""
    order = list(frame["label"])
    base = alt.Chart(frame).encode(
        y=alt.Y("label:N", sort=order, title=None, axis=layout.category_axis(order))
    )
    bars = base.mark_rule(strokeWidth=2, color="#6b8fd6").encode(
        x=alt.X("low:Q", title=x_title, scale=alt.Scale(zero=False)), x2="high:Q"
    )
    points = base.mark_point(filled=True, size=70, color="#1f3f8f").encode(
        x="value:Q",
        tooltip=[
            "label:N",
            alt.Tooltip("value:Q", format=".3f"),
            alt.Tooltip("low:Q", format=".3f"),
            alt.Tooltip("high:Q", format=".3f"),
        ],
    )
    layers = [bars, points]
    if zero_line:
        layers.append(
            alt.Chart(pd.DataFrame({"zero": [0.0]}))
            .mark_rule(color="#999", strokeDash=[4, 3])
            .encode(x="zero:Q")
        )
    return alt.layer(*layers).properties(
        title=layout.chart_title(title, subtitle), height=layout.rows_height(len(frame), per=26)
    )


def verdict_matrix(frame: pd.DataFrame, *, title: str, subtitle: str = "") -> alt.LayerChart:
    """Paired significance matrix (columns ``row``, ``column``, ``verdict``, ``difference``, ``p``).

    A cell reads "row system compared with column system": ``>`` significantly better, ``<`` worse, ``~`` no
    significant difference (Zhang & Vogel's Tables 4-5).
    """
    order = list(dict.fromkeys(frame["row"]))
    cell = layout.matrix_cell(len(order))
    size = max(220, cell * len(order))
    base = alt.Chart(frame).encode(
        x=alt.X(
            "column:N",
            sort=order,
            axis=layout.category_axis(order, title="compared with", x=True, length_px=size),
        ),
        y=alt.Y("row:N", sort=order, axis=layout.category_axis(order, title="system")),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("verdict:N", scale=VERDICT_COLOURS, title="verdict"),
        tooltip=[
            "row:N",
            "column:N",
            "verdict:N",
            alt.Tooltip("difference:Q", format="+.2f"),
            alt.Tooltip("p:Q", format=".4f"),
        ],
    )
    text = base.mark_text(fontSize=13 if cell > 20 else 10).encode(text="verdict:N")
    height = size + layout.x_labels_room(order, size) + layout.CHROME_PX  # labels and title fit in
    return (cells + text).properties(
        title=layout.chart_title(title, subtitle), width=size, height=height
    )


def judges_chart(frame: pd.DataFrame, *, title: str, subtitle: str = "") -> alt.LayerChart:
    """Mean same-judge differences between adjacent systems with t intervals (paper, Figures 3-4).

    Columns ``group``, ``pair`` ("S1 → S2"), ``difference``, ``low``, ``high``.
    """
    order = list(dict.fromkeys(frame["pair"]))
    groups = list(dict.fromkeys(frame["group"]))
    base = alt.Chart(frame).encode(
        y=alt.Y(
            "pair:N",
            sort=order,
            axis=layout.category_axis(order, title="adjacent systems (worse → better)"),
        ),
        yOffset=alt.YOffset("group:N"),
        color=alt.Color("group:N", legend=layout.complete_legend(groups, title="rater group")),
    )
    rules = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("low:Q", title="mean score difference (same judge, same segment)"), x2="high:Q"
    )
    points = base.mark_point(filled=True, size=70).encode(
        x="difference:Q",
        tooltip=[
            "group:N",
            "pair:N",
            alt.Tooltip("difference:Q", format=".3f"),
            alt.Tooltip("low:Q", format=".3f"),
            alt.Tooltip("high:Q", format=".3f"),
            "n:Q",
        ],
    )
    zero = (
        alt.Chart(pd.DataFrame({"zero": [0.0]}))
        .mark_rule(color="#999", strokeDash=[4, 3])
        .encode(x="zero:Q")
    )
    height = layout.rows_height(len(order), per=max(22, 12 * len(groups)))
    return alt.layer(rules, points, zero).properties(
        title=layout.chart_title(title, subtitle), height=height
    )


def subset_chart(frame: pd.DataFrame, *, title: str, subtitle: str = "") -> alt.LayerChart:
    """BLEU with every reference subset (columns ``system``, ``size``, ``BLEU``, ``references``)."""
    systems = list(dict.fromkeys(frame["system"]))
    base = alt.Chart(frame).encode(
        x=alt.X("size:O", title="number of references"),
        color=alt.Color(
            "system:N",
            scale=alt.Scale(scheme="tableau20" if len(systems) > 10 else "tableau10"),
            legend=layout.complete_legend(systems, title="system"),
        ),
    )
    points = base.mark_circle(size=45, opacity=0.6).encode(
        y=alt.Y("BLEU:Q", title="BLEU (0-100)", scale=alt.Scale(zero=False)),
        tooltip=["system:N", "references:N", alt.Tooltip("BLEU:Q", format=".2f")],
    )
    means = base.mark_line().encode(y="mean(BLEU):Q")
    return (points + means).properties(
        title=layout.chart_title(title, subtitle),
        height=max(320, layout.legend_height(len(systems))),
    )


def histogram(
    frame: pd.DataFrame, *, x: str, x_title: str, title: str, subtitle: str = ""
) -> alt.Chart:
    """Histogram of resampled values (e.g. bootstrap differences), with a rule at 0."""
    bars = (
        alt.Chart(frame)
        .mark_bar(color="#6b8fd6")
        .encode(
            x=alt.X(f"{x}:Q", bin=alt.Bin(maxbins=40), title=x_title),
            y=alt.Y("count():Q", title="resamples"),
        )
    )
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color="#d1495b").encode(x="zero:Q")
    return (bars + zero).properties(title=layout.chart_title(title, subtitle), height=240)
