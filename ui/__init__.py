"""The Streamlit app's building blocks (``bleu_core`` stays free of streamlit and pandas).

Rooms (one sub-package per area of the navigation; a page imports its room and ``ui.app`` only)
-------------------------------------------------------------------------------------------------
A page imports each name from the module of its room (or of ``ui.app``) that defines it: no module
re-exports another's names, and no function or class name is defined in two modules of one room.

``ui.app``        shared by every page: session-state keys, sidebar settings, caches and the statistics
                  store, warm-up, export, shared frames and markup. Imports no other room.
``ui.study``      the Study page (overview of the open study).
``ui.explore``    Explore, Learn BLEU, BLEU vs error spans: match highlighting, browse table, the paper's
                  worked examples, BLEU's matches against the raters' MQM error spans.
``ui.analysis``   Corpus, BLEU vs human, Significance, Judges, Correlation, Metric ranking, Export: frames
                  and charts.
``ui.metrics``    Metrics and Published tables.
``ui.campaigns``  Campaigns and Rate translations.

Each room's ``__init__`` lists its modules and what it may import; ``tests/app/test_ui_rooms.py`` checks it.

Helpers for page authors (``from ui.app.context import ...``)
-------------------------------------------------------------
A page is a short script: read widgets, call the core, render. Typical page::

    import streamlit as st
    from ui.app.context import current_scores, show_chart, signature_caption, table_downloads

    scores = current_scores()              # the open study scored under the sidebar settings
    st.dataframe(frame)                    # build frames with ui.analysis.frames
    signature_caption(scores.signature)    # show the signature with every score
    table_downloads(frame, "my table")     # CSV + LaTeX buttons (and listed in the export zip)
    show_chart(chart, "my chart")          # altair chart + PNG/SVG buttons (and listed in the export zip)

``current_study()``            the open :class:`bleu_core.study.Study` or None.
``require_study()``            the open study, or stop the page with a hint to open one.
``current_options()``          the :class:`BleuOptions` of the sidebar.
``current_references(study)``  the reference streams in use: the open study is the view for the sidebar's
                               reference choice (``ui.app.references``: the other human translations are
                               human systems; the study key changes with the choice, so every cache follows).
``current_scores()``           :class:`ui.app.context.Scores`: ``stats`` (systems × segments × F array, cached),
                               ``corpus`` and ``sentence`` (:class:`bleu_core.engine.score.BleuArrays`), ``systems``,
                               ``options``, ``signature``, ``references``.
``study_statistics(study, key, refs, options)``  the stored :class:`ui.app.shared_cache.SystemStatistics` (read-only
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
``ui.app.markup.md_escape(text)``    escape user text (study, system, criterion names) put into markdown.
``ui.app.markup.html_text(text)``    user text inside HTML given to ``st.markdown`` (HTML and Markdown safe).
``ui.app.limits.resamples_input``    a resamples / trials box (capped at ``MAX_RESAMPLES``, checked).
``ui.explore.highlight`` escapes everything it renders; never build HTML from user text without ``html.escape``.
Seed and resample count of resampling procedures: ``seed, n_resamples = ui.app.limits.session_resampling()``
on every page (the cap checked; the export zip records the same two through ``resampling_settings``).
"""
