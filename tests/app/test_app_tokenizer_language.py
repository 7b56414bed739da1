"""The sidebar's tokenizer follows the open study's target language: sacrebleu's choice
(``ja-mecab`` for Japanese, ``13a`` for German...) when a study opens, the user's own choice after that,
and the page's signature says which."""

from __future__ import annotations

from pathlib import Path

from app_runs import captions, start_app

from bleu_core.study import load_study
from ui.app import state as K

MINI = Path(__file__).resolve().parents[1] / "study" / "data" / "wmt24-mini"


def test_a_japanese_study_gets_mecab_and_keeps_the_users_choice() -> None:
    study = load_study(MINI, pair="en-ja").study
    at = start_app("explore", study, key="test:wmt24-mini-en-ja")
    assert "tok:ja-mecab" in captions(at)
    at.session_state[K.OPT_TOKENIZE] = "char"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "tok:char" in captions(at)  # same target language: the choice stays


def test_a_german_study_gets_13a() -> None:
    study = load_study(MINI, pair="en-de").study
    at = start_app("explore", study, key="test:wmt24-mini-en-de", opt_tokenize="zh")
    assert "tok:13a" in captions(at)
