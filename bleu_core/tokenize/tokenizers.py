"""Tokenizers, looked up by name from one registry (the public face of tokenisation).

``13a``, ``intl``, ``char``, ``zh`` and ``none`` are *defined* by sacrebleu's tokenizer classes: we call them, so
our tokens are sacrebleu's tokens. ``paper`` counts words as the BLEU paper does in its worked examples: case-folded
words, punctuation-only tokens dropped. The registry and the line-by-line work live in
:mod:`bleu_core.tokenize.line_tokenizers`; many lines at once go through :mod:`bleu_core.fast.batch_tokenizers`, which
builds on that module, not on this one (no import cycle).

Like sacrebleu, a line is lower-cased first (when asked), then right-stripped, then tokenised, then split on
whitespace.

>>> get_tokenizer("13a")("The cat sat on the mat.")
['The', 'cat', 'sat', 'on', 'the', 'mat', '.']
>>> get_tokenizer("13a", lowercase=True)("The cat sat on the mat.")
['the', 'cat', 'sat', 'on', 'the', 'mat', '.']
>>> get_tokenizer("paper")("It is a guide to action, which ensures that the military always obeys.")
['it', 'is', 'a', 'guide', 'to', 'action', 'which', 'ensures', 'that', 'the', 'military', 'always', 'obeys']
"""

from __future__ import annotations

from collections.abc import Sequence

from .line_tokenizers import (
    DEFAULT_TOKENIZER,
    TOKENIZER_DESCRIPTIONS,
    TOKENIZER_NAMES,
    LineTokenizer,
    tokenizer_for_language,
    tokenizer_warning,
)

__all__ = [
    "DEFAULT_TOKENIZER",
    "TOKENIZER_DESCRIPTIONS",
    "TOKENIZER_NAMES",
    "Tokenizer",
    "get_tokenizer",
    "tokenizer_for_language",
    "tokenizer_warning",
]


class Tokenizer(LineTokenizer):
    """A named tokenizer: ``tokenizer(line) -> list[str]``; ``tokenize_corpus(lines)`` for many lines.

    The line-level part (names, sacrebleu's classes, lower-casing) is
    :class:`bleu_core.tokenize.line_tokenizers.LineTokenizer`; this class adds the batched path.
    """

    def tokenize_corpus(self, lines: Sequence[str]) -> list[list[str]]:
        """Tokenise many lines; same result as calling the tokenizer on each line.

        13a, intl, char and none tokenise each distinct word once instead of each line
        (:mod:`bleu_core.fast.batch_tokenizers`, tested token for token against sacrebleu).
        """
        from ..fast.batch_tokenizers import BatchTokenizer

        return BatchTokenizer(self.name, self.lowercase).tokenize(lines)


def get_tokenizer(name: str = DEFAULT_TOKENIZER, lowercase: bool = False) -> Tokenizer:
    """Look a tokenizer up by name.

    >>> get_tokenizer("spacy")
    Traceback (most recent call last):
    ...
    bleu_core.errors.BleuOptionError: unknown tokenizer 'spacy'; choose one of: 13a, intl, char, zh, none, paper, ja-mecab, ko-mecab
    """
    return Tokenizer(name, lowercase)
