"""The maths every layer shares: one correlation, one regression line, one way to resample.

* :mod:`~bleu_core.maths.correlation` — ``correlation``, ``CorrelationResult``, ``pearson_r``
* :mod:`~bleu_core.maths.regression` — ``linear_fit``, ``LinearFit``
* :mod:`~bleu_core.maths.resampling` — seeds, bootstrap counts, percentile intervals

It imports nothing of bleu_core above the base modules (``errors``), so the study, the metrics, the campaigns
and the significance tests all use the same functions.
"""
