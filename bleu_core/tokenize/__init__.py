"""Tokenisation: sacrebleu's tokenizers by name, one line at a time or a corpus at once, and token offsets.

* :mod:`~bleu_core.tokenize.tokenizers` — the registry (``get_tokenizer``, ``TOKENIZER_NAMES``)
* :mod:`~bleu_core.tokenize.line_tokenizers` — one line at a time (the base layer)
* :mod:`~bleu_core.tokenize.token_offsets` — where each BLEU token sits in the original text

The batched tokenisers (many lines in, integer ids out) live with the counting kernels in :mod:`bleu_core.fast`;
the two folders form one layer and import each other, nothing above.
"""
