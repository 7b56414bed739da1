"""sacrebleu's own test cases (tests/engine/data/sacrebleu_cases.json, see the README there): our tokenizers
give sacrebleu's tokens and our BLEU gives sacrebleu's expected scores.

Every tokenizer we share with sacrebleu is checked line by line (:class:`~bleu_core.tokenize.line_tokenizers.LineTokenizer`,
what Explore calls per line) and batched (:meth:`~bleu_core.tokenize.tokenizers.Tokenizer.tokenize_corpus`), on the
compiled kernels and on the pure path (``engine_path``, tests/conftest.py). ``paper`` is ours alone (the BLEU
paper's word counts), so sacrebleu has nothing to say about it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import corpus_bleu, sentence_bleu
from bleu_core.tokenize.line_tokenizers import LineTokenizer
from bleu_core.tokenize.tokenizers import get_tokenizer

CASES = Path(__file__).resolve().parent / "data" / "sacrebleu_cases.json"
#: The tolerances of the source files: test_bleu.py's EPSILON and test_sentence_bleu.py's EPSILON.
EPSILON_BLEU = 1e-8
EPSILON_SENTENCE = 1e-3
#: sacrebleu's keyword names -> ours (BleuOptions fields).
KEYWORDS = {"tokenize": "tokenize", "smooth_method": "smooth", "max_ngram_order": "max_order"}


@cache
def cases() -> dict[str, Any]:
    return json.loads(CASES.read_text(encoding="utf-8"))


def lines() -> list[str]:
    return [entry["line"] for entry in cases()["lines"]]


def token_keys() -> list[str]:
    return sorted(cases()["tokens"])


def expected_tokens(key: str) -> list[list[str]]:
    return [tokens.split() for tokens in cases()["tokens"][key]]


def settings_of(key: str) -> tuple[str, bool]:
    """``"13a|lc"`` -> ``("13a", True)``."""
    name, _, lowercase = key.partition("|")
    return name, lowercase == "lc"


def test_the_fixture_holds_every_tokenizer_we_share_with_sacrebleu() -> None:
    from bleu_core.tokenize.tokenizers import TOKENIZER_NAMES

    shared = {settings_of(key)[0] for key in token_keys()}
    assert shared == set(TOKENIZER_NAMES) - {"paper"}
    assert len(token_keys()) == 2 * len(shared)
    assert all(len(cases()["tokens"][key]) == len(lines()) for key in token_keys())


@pytest.mark.parametrize("key", token_keys())
def test_recorded_tokens_are_what_sacrebleu_gives_today(key: str) -> None:
    """The recording (sacrebleu 2.6.0) still equals the installed sacrebleu's BLEU preprocessing."""
    name, lowercase = settings_of(key)
    metric = BLEU(tokenize=name, lowercase=lowercase)
    assert [metric._preprocess_segment(line) for line in lines()] == cases()["tokens"][key]


@pytest.mark.parametrize("key", token_keys())
def test_line_tokenizer_gives_sacrebleus_tokens(engine_path: str, key: str) -> None:
    name, lowercase = settings_of(key)
    tokenizer = LineTokenizer(name, lowercase)
    for line, expected in zip(lines(), expected_tokens(key), strict=True):
        assert tokenizer(line) == expected, repr(line)


@pytest.mark.parametrize("key", token_keys())
def test_batch_tokenizer_gives_sacrebleus_tokens(engine_path: str, key: str) -> None:
    name, lowercase = settings_of(key)
    assert get_tokenizer(name, lowercase).tokenize_corpus(lines()) == expected_tokens(key)


def corpus_cases() -> list[Any]:
    return [pytest.param(case, id=case["case"]) for case in cases()["corpus_bleu"]]


@pytest.mark.parametrize("case", corpus_cases())
def test_corpus_bleu_is_sacrebleus_expected_score(engine_path: str, case: dict[str, Any]) -> None:
    options = {KEYWORDS[k]: v for k, v in case["kwargs"].items()}
    score = corpus_bleu(case["hyps"], case["refs"], **options).score
    if "expected_2dp" in case:  # test_bleu_max_order compares f"{score:.2f}"
        assert f"{score:.2f}" == case["expected_2dp"]
    else:
        assert abs(score - case["expected"]) < EPSILON_BLEU


@pytest.mark.parametrize("case", cases()["raw_corpus_bleu"], ids=lambda c: c["case"])
def test_raw_corpus_bleu_is_sacrebleus_expected_score(
    engine_path: str, case: dict[str, Any]
) -> None:
    """``sacrebleu.raw_corpus_bleu``: floor smoothing, no tokenisation, effective order."""
    score = corpus_bleu(
        case["hyps"],
        case["refs"],
        tokenize="none",
        smooth="floor",
        smooth_value=case["smooth_value"],
        effective_order=True,
    )
    assert abs(score.score / 100 - case["expected_fraction"]) < EPSILON_BLEU


def test_counts_and_floor_offsets_are_sacrebleus(engine_path: str) -> None:
    """test_case_statistics and test_case_offset: the matches, and the floor offsets 0 and 0.1 (the default).

    A floor of 0 smooths nothing: it scores as ``smooth="none"`` (sacrebleu accepts it, and so do we)."""
    (case,) = cases()["statistics"]
    raw = {"tokenize": "none", "effective_order": True}
    hyps, refs = case["hyps"], case["refs"]
    counted = corpus_bleu(hyps, refs, smooth="floor", smooth_value=0.01, **raw)
    assert (list(counted.counts), list(counted.totals)) == (case["counts"], case["totals"])
    floor_0 = corpus_bleu(hyps, refs, smooth="floor", smooth_value=0.0, **raw).score / 100
    assert abs(floor_0 - case["offset_0"]) < EPSILON_BLEU
    unsmoothed = corpus_bleu(hyps, refs, smooth="none", **raw).score / 100
    assert abs(unsmoothed - case["offset_0"]) < EPSILON_BLEU
    default = corpus_bleu(hyps, refs, smooth="floor", smooth_value=None, **raw).score / 100
    assert abs(default - case["offset_default"]) < EPSILON_BLEU


@pytest.mark.parametrize(
    "case",
    cases()["sentence_bleu"],
    ids=lambda c: (
        f"{c['case']}-{c['smooth_method']}-{c['smooth_value']}-{c['tokenize']}-lc{c['lowercase']}"
    ),
)
def test_sentence_bleu_is_sacrebleus_expected_score(engine_path: str, case: dict[str, Any]) -> None:
    score = sentence_bleu(
        case["hyp"],
        case["refs"],
        smooth=case["smooth_method"],
        smooth_value=case["smooth_value"],
        lowercase=case["lowercase"],
        tokenize=case["tokenize"],
        effective_order=True,
    )
    assert abs(score.score - case["expected"]) < EPSILON_SENTENCE
