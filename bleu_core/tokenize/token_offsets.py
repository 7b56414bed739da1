"""Where each BLEU token sits in the original text: character offsets for every tokenizer.

BLEU counts n-grams of *tokens*, but people (and MQM raters) mark *characters*. To say which tokens an error
span covers, each token needs its ``(start, end)`` character offsets in the text the rater saw.

Tokenizers do not simply cut the text into pieces: they change characters on the way.

* all of them drop whitespace, and sacrebleu right-strips the line (``zh`` strips both ends);
* ``13a`` (and ``paper``, built on it) deletes ``<skipped>``, joins ``-`` + newline, turns a newline into a
  space, and un-escapes ``&quot;`` ``&amp;`` ``&lt;`` ``&gt;`` into ``"`` ``&`` ``<`` ``>``;
* ``paper`` lower-cases the line and drops punctuation-only tokens; ``lowercase=True`` lower-cases for every
  tokenizer — and lower-casing may change a text's length (``"İ".lower()`` has two characters);
* ``intl``, ``char``, ``zh`` and ``none`` only insert or remove spaces.

So the offsets are found by **aligning the tokens back to the original text** instead of re-implementing
each tokenizer: the text is first *normalised* the way the tokenizers change it — every character
lower-cased on its own (final sigma ``ς`` read as ``σ``), and for ``13a``/``paper`` each entity replaced
by its character and ``<skipped>`` / ``-`` + newline removed — keeping, for every normalised character, the
range of original characters it came from. Then the tokens, normalised the same way, are looked up left to
right: each token is the first occurrence at or after the end of the previous one (tokens come out in text
order and only characters the tokenizer drops lie between them). A token's offsets are the original range
from the first to the last of its normalised characters, so ``&quot;`` becomes one token ``"`` covering six
characters. Matching ignores case, which is safe because the search is anchored at the previous token.

A token that cannot be found (a tokenizer change not listed above) gets the empty range at the current
position, ``start == end``: it overlaps no span, so it is never counted as inside an error. Every token of
the bundled TED studies is found for every tokenizer (``tests/study/test_spans.py``).

>>> text = "Don't say &quot;no&quot;, Σοφός."
>>> for token, start, end in token_offsets(text, "13a"):
...     print(f"{token!r:8} {start:2}-{end:2} {text[start:end]!r}")
"Don't"   0- 5 "Don't"
'say'     6- 9 'say'
'"'      10-16 '&quot;'
'no'     16-18 'no'
'"'      18-24 '&quot;'
','      24-25 ','
'Σοφός'  26-31 'Σοφός'
'.'      31-32 '.'
>>> [(t, s, e) for t, s, e in token_offsets("The cat, the mat.", "paper")]
[('the', 0, 3), ('cat', 4, 7), ('the', 9, 12), ('mat', 13, 16)]
>>> token_offsets("猫坐 on the mat", "zh")
(('猫', 0, 1), ('坐', 1, 2), ('on', 3, 5), ('the', 6, 9), ('mat', 10, 13))

A token is *inside* a span when they share at least one character (:func:`tokens_overlapping`):

>>> offsets = token_offsets("the cat sat on the mat", "13a")
>>> tokens_overlapping(offsets, 5, 9)          # "at s": the ends of "cat" and "sat"
[1, 2]
>>> tokens_overlapping(offsets, 7, 8)          # the space between "cat" and "sat": no token
[]
"""

from __future__ import annotations

import re
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from .tokenizers import get_tokenizer

__all__ = [
    "align_tokens",
    "forget_token_columns",
    "token_columns_corpus",
    "token_offsets",
    "token_offsets_corpus",
    "tokens_overlapping",
]

#: (token text, start, end): ``text[start:end]`` is where the token came from.
TokenOffset = tuple[str, int, int]

_ENTITIES = {"&quot;": '"', "&amp;": "&", "&lt;": "<", "&gt;": ">"}
_13A_CHANGES = re.compile(r"&quot;|&amp;|&lt;|&gt;|<skipped>|-\n|\n")
_UNESCAPING = frozenset({"13a", "paper"})


def _fold(text: str) -> str:
    """Lower-case character by character (so lengths add up) and read final sigma as sigma."""
    folded = text.lower()
    if len(folded) != len(text):  # a character lower-cases to several: fold one by one
        folded = "".join(ch.lower() for ch in text)
    return folded.replace("ς", "σ") if "ς" in folded else folded


def _normalised(text: str, tokenize: str) -> tuple[str, list[int] | None, list[int] | None]:
    """The normalised text and, for each of its characters, the original start and end (``None``: the
    identity, the common case of a text the normalisation does not change in length)."""
    unescape = tokenize in _UNESCAPING and _13A_CHANGES.search(text) is not None
    if not unescape:
        folded = text.lower()
        if len(folded) == len(text):
            if "ς" in folded:
                folded = folded.replace("ς", "σ")
            # str.lower() is context-free except for sigma, so per-character folding agrees here.
            return folded, None, None
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def copy(begin: int, stop: int) -> None:
        for i in range(begin, stop):
            for ch in _fold(text[i]):
                chars.append(ch)
                starts.append(i)
                ends.append(i + 1)

    last = 0
    if unescape:
        for match in _13A_CHANGES.finditer(text):
            copy(last, match.start())
            found = match.group()
            replacement = _ENTITIES.get(found, " " if found == "\n" else "")
            for ch in replacement:
                chars.append(ch)
                starts.append(match.start())
                ends.append(match.end())
            last = match.end()
    copy(last, len(text))
    return "".join(chars), starts, ends


def align_tokens(text: str, tokens: Sequence[str], tokenize: str = "13a") -> list[tuple[int, int]]:
    """The ``(start, end)`` character range of each token in ``text`` (see the module docstring).

    ``tokens`` must be what tokenizer ``tokenize`` made of ``text`` (with or without lower-casing).
    An unfound token gets an empty range ``(p, p)``.

    >>> align_tokens("A  b-c", ["a", "b-c"], "none")
    [(0, 1), (3, 6)]
    >>> align_tokens("abc", ["x", "c"], "none")    # "x" is not in the text
    [(0, 0), (2, 3)]
    """
    norm, starts, ends = _normalised(text, tokenize)
    offsets: list[tuple[int, int]] = []
    cursor = 0
    # Tokens hold no whitespace and folding never makes any: fold them all in one call.
    needles = _fold(" ".join(tokens)).split(" ") if tokens else []
    if len(needles) != len(
        tokens
    ):  # pragma: no cover - a token with a space (not from a tokenizer)
        needles = [_fold(token) for token in tokens]
    find = norm.find
    for needle in needles:
        at = find(needle, cursor) if needle else -1
        if at < 0:
            here = (
                len(text) if cursor >= len(norm) else (cursor if starts is None else starts[cursor])
            )
            offsets.append((here, here))
            continue
        stop = at + len(needle)
        if starts is None or ends is None:
            offsets.append((at, stop))
        else:
            offsets.append((starts[at], ends[stop - 1]))
        cursor = stop
    return offsets


def token_offsets(
    text: str, tokenize: str = "13a", lowercase: bool = False
) -> tuple[TokenOffset, ...]:
    """Tokenise ``text`` as BLEU does and give each token its character range in ``text``.

    The tokens are exactly those of :func:`bleu_core.tokenize.tokenizers.get_tokenizer` (``tokenize``,
    ``lowercase``), in order; ``text[start:end]`` is the original spelling of each.
    """
    tokens = get_tokenizer(tokenize, lowercase)(text)
    return tuple(
        (token, start, end)
        for token, (start, end) in zip(tokens, align_tokens(text, tokens, tokenize), strict=True)
    )


def token_offsets_corpus(
    texts: Sequence[str], tokenize: str = "13a", lowercase: bool = False
) -> list[tuple[TokenOffset, ...]]:
    """:func:`token_offsets` of many texts (same result, faster: one batch tokenisation).

    >>> token_offsets_corpus(["a b.", "c"]) == [token_offsets("a b."), token_offsets("c")]
    True
    """
    token_lists = get_tokenizer(tokenize, lowercase).tokenize_corpus(list(texts))
    return [
        tuple(
            (token, start, end)
            for token, (start, end) in zip(
                tokens, align_tokens(text, tokens, tokenize), strict=True
            )
        )
        for text, tokens in zip(texts, token_lists, strict=True)
    ]


#: (tokens, starts, ends) of one text: :func:`token_offsets` as three columns.
TokenColumns = tuple[tuple[str, ...], array, array]

_COLUMNS_CONFIGS = 2
"""How many (tokenize, lowercase) settings :func:`token_columns_corpus` remembers texts for."""
_columns_memo: dict[tuple[str, bool], dict[str, TokenColumns]] = {}
_columns_lock = threading.Lock()


def token_columns_corpus(
    texts: Sequence[str], tokenize: str = "13a", lowercase: bool = False
) -> list[TokenColumns]:
    """:func:`token_offsets_corpus` as columns: per text its tokens, starts and ends (``array('l')``).

    The result depends only on the text and the settings, so it is remembered per text for the last
    :data:`_COLUMNS_CONFIGS` settings: the study-wide counts of one page (error agreement, span scores)
    tokenise and align each hypothesis once, not once per count. Columns are compact (tokens are shared
    strings, offsets machine integers): ~16 bytes a token.

    >>> tokens, starts, ends = token_columns_corpus(["a b."])[0]
    >>> tokens, list(starts), list(ends)
    (('a', 'b', '.'), [0, 2, 3], [1, 3, 4])
    >>> [tuple(zip(t, s, e)) for t, s, e in token_columns_corpus(["a b.", "c"])] == token_offsets_corpus(
    ...     ["a b.", "c"]
    ... )
    True
    """
    config = (tokenize, lowercase)
    with _columns_lock:
        memo = _columns_memo.pop(config, None)
        if memo is None:
            memo = {}
        _columns_memo[config] = memo  # most recently used last
        while len(_columns_memo) > _COLUMNS_CONFIGS:
            del _columns_memo[next(iter(_columns_memo))]
    missing = list(dict.fromkeys(text for text in texts if text not in memo))
    if missing:
        token_lists = get_tokenizer(tokenize, lowercase).tokenize_corpus(missing)
        for text, tokens in zip(missing, token_lists, strict=True):
            spans = align_tokens(text, tokens, tokenize)
            memo[text] = (
                tuple(tokens),
                array("l", [start for start, _ in spans]),
                array("l", [end for _, end in spans]),
            )
    return [memo[text] for text in texts]


def forget_token_columns(tokenize: str, lowercase: bool = False) -> None:
    """Drop the texts :func:`token_columns_corpus` remembers for these settings (the next call with them
    tokenises again). For work done ahead of time: its results are kept elsewhere, and the remembered
    columns (~16 bytes a token, tens of MB on a WMT release) would only push out those of the settings in
    use.

    >>> _ = token_columns_corpus(["a b."], "char")
    >>> forget_token_columns("char"); ("char", False) in _columns_memo
    False
    """
    with _columns_lock:
        _columns_memo.pop((tokenize, lowercase), None)


def tokens_overlapping(offsets: Sequence[TokenOffset], start: int, end: int) -> list[int]:
    """Indices of the tokens that share at least one character with ``[start, end)``.

    This is the one definition of "a token is inside a span" in bleu-study: partial overlap counts (a span
    on "cat" of "cats" marks the token "cats"); an empty span (``start == end``) or an empty, unfound token
    overlaps nothing. ``offsets`` must be in text order, as :func:`token_offsets` returns them.

    >>> offsets = token_offsets("cats sat", "13a")
    >>> tokens_overlapping(offsets, 0, 3), tokens_overlapping(offsets, 4, 4), tokens_overlapping(offsets, 0, 8)
    ([0], [], [0, 1])
    """
    if start >= end or not offsets:
        return []
    token_ends = [e for _, _, e in offsets]
    token_starts = [s for _, s, _ in offsets]
    first = bisect_right(token_ends, start)  # first token ending after the span starts
    stop = bisect_left(token_starts, end)  # tokens starting before the span ends
    return [i for i in range(first, stop) if offsets[i][1] < offsets[i][2]]
