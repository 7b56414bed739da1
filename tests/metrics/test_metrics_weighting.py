"""Golden tf.idf and S-score values on a small corpus counted by hand (formulas: Babych & Hartley 2004, §2).

The corpus (3 documents, 12 tokens)::

    d1: the cat sat on the mat   (6 tokens)
    d2: the dog sat              (3 tokens)
    d3: the dog ran              (3 tokens)

Hand counts: df(the) = 3, df(sat) = df(dog) = 2, df(cat) = df(on) = df(mat) = df(ran) = 1;
corpus counts: the 4, sat 2, dog 2, every other word 1. Each expected value below is the formula with those
hand counts substituted (natural logarithms, as documented in bleu_core.metrics.weighting).
"""

from __future__ import annotations

import math

import pytest

from bleu_core.errors import BleuOptionError
from bleu_core.metrics.weighting import (
    WordWeights,
    group_tokens,
    s_score_weights,
    segment_documents,
    tfidf_weights,
    word_weights,
)

DOCS = {
    "d1": "the cat sat on the mat".split(),
    "d2": "the dog sat".split(),
    "d3": "the dog ran".split(),
}


def test_tfidf_golden_values() -> None:
    w = tfidf_weights(DOCS)
    expected = {
        ("d1", "the"): (1 + math.log(2)) * math.log(3 / 3),  # in every document: 0
        ("d1", "cat"): 1 * math.log(3 / 1),
        ("d1", "sat"): 1 * math.log(3 / 2),
        ("d1", "on"): math.log(3),
        ("d1", "mat"): math.log(3),
        ("d2", "the"): 0.0,
        ("d2", "dog"): math.log(3 / 2),
        ("d2", "sat"): math.log(3 / 2),
        ("d3", "dog"): math.log(3 / 2),
        ("d3", "ran"): math.log(3),
    }
    for (doc, word), value in expected.items():
        assert w.weight(doc, word) == pytest.approx(value, abs=1e-12), (doc, word)
    assert w.weight("d2", "cat") is None  # tf = 0: the formula is only defined for tf >= 1
    assert w.n_documents == 3
    assert set(w.table["d1"]) == {"the", "cat", "sat", "on", "mat"}
    assert w.multiplier("d1", "cat") == pytest.approx(
        math.log(3)
    )  # ln 3 = 1.0986 > 1: counts its weight
    assert w.multiplier("d1", "sat") == 1.0  # ln 1.5 <= 1


def test_s_score_golden_values() -> None:
    s = s_score_weights(DOCS)
    expected = {
        # P_doc = 1/6, P_corp-doc = 0/6, (N - df)/N = 2/3, P_corp = 1/12
        ("d1", "cat"): math.log((1 / 6 - 0) * (2 / 3) / (1 / 12)),
        ("d1", "on"): math.log((1 / 6) * (2 / 3) / (1 / 12)),
        ("d1", "mat"): math.log((1 / 6) * (2 / 3) / (1 / 12)),
        # P_doc = 1/3, P_corp-doc = 1/9 (one 'sat' among the 9 tokens of d1 + d3), (3 - 2)/3, P_corp = 2/12
        ("d2", "sat"): math.log((1 / 3 - 1 / 9) * (1 / 3) / (2 / 12)),
        ("d2", "dog"): math.log((1 / 3 - 1 / 9) * (1 / 3) / (2 / 12)),
        ("d3", "dog"): math.log((1 / 3 - 1 / 9) * (1 / 3) / (2 / 12)),
        # P_doc = 1/3, P_corp-doc = 0, 2/3, P_corp = 1/12
        ("d3", "ran"): math.log((1 / 3) * (2 / 3) / (1 / 12)),
    }
    for (doc, word), value in expected.items():
        assert s.weight(doc, word) == pytest.approx(value, abs=1e-12), (doc, word)
    # 'the' is in every document (N - df = 0); 'sat' in d1: P_doc = 1/6 = P_corp-doc = 1/6 -> log(0)
    assert s.undefined["d1"] == frozenset({"the", "sat"})
    assert s.undefined["d2"] == frozenset({"the"})
    assert s.weight("d1", "sat") is None
    assert s.multiplier("d1", "sat") == 1.0  # undefined counts like a weight <= 1
    assert s.multiplier("d3", "ran") == 1.0  # ln(8/3) = 0.98 <= 1: counts 1
    assert s.multiplier("d2", "dog") == 1.0  # ln(4/9) < 1


def test_s_score_rest_less_frequent_than_document_is_undefined() -> None:
    # 'x' is 1/4 of d1 but 1/2 of the rest of the corpus: P_doc < P_corp-doc
    s = s_score_weights({"d1": ["x", "y", "z", "w"], "d2": ["x", "v"], "d3": ["u", "t"]})
    assert "x" in s.undefined["d1"]
    assert s.weight("d2", "x") is not None


def test_single_document_has_no_salient_words() -> None:
    s = s_score_weights({"only": ["a", "b", "a"]})
    assert s.undefined["only"] == frozenset({"a", "b"})
    t = tfidf_weights({"only": ["a", "b", "a"]})
    assert t.weight("only", "a") == 0.0


def test_salient_words_sorted() -> None:
    w = tfidf_weights(DOCS)
    top = w.salient("d1", top=3)
    assert [word for word, _ in top] == ["cat", "mat", "on"]  # ties (ln 3) alphabetical


def test_segment_documents_and_grouping() -> None:
    docs = segment_documents(["a", None, "a", ""], 4)
    assert docs == ["a", "#1", "a", "#3"]
    assert group_tokens([["x"], ["y"], ["z"], []], docs) == {"a": ["x", "z"], "#1": ["y"], "#3": []}


def test_validation_messages() -> None:
    with pytest.raises(BleuOptionError, match="unknown weighting scheme 'bm25'; choose one of"):
        word_weights(DOCS, "bm25")
    with pytest.raises(BleuOptionError, match="at least one document"):
        tfidf_weights({})
    with pytest.raises(BleuOptionError, match="document 'd' is a string.*tokenize the reference"):
        s_score_weights({"d": "the cat"})  # type: ignore[dict-item]
    with pytest.raises(BleuOptionError, match="3 document ids for 2 segments"):
        segment_documents(["a", "b", "c"], 2)


def test_multiplier_rule() -> None:
    w = WordWeights("tf.idf", {"d": {"big": 4.0, "one": 1.0, "small": 0.5}}, n_documents=2)
    assert [w.multiplier("d", x) for x in ("big", "one", "small", "missing")] == [
        4.0,
        1.0,
        1.0,
        1.0,
    ]
    assert w.multiplier("other-doc", "big") == 1.0
