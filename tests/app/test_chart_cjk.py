"""Chart images (PNG, as the downloads and the Export zip render them) draw Japanese system names and text,
not empty boxes ("tofu"): the CJK font that ``.ci/run`` installs (Debian ``fonts-noto-cjk``) is registered
with vl-convert (:func:`ui.app.chart_images.register_cjk_fonts`).

The check: two names that differ only in their kanji render to different images, and neither renders as
the same number of code points that no font has (private-use characters, drawn as missing-glyph boxes).
With no CJK font every kanji is the same box, so the first two images would be equal.
"""

from __future__ import annotations

import pandas as pd
import pytest

from ui.analysis.charts import regression_scatter
from ui.app.chart_images import chart_png, register_cjk_fonts


def png_of(names: list[str]) -> bytes:
    frame = pd.DataFrame(
        {
            "system": names,
            "BLEU": [20.0, 25.0, 30.0],
            "human score": [70.0, 75.0, 85.0],
            "human": [False, False, False],
        }
    )
    chart = regression_scatter(frame, x="BLEU", y="human score", title=names[0], all_labels=True)
    return chart_png(chart.to_json())


@pytest.fixture(scope="module")
def fonts() -> tuple[str, ...]:
    found = register_cjk_fonts()
    if not found:
        pytest.skip(
            "no CJK font installed (Debian: apt-get install fonts-noto-cjk, as .ci/run does)"
        )
    return found


def test_japanese_system_names_render_as_glyphs_not_boxes(fonts) -> None:
    tokyo = png_of(["東京翻訳", "大阪翻訳", "京都翻訳"])
    osaka = png_of(["北海翻訳", "九州翻訳", "四国翻訳"])
    boxes = png_of(
        ["\ue000\ue001\ue002\ue003", "\ue004\ue005\ue006\ue007", "\ue008\ue009\ue00a\ue00b"]
    )
    assert tokyo != osaka  # different kanji, different pixels: glyphs were drawn
    assert tokyo != boxes and osaka != boxes
    assert any("noto" in folder.lower() or "cjk" in folder.lower() for folder in fonts)
