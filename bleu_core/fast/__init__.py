"""Fast paths: batched tokenisation and vectorised n-gram counting.

* :mod:`bleu_core.fast.batch_tokenizers` — sacrebleu's tokens for many lines at once, each distinct word
  tokenised once (13a, intl, char, none; zh and paper line by line), as integer ids.
* :mod:`bleu_core.fast.counting` — clipped n-gram matches of many segments with numpy sorting and counting,
  exact (no hashing), order by order.
* :mod:`bleu_core.fast.corpus` — both, chunk by chunk with bounded memory: what
  :func:`bleu_core.statistics.compute_statistics` runs.

Everything here must give exactly the same result as the reference implementations
(:func:`bleu_core.statistics.segment_row`, sacrebleu's tokenizers); ``tests/test_fast_*.py`` prove it on real
data and on Hypothesis-generated input. Speed is measured in ``benchmarks/bench_bleu.py``.
"""
