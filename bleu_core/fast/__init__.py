"""Fast paths: batched tokenisation and vectorised n-gram counting.

Everything here must give exactly the same result as the reference implementations
(:func:`bleu_core.statistics.segment_row`, sacrebleu's tokenizers); tests prove it.
"""
