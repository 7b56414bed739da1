"""BLEU vs error spans counted as arrays (the fast path) give what the one-translation-at-a-time code
gives: :func:`bleu_core.study.matched_tokens.matched_tokens` against
:func:`bleu_core.study.token_masks.matched_mask`, and the study-wide tables and span scores with
``method="arrays"`` against ``method="oracle"``, on generated texts and spans and on the WMT24 en-ja release
(read in place from ``shared/data``, skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.errors import BleuOptionError
from bleu_core.study import load_study
from bleu_core.study.demo import load_demo
from bleu_core.study.error_agreement import (
    COUNT_NAMES,
    AgreementCounts,
    ErrorAgreement,
    SystemAgreement,
    error_agreement_by_order,
)
from bleu_core.study.matched_tokens import matched_tokens
from bleu_core.study.model import Rating, Segment, Study
from bleu_core.study.span_arrays import (
    CHARACTER_FIELDS,
    MATCH_FIELDS,
    Layout,
    character_counts,
    match_counts,
)
from bleu_core.study.span_scores import SpanCounts, item_counts, span_scores
from bleu_core.study.spans import ErrorSpan
from bleu_core.study.token_masks import matched_mask, max_reference_counts

WMT24 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"
needs_wmt24 = pytest.mark.skipif(
    not WMT24.is_dir(), reason="the WMT24 release is not in shared/data/wmt24-general-esa"
)

# a small vocabulary, so that n-grams repeat and clipping matters
tokens = st.lists(st.sampled_from("a b c the".split()), max_size=10)


# ----------------------------------------------------------------------------- matched tokens
@settings(max_examples=200, deadline=None)
@given(
    references=st.lists(st.lists(tokens, max_size=3), min_size=1, max_size=3),
    data=st.data(),
    orders=st.sets(st.integers(1, 5), min_size=1),
)
def test_matched_tokens_equal_matched_mask(references, data, orders) -> None:
    n_segments = len(references)
    hypotheses = data.draw(st.lists(tokens, max_size=6))
    segments = data.draw(st.lists(st.integers(0, n_segments - 1), min_size=len(hypotheses),
                                  max_size=len(hypotheses)))  # fmt: skip
    result = matched_tokens(hypotheses, segments, references, sorted(orders))
    for k, (hypothesis, segment) in enumerate(zip(hypotheses, segments, strict=True)):
        clip = max_reference_counts(references[segment], max(orders))
        for n in orders:
            expected = matched_mask(tuple(hypothesis), clip, n)
            assert result.mask(k, n) == expected, (hypothesis, references[segment], n)
            assert len(result.flags(k, n)) == len(hypothesis)


def test_matched_tokens_of_nothing() -> None:
    result = matched_tokens([], [], [], (1, 4))
    assert result.bounds.tolist() == [0] and result.matched[4].tolist() == []
    result = matched_tokens([(), ("a",)], [0, 0], [[]], (2,))  # a segment without references
    assert result.flags(0, 2).tolist() == [] and result.flags(1, 2).tolist() == [False]


# ----------------------------------------------------------------------------- generated studies
words = st.lists(st.sampled_from(["a", "b", "c", "the", "a,", "b.", "  ", "Cat"]), max_size=9)
texts = words.map(" ".join)


@st.composite
def studies(draw) -> Study:
    """A study of 1-3 segments, 1-3 systems, 1-2 reference streams (texts may be missing or empty) and
    error spans anywhere in the translations, some on the source, some empty; a rating or two."""
    n_segments = draw(st.integers(1, 3))
    segments = tuple(Segment(str(i + 1), source="x y z") for i in range(n_segments))
    maybe_text = st.one_of(st.none(), texts)
    references = {f"ref{r}": draw(st.lists(maybe_text, min_size=n_segments, max_size=n_segments))
                  for r in range(draw(st.integers(1, 2)))}  # fmt: skip
    systems = {f"S{s}": draw(st.lists(maybe_text, min_size=n_segments, max_size=n_segments))
               for s in range(draw(st.integers(1, 3)))}  # fmt: skip
    spans = []
    for name, outputs in systems.items():
        for segment, text in zip(segments, outputs, strict=True):
            length = len(text or "")
            for _ in range(draw(st.integers(0, 3) if text is not None else st.just(0))):
                start = draw(st.integers(0, length))
                end = draw(st.integers(start, length))
                side = draw(st.sampled_from(["target", "target", "source"]))
                if side == "source":
                    start, end = 0, draw(st.integers(0, 5))
                category = draw(st.sampled_from(["Accuracy/Omission", "Fluency/Grammar", "Other"]))
                severity = draw(st.sampled_from(["Minor", "Major", "Critical", "Neutral"]))
                rater = draw(st.sampled_from(["r1", "r2"]))
                spans.append(
                    ErrorSpan(name, segment.id, rater, side, start, end, category, severity)
                )
    ratings = tuple(
        Rating(name, segments[0].id, "r1", None, "mqm", -1.0)
        for name in draw(st.lists(st.sampled_from(sorted(systems)), max_size=2))
    )
    return Study("generated", segments, references, systems, ratings=ratings,
                 error_spans=tuple(spans))  # fmt: skip


def _same_agreement(one: dict, other: dict) -> None:
    assert one == other
    for n in one:
        for name, system in one[n].systems.items():
            assert np.array_equal(system.segment_counts, other[n].systems[name].segment_counts)


@settings(max_examples=120, deadline=None)
@given(study=studies(), tokenize=st.sampled_from(["13a", "char", "intl"]),
       severities=st.sampled_from([None, ["Major"], ["Minor", "Critical"]]))  # fmt: skip
def test_agreement_arrays_equal_the_oracle(study: Study, tokenize: str, severities) -> None:
    kwargs = {"tokenize": tokenize, "severities": severities}
    arrays = error_agreement_by_order(study, (1, 2, 3, 4), method="arrays", **kwargs)
    _same_agreement(
        arrays, error_agreement_by_order(study, (1, 2, 3, 4), method="oracle", **kwargs)
    )


@settings(max_examples=120, deadline=None)
@given(study=studies(), order=st.integers(1, 4), raters=st.sampled_from([None, ["r1"]]))
def test_span_scores_arrays_equal_the_oracle(study: Study, order: int, raters) -> None:
    if not study.error_spans:
        return
    arrays = span_scores(study, max_order=order, raters=raters, method="arrays")
    assert (
        arrays.to_dict()
        == span_scores(study, max_order=order, raters=raters, method="oracle").to_dict()
    )


@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(st.text(alphabet="ab \u3000\n", max_size=12), min_size=1, max_size=3),
    data=st.data(),
)
def test_span_arrays_equal_item_counts(texts: list[str], data) -> None:
    """Every count of :mod:`bleu_core.study.span_arrays` equals :func:`item_counts` summed over the texts,
    with white space at the ends of predicted and gold spans, gold spans overlapping and repeated."""
    weights = st.sampled_from([1.0, 5.0, 10.0])
    predicted, golds = [], []
    for text in texts:
        cut = st.integers(0, len(text))
        cuts = sorted(data.draw(st.lists(cut, max_size=6)))
        runs = list(
            zip(cuts[::2], cuts[1::2], strict=False)
        )  # disjoint and in order, as BLEU's runs
        predicted.append([(a, b) for a, b in runs if a < b])
        pairs = data.draw(st.lists(st.tuples(cut, cut, weights), max_size=4))
        golds.append([(min(a, b), max(a, b), w) for a, b, w in pairs if a != b])
    expected = SpanCounts()
    for text, runs, gold in zip(texts, predicted, golds, strict=True):
        expected.add(item_counts(text, runs, gold))
    pred = tuple(np.array(c, dtype=np.int64).reshape(-1) for c in zip(*[(k, a, b) for k, runs in enumerate(predicted) for a, b in runs], strict=True)) or (np.zeros(0, dtype=np.int64),) * 3  # fmt: skip
    rows = [(k, a, b, w) for k, gold in enumerate(golds) for a, b, w in gold]
    gold_arrays = (*(np.array([r[j] for r in rows], dtype=np.int64) for j in range(3)),
                   np.array([r[3] for r in rows], dtype=float))  # fmt: skip
    layout = Layout.of(texts)
    groups = np.zeros(len(texts), dtype=np.int64)
    got = np.concatenate([match_counts(layout, pred, gold_arrays, groups, 1),
                          character_counts(layout, pred, gold_arrays, groups, 1)], axis=1)[0]  # fmt: skip
    assert [getattr(expected, name) for name in MATCH_FIELDS + CHARACTER_FIELDS] == got.tolist()


@settings(max_examples=100, deadline=None)
@given(
    counts=st.lists(
        st.lists(st.tuples(*[st.integers(-1, 3)] * 4), min_size=3, max_size=3), max_size=3
    ),
    by=st.sampled_from(COUNT_NAMES),
    top=st.sampled_from([None, 0, 1, 4, -1]),
)
def test_segment_ranking_is_a_stable_sort_by_the_count(counts, by, top) -> None:
    """The ranking equals Python's stable sort of every annotated (system, segment), largest first."""
    systems = {}
    for s, rows in enumerate(counts):
        table = np.array([row if row[0] >= 0 else (-1,) * 4 for row in rows], dtype=np.int64)
        systems[f"S{s}"] = SystemAgreement(f"S{s}", AgreementCounts(), {}, {}, table, 0, 0)
    result = ErrorAgreement(systems, ("1", "2", "3"), ("ref",), 1, "13a", False)
    column = COUNT_NAMES.index(by)
    expected = [(name, result.segment_ids[i], int(row[column]))
                for name, system in systems.items()
                for i, row in enumerate(system.segment_counts) if row[0] >= 0]  # fmt: skip
    expected.sort(key=lambda item: -item[2])
    ranking = result.segment_ranking(by, top=top)
    assert [(r.system, r.segment_id, r.value) for r in ranking] == expected[:top]
    for rank in ranking:
        row = systems[rank.system].segment_counts[result.segment_ids.index(rank.segment_id)]
        assert rank.counts.as_tuple() == tuple(row)


# ----------------------------------------------------------------------------- the bundled demo
def test_ted_demo_agrees_for_every_order_and_tokenizer() -> None:
    study = load_demo("ted-en-de")
    for tokenize in ("13a", "char"):
        arrays = error_agreement_by_order(study, tokenize=tokenize, method="arrays")
        _same_agreement(arrays, error_agreement_by_order(study, tokenize=tokenize, method="oracle"))
    for order in (1, 4):
        arrays = span_scores(study, max_order=order, method="arrays").to_dict()
        assert arrays == span_scores(study, max_order=order, method="oracle").to_dict()


def test_unknown_method_is_named() -> None:
    study = load_demo("ted-en-de").subset(["Nemo"], 3)
    with pytest.raises(
        BleuOptionError, match=r"unknown method 'fast'; choose 'arrays' or 'oracle'"
    ):
        error_agreement_by_order(study, (1,), method="fast")
    with pytest.raises(
        BleuOptionError, match=r"unknown method 'fast'; choose 'arrays' or 'oracle'"
    ):
        span_scores(study, method="fast")


# ----------------------------------------------------------------------------- the real WMT24 release
@needs_wmt24
@pytest.mark.parametrize("tokenize", ["ja-mecab", "13a"])
def test_wmt24_en_ja_agrees(tokenize: str) -> None:
    study = load_study(WMT24, pair="en-ja").study
    arrays = error_agreement_by_order(study, tokenize=tokenize, method="arrays")
    _same_agreement(arrays, error_agreement_by_order(study, tokenize=tokenize, method="oracle"))
    assert arrays[1].counts.tokens > 10_000  # the release's annotated paragraphs were counted
    scores = span_scores(study, tokenize=tokenize, max_order=2, method="arrays").to_dict()
    assert scores == span_scores(study, tokenize=tokenize, max_order=2, method="oracle").to_dict()
