"""The Metrics and Published tables pages: every metric of the registry, weighted BLEU, the parameter
explorer, Williams tests, and correlations of a published table of system scores.

``charts``            metric tables and charts (Babych & Hartley, many BLEUs, explorer, Williams).
``panels``            the Metrics page's widgets-and-table blocks.
``published_charts``  the Published tables page's charts.

May import: ``bleu_core``, :mod:`ui.app`, and :mod:`ui.analysis` (the shared scatter, correlation rows and chance lines).
"""
