"""Every chart has a text alternative: its numbers as a table one click away (WCAG 1.1.1)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ui.app.context import chart_frames


def test_chart_frames_finds_layers_and_panels_once():
    points = pd.DataFrame({"bleu": [20.0, 30.0], "human": [3.1, 3.9], "system": ["A", "B"]})
    line = pd.DataFrame({"bleu": [20.0, 30.0], "fit": [3.0, 4.0]})
    base = alt.Chart(points).mark_point().encode(x="bleu", y="human")
    layered = base + alt.Chart(line).mark_line().encode(x="bleu", y="fit")
    panels = alt.hconcat(layered, base)
    frames = chart_frames(panels)
    assert [f is points for f in frames].count(True) == 1
    assert [f is line for f in frames].count(True) == 1
    assert len(frames) == 2


def test_chart_frames_of_a_faceted_chart():
    data = pd.DataFrame({"x": [1, 2], "y": [3, 4], "domain": ["news", "speech"]})
    chart = alt.Chart(data).mark_point().encode(x="x", y="y").facet("domain")
    assert [f is data for f in chart_frames(chart)] == [True]
