"""The significance matrix reads without telling red from green: every cell carries its verdict sign as
text, and the colours are Okabe & Ito's blue and orange (distinct under the common colour-vision
deficiencies), never a red/green pair."""

from __future__ import annotations

import pandas as pd

from ui.analysis.stats_charts import VERDICT_COLOURS, verdict_matrix

RED_GREEN = {"#2a9d4b", "#d1495b", "#ff0000", "#00ff00", "red", "green"}


def test_every_cell_has_its_sign_and_the_colours_are_not_red_and_green():
    cells = pd.DataFrame(
        [
            {"row": "A", "column": "B", "verdict": ">", "difference": 1.0, "p": 0.01},
            {"row": "B", "column": "A", "verdict": "<", "difference": -1.0, "p": 0.01},
            {"row": "A", "column": "C", "verdict": "~", "difference": 0.1, "p": 0.6},
            {"row": "C", "column": "A", "verdict": "~", "difference": -0.1, "p": 0.6},
        ]
    )
    spec = verdict_matrix(cells, title="t").to_dict()
    marks = [layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]
             for layer in spec["layer"]]  # fmt: skip
    text = next(layer for layer in spec["layer"] if "text" in layer["encoding"])
    assert "text" in marks and text["encoding"]["text"]["field"] == "verdict"
    colours = VERDICT_COLOURS.to_dict()["range"]
    assert not RED_GREEN & {c.lower() for c in colours}
    assert VERDICT_COLOURS.to_dict()["domain"] == [">", "<", "~"] and len(set(colours)) == 3
