"""Tokenizers, looked up by name from one registry.

``13a``, ``intl``, ``char``, ``zh`` and ``none`` are *defined* by sacrebleu's tokenizer classes: we call them, so
our tokens are sacrebleu's tokens. ``paper`` counts words as the BLEU paper does in its worked examples: case-folded
words, punctuation-only tokens dropped.

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

import unicodedata
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from .errors import BleuOptionError

#: Every tokenizer name, default first.
TOKENIZER_NAMES: tuple[str, ...] = ("13a", "intl", "char", "zh", "none", "paper")
DEFAULT_TOKENIZER = "13a"

TOKENIZER_DESCRIPTIONS: dict[str, str] = {
    "13a": "mteval-v13a, sacrebleu's default: splits punctuation from words (WMT standard)",
    "intl": "mteval-v14 international: splits on Unicode punctuation and symbols",
    "char": "every character is a token (for languages without spaces)",
    "zh": "Chinese characters split, other text as 13a",
    "none": "whitespace only: for text that is already tokenised",
    "paper": "case-folded words, punctuation dropped, as the BLEU paper counts them",
}


def _is_punctuation_only(token: str) -> bool:
    return all(unicodedata.category(ch).startswith("P") for ch in token)


class _PaperTokenizer:
    """Case-folded 13a words with punctuation-only tokens dropped (BLEU paper, §2 examples)."""

    def __init__(self) -> None:
        self._base = Tokenizer13a()

    @lru_cache(maxsize=2**16)  # noqa: B019 - instances live for the process, like sacrebleu's
    def __call__(self, line: str) -> str:
        tokens = self._base(line.lower()).split()
        return " ".join(t for t in tokens if not _is_punctuation_only(t))


_BASE_FACTORIES: dict[str, Callable[[], Callable[[str], str]]] = {
    "13a": Tokenizer13a,
    "intl": TokenizerV14International,
    "char": TokenizerChar,
    "zh": TokenizerZh,
    "none": NoneTokenizer,
    "paper": _PaperTokenizer,
}


@cache
def _base_tokenizer(name: str) -> Callable[[str], str]:
    return _BASE_FACTORIES[name]()


class Tokenizer:
    """A named tokenizer: ``tokenizer(line) -> list[str]``; ``tokenize_corpus(lines)`` for many lines."""

    def __init__(self, name: str, lowercase: bool = False) -> None:
        if name not in _BASE_FACTORIES:
            raise BleuOptionError(
                f"unknown tokenizer {name!r}; choose one of: " + ", ".join(TOKENIZER_NAMES)
            )
        self.name = name
        self.lowercase = lowercase
        self._base = _base_tokenizer(name)

    def __repr__(self) -> str:
        return f"Tokenizer({self.name!r}, lowercase={self.lowercase})"

    def tokenize_string(self, line: str) -> str:
        """The tokenised line as one space-separated string (what sacrebleu's BLEU counts n-grams on)."""
        if self.lowercase:
            line = line.lower()
        return self._base(line.rstrip())

    def __call__(self, line: str) -> list[str]:
        return self.tokenize_string(line).split()

    def tokenize_corpus(self, lines: Sequence[str]) -> list[list[str]]:
        """Tokenise many lines; same result as calling the tokenizer on each line.

        13a, intl, char and none tokenise each distinct word once instead of each line
        (:mod:`bleu_core.fast.batch_tokenizers`, tested token for token against sacrebleu).
        """
        from .fast.batch_tokenizers import BatchTokenizer

        return BatchTokenizer(self.name, self.lowercase).tokenize(lines)


def get_tokenizer(name: str = DEFAULT_TOKENIZER, lowercase: bool = False) -> Tokenizer:
    """Look a tokenizer up by name.

    >>> get_tokenizer("spacy")
    Traceback (most recent call last):
    ...
    bleu_core.errors.BleuOptionError: unknown tokenizer 'spacy'; choose one of: 13a, intl, char, zh, none, paper
    """
    return Tokenizer(name, lowercase)
