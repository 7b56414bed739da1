"""The app's charts: valid Vega-Lite, drawn as Streamlit would draw them, stable across re-runs.

``ui.app.context.show_chart`` skips altair's per-call schema validation (20-60 ms per chart on every re-run),
so the validation happens here, once per chart builder; and the spec it sends must be the one
``st.altair_chart`` would send.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec

from ui.analysis.charts import corpus_bars, normalised_chart, regression_scatter, segment_density
from ui.analysis.frames import binned_counts, fit_line, normalised_frame
from ui.app.context import vega_lite_spec
from ui.explore.charts import precision_bars


def _systems(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "system": [f"sys{i}" for i in range(6)],
            "BLEU": rng.uniform(10, 40, 6),
            "human score": rng.uniform(-3, 0, 6),
            "human": [False] * 5 + [True],
        }
    )


def _charts(seed: int) -> dict[str, object]:
    rng = np.random.default_rng(seed)
    systems = _systems(seed)
    order = list(systems.sort_values("BLEU")["system"])
    norm = normalised_frame(
        {
            "BLEU": dict(zip(systems["system"], systems["BLEU"], strict=True)),
            "mqm": dict(zip(systems["system"], systems["human score"], strict=True)),
        },
        order,
    )
    cells = binned_counts(rng.uniform(0, 100, 500), rng.uniform(-5, 0, 500), bins=10)
    return {
        "scatter": regression_scatter(
            systems, x="BLEU", y="human score", title="mqm vs BLEU", subtitle=f"seed {seed}"
        ),
        "normalised": normalised_chart(norm, title="normalised", subtitle="0 = worst"),
        "density": segment_density(
            cells, fit_line(0.01, -3.0, 0.0, 100.0), title="segments", subtitle=f"seed {seed}"
        ),
        "corpus": corpus_bars(systems.assign(BP=1.0), title="corpus BLEU", subtitle="13a"),
        "precisions": precision_bars(
            pd.DataFrame({"order": [1, 2], "precision": [0.5, 0.25], "label": ["1/2", "1/4"]}),
            title="precisions",
        ),
    }


@pytest.mark.parametrize("name", ["scatter", "normalised", "density", "corpus", "precisions"])
def test_every_chart_is_valid_vega_lite(name):
    _charts(1)[name].to_dict(validate=True)  # raises on a schema error


@pytest.mark.parametrize("name", ["scatter", "normalised", "density", "corpus"])
def test_the_spec_drawn_is_the_one_st_altair_chart_would_draw(name):
    chart = _charts(2)[name]
    assert vega_lite_spec(chart) == _convert_altair_to_vega_lite_spec(chart)


@pytest.mark.parametrize("name", ["scatter", "normalised", "density"])
def test_a_stable_spec_does_not_change_with_the_numbers(name):
    # The BLEU-vs-human page's charts: new scores must leave the spec alone (only the data changes),
    # so the browser swaps the data in place instead of building the chart again. The scatter's and
    # the density's subtitles hold numbers (the page shows them beside the chart): left out on screen.
    numbers = name != "normalised"
    first, second = (
        vega_lite_spec(_charts(seed)[name], stable=True, subtitle=not numbers) for seed in (3, 4)
    )
    data1, data2 = first.pop("datasets"), second.pop("datasets")
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    assert list(data1) == list(data2) == [f"data-{k}" for k in range(len(data1))]
    assert data1 != data2
    assert ("subtitle" in first["title"]) is not numbers
    # by default (other pages) the subtitle is drawn; the downloads always keep the whole chart
    assert "subtitle" in vega_lite_spec(_charts(3)[name], stable=True)["title"]


def test_the_normalised_chart_orders_systems_by_a_column_of_the_data():
    chart = _charts(5)["normalised"]
    x = chart.to_dict()["encoding"]["x"]
    assert x["sort"] == {"field": "position", "op": "min"}
    # without a position column: the order of the rows, as a list
    frame = pd.DataFrame(
        {"system": ["b", "a"], "series": ["BLEU"] * 2, "score": [1.0, 2.0], "normalised": [0, 1.0]}
    )
    assert normalised_chart(frame, title="t").to_dict()["encoding"]["x"]["sort"] == ["b", "a"]
