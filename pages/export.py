"""Export page: one reproducible zip with tables, charts, the signature, every setting and input hashes."""

from __future__ import annotations

import json

import streamlit as st

from ui.analysis.export_zip import export_contents
from ui.app import chart_images
from ui.app import state as K
from ui.app.context import current_scores, file_stem, signature_caption
from ui.app.frames import records_frame
from ui.app.limits import resamples_input

st.title("Reproducible export")
st.write(
    "One zip with everything needed to re-make the results: tables (CSV and LaTeX), charts (PNG, SVG "
    "and their Vega-Lite spec), the BLEU signature, every setting, the seed and resample count used by "
    "resampling procedures, software versions, and the sha256 of each input file."
)
scores = current_scores()
study = scores.study

c1, c2 = st.columns(2)
c1.number_input(
    "Seed (resampling)",
    min_value=0,
    step=1,
    key=K.SEED,
    help="Used by every bootstrap / randomisation in the app and recorded in the zip.",
)
resamples_input(
    "Resamples",
    key=K.N_RESAMPLES,
    min_value=10,
    where=c2,
    help="Bootstrap resamples of the Significance, Correlation, Metrics and Judges pages.",
)
include_viewed = st.toggle(
    "Also include tables and charts viewed on other pages in this session",
    value=True,
    key=K.EXPORT_INCLUDE_VIEWED,
)

# The core artefacts, always recomputed under the current settings (the same zip as class mode's).
contents = export_contents(scores, st.session_state, include_viewed=include_viewed)
tables, charts, settings = contents.tables, contents.charts, contents.settings
inputs = settings["input_files"]  # the files settings.json lists, one list

st.subheader("What goes in")
left, right = st.columns(2)
with left:
    st.markdown("**Tables**: " + ", ".join(f"`{n}`" for n in sorted(tables)))
    st.markdown("**Charts**: " + ", ".join(f"`{n}`" for n in sorted(charts)))
    st.markdown("**Input files**")
    if inputs:
        st.dataframe(records_frame(inputs), hide_index=True, width="stretch")
    else:
        st.caption(
            "The study names no input files; its content digest identifies it: "
            f"`{settings['study']['content_sha256']}`"
        )
with right:
    # Plain text: st.json's value colours (teal booleans, 3.2:1) fail WCAG contrast.
    st.code(
        json.dumps(settings, indent=2, ensure_ascii=False, default=str),
        language=None,
        wrap_lines=True,  # no scroll box a keyboard cannot reach
    )
signature_caption(scores.signature)


def _make_zip() -> bytes:
    return contents.zip(chart_images.chart_png, chart_images.chart_svg)


st.download_button(
    "Download the reproducible zip",
    data=_make_zip,
    type="primary",
    file_name=f"bleu-study-{file_stem(study.name)}.zip",
    mime="application/zip",
    on_click="ignore",
    icon=":material/folder_zip:",
)
st.caption("The charts are rendered when you click (a few seconds for many charts).")
