"""The batched tokenisers give exactly sacrebleu's tokens (bleu_core.fast.batch_tokenizers).

The reference is sacrebleu 2.x's own tokenizer classes applied line by line the way sacrebleu's BLEU does it
(``BLEU._preprocess_segment``: lower-case if asked, right-strip, tokenise, split on whitespace).
Checked on every line of the real data in /work/shared/data (skipped when absent) and on Hypothesis-generated
text built to hit the corners: punctuation next to digits, HTML entities, ``<skipped>``, ``-\\n``, Unicode
punctuation/symbols/numbers, final sigma, every kind of whitespace ``str.split`` knows, and the control
characters the batched tokenizer uses as markers.
"""

from __future__ import annotations

import glob
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer

from bleu_core.fast import batch_tokenizers
from bleu_core.fast.batch_tokenizers import BatchTokenizer
from bleu_core.tokenize.tokenizers import get_tokenizer

#: Every test runs on the compiled kernels and on the pure numpy/Python path (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("engine_path")

DATA = "/work/shared/data"
SACREBLEU = {
    "13a": Tokenizer13a(),
    "intl": TokenizerV14International(),
    "char": TokenizerChar(),
    "none": NoneTokenizer(),
}
CONFIGS = [(name, lowercase) for name in SACREBLEU for lowercase in (False, True)]


def sacrebleu_tokens(name: str, lowercase: bool, line: str) -> list[str]:
    """sacrebleu's BLEU preprocessing of one segment (sacrebleu/metrics/bleu.py, _preprocess_segment)."""
    if lowercase:
        line = line.lower()
    return SACREBLEU[name](line.rstrip()).split()


def assert_same_tokens(name: str, lowercase: bool, lines: list[str]) -> None:
    got = BatchTokenizer(name, lowercase).tokenize(lines)
    assert len(got) == len(lines)
    for i, line in enumerate(lines):
        expected = sacrebleu_tokens(name, lowercase, line)
        assert got[i] == expected, f"{name} lowercase={lowercase} line {i}: {line!r}"


# ------------------------------------------------------------------------------------------------ real data


def ted_lines() -> list[str]:
    """Every distinct source and target of the TED MQM TSVs, raw (with <v> marks) and with marks removed."""
    lines: dict[str, None] = {}
    for path in sorted(
        glob.glob(os.path.join(DATA, "google-mqm-ted2021", "ted", "*", "mqm_ted_????.tsv"))
    ):
        with open(path, encoding="utf-8") as fh:
            header = next(fh).rstrip("\n").split("\t")
            columns = [header.index("source"), header.index("target")]
            for row in fh:
                cells = row.rstrip("\n").split("\t")
                for c in columns:
                    lines[cells[c]] = None
                    lines[cells[c].replace("<v>", "").replace("</v>", "")] = None
    return list(lines)


def txt_lines() -> list[str]:
    """Every distinct line of every text file of the data (WMT21 sources, references, system outputs, READMEs)."""
    paths = glob.glob(os.path.join(DATA, "**", "txt", "**", "*"), recursive=True)
    paths += glob.glob(os.path.join(DATA, "**", "*.txt"), recursive=True)
    lines: dict[str, None] = {}
    for path in sorted(set(paths)):
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                lines.update(dict.fromkeys(fh.read().split("\n")))
    return list(lines)


@pytest.fixture(scope="module")
def ted_mqm_texts() -> list[str]:
    lines = ted_lines()
    if not lines:
        pytest.skip(f"TED MQM data not found under {DATA}")
    return lines


@pytest.mark.parametrize(("name", "lowercase"), CONFIGS)
def test_identical_to_sacrebleu_on_ted(
    ted_mqm_texts: list[str], name: str, lowercase: bool
) -> None:
    assert_same_tokens(name, lowercase, ted_mqm_texts)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "lowercase"), CONFIGS)
def test_identical_to_sacrebleu_on_every_text_file(name: str, lowercase: bool) -> None:
    lines = txt_lines()
    if not lines:
        pytest.skip(f"no text files under {DATA}")
    assert_same_tokens(name, lowercase, lines)


# ------------------------------------------------------------------------------------------------ generated

WHITESPACE = [
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x1f",
    "\x85",
]
WHITESPACE += [
    "\xa0",
    "\u1680",
    "\u2000",
    "\u2009",
    "\u2028",
    "\u2029",
    "\u202f",
    "\u205f",
    "\u3000",
]
FRAGMENTS = [
    "&amp;", "&quot;", "&lt;", "&gt;", "&amp;lt;", "&", "<skipped>", "<SKIPPED>", "<skip", "ped>", "-\n",
    "3.5", "1,000", "2019.", "1-2", "-", "--", "...", ".,", ",.", "'s", '"', "(", ")", "$", "%", "@", "/",
    "U.S.", "e.g.", "ΑΣ", "ΣΑΣ", "Σ", "İ", "ß", "Ǆ", "ﬁ", "中文", "，", "。", "「", "」", "€", "©", "±", "²", "½",
    "٣", "Ⅻ", "〇", "\u0301", "\u200b", "\ufeff", "🙂", "\x00", "\x01", "\x02", "\x03", "\x08", "\x0e",
    "\x1b", "\x7f", "\x80", "\x84", "·", "¿", "¡", "—", "–", "…", "’", "„", "«", "»",
]  # fmt: skip
WORDS = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=6
)
PIECE = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.sampled_from(WHITESPACE),
    st.text(alphabet="abcXYZ0123456789.,-'", min_size=1, max_size=5),
    WORDS,
)
LINE = st.lists(PIECE, max_size=12).map("".join)
LINES = st.lists(LINE, min_size=0, max_size=8)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(lines=LINES, name=st.sampled_from(sorted(SACREBLEU)), lowercase=st.booleans())
def test_identical_to_sacrebleu_on_generated_text(
    lines: list[str], name: str, lowercase: bool
) -> None:
    assert_same_tokens(name, lowercase, lines)


@SETTINGS
@given(batches=st.lists(LINES, min_size=2, max_size=4), name=st.sampled_from(sorted(SACREBLEU)))
def test_one_instance_across_calls(batches: list[list[str]], name: str) -> None:
    """The word cache and the marker choice carry over between calls (markers change when text has them)."""
    tokenizer = BatchTokenizer(name)
    for lines in batches:
        encoded = tokenizer.encode(lines)
        assert encoded.lengths.tolist() == [len(sacrebleu_tokens(name, False, x)) for x in lines]
        flat = [tokenizer.tokens[i] for i in encoded.ids.tolist()]
        assert flat == [t for x in lines for t in sacrebleu_tokens(name, False, x)]


def test_equal_tokens_get_equal_ids() -> None:
    tokenizer = BatchTokenizer("13a")
    first = tokenizer.encode(["the cat.", "a dog"])
    second = tokenizer.encode(["The cat"])
    assert first.ids.tolist()[:2] == [tokenizer.vocabulary["the"], tokenizer.vocabulary["cat"]]
    assert second.ids.tolist()[1] == first.ids.tolist()[1]
    assert second.ids.tolist()[0] != first.ids.tolist()[0]


def test_marker_characters_in_the_text_are_handled() -> None:
    """Text holding the first-choice marker characters forces other markers; tokens stay right."""
    lines = ["a\x00b \x01c", "\x02 \x03.", "x-\ny \x00", ""]
    for name, lowercase in CONFIGS:
        assert_same_tokens(name, lowercase, lines)


def test_all_marker_candidates_present_falls_back_per_line() -> None:
    line = batch_tokenizers._MARKER_CANDIDATES + " end. 3.5"
    assert_same_tokens("13a", False, [line, "x"])
    assert_same_tokens("intl", True, [line, "x"])


def test_replace_chain_is_13a_first_rule_on_every_code_point() -> None:
    """The str.replace chain stands for sacrebleu's first 13a rule: same string for every character."""
    rule, replacement = batch_tokenizers._RULES_13A[0]
    assert batch_tokenizers._CHARS_13A is not None
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    text = text + " a  b,c " + text[:300]
    assert batch_tokenizers._apply_first_13a_rule(text) == rule.sub(replacement, text)


@pytest.mark.parametrize("name", ["zh", "paper"])
def test_line_by_line_tokenizers(name: str) -> None:
    """zh and paper are tokenised line by line: same as calling the tokenizer on each line."""
    lines = ["他说：“我们走吧。” 3.5 km", "It's the U.S. team, 2-1!", "", "  Σ.  "]
    for lowercase in (False, True):
        tokenizer = get_tokenizer(name, lowercase)
        assert tokenizer.tokenize_corpus(lines) == [tokenizer(x) for x in lines]


def test_tokenize_corpus_uses_the_batch_path() -> None:
    lines = ["Hello, world!", "&amp; <skipped> 3.5-4"]
    assert get_tokenizer("13a").tokenize_corpus(lines) == [
        sacrebleu_tokens("13a", False, x) for x in lines
    ]
    assert get_tokenizer("13a").tokenize_corpus([]) == []


# ------------------------------------------------------------------------------------------------ repeated lines

REPEATED = st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=14)


@SETTINGS
@given(
    pool=st.lists(LINE, min_size=1, max_size=6),
    picks=REPEATED,
    name=st.sampled_from(sorted(SACREBLEU)),
    lowercase=st.booleans(),
)
def test_repeated_lines_get_the_same_tokens(
    pool: list[str], picks: list[int], name: str, lowercase: bool
) -> None:
    """Lines met several times in one call (tokenised once) come out in place, each exactly sacrebleu's."""
    lines = [pool[i % len(pool)] for i in picks]
    assert_same_tokens(name, lowercase, lines)


def test_a_repeated_line_is_tokenised_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stacked corpus of compute_system_statistics (the reference once per system) costs one pass over
    the distinct lines; the output still has one entry per line, in order."""
    seen: list[int] = []
    real = BatchTokenizer._encode_distinct

    def spy(self: BatchTokenizer, lines: list[str]) -> batch_tokenizers.EncodedLines:
        seen.append(len(lines))
        return real(self, lines)

    monkeypatch.setattr(BatchTokenizer, "_encode_distinct", spy)
    ref = ["The cat sat on the mat.", "It rained, 3.5 mm -- all day!"]
    hyps = [["The cat sat.", "It rained."], ["A cat sat on a mat.", "It rained, 3.5 mm."]]
    lines = hyps[0] + hyps[1] + ref + ref
    tokenizer = BatchTokenizer("13a")
    got = tokenizer.tokenize(lines)
    assert seen == [6]  # 4 hypotheses + the 2 reference lines once
    assert got == [sacrebleu_tokens("13a", False, x) for x in lines]
    assert tokenizer.tokenize(["x y", "x y", "x y"]) == [["x", "y"]] * 3
    assert seen == [6, 1]


def test_a_few_repeats_are_tokenised_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines are told apart by identity, and a few repeats (the shared empty string, say) are tokenised again
    rather than looked up: one pass over every line, the same tokens."""
    seen: list[int] = []
    real = BatchTokenizer._encode_distinct

    def spy(self: BatchTokenizer, lines: list[str]) -> batch_tokenizers.EncodedLines:
        seen.append(len(lines))
        return real(self, lines)

    monkeypatch.setattr(BatchTokenizer, "_encode_distinct", spy)
    lines = [f"Line {i}, 3.5 -- done." for i in range(20)] + ["", ""]
    assert BatchTokenizer("13a").tokenize(lines) == [
        sacrebleu_tokens("13a", False, x) for x in lines
    ]
    assert seen == [22]
    equal_not_same = ["".join(["a", " b."]) for _ in range(3)]  # equal strings, three objects
    assert BatchTokenizer("intl").tokenize(equal_not_same) == [["a", "b", "."]] * 3
    assert seen == [22, 3]


@pytest.mark.parametrize(("name", "lowercase"), CONFIGS)
def test_markers_beyond_ascii_and_newlines(name: str, lowercase: bool) -> None:
    """Lines holding every ASCII marker candidate force markers from U+0080-U+0084 (two bytes in UTF-8, which
    the compiled path counts as byte pairs); a 13a line holding "-\\n" takes the text path. Both stay exact,
    from call to call of one instance."""
    ascii_candidates = "".join(c for c in batch_tokenizers._MARKER_CANDIDATES if ord(c) < 0x80)
    lines = [f"a{ascii_candidates}b. 3.5", "x\x80y, z", "Ünïcödé — “quotes” 2019.", "end"]
    tokenizer = BatchTokenizer(name, lowercase)
    for batch in (lines, ["well-\nknown fact.", "x"], lines[::-1], ["plain words only"] * 3):
        got = tokenizer.tokenize(batch)
        assert got == [sacrebleu_tokens(name, lowercase, x) for x in batch]
    markers = tokenizer._markers or ()
    assert len(markers) == 4 and all(ord(m) >= 0x80 for m in markers)
    clash = [f"q{markers[0]}r, s{markers[3]}.", "t"]  # the text now holds two current markers
    assert tokenizer.tokenize(clash) == [sacrebleu_tokens(name, lowercase, x) for x in clash]
    assert tokenizer._markers is not None and not set(tokenizer._markers) & set(clash[0])


@pytest.mark.parametrize(("name", "lowercase"), CONFIGS)
def test_lone_surrogates_are_kept(name: str, lowercase: bool) -> None:
    """Text read with ``errors="surrogateescape"`` holds lone surrogates (undecodable bytes); they cannot be
    encoded to UTF-8 strictly, and the compiled path keeps them (``surrogatepass``) as sacrebleu does."""
    lines = ["caf\udce9 au lait, 3.5 \udcff.", "ok", "\udcc3\udca9t\udcc3\udca9 -- fin"]
    assert_same_tokens(name, lowercase, lines)
    assert_same_tokens(name, lowercase, lines + lines)  # repeated lines too


# ------------------------------------------------------------------------------------------------ 13a in C

RULES_13A_TEXT = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(WHITESPACE), WORDS), max_size=20
).map("".join)


@SETTINGS
@given(text=RULES_13A_TEXT)
def test_compiled_13a_rules_are_sacrebleus_regular_expressions(text: str) -> None:
    """``rules_13a`` (C, on UTF-8 bytes) against sacrebleu's own four ``re.sub`` calls, character for
    character, on text with every kind of character next to periods, commas, digits and dashes."""
    from bleu_core.fast import compiled, native

    if not compiled.available():
        pytest.skip("the compiled kernels are not built (or switched off)")
    expected = text
    for rule, replacement in Tokenizer13a()._post_tokenizer._re:
        expected = rule.sub(replacement, expected)
    assert native.rules_13a(text.encode("utf-8")).decode("utf-8") == expected


def test_compiled_13a_rules_on_the_tricky_cases() -> None:
    """Overlapping candidates: re.sub never lets a match start inside the previous one."""
    from bleu_core.fast import compiled, native

    if not compiled.available():
        pytest.skip("the compiled kernels are not built (or switched off)")
    for text in ["a..", "..5", ".,.,", "1-2-3", "9--", "x.5", "5.x", "é.,", ",,", "- -", ".", ""]:
        expected = text
        for rule, replacement in Tokenizer13a()._post_tokenizer._re:
            expected = rule.sub(replacement, expected)
        assert native.rules_13a(text.encode()).decode() == expected, text


# ------------------------------------------------------------------------------------------------ intl in C

#: Text for the intl rules: every kind of character next to punctuation, symbols and numbers of many scripts.
RULES_INTL_TEXT = st.lists(
    st.one_of(
        st.sampled_from(FRAGMENTS),
        st.sampled_from(WHITESPACE),
        WORDS,
        st.text(alphabet=st.characters(categories=("P", "S", "N")), min_size=1, max_size=3),
        st.sampled_from(["\ud800", "\udcff", "\udfff"]),
    ),
    max_size=20,
).map("".join)


def sacrebleu_intl_rules(text: str) -> str:
    for rule, replacement in TokenizerV14International()._re:
        text = rule.sub(replacement, text)
    return text


def compiled_intl_rules(text: str) -> str:
    from bleu_core.fast import compiled, native

    if not compiled.available():
        pytest.skip("the compiled kernels are not built (or switched off)")
    return native.rules_intl(text.encode("utf-8", "surrogatepass")).decode("utf-8", "surrogatepass")


@SETTINGS
@given(text=RULES_INTL_TEXT)
def test_compiled_intl_rules_are_sacrebleus_regular_expressions(text: str) -> None:
    """``rules_intl`` (C, on UTF-8 bytes, lone surrogates included) against sacrebleu's own three
    ``regex.sub`` calls, character for character."""
    assert compiled_intl_rules(text) == sacrebleu_intl_rules(text)


def test_compiled_intl_rules_on_the_tricky_cases() -> None:
    """Overlapping candidates, the ends of the text, numbers of other scripts, symbols of four UTF-8 bytes."""
    cases = ["a..", "..5", ".,.,", "5.5.", "2019.", ".", "", "٣.٣", "Ⅻ,x", "½.", "x.¹", "🙂.🙂", "$$"]  # fmt: skip
    cases += [
        "«»",
        "a\U0001f600,b",
        "\u00ad.\u00ad",
        "𝟘.𝟙",
        "\ud800.\udfff",
        "x" + "\U0010ffff" + ".,",
    ]
    for text in cases:
        assert compiled_intl_rules(text) == sacrebleu_intl_rules(text), text


def test_intl_table_is_regex_on_every_code_point() -> None:
    """The class table the C rules read equals the ``regex`` package's ``\\p{P}``, ``\\p{S}``, ``\\p{N}`` on
    every code point, surrogates included."""
    import numpy as np
    import regex

    from bleu_core.fast.intl_table import CLASSES, SIZE, intl_classes

    table = intl_classes()
    assert table.shape == (SIZE,) and table.dtype == np.uint8
    for bit, pattern in CLASSES:
        compiled = regex.compile(pattern)
        expected = np.fromiter(
            (compiled.match(chr(c)) is not None for c in range(SIZE)), bool, SIZE
        )
        assert np.array_equal((table & bit) != 0, expected), pattern
    assert not (table & ~np.uint8(7)).any()
