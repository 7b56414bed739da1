"""Metrics beyond plain BLEU: salience-weighted n-grams (Babych & Hartley 2004), NIST, PER, chrF and TER,
"same data, many BLEUs", the parameter explorer, and a registry of metrics for meta-evaluation.

Modules: :mod:`~bleu_core.metrics.base` (the :class:`MetricSpec` every registry metric declares),
:mod:`~bleu_core.metrics.weighting` (tf.idf, S-score), :mod:`~bleu_core.metrics.weighted` (weighted
precision/recall/F), :mod:`~bleu_core.metrics.nist`, :mod:`~bleu_core.metrics.per`,
:mod:`~bleu_core.metrics.chrf`, :mod:`~bleu_core.metrics.ter`, :mod:`~bleu_core.metrics.bleu_metric`,
:mod:`~bleu_core.metrics.variants`, :mod:`~bleu_core.metrics.explorer`, :mod:`~bleu_core.metrics.babych`
(the paper's Tables 1-3), :mod:`~bleu_core.metrics.registry` (every metric's spec, and ``score_study``),
:mod:`~bleu_core.metrics.study_scores` (computed and attached metrics in one shape).
"""
