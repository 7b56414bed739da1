"""BLEU's unmatched words scored as error spans: exact, overlap and character P/R/F1, with and
without severity weights, micro-averaged per system and overall."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.errors import BleuOptionError, StudyError
from bleu_core.study.demo import load_demo
from bleu_core.study.span_scores import (
    PRF,
    SpanCounts,
    SpanScores,
    item_counts,
    predicted_spans,
    severity_weight,
    span_scores,
)

TEXT = "one two three four five six seven eight nine ten"
WORDS = [(i, i + len(w)) for i, w in zip(
    [TEXT.index(w) for w in TEXT.split()], TEXT.split(), strict=True)]  # fmt: skip


def _ranges(draw_mask: int) -> list[tuple[int, int]]:
    return predicted_spans([a for a, _ in WORDS], [b for _, b in WORDS], draw_mask)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**10 - 1))
def test_predicted_spans_are_the_runs_of_unmatched_words(mask):
    spans = _ranges(mask)
    covered = {t for t, (a, b) in enumerate(WORDS) for s, e in spans if s <= a and b <= e}
    assert covered == {t for t in range(10) if not mask >> t & 1}
    # runs are maximal: a matched word separates any two of them
    for (_, e1), (s2, _) in zip(spans, spans[1:], strict=False):
        between = [t for t, (a, b) in enumerate(WORDS) if e1 <= a and b <= s2]
        assert between and all(mask >> t & 1 for t in between)


gold_spans = st.lists(
    st.tuples(st.integers(0, 9), st.integers(1, 3), st.sampled_from(["Minor", "Major", "Neutral"])),
    max_size=4,
)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**10 - 1), gold_spans)
def test_overlap_is_never_stricter_than_exact_and_minor_weights_change_nothing(mask, gold):
    spans = [(WORDS[t][0], WORDS[min(t + n, 10) - 1][1], sev) for t, n, sev in gold]
    weighted = [(s, e, severity_weight(sev)) for s, e, sev in spans]
    scores = SpanScores.of(item_counts(TEXT, _ranges(mask), weighted))
    for kind in ("precision", "recall"):
        exact, overlap = getattr(scores.exact, kind), getattr(scores.overlap, kind)
        assert math.isnan(exact) and math.isnan(overlap) or exact <= overlap
    minor = SpanScores.of(item_counts(TEXT, _ranges(mask), [(s, e, 1.0) for s, e, _ in spans]))
    for name in ("exact", "overlap", "character"):
        plain, same = getattr(minor, name), getattr(minor, name + "_weighted")
        as_tuple = (plain.precision, plain.recall, plain.f1)
        assert as_tuple == pytest.approx((same.precision, same.recall, same.f1), nan_ok=True)


def test_nothing_predicted_or_no_gold_is_undefined_not_zero():
    nothing = SpanScores.of(item_counts(TEXT, [], [(0, 3, 1.0)]))
    assert math.isnan(nothing.exact.precision) and nothing.exact.recall == 0.0
    clean = SpanScores.of(item_counts(TEXT, [(0, 3)], []))
    assert clean.exact.precision == 0.0 and math.isnan(clean.exact.recall)
    assert PRF.of(1, 2, 1, 1).f1 == pytest.approx(2 * 0.5 * 1 / 1.5)


def test_white_space_around_a_span_does_not_break_an_exact_match():
    # a rater's span " two " (with spaces) is BLEU's run "two"
    c = item_counts(TEXT, [(4, 7)], [(3, 8, 5.0)])
    assert (c.exact_right, c.exact_found, c.w_exact_right) == (1, 1, 5.0)


def test_ted_demo_scores_per_system_add_up_to_overall(ted_en_de):
    # the bundled TED en-de demo (Apache-2.0, MQM spans of 4 raters)
    result = span_scores(ted_en_de, max_order=2)
    total = SpanCounts()
    for s in result.systems.values():
        total.add(s.counts)
    assert total == result.overall.counts
    assert result.overall.counts.items == len(ted_en_de.machine_systems) * ted_en_de.n_segments
    o = result.overall
    assert 0 < o.exact.recall <= o.overlap.recall <= 1
    data = result.to_dict()
    assert data["severity_weights"]["major"] == 5.0 and set(data["systems"]) == set(
        ted_en_de.systems
    )


def test_higher_orders_predict_more_words_as_errors(ted_en_de):
    # a token matched at order 2 is matched at order 1: more unmatched characters at higher orders
    one = span_scores(ted_en_de, max_order=1, systems=["Nemo"]).overall.counts
    four = span_scores(ted_en_de, max_order=4, systems=["Nemo"]).overall.counts
    assert four.chars_predicted >= one.chars_predicted and four.chars_gold == one.chars_gold


def test_span_scores_errors(ted_en_de):
    with pytest.raises(BleuOptionError, match=r"max order must be 1-9, got 0"):
        span_scores(ted_en_de, max_order=0)
    with pytest.raises(StudyError, match=r"unknown system\(s\) 'nobody'"):
        span_scores(ted_en_de, systems=["nobody"])
    with pytest.raises(StudyError, match=r"no error spans to score"):
        span_scores(load_demo("paper-examples"))


def test_spans_command_reports_the_span_scores(ted_en_de, capsys):
    import json

    from bleu_core.cli import main

    assert main(["spans", "demo:ted-en-de", "--system", "Nemo", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = span_scores(ted_en_de, systems=["Nemo"]).to_dict()
    assert json.loads(json.dumps(expected)) == data["span_scores"]
    assert main(["spans", "demo:ted-en-de", "--system", "Nemo", "--max-order", "2"]) == 0
    out = capsys.readouterr().out
    assert "BLEU's unmatched words (order 2) as predicted error spans" in out
    assert "character_weighted" in out and "\noverall  " in out
