"""The Campaigns, Rate and Projector pages: running a human evaluation, rating translations, class mode.

``db``             the campaign store of the server (one per database URL).
``forms``          the organiser's forms (new campaign, criteria, groups).
``views``          the organiser's views (progress, agreement, keys and links).
``frames``         progress and agreement DataFrames.
``session``        which campaigns a browser session follows; ratings into the open study.
``judge_access``   a judge's way in (campaign code, resume token) and the judge's view.
``judge_link``     whether a session is a judge's (link or sign-in): the app then shows the Rate page only.
``rating_widgets`` the rating form of one item.
``esa_marking``    ESA and DA rating: the translation's words as toggles → error spans, the 0-100 slider.
``esa_manage``     the organiser's quality control (pass rates, keep), ESA CSV / JSONL downloads.
``class_mode``     class mode: a lesson campaign in one click, the join QR code, the projector dashboard's parts.
``lesson_form``    class mode's questions: what the class reads, how many students, the systems' preview.
``lesson_panel``   the Class mode tab: the form, then the lesson (my lessons, the projector link; the key only
                   behind the teacher's "for your eyes only" switch).
``lesson_study``   the lesson owns its study: a reload reopens the study it was planned on; which study to open.
``browser_memory`` what this browser remembers (cookies): the teacher's lessons, the student's resume codes,
                   the unsaved ESA marks and scores of the screen (an item; a cESA sentence's translations).
``network``        whether phones can reach the join link; this machine's network address.
``projector_access`` who the projector shows the lesson to: a view-only link, or the teacher's browser.
``projector_parts`` the projector's timer, end-of-class downloads, countdown and agreement column.
``class_results``  the end-of-class summary picture, the class's zip and the study's reproducible zip
                   with the class's ratings (colour-blind-safe palette).
``lesson_timer``   the lesson's timer (a deadline per lesson, shared by the server's sessions).

May import: ``bleu_core``, :mod:`ui.app`, and :mod:`ui.analysis` (the projector draws the paper's Figures 5-7).
"""
