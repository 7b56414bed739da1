"""The Campaigns, Rate and Projector pages: running a human evaluation, rating translations, class mode.

``db``             the campaign store of the server (one per database URL).
``forms``          the organiser's forms (new campaign, criteria, groups).
``views``          the organiser's views (progress, agreement, keys and links).
``frames``         progress and agreement DataFrames.
``session``        which campaigns a browser session follows; ratings into the open study.
``judge_access``   a judge's way in (campaign code, resume token) and the judge's view.
``judge_link``     whether a session is a judge's (link or sign-in): the app then shows the Rate page only.
``rating_widgets`` the rating form of one item.
``class_mode``     class mode: a lesson campaign in one click, the join QR code, the projector dashboard's parts.
``*_page``  each page's one door into this room (a page imports one module of its room): what
            ``pages/<page>.py`` uses, re-exported from the modules that define it: campaigns_page,
            projector_page, rate_page.

May import: ``bleu_core``, :mod:`ui.app`, and :mod:`ui.analysis` (the projector draws the paper's Figures 5-7).
"""
