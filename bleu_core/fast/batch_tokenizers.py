"""Batched tokenisation: many lines in, integer token ids out.

sacrebleu's tokenizers work one line at a time, and on a large corpus most of the time goes into calling them
(a Python call, four regular-expression passes and a cache look-up per line). This module gets *the same tokens*
much faster by tokenising each distinct whitespace-separated **word** once.

Why that is exact. ``13a``, ``intl``, ``char`` and ``none`` are *word-local*: every rule they apply looks at a
character and at most its immediate neighbours, and no rule fires on, consumes or creates whitespace in a way
that depends on the word next door. So the tokens of a line are the tokens of its words, one word after the
other, provided each word is tokenised in the right *context*:

* ``13a`` pads every line with spaces (``f" {line} "``), so every word sits between whitespace: the tokens of a
  word are sacrebleu's 13a tokens of the word alone. Lines containing ``"\\n"`` are the exception (13a deletes
  ``"-\\n"``, which glues two words together); they are tokenised on their own by sacrebleu's tokenizer.
* ``intl`` does not pad: a punctuation mark at the very start (or end) of a line has no neighbour, and mteval-v14
  treats that differently from a neighbouring space (``"2019."`` at the end of a line stays one token). So the
  first word of a line (unless the line starts with whitespace) is tokenised without a left neighbour, the last
  word without a right neighbour (sacrebleu right-strips lines first), the others between spaces.
* ``char`` and ``none`` do not care about neighbours at all.

Lower-casing is word-local too (Python's final-sigma rule never looks across whitespace). ``zh`` and ``paper``
are tokenised line by line with :class:`bleu_core.tokenize.tokenizers.Tokenizer` (same result, no speed-up).

The rules are still sacrebleu's, run once over all new distinct words joined together: in C with the compiled
kernels (``rules_13a`` and ``rules_intl`` in ``_kernels.c``; intl's Unicode classes come from the ``regex``
package itself, :mod:`bleu_core.fast.intl_table`), else sacrebleu's own compiled regular expressions. Two
shortcuts give the same strings faster: on the pure path, 13a's first rule (a space on each side of an ASCII
punctuation mark or symbol, no context) is a chain of ``str.replace``; and a word made of letters and digits
only (``str.isalnum``) is left whole, as every rule of 13a and intl leaves it. Tests
(``tests/engine/test_fast_tokenizers.py``) compare the result token for token with sacrebleu's tokenizer on
every line of the real data in ``/work/shared/data`` and on Hypothesis-generated text.

Cost: a line (a string object) met twice in one call is tokenised once (one dictionary look-up per line: the
reference that :func:`bleu_core.engine.statistics.compute_system_statistics` repeats for every system).
The distinct lines are joined into one text, which the compiled kernels read in UTF-8 (built line by line, so
that a line of ASCII is copied as it is; the markers are counted on the bytes, vectorised), numbering every
word through a hash table (:mod:`bleu_core.fast.word_index`); the pure path uses ``str.split`` and a
dictionary. The Python-level work per *distinct* word happens once per tokenizer instance (a cache).

>>> bt = BatchTokenizer("13a")
>>> bt.tokenize(["Hello, world!", "", "It costs $3.50 -- really?"])
[['Hello', ',', 'world', '!'], [], ['It', 'costs', '$', '3.50', '--', 'really', '?']]
>>> encoded = bt.encode(["a b a", "b"])
>>> encoded.lengths.tolist(), [bt.tokens[i] for i in encoded.ids]
([3, 1], ['a', 'b', 'a', 'b'])
"""

from __future__ import annotations

import gc
import itertools
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import cast

import numpy as np

from ..tokenize.line_tokenizers import LineTokenizer, sacrebleu_class
from . import native
from .compiled import use_compiled
from .word_index import WordTable, count_bytes, number_words, tokens_of_words

#: Tokenizers whose batched (word-by-word) implementation is proven identical to sacrebleu's by the tests.
WORD_LOCAL_TOKENIZERS = frozenset({"13a", "intl", "char", "none"})

# Marker characters glued into the joined corpus text. They must not occur in the text itself; they are picked
# per call among these control characters (none of them is whitespace for ``str.split``, none has a case, none
# is touched by any tokenizer rule, and all are below U+0100, so ASCII/Latin-1 text stays compact).
_MARKER_CANDIDATES = "".join(
    chr(c) for c in [*range(0x00, 0x09), *range(0x0E, 0x1C), 0x7F, *range(0x80, 0x85)]
)
_MARKER_RE = re.compile("[" + re.escape(_MARKER_CANDIDATES) + "]")
# ``intl`` words are tokenised in one string separated by a *number* character: a number is invisible to the
# mteval-v14 rules (a punctuation mark next to a number is never split off), exactly like "no neighbour".
_NUMBER_SEPARATORS = "\u00b9\u00b2\u00b3\u00bc\u00bd\u00be\u2189\u216f\u3007"


#: Lines repeated in one call are tokenised again, not looked up, when at most one line in this many is a repeat.
_FEW_REPEATS = 8


@dataclass(frozen=True)
class EncodedLines:
    """Token ids of many lines: ``ids`` (all lines' tokens, concatenated) and ``lengths`` (tokens per line)."""

    ids: np.ndarray
    lengths: np.ndarray

    def __len__(self) -> int:
        return self.lengths.shape[0]


@contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small containers (it would rescan them all)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


Rules = list[tuple[re.Pattern[str], str]]


def _sacrebleu_rules_13a() -> Rules | None:
    """sacrebleu's own compiled rules for 13a (shared with zh); ``None`` if sacrebleu changed shape."""
    try:
        return list(sacrebleu_class("13a")()._post_tokenizer._re)
    except (ImportError, AttributeError):  # pragma: no cover - depends on the installed sacrebleu
        return None


@cache
def _sacrebleu_rules_intl() -> Rules | None:
    """sacrebleu's compiled rules for intl, loaded on first use (they need the ``regex`` package)."""
    try:
        return list(sacrebleu_class("intl")()._re)
    except (ImportError, AttributeError):  # pragma: no cover - depends on the installed sacrebleu
        return None


_RULES_13A = _sacrebleu_rules_13a()


def _single_character_chars(rule: re.Pattern[str], replacement: str) -> str | None:
    """The characters of a rule that is one ASCII character class replaced by itself between spaces.

    13a's first rule puts spaces around every ASCII punctuation mark and symbol (and the space itself): one
    character, no context. Replacing each such character with ``str.replace`` (the space first, so that the spaces
    added later are not tripled) builds the same string without a Python call per match. The tests check this
    against the rule on every Unicode code point.
    """
    if rule.groups != 1 or replacement != r" \1 " or not rule.pattern.startswith("(["):
        return None
    chars = "".join(chr(c) for c in range(128) if rule.fullmatch(chr(c)))
    return " " + chars.replace(" ", "") if " " in chars else chars


_CHARS_13A = _single_character_chars(*_RULES_13A[0]) if _RULES_13A is not None else None


def _apply_first_13a_rule(text: str) -> str:
    """sacrebleu's first 13a rule (``([{-~[-` -&(-+:-@/])`` → ``" \1 "``) as a chain of ``str.replace``."""
    assert _CHARS_13A is not None
    for c in _CHARS_13A:
        if c in text:
            text = text.replace(c, f" {c} ")
    return text


def _pick(present: set[str], pool: str, count: int) -> list[str] | None:
    chosen = [c for c in pool if c not in present][:count]
    return chosen if len(chosen) == count else None


def _words_13a(words: list[str], separator: str) -> list[list[str]]:
    """sacrebleu's 13a tokens of each word (lower-cased already), all words in one pass of each rule."""
    assert _RULES_13A is not None
    # Tokenizer13a.__call__ on one word: replacements, then the regexp tokenizer on f" {word} ".
    text = " " + f" {separator} ".join(words) + " "
    text = text.replace("<skipped>", "")
    if "&" in text:
        text = (
            text.replace("&quot;", '"')
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
        )
    text = _apply_13a_rules(text)
    return [piece.split() for piece in text.split(separator)]


def _apply_13a_rules(text: str) -> str:
    """sacrebleu's four 13a regular expressions on ``text``: in C (one pass per rule over the UTF-8 bytes,
    ``rules_13a`` in ``fast/_kernels.c``) when the kernels are built, else sacrebleu's own compiled rules
    (the first as a chain of ``str.replace``). Text holding a lone surrogate (no UTF-8) takes the rules."""
    if use_compiled():
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            pass
        else:
            return native.rules_13a(data).decode("utf-8")
    assert _RULES_13A is not None
    rules = _RULES_13A
    if _CHARS_13A is not None:
        text = _apply_first_13a_rule(text)
        rules = rules[1:]
    for rule, replacement in rules:
        text = rule.sub(replacement, text)
    return text


def _words_intl(parts: list[str], separator: str) -> list[list[str]]:
    """sacrebleu's intl tokens of each (context-padded) word, all words in one pass of each rule."""
    text = _apply_intl_rules(separator.join(parts))
    return [piece.split() for piece in text.split(separator)]


def _apply_intl_rules(text: str) -> str:
    """sacrebleu's three intl regular expressions on ``text``: in C (one pass per rule over the UTF-8 bytes,
    ``rules_intl`` in ``fast/_kernels.c``, with the Unicode classes of ``regex``:
    :mod:`bleu_core.fast.intl_table`) when the kernels are built, else sacrebleu's own compiled rules. Lone
    surrogates travel through C in their ``surrogatepass`` form, which no class holds (as in ``regex``)."""
    if use_compiled():
        data = text.encode("utf-8", "surrogatepass")
        return native.rules_intl(data).decode("utf-8", "surrogatepass")
    rules = _sacrebleu_rules_intl()
    assert rules is not None
    for rule, replacement in rules:
        text = rule.sub(replacement, text)
    return text


class BatchTokenizer:
    """Tokenise many lines at once into integer ids; the ids are shared by every call on the same instance.

    ``tokens[i]`` is the text of token id ``i``. Give the hypotheses and every reference stream of a corpus to
    the same instance so that equal tokens get equal ids. The instance remembers the tokens of every word it has
    seen (a cache that lives as long as the instance).
    """

    def __init__(self, name: str, lowercase: bool = False) -> None:
        self.name = name
        self.lowercase = lowercase
        self._line_tokenizer = LineTokenizer(name, lowercase)  # validates the name
        rules = _sacrebleu_rules_intl() if name == "intl" else _RULES_13A
        self.word_local = name in WORD_LOCAL_TOKENIZERS and rules is not None
        self.vocabulary: dict[str, int] = {}
        self.tokens: list[str] = []
        self._word_cache: dict[str, tuple[int, ...]] = {}
        self._markers: tuple[str, ...] | None = None
        # Compiled path: every distinct word met (WordTable) and its tokens (word_len[w] ids in word_flat).
        self._word_table: WordTable | None = None
        self._word_len = np.zeros(0, np.int64)
        self._word_flat = np.zeros(0, np.int64)

    def __repr__(self) -> str:
        return f"BatchTokenizer({self.name!r}, lowercase={self.lowercase})"

    # ------------------------------------------------------------------------------------------ public

    def encode(self, lines: Sequence[str]) -> EncodedLines:
        """Token ids of ``lines`` (each line as ``Tokenizer(name, lowercase)`` would tokenise it).

        A string object met more than once in ``lines`` is tokenised once: the reference stream that
        :func:`bleu_core.engine.statistics.compute_system_statistics` repeats for every system (the same objects)
        costs one dictionary look-up a line. Lines are told apart by identity, not by value: equal strings
        give equal tokens anyway, and hashing every line of a big corpus of distinct lines would cost more
        than the repeats it finds. When at most one line in :data:`_FEW_REPEATS` is a repeat, every line is
        tokenised (same tokens, less work).
        """
        n_lines = len(lines)
        if n_lines == 0:
            return EncodedLines(np.zeros(0, np.int64), np.zeros(0, np.int64))
        keys = list(map(id, lines))
        distinct_keys = list(dict.fromkeys(keys))
        # A few repeats (Python shares the objects of empty and one-character lines) cost less tokenised again
        # than the second pass that gives every line the tokens of its distinct line.
        if (n_lines - len(distinct_keys)) * _FEW_REPEATS <= n_lines:
            return self._encode_distinct(lines)
        by_key = dict(zip(keys, lines, strict=True))
        encoded = self._encode_distinct([by_key[k] for k in distinct_keys])
        # Each distinct line is a "word" of the lines (word k + 1 = distinct line k, word 0 = the boundary).
        number = dict(zip(distinct_keys, range(1, len(distinct_keys) + 1), strict=True))
        word_ids = np.zeros(2 * n_lines - 1, np.int64)
        word_ids[0::2] = np.fromiter(map(number.__getitem__, keys), np.int64, n_lines)
        line_len = np.concatenate([np.zeros(1, np.int64), encoded.lengths])
        ids, lengths = tokens_of_words(word_ids, encoded.ids, line_len, n_lines)
        return EncodedLines(ids, lengths)

    def _encode_distinct(self, lines: Sequence[str]) -> EncodedLines:
        if self.word_local:
            with no_gc():
                encoded = self._encode_words(lines)
            if encoded is not None:
                return encoded
        return self._encode_per_line(lines)

    def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        """The tokens of every line, as lists of strings."""
        encoded = self.encode(lines)
        with no_gc():
            flat = (
                np.array(self.tokens, dtype=object)[encoded.ids].tolist()
                if len(encoded.ids)
                else []
            )
            ends = np.cumsum(encoded.lengths).tolist()
            starts = [0, *ends[:-1]] if ends else []
            return [flat[a:b] for a, b in zip(starts, ends, strict=True)]

    # ------------------------------------------------------------------------------------------ helpers

    def _token_ids(self, token_lists: list[list[str]]) -> list[tuple[int, ...]]:
        """Ids of the tokens of many words (new tokens join the vocabulary)."""
        flat = list(itertools.chain.from_iterable(token_lists))
        vocabulary, tokens = self.vocabulary, self.tokens
        for token in dict.fromkeys(flat):
            if token not in vocabulary:
                vocabulary[token] = len(tokens)
                tokens.append(token)
        ids = list(map(vocabulary.__getitem__, flat))
        ends = list(itertools.accumulate(map(len, token_lists)))
        starts = [0, *ends[:-1]] if ends else []
        return [tuple(ids[a:b]) for a, b in zip(starts, ends, strict=True)]

    def _encode_per_line(self, lines: Sequence[str]) -> EncodedLines:
        tokenizer = self._line_tokenizer
        with no_gc():
            per_line = [tokenizer(line) for line in lines]
            lengths = np.fromiter(map(len, per_line), np.int64, len(per_line))
            flat = list(itertools.chain.from_iterable(per_line))
        for token in dict.fromkeys(flat):
            if token not in self.vocabulary:
                self.vocabulary[token] = len(self.tokens)
                self.tokens.append(token)
        ids = np.fromiter(map(self.vocabulary.__getitem__, flat), np.int64, len(flat))
        return EncodedLines(ids, lengths)

    def _joined_text(self, lines: Sequence[str], markers: tuple[str, ...]) -> str:
        sep, first, last, _ = markers
        if self.name == "intl":
            return first + f"{last} {sep} {first}".join(map(str.rstrip, lines)) + last
        return f" {sep} ".join(lines)

    def _markers_fit(self, text: str, markers: tuple[str, ...], n_lines: int) -> bool:
        """True when the markers occur in ``text`` only where we put them (i.e. never in the lines)."""
        sep, first, last, special = markers
        per_line = n_lines if self.name == "intl" else 0
        return (
            text.count(sep) == n_lines - 1
            and text.count(first) == per_line
            and text.count(last) == per_line
            and special not in text
        )

    def _joined_bytes(self, lines: Sequence[str], markers: tuple[str, ...]) -> bytes:
        """:meth:`_joined_text` in UTF-8, each line encoded on its own: a line of ASCII is copied as it is,
        and one line with a character above U+00FF no longer makes the whole text two bytes a character."""
        sep, first, last, _ = (m.encode() for m in markers)
        stripped = map(str.rstrip, lines) if self.name == "intl" else lines
        try:
            parts = list(map(str.encode, stripped))
        except UnicodeEncodeError:  # a lone surrogate (surrogateescape'd input): kept as it is
            stripped = map(str.rstrip, lines) if self.name == "intl" else lines
            parts = [line.encode("utf-8", "surrogatepass") for line in stripped]
        if self.name == "intl":
            return first + (last + b" " + sep + b" " + first).join(parts) + last
        return (b" " + sep + b" ").join(parts)

    def _markers_fit_bytes(self, data: bytes, markers: tuple[str, ...], n_lines: int) -> bool:
        """:meth:`_markers_fit` on the UTF-8 text (a marker below U+0080 is one byte that UTF-8 uses for
        nothing else, so counting that byte counts the marker: a ``memchr`` walk for each)."""
        one_byte = bytes(ord(m) for m in markers if ord(m) < 0x80)
        per_byte = dict(zip(one_byte, count_bytes(data, one_byte), strict=True))

        def count(marker: str) -> int:
            code = ord(marker)
            return per_byte[code] if code < 0x80 else data.count(marker.encode())

        sep, first, last, special = markers
        per_line = n_lines if self.name == "intl" else 0
        return (
            count(sep) == n_lines - 1
            and count(first) == per_line
            and count(last) == per_line
            and count(special) == 0
        )

    def _encode_words(self, lines: Sequence[str]) -> EncodedLines | None:
        n_lines = len(lines)
        name = self.name
        if use_compiled():
            # The compiled path reads UTF-8: build it line by line and check the markers on it. A 13a line
            # holding "\n", or a marker clash, goes the way of the text below (which handles both).
            markers = self._markers or tuple(_MARKER_CANDIDATES[:4])
            data = self._joined_bytes(lines, markers)
            if not (name == "13a" and b"\n" in data) and self._markers_fit_bytes(
                data, markers, n_lines
            ):
                if markers != self._markers:
                    self._markers = markers
                    self._word_cache.clear()
                    self._word_table = None
                return self._encode_compiled(data, n_lines)
            del data
        # 1. One string for all lines, each line boundary a separator word; intl also marks the first and last
        #    word of each line (they tokenise differently: no neighbour). Markers are kept from call to call
        #    (the word cache is keyed by marked words) and changed only when the text itself contains one.
        markers = self._markers or tuple(_MARKER_CANDIDATES[:4])
        text = self._joined_text(lines, markers)
        if not self._markers_fit(text, markers, n_lines):
            present = set(_MARKER_RE.findall("".join(lines)))
            chosen = _pick(present, _MARKER_CANDIDATES, 4)
            if chosen is None:
                return None
            markers = tuple(chosen)
            text = self._joined_text(lines, markers)
        if markers != self._markers:
            self._markers = markers
            self._word_cache.clear()  # cached words may carry the old markers
            self._word_table = None
        sep, first, last, special = markers
        # 13a deletes "-\n" and turns "\n" into a space: a line holding "\n" is tokenised on its own and stands
        # in the text as one placeholder word.
        placeholders: dict[str, list[str]] = {}
        if name == "13a" and "\n" in text:
            replaced = list(lines)
            for i, line in enumerate(lines):
                if "\n" in line:
                    key = f"{special}{i}"
                    placeholders[key] = self._line_tokenizer(line)
                    replaced[i] = key
            text = f" {sep} ".join(replaced)
        if not placeholders and use_compiled(len(text)):
            return self._encode_compiled(text.encode("utf-8", "surrogatepass"), n_lines)
        # 2. Words -> word ids (first-occurrence numbering through one dict, then made dense).
        word_ids, distinct = number_words(text, first=sep)
        del text
        # 3. Tokens of every distinct word (cached across calls).
        cache = self._word_cache
        word_tokens = list(map(cache.get, distinct))
        word_tokens[0] = ()
        missing = [i for i, t in enumerate(word_tokens) if t is None]
        if missing:
            new_words = [distinct[i] for i in missing]
            new_tokens = self._token_ids(
                self._tokenize_distinct(new_words, first, last, placeholders)
            )
            for i, token_ids in zip(missing, new_tokens, strict=True):
                word_tokens[i] = token_ids
            cache.update(zip(new_words, new_tokens, strict=True))
            for key in placeholders:
                cache.pop(key, None)
        if len(cache) > 2_000_000:  # bound the memory a huge, varied corpus can pin
            cache.clear()
        # 4. Expand word ids into token ids; line lengths from the separator positions.
        every_word = cast("list[tuple[int, ...]]", word_tokens)  # each None was filled in step 3
        word_len = np.fromiter(map(len, every_word), np.int64, len(every_word))
        word_flat = np.fromiter(
            itertools.chain.from_iterable(every_word), np.int64, int(word_len.sum())
        )
        ids, lengths = tokens_of_words(word_ids, word_flat, word_len, n_lines)
        return EncodedLines(ids, lengths)

    def _encode_compiled(self, data: bytes, n_lines: int) -> EncodedLines:
        """Steps 2-4 on the joined text in UTF-8 (``data``) with the compiled kernels and one word table for
        every call (words decoded and tokenised once per instance)."""
        sep, first, last, _ = self._markers  # type: ignore[misc]  # the caller has just set them
        if self._word_table is None or len(self._word_table) > 2_000_000:  # bound the memory
            self._word_table = WordTable([sep])
            self._word_len = np.zeros(1, np.int64)  # the separator: no tokens
            self._word_flat = np.zeros(0, np.int64)
        table = self._word_table
        known = len(table)
        word_ids = table.add_utf8(data)
        if len(table) > known:
            tokens = self._token_ids(self._tokenize_distinct(table.words[known:], first, last, {}))
            lengths = np.fromiter(map(len, tokens), np.int64, len(tokens))
            flat = np.fromiter(itertools.chain.from_iterable(tokens), np.int64, int(lengths.sum()))
            self._word_len = np.concatenate([self._word_len, lengths])
            self._word_flat = np.concatenate([self._word_flat, flat])
        ids, lengths = tokens_of_words(
            word_ids, self._word_flat, self._word_len, n_lines, compiled=True
        )
        return EncodedLines(ids, lengths)

    def _tokenize_distinct(
        self, words: list[str], first: str, last: str, placeholders: dict[str, list[str]]
    ) -> list[list[str]]:
        """Tokens of each (marked) word. A word of letters and digits only (``str.isalnum``) is one token in
        every word-local tokenizer but ``char``: no rule of 13a or intl touches letters or digits."""
        name = self.name
        if name == "intl":
            marked = []
            for w in words:
                has_first, has_last = w.startswith(first), w.endswith(last)
                core = w[1 if has_first else 0 : len(w) - 1 if has_last else len(w)]
                marked.append((has_first, core, has_last))
            if self.lowercase:
                marked = [(f, core.lower(), e) for f, core, e in marked]
            out: list[list[str] | None] = [[c] if c.isalnum() else None for _, c, _ in marked]
            todo = [i for i, t in enumerate(out) if t is None]
            parts = [
                ("" if marked[i][0] else " ") + marked[i][1] + ("" if marked[i][2] else " ")
                for i in todo
            ]
            present = set("".join(parts))
            separator = next((c for c in _NUMBER_SEPARATORS if c not in present), None)
            if separator is None:  # pragma: no cover - all nine number characters in one word list
                results = [sacrebleu_class("intl")()(p).split() for p in parts]
            else:
                results = _words_intl(parts, separator) if parts else []
        else:
            cores = [w.lower() for w in words] if self.lowercase else words
            if name == "char":
                out = [list(w) for w in cores]
                todo, results = [], []
            elif name == "none":
                out = [[w] for w in cores]
                todo, results = [], []
            else:  # 13a
                out = [[w] if w.isalnum() else None for w in cores]
                todo = [i for i, t in enumerate(out) if t is None]
                # `first` is absent from the text: a safe separator.
                results = _words_13a([cores[i] for i in todo], first) if todo else []
        for i, toks in zip(todo, results, strict=True):
            out[i] = toks
        if placeholders:  # 13a lines holding "\n", tokenised on their own
            for i, w in enumerate(words):
                if w in placeholders:
                    out[i] = placeholders[w]
        return out  # type: ignore[return-value]  # every None was filled in above
