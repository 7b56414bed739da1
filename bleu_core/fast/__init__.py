"""Fast paths: batched tokenisation and vectorised n-gram counting.

* :mod:`bleu_core.fast.batch_tokenizers` — sacrebleu's tokens for many lines at once, each distinct word
  tokenised once (13a, intl, char, none; zh and paper line by line), as integer ids.
* :mod:`bleu_core.fast.counting` — clipped n-gram matches of many segments with numpy sorting and counting,
  exact (no hashing), order by order.
* :mod:`bleu_core.fast.corpus` — both, chunk by chunk with bounded memory: what
  :func:`bleu_core.engine.statistics.compute_statistics` runs.
* :mod:`bleu_core.fast.word_index` — ``str.split`` + numbering of distinct words, and expanding word ids
  into token ids: compiled, or pure Python/numpy.
* :mod:`bleu_core.fast.clipping` — clipped matches segment by segment in compiled code (the pure path of
  ``counting.clipped_matches``).
* ``chrf_matches`` (in ``_kernels.c``, wrapped by :mod:`bleu_core.fast.native`) — chrF/chrF++'s clipped
  character and word n-gram matches of every system against every reference, segment by segment, exact
  (hash tables confirmed unit by unit), without the GIL; its pure path is
  :func:`bleu_core.metrics.chrf._match_counts` (numpy sorting).
* ``rules_13a`` and ``rules_intl`` (in ``_kernels.c``, wrapped by :mod:`bleu_core.fast.native`) — sacrebleu's
  13a and intl regular expressions over UTF-8 bytes, for the batched tokenizers; intl's Unicode classes are
  taken from the ``regex`` package itself by :mod:`bleu_core.fast.intl_table`. Their pure paths are sacrebleu's
  own compiled expressions.
* :mod:`bleu_core.fast.file_bleu` — the fast path of ``bleu-study score`` and ``significance``: the corpus
  totals (``bleu13a_totals``) or per-segment rows (``bleu13a_segments``) of 13a-tokenised files straight from
  their bytes in one compiled call for many systems (``_bleu13a.c``: words, 13a, token ids and clipped counting
  in C, two threads, no numpy), or a reason to leave the files to the general path; its pure paths decode the
  lines and run :mod:`bleu_core.fast.corpus`.
* :mod:`bleu_core.fast.compiled` — whether the compiled kernels run (``_kernels.c``, a C extension built ahead
  of time at install; :mod:`bleu_core.fast.native` wraps it): always when built, unless ``BLEU_STUDY_PURE=1``.

Layering (no import cycles): ``compiled`` ← ``native`` ← ``word_index``, ``clipping`` ← ``counting``,
``batch_tokenizers`` ← ``corpus``. Outside this package the modules use only :mod:`bleu_core.tokenize.line_tokenizers`
and :mod:`bleu_core.fast.segment_counts`, never :mod:`bleu_core.engine.statistics` or :mod:`bleu_core.tokenize.tokenizers` (which
use them).

Everything here must give exactly the same result as the oracles
(:func:`bleu_core.engine.statistics.segment_row`, sacrebleu's tokenizers); ``tests/engine/test_fast_*.py`` prove it on real
data and on Hypothesis-generated input, for the compiled and the pure path alike. Speed is measured in ``benchmarks/bench_bleu.py``.
"""
