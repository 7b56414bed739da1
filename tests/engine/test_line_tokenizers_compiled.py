"""One line at a time through the C kernels: ``13a``, ``intl``, ``zh`` and ``paper`` give sacrebleu's tokens.

:class:`bleu_core.tokenize.line_tokenizers.LineTokenizer` (what Explore, the token offsets and the matches call for
each line) runs sacrebleu's regular expressions in C (``rules_13a``, ``rules_intl``) when the kernels are
built, and sacrebleu's own class when they are switched off. Every tokenizing test here runs on both paths
(``engine_path``, tests/conftest.py) and compares with sacrebleu's tokenizer applied the way sacrebleu's BLEU
applies it (``BLEU._preprocess_segment``: lower-case if asked, right-strip, tokenise, split): on the real data
in ``/work/shared/data`` (skipped when absent; an even spread of 3,000 distinct lines by default, every line
with ``BLEU_STUDY_ALL_DATA=1``) and on generated Unicode.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from bleu_core.tokenize import line_tokenizers
from bleu_core.tokenize.line_tokenizers import LineTokenizer, is_punctuation_only

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
SACREBLEU = {"13a": Tokenizer13a(), "intl": TokenizerV14International(), "zh": TokenizerZh()}
CONFIGS = [(name, lowercase) for name in SACREBLEU for lowercase in (False, True)]


def sacrebleu_tokens(name: str, lowercase: bool, line: str) -> list[str]:
    """sacrebleu's BLEU preprocessing of one segment (sacrebleu/metrics/bleu.py, ``_preprocess_segment``)."""
    if lowercase:
        line = line.lower()
    return SACREBLEU[name](line.rstrip()).split()


def paper_tokens(line: str) -> list[str]:
    """The BLEU paper's words from sacrebleu's 13a tokens: lower-cased, punctuation-only tokens dropped."""
    return [
        t
        for t in Tokenizer13a()(line.lower().rstrip()).split()
        if not all(unicodedata.category(c).startswith("P") for c in t)
    ]


def assert_same_tokens(name: str, lowercase: bool, lines: list[str]) -> None:
    tokenizer = LineTokenizer(name, lowercase)
    for i, line in enumerate(lines):
        assert tokenizer(line) == sacrebleu_tokens(name, lowercase, line), (
            f"{name} line {i}: {line!r}"
        )


# ------------------------------------------------------------------------------------------------ real data


def data_lines() -> list[str]:
    """Every distinct line of every text file of the data (TED MQM and WMT TSV/CSV rows and their cells,
    sources, references, system outputs, JSON lines, READMEs), TED cells also without their ``<v>`` marks."""
    lines: dict[str, None] = {}
    for path in sorted(DATA.rglob("*")) if DATA.is_dir() else []:
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for line in text.split("\n"):
            lines[line] = None
            if "\t" in line:
                cells = line.split("\t")
                lines.update(dict.fromkeys(cells))
                lines.update(dict.fromkeys(c.replace("<v>", "").replace("</v>", "") for c in cells))
    return list(lines)


SAMPLE_LINES = 3_000
"""Lines the default run checks: an even spread over :func:`data_lines` (every line of the data takes
minutes per tokenizer; ``BLEU_STUDY_ALL_DATA=1`` checks them all)."""


@pytest.fixture(scope="module")
def real_lines() -> list[str]:
    lines = data_lines()
    if not lines:
        pytest.skip(f"no data under {DATA}")
    if os.environ.get("BLEU_STUDY_ALL_DATA") != "1" and len(lines) > SAMPLE_LINES:
        lines = lines[:: -(-len(lines) // SAMPLE_LINES)]
    return lines


@pytest.mark.slow
@pytest.mark.parametrize(("name", "lowercase"), CONFIGS)
def test_identical_to_sacrebleu_on_every_line_of_the_data(
    engine_path: str, real_lines: list[str], name: str, lowercase: bool
) -> None:
    assert_same_tokens(name, lowercase, real_lines)


@pytest.mark.slow
def test_paper_on_every_line_of_the_data(engine_path: str, real_lines: list[str]) -> None:
    tokenizer = LineTokenizer("paper")
    for line in real_lines:
        assert tokenizer(line) == paper_tokens(line), repr(line)


def test_identical_to_sacrebleu_on_wmt21_zh_en(engine_path: str) -> None:
    """The WMT21 zh-en outputs and references (English) and the Chinese source, line by line."""
    txt = DATA / "wmt21-newstest2021-mqm-da" / "wmt21-news-systems" / "txt"
    paths = sorted(txt.glob("*/newstest2021.zh-en.*"))
    if not paths:
        pytest.skip(f"WMT21 zh-en text not found under {txt}")
    lines = list(dict.fromkeys(x for p in paths[:6] for x in p.read_text("utf-8").split("\n")))
    for name, lowercase in CONFIGS:
        assert_same_tokens(name, lowercase, lines)


# ------------------------------------------------------------------------------------------------ generated

#: Pieces that hit the rules' corners: entities, ``<skipped>``, ``-`` + newline, numbers next to punctuation,
#: Unicode punctuation, symbols and numbers, final sigma, Chinese and its punctuation, odd whitespace.
FRAGMENTS = [
    "&amp;", "&quot;", "&lt;", "&gt;", "&amp;lt;", "&", "<skipped>", "<SKIPPED>", "-\n", "\n", "\r", "\t",
    "3.5", "1,000", "2019.", "1-2", "-", "--", "...", ".,", "'s", '"', "(", "$", "%", "/", "U.S.", "e.g.",
    "ΑΣ", "Σ", "İ", "ß", "ﬁ", "中文", "他说", "，", "。", "「", "」", "€", "©", "±", "²", "½", "٣", "Ⅻ", "〇",
    "\u0301", "\u200b", "\ufeff", "🙂", "\x00", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "—", "…", "’",
    "«", "»", "\u2001", "\u2a6d", "\u2f81", "\u2fa1", "\U0002a6d6", "\U0002f800",
]  # fmt: skip
PIECE = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.text(alphabet="abcXYZ0123456789.,-'", min_size=1, max_size=5),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6),
    st.text(alphabet=st.characters(categories=("P", "S", "N", "Zs")), min_size=1, max_size=3),
)
LINE = st.lists(PIECE, max_size=12).map("".join)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    lines=st.lists(LINE, max_size=6),
    name=st.sampled_from(sorted(SACREBLEU)),
    lowercase=st.booleans(),
)
def test_identical_to_sacrebleu_on_generated_text(
    engine_path: str, lines: list[str], name: str, lowercase: bool
) -> None:
    assert_same_tokens(name, lowercase, lines)


@SETTINGS
@given(line=LINE)
def test_paper_on_generated_text(engine_path: str, line: str) -> None:
    assert LineTokenizer("paper")(line) == paper_tokens(line)


@pytest.mark.parametrize(("name", "lowercase"), CONFIGS)
def test_lone_surrogates_are_kept(engine_path: str, name: str, lowercase: bool) -> None:
    """Text read with ``errors="surrogateescape"`` holds lone surrogates: 13a and zh hand such a line to
    sacrebleu's class (no UTF-8 for C), intl passes them through C as ``surrogatepass`` bytes."""
    assert_same_tokens(
        name, lowercase, ["caf\udce9 au lait, 3.5 \udcff.", "\udcc3\udca9t\udcc3 -- 中\udc80。"]
    )


# ------------------------------------------------------------------------------------------------ the two paths


@pytest.mark.parametrize("name", sorted(line_tokenizers.COMPILED_LINE_TOKENIZERS))
def test_the_kernels_run_exactly_when_they_are_on(engine_path: str, name: str) -> None:
    """On the compiled path a new line goes through the compiled version (its cache grows); on the pure path
    it goes to sacrebleu's class and the compiled version is never called."""
    compiled = line_tokenizers.COMPILED_LINE_TOKENIZERS[name]
    before = compiled.cache_info().misses  # type: ignore[attr-defined]
    line = f"A line seen once on the {engine_path} path, {name}: 3.5-4."
    assert LineTokenizer(name)(line) == sacrebleu_tokens(name, False, line)
    grew = compiled.cache_info().misses - before  # type: ignore[attr-defined]
    assert grew == (1 if engine_path == "compiled" else 0)


def test_chinese_class_is_sacrebleus_on_every_code_point() -> None:
    """The regular expression of sacrebleu's Chinese ranges matches exactly the characters for which
    ``TokenizerZh._is_chinese_char`` says yes (its two five-digit bounds included)."""
    pattern = line_tokenizers.chinese_characters()
    for code in range(0x110000):
        char = chr(code)
        assert bool(pattern.fullmatch(char)) == TokenizerZh._is_chinese_char(char), hex(code)


def test_no_punctuation_is_a_letter_or_a_digit() -> None:
    """``is_punctuation_only`` answers ``str.isalnum`` words without categories: sound on every code point."""
    for code in range(0x110000):
        char = chr(code)
        if char.isalnum():
            assert not unicodedata.category(char).startswith("P"), hex(code)
    assert (
        is_punctuation_only("¿...!")
        and not is_punctuation_only("a.")
        and not is_punctuation_only("½")
    )
