"""Word salience weights per word per document: tf.idf and the S-score (Babych & Hartley 2004, §2).

Babych & Hartley weight BLEU's n-gram matches by how *salient* their words are in a text. The weights are
computed, for every word of every document, from **one** reference translation of the corpus.

tf.idf (the paper's formula, defined when the word occurs in the document, ``tf >= 1``)::

    tf.idf(i, j) = (1 + log tf(i, j)) * log(N / df(i))

S-score::

    S(i, j) = log( (P_doc(i, j) - P_corp-doc(i)) * (N - df(i)) / N  /  P_corp(i) )

where ``tf(i, j)`` is the number of occurrences of word *i* in document *j*, ``df(i)`` the number of documents
containing it, ``N`` the number of documents, ``P_doc`` the word's relative frequency in the document (its
tokens divided by the document's tokens), ``P_corp-doc`` its relative frequency in the rest of the corpus
(without this document), and ``P_corp`` its relative frequency in the whole corpus.

Choices the paper leaves open, made here explicitly:

* **Logarithm**: natural logarithm (the paper does not name a base; the base matters because only weights
  above 1 change the counts).
* **Words absent from a document** get no weight (tf.idf is only defined for ``tf >= 1``; the paper's Perl
  looks the word up in the document's table and uses 1 when it is missing).
* **Undefined S-score**: the logarithm's argument is ``<= 0`` when the word occurs in *every* document
  (``N - df = 0``) or is no more frequent in this document than in the rest of the corpus
  (``P_doc <= P_corp-doc``). Such words are recorded in :attr:`WordWeights.undefined` and get no weight, so a
  match containing them counts 1, exactly like a word whose S-score is ``<= 1``. When the corpus is a single
  document the rest of the corpus is empty; ``P_corp-doc`` is then taken as 0 (the product is 0 anyway
  because ``N - df = 0``).
* **Documents**: the study's document ids. Segments without a document id each form a document of their
  own (the information-retrieval convention for short texts), so a study without any document ids treats
  every segment as a document.

>>> docs = {"d1": "the cat sat on the mat".split(), "d2": "the dog sat".split()}
>>> w = tfidf_weights(docs)
>>> round(w.weight("d1", "cat"), 4)      # (1 + log 1) * log(2 / 1)
0.6931
>>> w.weight("d1", "the")                # in every document: log(2 / 2) = 0
0.0
>>> w.weight("d2", "cat") is None        # absent from d2: no weight
True
>>> s = s_score_weights(docs)
>>> sorted(s.undefined["d2"])            # 'the' and 'sat' occur in both documents
['sat', 'the']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from bleu_core.errors import BleuOptionError

WeightScheme = Literal["tf.idf", "s-score"]
WEIGHT_SCHEMES: tuple[str, ...] = ("tf.idf", "s-score")


@dataclass(frozen=True)
class WordWeights:
    """Salience weight of every word in every document.

    ``table[doc][word]`` is the weight (words whose weight is undefined are absent);
    ``undefined[doc]`` holds the words of ``doc`` whose formula is undefined (S-score only).
    """

    scheme: str
    table: Mapping[str, Mapping[str, float]]
    undefined: Mapping[str, frozenset[str]] = field(default_factory=dict)
    n_documents: int = 0

    def weight(self, doc: str, word: str) -> float | None:
        """The weight of ``word`` in ``doc``, or ``None`` when it has none (absent or undefined)."""
        return self.table.get(doc, {}).get(word)

    def multiplier(self, doc: str, word: str) -> float:
        """What a match of ``word`` adds to a count (the paper's rule): the weight when it is > 1, else 1.

        >>> w = WordWeights("tf.idf", {"d": {"a": 2.5, "b": 0.3}}, n_documents=2)
        >>> w.multiplier("d", "a"), w.multiplier("d", "b"), w.multiplier("d", "zzz")
        (2.5, 1.0, 1.0)
        """
        value = self.weight(doc, word)
        return value if value is not None and value > 1.0 else 1.0

    def salient(self, doc: str, top: int = 10) -> list[tuple[str, float]]:
        """The ``top`` words of ``doc`` with the highest weights, highest first (ties alphabetical)."""
        items = sorted(self.table.get(doc, {}).items(), key=lambda kv: (-kv[1], kv[0]))
        return items[:top]


def _validate_documents(documents: Mapping[str, Sequence[str]]) -> None:
    if not documents:
        raise BleuOptionError(
            "word weights need at least one document; got none. Pass a mapping doc id -> tokens."
        )
    for doc, tokens in documents.items():
        if isinstance(tokens, str):
            raise BleuOptionError(
                f"document {doc!r} is a string; word weights need a list of tokens per document "
                "(tokenize the reference first, e.g. with bleu_core.tokenize.tokenizers.get_tokenizer)."
            )


def _document_frequencies(
    documents: Mapping[str, Sequence[str]],
) -> tuple[dict[str, Counter[str]], Counter[str]]:
    tfs = {doc: Counter(tokens) for doc, tokens in documents.items()}
    df: Counter[str] = Counter()
    for counts in tfs.values():
        df.update(counts.keys())
    return tfs, df


def tfidf_weights(documents: Mapping[str, Sequence[str]]) -> WordWeights:
    """tf.idf of every word of every document: ``(1 + ln tf) * ln(N / df)`` (Babych & Hartley 2004, §2).

    ``documents`` maps a document id to its reference tokens.

    >>> w = tfidf_weights({"a": ["x", "x", "y"], "b": ["y"], "c": ["z"]})
    >>> round(w.weight("a", "x"), 6) == round((1 + math.log(2)) * math.log(3), 6)
    True
    """
    _validate_documents(documents)
    tfs, df = _document_frequencies(documents)
    n = len(documents)
    table = {
        doc: {word: (1.0 + math.log(tf)) * math.log(n / df[word]) for word, tf in counts.items()}
        for doc, counts in tfs.items()
    }
    return WordWeights("tf.idf", table, {doc: frozenset() for doc in documents}, n)


def s_score_weights(documents: Mapping[str, Sequence[str]]) -> WordWeights:
    """S-score of every word of every document (Babych & Hartley 2004, §2; undefined cases in the module doc).

    >>> docs = {"a": ["x", "x", "y"], "b": ["y", "z"], "c": ["z", "w"]}
    >>> s = s_score_weights(docs)
    >>> # x in a: P_doc = 2/3, P_corp-doc = 0/4, (N - df)/N = 2/3, P_corp = 2/7
    >>> round(s.weight("a", "x"), 6) == round(math.log((2 / 3 - 0) * (2 / 3) / (2 / 7)), 6)
    True
    """
    _validate_documents(documents)
    tfs, df = _document_frequencies(documents)
    n = len(documents)
    corpus_counts: Counter[str] = Counter()
    for counts in tfs.values():
        corpus_counts.update(counts)
    corpus_size = sum(corpus_counts.values())
    table: dict[str, dict[str, float]] = {}
    undefined: dict[str, frozenset[str]] = {}
    for doc, counts in tfs.items():
        doc_size = sum(counts.values())
        rest_size = corpus_size - doc_size
        weights: dict[str, float] = {}
        bad: set[str] = set()
        for word, tf in counts.items():
            p_doc = tf / doc_size
            p_rest = (corpus_counts[word] - tf) / rest_size if rest_size > 0 else 0.0
            p_corp = corpus_counts[word] / corpus_size
            argument = (p_doc - p_rest) * (n - df[word]) / n / p_corp
            if argument > 0.0:
                weights[word] = math.log(argument)
            else:
                bad.add(word)
        table[doc] = weights
        undefined[doc] = frozenset(bad)
    return WordWeights("s-score", table, undefined, n)


def word_weights(documents: Mapping[str, Sequence[str]], scheme: str) -> WordWeights:
    """Weights by scheme name: ``"tf.idf"`` or ``"s-score"``.

    >>> word_weights({"a": ["x"]}, "idf")
    Traceback (most recent call last):
    ...
    bleu_core.errors.BleuOptionError: unknown weighting scheme 'idf'; choose one of: tf.idf, s-score
    """
    if scheme == "tf.idf":
        return tfidf_weights(documents)
    if scheme == "s-score":
        return s_score_weights(documents)
    raise BleuOptionError(
        f"unknown weighting scheme {scheme!r}; choose one of: {', '.join(WEIGHT_SCHEMES)}"
    )


def segment_documents(doc_ids: Sequence[str | None] | None, n_segments: int) -> list[str]:
    """The document each segment belongs to; segments without a document id are documents of their own.

    A segment without an id is named ``"#<index>"`` (0-based), which cannot clash with a real id unless
    a study uses such ids itself.

    >>> segment_documents(["d1", "d1", None, "d2"], 4)
    ['d1', 'd1', '#2', 'd2']
    >>> segment_documents(None, 2)
    ['#0', '#1']
    """
    if doc_ids is None:
        return [f"#{i}" for i in range(n_segments)]
    if len(doc_ids) != n_segments:
        raise BleuOptionError(
            f"{len(doc_ids)} document ids for {n_segments} segments; give one document id (or None) "
            "per segment."
        )
    return [doc if doc is not None and doc != "" else f"#{i}" for i, doc in enumerate(doc_ids)]


def group_tokens(
    segment_tokens: Sequence[Sequence[str]], segment_docs: Sequence[str]
) -> dict[str, list[str]]:
    """Concatenate the tokens of each document's segments, in segment order.

    >>> group_tokens([["a"], ["b", "c"], ["d"]], ["x", "y", "x"])
    {'x': ['a', 'd'], 'y': ['b', 'c']}
    """
    documents: dict[str, list[str]] = {}
    for tokens, doc in zip(segment_tokens, segment_docs, strict=True):
        documents.setdefault(doc, []).extend(tokens)
    return documents
