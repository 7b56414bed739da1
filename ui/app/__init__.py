"""The shared app room: what every page and every other room may use.

``state``           every session-state key (constants), defaults, :func:`init_state`; grouped by page.
``settings``        the sidebar's BLEU settings → :class:`bleu_core.engine.options.BleuOptions`.
``context``         the page helpers (open study, scores, signature, charts, downloads).
``references``      the sidebar's reference choice: the open study as loaded and its views (no re-reading).
``domains``         the sidebar's domain choice: every analysis page on one domain (a view under its own key).
``shared_cache``    the statistics of every system, counted once and shared by all sessions (counted
                    ahead for the other tokenizers), and the scores pages derive from them.
``cache``           ``st.cache_data`` adapters: match provenance, human scores (hashable inputs, no ``st.*``).
``uploads``         studies uploaded on the Study page, loaded from memory and cached on their contents.
``demos``           the bundled demo studies, loaded once per process.
``chart_images``    charts rendered to PNG / SVG for downloads and the export zip.
``prefetch``        the shared result store and background counting of other tokenizers.
``analysis_cache``  cached metric scores, blocks and bootstrap shared by several analysis pages.
``background``      slow results shared by all sessions in a background thread (TER); progress bars.
``metric_tables``   attached metrics (COMET... scored elsewhere) as metric scores like BLEU's; their digest.
``warmup``          background imports and kernel loading after the first page.
``startup``         the study named on the command line, loaded once per process (preloaded with the server).
``serve``           ``bleu-study app``'s server process: ``streamlit run``, the preload, the first count.
``export``          CSV (spreadsheet-safe: every field quoted, formulas defused), LaTeX, the reproducible zip.
``frames``          study-level DataFrames (ratings, rater groups, human score per system, records).
``markup``          the shared style sheet, escaped labels and texts, Markdown escaping (``md_escape``,
                    ``html_text`` for user text inside HTML given to ``st.markdown``).
``boundary``        the error boundary app.py runs every page in: one clean message, traceback to the log.
``limits``          resample boxes capped at ``MAX_RESAMPLES`` and checked; upload limits stated.
``chart_layout``    sizes, axes and legends that keep every label readable with many systems.
``numbers``         numbers for reading: p-values, intervals with their estimate, plurals, no "None".
``segment_bleu``    segment-level BLEU, one definition for every page (sacrebleu's sentence_bleu: effective order).
``criterion``       the criterion select boxes of every page: the standardised criterion first, the one
                    chosen on one page followed by the next.

May import: ``bleu_core``, streamlit, pandas, altair, and modules of this room. Never another room.
"""
