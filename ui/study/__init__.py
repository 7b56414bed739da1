"""The Study page's helpers: the overview of an open study (systems, references, ratings, warnings).

May import: ``bleu_core`` and :mod:`ui.app`.
"""
