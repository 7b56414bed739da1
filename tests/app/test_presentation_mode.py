"""AppTest of presentation mode (Learn BLEU and the projector): one switch, kept in the address (``?present=1``)
so a reload keeps it, the large-type style on the page and chart specs with large labels; and the pure
:func:`ui.app.presentation.scale_fonts`."""

from __future__ import annotations

import json
from functools import partial

import altair as alt
import pandas as pd
from app_runs import start_app

from ui.app import state as K
from ui.app.presentation import BODY_PX, LABEL_PX, TITLE_PX, scale_fonts

start = partial(start_app, first_run=False)


def styles(at) -> str:
    return "\n".join(str(h.proto.body) for h in at.get("html"))


def test_the_switch_goes_into_the_address_and_a_reload_keeps_it():
    at = start("learn")
    assert at.toggle(key=K.PRESENT).value is False
    assert f"font-size: {BODY_PX}px" not in styles(at)
    at.toggle(key=K.PRESENT).set_value(True).run()
    assert at.query_params["present"] in ("1", ["1"])
    assert f"html {{ font-size: {BODY_PX}px; }}" in styles(at)
    reloaded = start("learn", query={"present": "1"})  # F5: a new session from the same address
    assert reloaded.toggle(key=K.PRESENT).value is True
    assert f"font-size: {BODY_PX}px" in styles(reloaded)
    reloaded.toggle(key=K.PRESENT).set_value(False).run()
    assert "present" not in reloaded.query_params


def test_learn_sends_its_chart_with_large_labels_in_presentation_mode():
    at = start("learn", query={"present": "1"})
    charts = at.get("vega_lite_chart")
    assert charts, "step 3's precision chart"
    spec = json.loads(charts[0].proto.spec)
    assert spec["config"]["axis"]["labelFontSize"] >= 20
    assert spec["config"]["title"]["fontSize"] >= 20


def test_scale_fonts_raises_every_size_and_never_lowers_one():
    frame = pd.DataFrame({"x": [1, 2], "y": [3, 4], "t": ["a", "b"]})
    base = alt.Chart(frame).encode(x=alt.X("x", axis=alt.Axis(labelFontSize=11)), y="y")
    chart = alt.layer(base.mark_point(), base.mark_text(fontSize=9).encode(text="t")).properties(
        title=alt.TitleParams("T", fontSize=40)
    )
    spec = scale_fonts(chart.to_dict())
    layers = spec["layer"]
    assert layers[0]["encoding"]["x"]["axis"]["labelFontSize"] == LABEL_PX  # 11 raised
    assert layers[1]["mark"]["fontSize"] == LABEL_PX  # 9 raised
    assert spec["title"]["fontSize"] == 40  # larger than the floor: kept
    assert spec["config"]["legend"] == {"labelFontSize": LABEL_PX, "titleFontSize": TITLE_PX}
    assert spec["datasets"] == chart.to_dict()["datasets"]  # the data untouched
