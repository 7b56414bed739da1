"""Split a big text into whitespace-separated words and number the distinct ones: ``str.split`` + a dict, fast.

Batched tokenisation (:mod:`bleu_core.fast.batch_tokenizers`) needs, for every word occurrence of a corpus, the
id of its distinct word (first-occurrence numbering) and the list of distinct words. In pure Python that is
``text.split()`` and one dictionary look-up per occurrence, about 0.25 µs a word: on 100k segments with one
reference (6 million words) that alone is 1.5 s, more than half of all the work.

:func:`number_words` does the same in compiled code (C, built at install: :mod:`bleu_core.fast.native`) when
the extension is built: one pass over the UTF-8 bytes, an open-addressing hash table whose hits are confirmed
by comparing the bytes (so the numbering is exact, never a hash guess), about 20 ns a word. Only the distinct
words are turned back into ``str``. A machine without the extension takes the pure-Python path; both give identical results (``tests/engine/test_fast_compiled.py``). :class:`WordTable` keeps the table from one text to
the next.

Whitespace is what ``str.split()`` splits on: the ASCII characters ``\\t\\n\\v\\f\\r``, ``\\x1c``-``\\x1f`` and
space, plus the non-ASCII ones in :data:`NON_ASCII_WHITESPACE` (recognised in their UTF-8 form by the kernel).

>>> ids, distinct = number_words("b a b  c", compiled=False)
>>> ids.tolist(), distinct
([1, 2, 1, 3], ['', 'b', 'a', 'c'])
>>> ids, distinct = number_words("to be or\\u3000not to be", compiled=False, first="be")
>>> ids.tolist(), distinct
([1, 0, 2, 3, 1, 0], ['be', 'to', 'or', 'not'])
"""

from __future__ import annotations

import itertools

import numpy as np

from . import native
from .compiled import use_compiled

#: Characters outside ASCII that ``str.split()`` treats as whitespace (``str.isspace``); a test checks this list
#: against every code point.
NON_ASCII_WHITESPACE = (
    "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
#: ASCII whitespace of ``str.split()``, as byte values.
ASCII_WHITESPACE = bytes([9, 10, 11, 12, 13, 28, 29, 30, 31, 32])


def _python_number_words(text: str, first: str) -> tuple[np.ndarray, list[str]]:
    words = text.split()
    index: dict[str, int] = {first: 0}
    ids = np.fromiter(map(index.setdefault, words, itertools.count(1)), np.int64, len(words))
    # setdefault's default is the occurrence number: make the ids dense (first-occurrence order).
    remap = np.empty(len(words) + 1, np.int64)
    remap[np.fromiter(index.values(), np.int64, len(index))] = np.arange(len(index))
    return remap[ids], list(index)


#: Byte classes for the kernel: 1 = ASCII whitespace, 2 = first byte of a possible non-ASCII whitespace character.
_KIND = np.zeros(256, dtype=np.uint8)
_KIND[list(ASCII_WHITESPACE)] = 1
_KIND[[0xC2, 0xE1, 0xE2, 0xE3]] = 2


class WordTable:
    """The distinct words met so far in compiled form (hash table + their bytes), numbered from 0 in order of
    first occurrence; :meth:`add` numbers the words of one more text. Word ``i``'s text is ``words[i]``.

    A :class:`~bleu_core.fast.batch_tokenizers.BatchTokenizer` keeps one for all the chunks of a corpus, so a
    word is decoded and tokenised once, whatever the number of chunks it occurs in.

    >>> table = WordTable(["|"])
    >>> table.add("b a b").tolist(), table.add("c | a").tolist(), table.words
    ([1, 2, 1], [3, 0, 2], ['|', 'b', 'a', 'c'])
    """

    def __init__(self, first_words: list[str] | None = None) -> None:
        self.slots = np.zeros(4096, np.uint64)
        self.meta = np.empty((2048, 2), np.int64)
        self.arena = np.empty(65536, np.uint8)
        self.used = 0
        self.words: list[str] = []
        for word in first_words or []:
            if word.split() != [word]:
                raise ValueError(f"not a single word: {word!r}")
            self.add(word)

    def __len__(self) -> int:
        return len(self.words)

    def add(self, text: str) -> np.ndarray:
        """The word id of every word of ``text.split()``; new words join :attr:`words`."""
        return self.add_utf8(text.encode("utf-8", "surrogatepass"))

    def add_utf8(self, data: bytes) -> np.ndarray:
        """:meth:`add` for a text already in UTF-8 (``surrogatepass``: lone surrogates allowed).

        >>> table = WordTable()
        >>> table.add_utf8("señor sí señor".encode()).tolist(), table.words
        ([0, 1, 0], ['señor', 'sí'])
        """
        before, used_before = len(self.words), self.used
        ids, self.slots, self.meta, self.arena, self.used, n_distinct = native.index_words(
            np.frombuffer(data, np.uint8),
            _KIND,
            self.slots,
            self.meta,
            self.arena,
            self.used,
            before,
        )
        if n_distinct > before:
            new = self.arena[used_before : self.used - 1].tobytes().decode("utf-8", "surrogatepass")
            self.words.extend(new.split(" "))  # words are stored each followed by one space
        return ids

    @property
    def nbytes(self) -> int:
        return self.slots.nbytes + self.meta.nbytes + self.arena.nbytes


def _compiled_number_words(text: str, first: str) -> tuple[np.ndarray, list[str]]:
    if first.split() == [first]:
        table = WordTable([first])
        return table.add(text), table.words
    # `first` cannot occur as a word: id 0 is reserved for it.
    table = WordTable()
    return table.add(text) + 1, [first, *table.words]


def number_words(
    text: str, *, first: str = "", compiled: bool | None = None
) -> tuple[np.ndarray, list[str]]:
    """``(ids, distinct)``: the id of every word of ``text.split()`` and the distinct words, in that order.

    ``distinct[0]`` is ``first`` (whether or not it occurs; a line separator, say), then the other words in
    order of first occurrence, so ``distinct[ids[i]] == text.split()[i]``; ``ids`` is an ``int64`` array.
    ``compiled=None`` lets
    :func:`bleu_core.fast.compiled.use_compiled` choose; ``True``/``False`` force a path (tests).
    """
    if use_compiled(len(text), compiled):
        return _compiled_number_words(text, first)
    return _python_number_words(text, first)


def count_bytes(data: bytes, values: bytes, compiled: bool | None = None) -> list[int]:
    """How often each byte of ``values`` occurs in ``data``: a ``memchr`` walk per value in C, or
    ``bytes.count``.

    >>> count_bytes(b"abca", b"abd", compiled=False)
    [2, 1, 0]
    """
    if use_compiled(len(data), compiled):
        return native.count_bytes(data, values)
    return [data.count(bytes([v])) for v in values]


def tokens_of_words(
    word_ids: np.ndarray,
    word_flat: np.ndarray,
    word_len: np.ndarray,
    n_lines: int,
    compiled: bool | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Token ids of a text given as word ids, and the number of tokens of each line.

    Word ``w`` has the ``word_len[w]`` tokens that follow each other in ``word_flat`` (the words' tokens one
    word after the other); word 0 is the line separator (no tokens), so there must be ``n_lines - 1`` of them.

    >>> ids, lengths = tokens_of_words(
    ...     np.array([1, 2, 0, 2]), np.array([7, 8, 9]), np.array([0, 1, 2]), 2, compiled=False
    ... )
    >>> ids.tolist(), lengths.tolist()
    ([7, 8, 9, 8, 9], [3, 2])
    """
    word_start = np.cumsum(word_len) - word_len
    if use_compiled(int(word_ids.shape[0]), compiled):
        ids, lengths, separators = native.expand(
            word_ids, word_flat, word_start, word_len, int(n_lines)
        )
    else:
        occ_len = word_len[word_ids]
        is_sep = word_ids == 0
        separators = int(is_sep.sum())
        occ_end = np.cumsum(occ_len)
        total = int(occ_end[-1]) if occ_end.size else 0
        gather = np.repeat(word_start[word_ids] - (occ_end - occ_len), occ_len) + np.arange(total)
        ids = word_flat[gather]
        line_of_word = np.cumsum(is_sep)
        lengths = np.bincount(
            line_of_word, weights=occ_len, minlength=max(n_lines, separators + 1)
        ).astype(np.int64)
    if separators != n_lines - 1:  # pragma: no cover - a marker clash would be a bug
        raise AssertionError("line separator count mismatch in batched tokenisation")
    return ids, lengths
