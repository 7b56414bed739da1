"""Charts rendered to images for the download buttons and the export zip (vl-convert, cached on the spec).

``vl_convert`` is imported on first use: a page that offers a download renders its image only when the
button asks for it (see :func:`ui.app.context.chart_downloads`). System names and text in Chinese,
Japanese or Korean need a CJK font, or the PNG shows empty boxes: vl-convert reads the system's fonts, and
:func:`register_cjk_fonts` adds the CJK font folders it finds (Debian's ``fonts-noto-cjk``, which
``.ci/run`` installs, and ``BLEU_STUDY_FONT_DIR`` when set) once per process.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import streamlit as st

#: Folders that hold CJK fonts on Debian/Ubuntu (``fonts-noto-cjk``, ``fonts-noto-cjk-extra``).
CJK_FONT_DIRS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/noto")


@cache
def register_cjk_fonts() -> tuple[str, ...]:
    """Register the CJK font folders that exist with vl-convert (once); returns the folders registered."""
    import vl_convert as vlc

    wanted = [*CJK_FONT_DIRS, os.environ.get("BLEU_STUDY_FONT_DIR", "")]
    found = tuple(d for d in wanted if d and Path(d).is_dir() and any(Path(d).glob("*CJK*")))
    for folder in found:
        vlc.register_font_directory(folder)
    return found


@st.cache_data(max_entries=64, show_spinner=False)
def chart_png(spec_json: str, scale: float = 2.0) -> bytes:
    """A Vega-Lite chart (JSON) rendered to PNG with vl-convert."""
    import vl_convert as vlc

    register_cjk_fonts()
    return vlc.vegalite_to_png(spec_json, scale=scale)


@st.cache_data(max_entries=64, show_spinner=False)
def chart_svg(spec_json: str) -> str:
    """A Vega-Lite chart (JSON) rendered to SVG with vl-convert."""
    import vl_convert as vlc

    register_cjk_fonts()
    return vlc.vegalite_to_svg(spec_json)
