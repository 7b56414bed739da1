"""The BLEU engine: text → per-segment sufficient statistics → score, one path for every caller.

* :mod:`~bleu_core.engine.options` — :class:`BleuOptions`, validated once
* :mod:`~bleu_core.engine.statistics` — per-segment sufficient statistics (the one place text becomes numbers);
  :mod:`~bleu_core.engine.file_statistics` — the same for big files, block by block
* :mod:`~bleu_core.engine.score` — ``bleu_from_stats``: statistics → BLEU, vectorised
  (:mod:`~bleu_core.engine.brevity_penalty`, :mod:`~bleu_core.engine.smoothing`)
* :mod:`~bleu_core.engine.bleu` — ``corpus_bleu`` / ``sentence_bleu`` from text;
  :mod:`~bleu_core.engine.segment_level` — system and segment BLEU of a study;
  :mod:`~bleu_core.engine.corpus_row` — one row of totals in plain Python
* :mod:`~bleu_core.engine.signature` — the reproducibility signature;
  :mod:`~bleu_core.engine.matches` — which n-grams matched, were clipped, or missed

The engine imports the tokenizers (:mod:`bleu_core.tokenize`), the batched kernels (:mod:`bleu_core.fast`), the
shared maths and the package's base modules only (``tests/house/test_layers.py``).
"""
