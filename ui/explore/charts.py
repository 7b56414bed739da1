"""Charts of the Learn page (pure: DataFrame in, chart out; no ``st.*`` here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import altair as alt

if TYPE_CHECKING:  # pandas lives in the frames modules; here it is only a type
    import pandas as pd


def precision_bars(frame: pd.DataFrame, *, title: str) -> alt.LayerChart:
    """Modified precision p_n per order n (columns ``order``, ``precision``, ``label``).

    The y axis runs from 0 to 1, or higher when a smoothed precision is above 1 (Chen & Cherry 5 and 7).
    """
    top = max(1.0, float(frame["precision"].max()) if len(frame) else 1.0)
    base = alt.Chart(frame).encode(
        x=alt.X("order:O", title="n-gram order n", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("precision:Q", title="modified precision p_n", scale=alt.Scale(domain=[0, top])),
    )
    return (
        base.mark_bar(color="#2f6fdd") + base.mark_text(dy=-8).encode(text=alt.Text("label:N"))
    ).properties(title=title, height=240)
