"""Charts rendered to images for the download buttons and the export zip (vl-convert, cached on the spec).

``vl_convert`` is imported on first use: a page that offers a download renders its image only when the
button asks for it (see :func:`ui.app.context.chart_downloads`).
"""

from __future__ import annotations

import streamlit as st


@st.cache_data(max_entries=64, show_spinner=False)
def chart_png(spec_json: str, scale: float = 2.0) -> bytes:
    """A Vega-Lite chart (JSON) rendered to PNG with vl-convert."""
    import vl_convert as vlc

    return vlc.vegalite_to_png(spec_json, scale=scale)


@st.cache_data(max_entries=64, show_spinner=False)
def chart_svg(spec_json: str) -> str:
    """A Vega-Lite chart (JSON) rendered to SVG with vl-convert."""
    import vl_convert as vlc

    return vlc.vegalite_to_svg(spec_json)
