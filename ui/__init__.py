"""The Streamlit app's building blocks (``bleu_core`` stays free of streamlit and pandas).

Modules
-------
``ui.state``     every session-state key (constants), their defaults, :func:`ui.state.init_state`.
``ui.settings``  the sidebar's BLEU settings → :class:`bleu_core.options.BleuOptions`.
``ui.cache``     ``st.cache_data`` adapters: statistics per (study, references, tokenizer, lowercase, order),
                 match provenance, human score matrices, chart images, uploaded studies.
``ui.context``   helpers every page uses (below).
``ui.frames``    study / scores → pandas DataFrames (pandas lives only here).
``ui.charts``    altair charts (pure: DataFrame in, chart out).
``ui.html``      escaped HTML for n-gram match highlighting.
``ui.export``    CSV, LaTeX, PNG/SVG and the reproducible zip.

Helpers for page authors (``from ui import ...``)
-------------------------------------------------
A page is a short script: read widgets, call the core, render. Typical page::

    import streamlit as st
    from ui import current_scores, show_chart, signature_caption, table_downloads

    scores = current_scores()              # the open study scored under the sidebar settings
    st.dataframe(frame)                    # build frames with ui.frames
    signature_caption(scores.signature)    # show the signature with every score
    table_downloads(frame, "my table")     # CSV + LaTeX buttons (and listed in the export zip)
    show_chart(chart, "my chart")          # altair chart + PNG/SVG buttons (and listed in the export zip)

``current_study()``            the open :class:`bleu_core.study.Study` or None.
``require_study()``            the open study, or stop the page with a hint to open one.
``current_options()``          the :class:`BleuOptions` of the sidebar.
``current_references(study)``  reference streams chosen in the sidebar (all by default).
``current_scores()``           :class:`ui.context.Scores`: ``stats`` (systems × segments × F array, cached),
                               ``corpus`` and ``sentence`` (:class:`bleu_core.score.BleuArrays`), ``systems``,
                               ``options``, ``signature``, ``references``.
``study_statistics(study, key, refs, options)``  the stored :class:`ui.cache.SystemStatistics` (read-only
                               arrays shared by all sessions, counted to order 10) and the array cut to the
                               options' order.
``signature_caption(sig)``     a caption ``BLEU signature: `…```.
``show_chart(chart, name)``    the altair chart (drawn as ``st.altair_chart`` would, without re-validating the spec on
                               every run) + PNG/SVG downloads (rendered lazily with vl-convert). ``stable=True``:
                               the spec on screen stays the same across re-runs that change only the data, and
                               the browser just swaps the data; ``subtitle=False`` keeps a subtitle with numbers
                               (shown beside the chart) off the screen.
``chart_downloads(chart, name)``, ``table_downloads(frame, name, caption=...)`` download buttons only.
``ensure_entrypoint()``         call first on a page that touches session state before any helper above: a
                               deep link on a fresh server runs the page without app.py; this re-runs it.
``open_study(...)``, ``open_demo(name)``  make a study the open one (call from a widget callback).
``ui.html.md_escape(text)``    escape user text (study, system, criterion names) put into markdown.
``ui.html`` escapes everything it renders; never build HTML from user text without ``html.escape``.
Seed and resample count of resampling procedures: ``st.session_state[ui.state.SEED]`` and
``[ui.state.N_RESAMPLES]`` (the export zip records them).
"""

from __future__ import annotations

from .context import (
    Scores,
    chart_downloads,
    current_options,
    current_references,
    current_scores,
    current_study,
    ensure_entrypoint,
    file_stem,
    open_demo,
    open_study,
    require_study,
    show_chart,
    signature_caption,
    study_statistics,
    table_downloads,
)

__all__ = [
    "Scores",
    "chart_downloads",
    "ensure_entrypoint",
    "open_demo",
    "open_study",
    "current_options",
    "current_references",
    "current_scores",
    "current_study",
    "file_stem",
    "require_study",
    "show_chart",
    "signature_caption",
    "study_statistics",
    "table_downloads",
]
