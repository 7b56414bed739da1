"""Scatter labels that do not overlap (issue 39: Aya23 / Llama3-70B on WMT24 en-zh): each label takes a
free place beside its point (:func:`ui.analysis.charts.label_places`), or, with no free place, shows under
the pointer only (the tooltip and the table have every name)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.analysis.charts import HIDDEN, LABEL_PLACES, label_places, regression_scatter
from ui.app.chart_layout import CHAR_PX

WIDTH, HEIGHT = 600.0, 380.0


def boxes(xs: list[float], ys: list[float], labels: list[str], places: list[str]) -> list[tuple]:
    """The pixel box of every shown label, from the geometry the docstring states."""
    x, y = np.asarray(xs), np.asarray(ys)
    px = (x - x.min()) / ((x.max() - x.min()) or 1.0) * WIDTH
    py = (y.max() - y) / ((y.max() - y.min()) or 1.0) * HEIGHT
    geometry = {name: (align, dx, dy) for name, align, dx, dy in LABEL_PLACES}
    out = []
    for i, place in enumerate(places):
        if place == HIDDEN:
            continue
        align, dx, dy = geometry[place]
        width = len(labels[i]) * CHAR_PX
        left = px[i] + dx if align == "left" else px[i] + dx - width
        out.append((left, py[i] + dy - 10, left + width, py[i] + dy + 1))
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 40, allow_nan=False),
            st.floats(0, 100, allow_nan=False),
            st.text("abcdefgh-", min_size=1, max_size=16),
        ),
        min_size=1,
        max_size=14,
    )
)
def test_no_two_shown_labels_overlap(points: list[tuple[float, float, str]]) -> None:
    xs, ys, labels = (list(v) for v in zip(*points, strict=True))
    places = label_places(xs, ys, labels, width_px=WIDTH, height_px=HEIGHT)
    assert len(places) == len(labels)
    shown = boxes(xs, ys, labels, places)
    for i, a in enumerate(shown):
        for b in shown[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def test_two_close_points_get_two_places_and_every_name_is_drawn_once() -> None:
    # Aya23 and Llama3-70B as close as on the researcher's chart: the second label goes below
    frame = pd.DataFrame(
        {
            "system": ["Aya23", "Llama3-70B", "IKUN-C"],
            "BLEU": [24.93, 24.95, 18.8],
            "esa": [90.53, 90.50, 83.9],
            "human": [False, False, False],
        }
    )
    places = label_places(frame["BLEU"], frame["esa"], frame["system"])
    assert places[0] != places[1] and HIDDEN not in places
    spec = regression_scatter(frame, x="BLEU", y="esa", title="t", all_labels=True).to_dict()
    texts = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    filters = [layer["transform"][0]["filter"] for layer in texts]
    assert len(filters) == len(LABEL_PLACES) + 1  # one layer per place, and the hidden ones
    data = next(iter(spec["datasets"].values()))
    assert sorted(row["label_place"] for row in data) == sorted(places)
    assert json.dumps(spec).count("datum.label_place") == len(filters)
