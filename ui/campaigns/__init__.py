"""The Campaigns and Rate pages: running a human evaluation and rating translations.

``db``             the campaign store of the server (one per database URL).
``forms``          the organiser's forms (new campaign, criteria, groups).
``views``          the organiser's views (progress, agreement, keys and links).
``frames``         progress and agreement DataFrames.
``session``        which campaigns a browser session follows; ratings into the open study.
``judge_access``   a judge's way in (campaign code, resume token) and the judge's view.
``rating_widgets`` the rating form of one item.

May import: ``bleu_core`` and :mod:`ui.app`.
"""
