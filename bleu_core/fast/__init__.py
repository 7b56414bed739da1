"""Fast paths: batched tokenisation and vectorised n-gram counting.

* :mod:`bleu_core.fast.batch_tokenizers` — sacrebleu's tokens for many lines at once, each distinct word
  tokenised once (13a, intl, char, none; zh and paper line by line), as integer ids.
* :mod:`bleu_core.fast.counting` — clipped n-gram matches of many segments with numpy sorting and counting,
  exact (no hashing), order by order.
* :mod:`bleu_core.fast.corpus` — both, chunk by chunk with bounded memory: what
  :func:`bleu_core.statistics.compute_statistics` runs.
* :mod:`bleu_core.fast.word_index` — ``str.split`` + numbering of distinct words, and expanding word ids
  into token ids: compiled, or pure Python/numpy.
* :mod:`bleu_core.fast.clipping` — clipped matches segment by segment in compiled code (the twin of
  ``counting.clipped_matches``).
* :mod:`bleu_core.fast.compiled` — when the compiled kernels (:mod:`bleu_core.fast.kernels`, numba) run: big
  inputs, or once they are loaded; ``BLEU_STUDY_NO_NUMBA=1`` switches them off.

Everything here must give exactly the same result as the reference implementations
(:func:`bleu_core.statistics.segment_row`, sacrebleu's tokenizers); ``tests/test_fast_*.py`` prove it on real
data and on Hypothesis-generated input, for the compiled and the pure path alike. Speed is measured in ``benchmarks/bench_bleu.py``.
"""
