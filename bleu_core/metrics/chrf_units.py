"""chrF's units: the characters and the chrF++ words of many texts at once, as integer arrays.

:func:`~bleu_core.metrics.chrf.chrf_statistics_table` counts the n-gram matches of arrays of units, not of
strings: the code points of every text with whitespace removed (:func:`char_units`, sacrebleu's
``"".join(text.split())``) and, for chrF++, the ids of every text's words with one punctuation character split
off (:class:`WordUnits`, sacrebleu's ``CHRF._remove_punctuation``); equal units, equal ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

#: sacrebleu's ``CHRF._PUNCTS`` (``string.punctuation``)
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

# str.split() splits at the characters str.isspace() is true of, all below U+3001 (checked in the tests)
SPACE = np.array([chr(c).isspace() for c in range(0x3002)], dtype=bool)


def char_units(
    texts: list[str], whitespace: bool, dtype: type[np.integer] = np.int64
) -> tuple[np.ndarray, np.ndarray]:
    r"""The code points of every text, one after the other (``dtype``: int64, or uint32 for the kernel), and
    each text's count of them: sacrebleu's ``"".join(text.split())`` (whitespace removed) unless
    ``whitespace``, for all texts at once.

    >>> units, lengths = char_units(["a b", "", " \u3000c\n"], whitespace=False)
    >>> "".join(map(chr, units)), lengths.tolist()
    ('abc', [2, 0, 1])
    """
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype="<u4")
    if whitespace:
        return points.astype(dtype, copy=False), lengths
    space = SPACE[np.minimum(points, SPACE.size - 1)]
    kept = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=kept[1:])
    left = np.r_[0, np.cumsum(~space)][kept]  # non-space code points before each text's start
    return points[~space].astype(dtype, copy=False), np.diff(left)


def split_word(word: str) -> tuple[str, ...]:
    """sacrebleu's ``CHRF._remove_punctuation`` on one whitespace-separated word: a punctuation character
    is split off the end of a word of 2+ characters, or else off its start.

    >>> [split_word(w) for w in ["(hi)", "there,", "..", "!x", "a"]]
    [('(hi', ')'), ('there', ','), ('.', '.'), ('!', 'x'), ('a',)]
    """
    if len(word) > 1:
        if word[-1] in PUNCTUATION:
            return word[:-1], word[-1]
        if word[0] in PUNCTUATION:
            return word[0], word[1:]
    return (word,)


#: candidate separators between texts when their words are numbered all at once (one in no text is used)
SEPARATORS = ("\ue000chrf\ue001", "\ue002chrf\ue003", "\U000f0000chrf\U000f0001")


class WordUnits:
    """chrF++'s words of the texts of a study, chunk after chunk, as ids (equal words, equal ids): ``str.split``
    then :func:`split_word`.

    A chunk's texts are joined around a separator word (one that occurs in no text) and numbered at once:
    compiled, by one :class:`~bleu_core.fast.word_index.WordTable` kept from chunk to chunk (only new words are
    decoded and split), or by :func:`~bleu_core.fast.word_index.number_words` (``str.split`` + a dict);
    :func:`~bleu_core.fast.word_index.tokens_of_words` then expands words into their pieces' ids.

    >>> words = WordUnits([["the cat, the", None, "cat"]], compiled=False)
    >>> ids, lengths = words.units(["the cat, the", "", "cat"])
    >>> ids.tolist(), lengths.tolist()
    ([0, 1, 2, 0, 1], [4, 0, 1])
    """

    def __init__(self, streams: Sequence[Sequence[str | None]], compiled: bool) -> None:
        from bleu_core.fast.word_index import WordTable

        self.sep = next(
            (c for c in SEPARATORS if not any(c in t for s in streams for t in s if t)), ""
        )
        self.compiled = compiled
        self.pieces: dict[str, int] = {}
        self.table = WordTable([self.sep]) if compiled and self.sep else None
        self.word_len = np.zeros(1, dtype=np.int64)  # word 0, the separator: no pieces
        self.word_flat = np.zeros(0, dtype=np.int64)

    def _piece_ids(self, pieces: list[str]) -> np.ndarray:
        """The ids of ``pieces`` (numbered in order of first appearance)."""
        ids = self.pieces
        fresh = [p for p in dict.fromkeys(pieces) if p not in ids]
        ids.update(zip(fresh, range(len(ids), len(ids) + len(fresh)), strict=True))
        return np.fromiter(map(ids.__getitem__, pieces), dtype=np.int64, count=len(pieces))

    def _add_words(self, words: list[str]) -> None:
        """Split new words into pieces (:func:`split_word`): their count and ids join ``word_len`` and
        ``word_flat``.

        A plain loop that creates no tuple: with a big study in memory, every few hundred new tuples would
        set off a garbage collection that walks all of it (20 times the cost of the splitting itself).
        """
        pieces: list[str] = []
        two: list[bool] = []
        add = pieces.append
        for word in words:
            if len(word) > 1 and word[-1] in PUNCTUATION:
                add(word[:-1])
                add(word[-1])
                two.append(True)
            elif len(word) > 1 and word[0] in PUNCTUATION:
                add(word[0])
                add(word[1:])
                two.append(True)
            else:
                add(word)
                two.append(False)
        lengths = 1 + np.array(two, dtype=np.int64)
        self.word_len = np.concatenate([self.word_len, lengths])
        self.word_flat = np.concatenate([self.word_flat, self._piece_ids(pieces)])

    def units(
        self, texts: list[str], dtype: type[np.integer] = np.int64
    ) -> tuple[np.ndarray, np.ndarray]:
        """The piece ids of every text one after the other, and each text's count of them."""
        from bleu_core.fast.word_index import number_words, tokens_of_words

        if not texts:
            return np.zeros(0, dtype=dtype), np.zeros(0, dtype=np.int64)
        if not self.sep:  # texts holding every separator: split them one by one
            words = [[p for w in t.split() for p in split_word(w)] for t in texts]
            units = self._piece_ids(list(chain.from_iterable(words))).astype(dtype)
            return units, np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        text = f" {self.sep} ".join(texts)
        if self.table is not None:
            known = len(self.table)
            word_ids = self.table.add(text)
            self._add_words(self.table.words[known:])
        else:  # words numbered afresh in every chunk
            word_ids, distinct = number_words(text, first=self.sep, compiled=False)
            self.word_len = self.word_len[:1]
            self.word_flat = self.word_flat[:0]
            self._add_words(distinct[1:])
        units, lengths = tokens_of_words(
            word_ids, self.word_flat, self.word_len, len(texts), compiled=self.compiled
        )
        return units.astype(dtype, copy=False), lengths
