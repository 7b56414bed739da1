"""BLEU at the two levels a study shows it: one function each, used by every page, command and export.

* **System BLEU** (:func:`system_bleu`) is corpus BLEU: the per-segment statistics summed over the
  segments, then scored with the options as given (sacrebleu's ``corpus_bleu``; effective order off by
  default, as there).
* **Segment BLEU** (:func:`segment_bleu`) is sentence BLEU as sacrebleu's ``sentence_bleu`` computes it:
  the same tokenizer, smoothing and order, **with effective order** (an order a short hypothesis cannot
  have is left out instead of making the score nearly 0). :func:`sentence_options` is that rule, and
  :func:`segment_signature` says it (``eff:yes``), so a segment-level number never shares the corpus
  signature.

A corpus-level signature and a segment-level one differ only where the numbers can differ:

>>> from bleu_core.engine.options import BleuOptions
>>> segment_signature(BleuOptions(), ["ref-A"])
'nrefs:1|refs:ref-A|case:mixed|eff:yes|tok:13a|smooth:exp|version:bleu-study-0.1.0'
>>> import numpy as np
>>> from bleu_core.engine.statistics import compute_statistics
>>> stats = compute_statistics(["a cat"], [["a cat sat"]])
>>> round(float(segment_bleu(stats.array, BleuOptions())[0]), 4)   # sacrebleu 2.6.0 sentence_bleu: 60.6531
60.6531
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .options import BleuOptions
from .score import bleu_from_stats
from .signature import make_signature

SEGMENT_RULE = "sentence BLEU as sacrebleu's sentence_bleu (effective order)"
"""How segment-level BLEU is computed, in words (captions, notes, ``settings.json``)."""


def sentence_options(options: BleuOptions) -> BleuOptions:
    """The options segment-level BLEU uses: ``options`` with effective order on (sacrebleu's
    ``sentence_bleu``). Every other setting (tokenizer, smoothing, order, weights) is kept."""
    return options if options.effective_order else options.with_(effective_order=True)


def segment_bleu(array: Any, options: BleuOptions) -> np.ndarray:
    """Sentence BLEU (0-100) of every row of a statistics array ``(..., segments, F)``.

    The leading shape is kept: ``(systems, segments, F)`` gives ``(systems, segments)``."""
    return np.asarray(bleu_from_stats(array, sentence_options(options)).score, dtype=np.float64)


def system_bleu(array: Any, options: BleuOptions) -> np.ndarray:
    """Corpus BLEU (0-100) of statistics ``(..., segments, F)``: the rows summed over segments."""
    totals = np.asarray(getattr(array, "array", array), dtype=np.float64).sum(axis=-2)
    return np.asarray(bleu_from_stats(totals, options).score, dtype=np.float64)


def segment_signature(options: BleuOptions, references: Sequence[str] | int) -> str:
    """The signature of segment-level BLEU: :func:`~bleu_core.engine.signature.make_signature` of
    :func:`sentence_options` (references by name, or a count when the names are unknown)."""
    return make_signature(sentence_options(options), references)
