"""The Explore, Learn and BLEU vs error spans pages: n-gram match highlighting, the browse table, the
paper's worked examples, BLEU's matches against the raters' MQM error spans.

``highlight``  escaped HTML of matched / clipped / unmatched n-grams, the all-systems table, browse label.
``frames``     per-segment, n-gram, browse, token and precision DataFrames.
``browse``     Explore's browser table and its view, built once per settings (shared, read-only).
``teach``      the Learn page's step-by-step walkthrough, examples from the study, smoothing rows.
``charts``     the Learn page's precision chart.
``error_spans`` escaped HTML of a translation with BLEU's matches and the raters' MQM error spans.
``span_view``  Explore's error-span parts: rater filter, one system's spans view, the browser's sorts.
``agreement``  BLEU vs error spans page: cached token-level agreement, its tables and charts.
``wmt25_view`` BLEU vs error spans page: WMT25's span score of BLEU's spans, the task's TSV downloads.
``error_free_card`` Learn page: "is BLEU = 1 an error-free detector?" on the open study.

May import: ``bleu_core`` and :mod:`ui.app`.
"""
