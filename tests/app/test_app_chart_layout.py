"""Chart specs with 50 systems: sizes grow, no axis drops a label, legends list everything.

The browser test (tests/browser/test_many_systems.py) checks what is drawn; these check the specs, fast.
"""

from __future__ import annotations

import pandas as pd
import pytest

from ui.analysis.charts import corpus_bars, normalised_chart, regression_scatter
from ui.analysis.stats_charts import block_chart, interval_chart, judges_chart, verdict_matrix
from ui.app import chart_layout as layout

NAMES = [f"a-longish-system-name-{k:02d}" for k in range(50)]


def axes(spec: object) -> list[dict]:
    """Every axis definition in a Vega-Lite spec (dicts under an ``axis`` key)."""
    found: list[dict] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("axis"), dict):
                found.append(node["axis"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    return found


def test_category_axes_keep_every_label_whole():
    frame = pd.DataFrame({"system": NAMES, "BLEU": range(50), "BP": 1.0, "human": False})
    spec = corpus_bars(frame, title="t").to_dict()
    (axis,) = axes(spec)
    assert axis["labelOverlap"] is False
    assert axis["labelLimit"] >= layout.CHAR_PX * len(NAMES[0])
    assert spec["height"] == layout.rows_height(50) > layout.rows_height(5)


def test_block_legend_lists_all_fifty_and_the_chart_is_tall_enough():
    frame = pd.DataFrame([{"system": n, "block": b, "BLEU": 1.0} for n in NAMES for b in (1, 2)])
    spec = block_chart(frame, title="t").to_dict()
    legend = spec["encoding"]["color"]["legend"]
    assert legend["symbolLimit"] == 0 and legend["columns"] == 3
    assert spec["height"] >= layout.legend_height(50) > layout.legend_height(10)


@pytest.mark.parametrize("n", [5, 50])
def test_matrix_and_interval_charts_grow_with_the_systems(n):
    names = NAMES[:n]
    cells = pd.DataFrame(
        [
            {"row": a, "column": b, "verdict": "~", "difference": 0.0, "p": 0.5}
            for a in names
            for b in names
            if a != b
        ]
    )
    matrix = verdict_matrix(cells, title="t").to_dict()
    assert matrix["height"] >= layout.matrix_cell(n) * n + layout.CHROME_PX
    assert all(a["labelOverlap"] is False for a in axes(matrix))
    rows = pd.DataFrame({"label": names, "value": 0.0, "low": -1.0, "high": 1.0})
    assert interval_chart(rows, x_title="x", title="t").to_dict()["height"] == layout.rows_height(
        n, per=26
    )


def test_judges_chart_has_one_row_per_pair():
    pairs = [f"{a} → {b}" for a, b in zip(NAMES, NAMES[1:], strict=False)]
    frame = pd.DataFrame(
        {"group": "g", "pair": pairs, "difference": 0.1, "low": 0.0, "high": 0.2, "n": 10}
    )
    spec = judges_chart(frame, title="t").to_dict()
    assert spec["height"] == layout.rows_height(49)
    assert any(a.get("labelLimit", 0) > 300 for a in axes(spec))


def test_scatter_labels_all_points_or_on_hover():
    frame = pd.DataFrame({"system": NAMES, "BLEU": range(50), "human score": 1.0, "human": False})
    hover = regression_scatter(frame, x="BLEU", y="human score", title="t").to_dict()
    assert hover["layer"][2]["encoding"]["opacity"]["condition"]["param"] == "hovered"
    every = regression_scatter(
        frame, x="BLEU", y="human score", title="t", all_labels=True
    ).to_dict()
    assert "opacity" not in every["layer"][2]["encoding"]


def test_figure_7_turns_its_labels_and_makes_room_for_them():
    frame = pd.DataFrame(
        {"system": NAMES, "series": "BLEU", "score": 1.0, "normalised": 0.5, "position": range(50)}
    )
    spec = normalised_chart(frame, title="t").to_dict()
    (axis,) = [a for a in axes(spec) if "labelAngle" in a]
    assert axis["labelAngle"] == -90 and axis["labelOverlap"] is False
    assert spec["height"] == 360 + layout.x_labels_room(NAMES, spec["width"])
