"""What the organiser sees of a campaign: its summary, the key shown once, progress per judge, the agreement
and calibration tables (Krippendorff's alpha, pairwise correlations, each judge's mean and offset) and the CSV
download of the ratings.

Rendering only: the numbers come from :mod:`bleu_core.campaigns` (see :func:`bleu_core.campaigns.agreement_report`)
and the tables from :mod:`ui.campaigns.frames`. Every name or text that goes into HTML is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bleu_core.campaigns import (
    Campaign,
    CriterionAgreement,
    JudgeProgress,
    StoredRating,
    ratings_to_csv,
)
from bleu_core.campaigns.protocols import PROTOCOL_TITLES
from ui.app.context import file_stem
from ui.app.markup import STYLE, html_text, label_html
from ui.app.numbers import plural
from ui.campaigns.frames import agreement_frame, calibration_frame, pairwise_frames, progress_frame

#: How each display mode is described to the organiser (what judges see next to the translation).
DISPLAY_HELP: dict[str, str] = {
    "neither": "only the translation (the paper's monolingual judges: readability and fluency)",
    "source": "the source sentence and the translation (bilingual judges)",
    "reference": "a reference translation and the translation",
    "both": "the source, a reference and the translation",
}


def campaign_summary_html(campaign: Campaign) -> str:
    """The campaign's name, code, study, size, seed, systems, display and groups as one escaped HTML block.

    >>> from datetime import datetime, UTC
    >>> from bleu_core.campaigns import default_criteria
    >>> c = Campaign("K7P2QX", "<b>x</b>", "toy", ("A",), ("s1", "s2"), default_criteria(), "neither",
    ...              ("mono",), 3, 2, datetime(2024, 1, 1, tzinfo=UTC))
    >>> "&lt;b&gt;x&lt;/b&gt;" in campaign_summary_html(c), "<b>x</b>" in campaign_summary_html(c)
    (True, False)
    """
    e = html_text  # HTML- and Markdown-safe: organiser text
    return (
        STYLE
        + label_html("Campaign")
        + f'<div class="bs-seg"><b>{e(campaign.name)}</b> · code <code>{e(campaign.code)}'
        + f"</code> · study {e(campaign.study_name)} · {campaign.n_items} items "
        + f"({len(campaign.segment_ids)} segments × {len(campaign.systems)} systems) · seed {campaign.seed}</div>"
        + label_html("Systems")
        + f'<div class="bs-seg">{e(", ".join(campaign.systems))}</div>'
        + label_html("Judges see")
        + f'<div class="bs-seg">{e(DISPLAY_HELP[campaign.display])}; groups: '
        + f"{e(', '.join(campaign.groups))}</div>"
        + label_html("Protocol")
        + f'<div class="bs-seg">{e(PROTOCOL_TITLES.get(campaign.protocol, campaign.protocol))}</div>'
    )


def show_summary(campaign: Campaign) -> None:
    """Render :func:`campaign_summary_html`."""
    st.markdown(campaign_summary_html(campaign), unsafe_allow_html=True)


def show_created_notice(campaign: Campaign, organiser_key: str) -> None:
    """Tell the organiser how judges join, and show the organiser key (this is the only time it is shown)."""
    st.success(
        f"Campaign created. Judges join on the **Rate translations** page with the code "
        f"**{campaign.code}**. Your organiser key is below: note it down now, it is shown only once "
        "and only a hash of it is stored."
    )
    st.code(f"campaign code: {campaign.code}\norganiser key: {organiser_key}", language=None)


def show_progress(progress: Sequence[JudgeProgress]) -> None:
    """Progress per judge as a table with a "done" bar, and the totals."""
    if not progress:
        st.info("No judge has joined yet.")
        return
    st.dataframe(
        progress_frame(progress),
        hide_index=True,
        column_config={
            "done": st.column_config.ProgressColumn(
                "done", min_value=0.0, max_value=1.0, format="percent"
            )
        },
    )
    total = sum(p.n_rated for p in progress)
    st.caption(f"{plural(len(progress), 'judge')} · {plural(total, 'item')} fully rated in all")


def show_agreement(report: Sequence[CriterionAgreement], *, n_resamples: int, seed: int) -> None:
    """The agreement table (alpha per criterion), the calibration table (each judge's mean and offset) and the
    judges' pairwise correlation matrices; the caption reports the bootstrap's resamples and seed."""
    three = st.column_config.NumberColumn(format="%.3f")
    st.dataframe(
        agreement_frame(report),
        hide_index=True,
        column_config={
            "alpha (interval)": three,
            "alpha (ordinal)": three,
            "mean pairwise r": three,
        },
    )
    st.caption(
        f"Alpha: 1 = perfect agreement, 0 = chance level (Krippendorff). Confidence intervals: bootstrap over "
        f"items, {n_resamples} resamples, seed {seed} (the app's resampling settings)."
    )
    st.markdown("**Calibration** — each judge's mean; *offset* is how much higher the judge scores than the "
                "other judges on the same items (the paper: some judges are more liberal).")  # fmt: skip
    st.dataframe(
        calibration_frame(report),
        hide_index=True,
        column_config={
            "mean": three,
            "sd": three,
            "offset vs others": st.column_config.NumberColumn(format="%+.3f"),
        },
    )
    with st.expander("Pairwise correlation between judges"):
        for name, matrix in pairwise_frames(report).items():
            st.caption(name)
            st.dataframe(matrix, column_config={c: three for c in matrix.columns})


def ratings_download(campaign: Campaign, ratings: Sequence[StoredRating]) -> None:
    """The "Ratings as CSV" button (one row per judge, item and criterion; spreadsheet formulas defused by
    :func:`bleu_core.campaigns.ratings_to_csv`); disabled while there are no ratings."""
    c1, _ = st.columns([1, 3])
    c1.download_button(
        "Ratings as CSV",
        data=ratings_to_csv(ratings),
        file_name=f"{file_stem(campaign.name)}-{campaign.code}-ratings.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        disabled=not ratings,
        help="Texts that would start a spreadsheet formula (=, +, -, @) get a leading apostrophe.",
    )
