"""Tokenizers per target language: ``ja-mecab`` and ``ko-mecab`` are sacrebleu's own classes,
and the default for a target language is the one sacrebleu's command line picks."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core import corpus_bleu
from bleu_core.engine.options import BleuOptions
from bleu_core.engine.signature import make_signature
from bleu_core.errors import BleuOptionError
from bleu_core.tokenize.token_offsets import token_offsets
from bleu_core.tokenize.tokenizers import TOKENIZER_NAMES, get_tokenizer, tokenizer_for_language

REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"

JA_HYP = ["猫が庭で寝ている。", "今日は雨が降る。私たちは家に滞在する。", "電車は また 遅れた!"]
JA_REF = ["猫は庭で寝ている。", "今日は雨が降っている。私たちは家にいる。", "電車はまた遅れた。"]
KO_HYP = ["고양이가 정원에서 자고 있다.", "오늘은 비가 온다. 우리는 집에 있다."]
KO_REF = ["고양이는 정원에서 잔다.", "오늘 비가 온다. 우리는 집에 머문다."]


@pytest.mark.parametrize("lang", ["ja", "ko", "zh", "de", "en", "hi", "cs"])
def test_default_is_sacrebleus_choice_for_the_target_language(lang: str) -> None:
    # sacrebleu.BLEU(trg_lang=...) picks the tokenizer its command line uses for `-l xx-LANG`
    chosen = sacrebleu.BLEU(trg_lang=lang).tokenizer_signature
    ours = tokenizer_for_language(lang)
    assert chosen == ours or chosen.startswith(f"{ours}-")


def test_unknown_language_gets_13a() -> None:
    assert tokenizer_for_language(None) == "13a" and tokenizer_for_language("xx") == "13a"


@pytest.mark.parametrize(
    ("name", "sentences"), [("ja-mecab", JA_HYP + JA_REF), ("ko-mecab", KO_HYP + KO_REF)]
)
def test_tokens_are_sacrebleus(name: str, sentences: list[str]) -> None:
    theirs = sacrebleu.BLEU(tokenize=name).tokenizer
    for line in sentences:
        assert get_tokenizer(name)(line) == theirs(line.rstrip()).split()
    assert get_tokenizer(name).tokenize_corpus(sentences) == [
        theirs(line.rstrip()).split() for line in sentences
    ]


@pytest.mark.parametrize(
    ("name", "hyp", "ref"), [("ja-mecab", JA_HYP, JA_REF), ("ko-mecab", KO_HYP, KO_REF)]
)
def test_corpus_bleu_parity(name: str, hyp: list[str], ref: list[str]) -> None:
    expected = sacrebleu.corpus_bleu(hyp, [ref], tokenize=name)
    ours = corpus_bleu(hyp, [ref], tokenize=name)
    assert ours.score == pytest.approx(expected.score, abs=1e-12)
    assert list(ours.counts) == expected.counts and list(ours.totals) == expected.totals


def test_the_signature_names_the_tokenizer() -> None:
    # sacrebleu 2.6's BLEU(tokenize="ja-mecab").get_signature() writes MeCab's version and dictionary
    assert "|tok:ja-mecab-0.996-IPA|" in make_signature(BleuOptions(tokenize="ja-mecab"), 1)


def test_every_tokenizer_is_listed_in_the_error() -> None:
    with pytest.raises(BleuOptionError, match=r"choose one of: .*, ja-mecab, ko-mecab"):
        get_tokenizer("mecab")
    assert {"ja-mecab", "ko-mecab"} <= set(TOKENIZER_NAMES)


def test_threads_share_one_tagger_safely() -> None:
    lines = [f"{s} {i}" for i in range(200) for s in JA_HYP]
    expected = [get_tokenizer("ja-mecab")(line) for line in lines]
    results: list[list[list[str]]] = []

    def work() -> None:
        results.append([get_tokenizer("ja-mecab")(line + " ") for line in lines])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


@settings(max_examples=80, deadline=None)
@given(text=st.text(alphabet="猫犬はがのを。、「」 abcＡ１23テスト東京", max_size=30))
def test_mecab_token_offsets_point_at_the_token(text: str) -> None:
    for token, start, end in token_offsets(text, "ja-mecab"):
        assert text[start:end] == token


@pytest.mark.skipif(not REAL.is_dir(), reason="the WMT24 release is not in shared/data")
def test_wmt24_en_ja_every_token_is_found_in_the_text() -> None:
    lines = (REAL / "txt/references/en-ja.refA.txt").read_text(encoding="utf-8").split("\n")[1:200]
    for line in lines:
        for token, start, end in token_offsets(line, "ja-mecab"):
            assert line[start:end] == token
