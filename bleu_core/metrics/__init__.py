"""Metrics beyond plain BLEU: salience-weighted n-grams (Babych & Hartley 2004), NIST, PER, chrF and TER,
"same data, many BLEUs", the parameter explorer, and a registry of metrics for meta-evaluation.

Modules: :mod:`~bleu_core.metrics.weighting` (tf.idf, S-score), :mod:`~bleu_core.metrics.weighted`
(weighted precision/recall/F), :mod:`~bleu_core.metrics.nist`, :mod:`~bleu_core.metrics.per`,
:mod:`~bleu_core.metrics.external` (chrF, TER through sacrebleu), :mod:`~bleu_core.metrics.variants`,
:mod:`~bleu_core.metrics.explorer`, :mod:`~bleu_core.metrics.babych` (the paper's Tables 1-3),
:mod:`~bleu_core.metrics.registry`.
"""
