"""Every chart has a text alternative: its numbers as a CSV table one click away (WCAG 1.1.1)."""

from __future__ import annotations

import csv
import io

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


def test_chart_data_csv_stacks_the_frames_with_their_part():
    from ui.app.context import chart_table_csv

    points = pd.DataFrame({"bleu": [20.0, 30.0], "human": [3.1, 3.9]})
    line = pd.DataFrame({"bleu": [20.0, 30.0], "fit": [3.0, 4.0]})
    chart = alt.Chart(points).mark_point().encode(x="bleu", y="human") + alt.Chart(
        line
    ).mark_line().encode(x="bleu", y="fit")
    rows = list(csv.reader(io.StringIO(chart_table_csv(chart))))
    assert rows[0] == ["bleu", "human", "part", "fit"]
    assert len(rows) == 1 + 4
    assert [row[2] for row in rows[1:]] == ["1", "1", "2", "2"]
    single = alt.Chart(points).mark_point().encode(x="bleu", y="human")
    assert next(csv.reader(io.StringIO(chart_table_csv(single)))) == ["bleu", "human"]
