"""The Explore and Learn pages: n-gram match highlighting, the browse table, the paper's worked examples.

``highlight``  escaped HTML of matched / clipped / unmatched n-grams, the all-systems table, browse label.
``frames``     per-segment, n-gram, browse, token and precision DataFrames.
``teach``      the Learn page's step-by-step walkthrough, examples from the study, smoothing rows.
``charts``     the Learn page's precision chart.

May import: ``bleu_core`` and :mod:`ui.app`.
"""
