"""The Study page's helpers: the overview of an open study (systems, references, ratings, warnings).

``overview``  counts and small tables of the open study (no pandas).
``upload``    the upload form: roles read from file names, roles the user gives, their widget keys.
``metric_upload``  metric scores computed elsewhere (MTME score files, tables) attached to the open study.

May import: ``bleu_core`` and :mod:`ui.app`.
"""
