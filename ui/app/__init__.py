"""The shared app room: what every page and every other room may use.

``state``           every session-state key (constants), defaults, :func:`init_state`.
``settings``        the sidebar's BLEU settings → :class:`bleu_core.options.BleuOptions`.
``context``         the page helpers re-exported by :mod:`ui` (open study, scores, signature, charts, downloads).
``references``      the sidebar's reference choice: the open study as loaded and its views (no re-reading).
``cache``           statistics store and ``st.cache_data`` adapters (studies, uploads, matches, chart images).
``prefetch``        the shared result store and background counting of other tokenizers.
``analysis_cache``  cached metric scores, blocks and bootstrap shared by several analysis pages.
``background``      slow results shared by all sessions in a background thread (TER); progress bars.
``metric_tables``   external metrics (attached COMET... scores) as metric scores like BLEU's; their digest.
``warmup``          background imports and kernel loading after the first page.
``export``          CSV (spreadsheet-safe: every field quoted, formulas defused), LaTeX, the reproducible zip.
``frames``          study-level DataFrames (ratings, rater groups, human score per system, records).
``markup``          the shared style sheet, escaped labels and texts, Markdown escaping (``md_escape``,
                    ``html_text`` for user text inside HTML given to ``st.markdown``).
``boundary``        the error boundary app.py runs every page in: one clean message, traceback to the log.
``limits``          resample boxes capped at ``MAX_RESAMPLES`` and checked; upload limits stated.
``chart_layout``    sizes, axes and legends that keep every label readable with many systems (issue 15).
``numbers``         numbers for reading: p-values, intervals with their estimate, plurals, no "None".
``segment_bleu``    segment-level BLEU, one definition for every page (the sidebar's sentence BLEU).

May import: ``bleu_core``, streamlit, pandas, altair, and modules of this room. Never another room.
"""
