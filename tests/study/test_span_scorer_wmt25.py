"""WMT25's span scorer (subtask 2): golden hand-computed cases, properties, the task TSV read back, and
BLEU's spans on WMT24 en-ja/en-hi scored through the TSV by a test-only second implementation."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.errors import BleuOptionError, InputError, StudyError
from bleu_core.study.demo import load_demo
from bleu_core.study.span_scorer_wmt25 import (
    Wmt25Item,
    Wmt25PRF,
    Wmt25Span,
    item_counts,
    score_items,
    severity_counts,
)
from bleu_core.study.span_scores import predicted_spans
from bleu_core.study.wmt25_study import (
    bleu_spans,
    gold_rows,
    rated_items,
    study_rows,
    wmt25_span_scores,
)
from bleu_core.study.wmt25_tsv import (
    TSV_FIELDS,
    TSV_FIELDS_RELEASE,
    Wmt25Row,
    parse_tsv,
    score_tsv,
    write_tsv,
)
from tests.study.wmt25_oracle import score_files

REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"


def S(start: int | None, end: int | None, severity: str) -> Wmt25Span:
    return Wmt25Span(start, end, severity)


# ------------------------------------------------------------------ golden cases, computed by hand


def test_same_severity_full_credit_other_severity_half() -> None:
    # gold: characters 0-5 major; prediction: 0-5 major → credit 5 of 5 and 5
    assert item_counts(10, [S(0, 5, "major")], [S(0, 5, "major")]).prf() == (1.0, 1.0, 1.0)
    # prediction minor on the same 5 characters: 5 × 0.5 = 2.5 credit → P = R = 0.5
    counts = item_counts(10, [S(0, 5, "major")], [S(0, 5, "minor")])
    assert (counts.credit, counts.gold, counts.predicted) == (2.5, 5.0, 5.0)
    # critical counts as major: full credit against a major prediction
    assert item_counts(10, [S(0, 5, "critical")], [S(0, 5, "major")]).credit == 5.0


def test_partial_overlap_by_hand() -> None:
    # gold 0-6 minor (6 chars), prediction 4-10 minor (6 chars): 2 shared characters
    counts = item_counts(12, [S(0, 6, "minor")], [S(4, 10, "minor")])
    assert counts.prf() == Wmt25PRF(2 / 6, 2 / 6, 2 / 6)
    # a character under two gold spans (major + minor) and one major prediction: 1 full credit,
    # nothing left on the prediction side → 1; gold counts 2 there
    counts = item_counts(3, [S(0, 1, "major"), S(0, 1, "minor")], [S(0, 1, "major")])
    assert (counts.credit, counts.gold, counts.predicted) == (1.0, 2.0, 1.0)


def test_missing_and_undecided_spans_are_skipped() -> None:
    major, minor = severity_counts([S(None, None, "major"), S(0, 4, "undecided")], 4)
    assert major.sum() == minor.sum() == 0
    # only a missing gold span: no gold characters, so recall is 1 and precision 0 for any prediction
    assert item_counts(4, [S(None, None, "major")], [S(0, 2, "minor")]).prf() == (0.0, 1.0, 0.0)


def test_empty_predictions_have_precision_one() -> None:
    assert item_counts(6, [S(0, 3, "major")], []).prf() == Wmt25PRF(1.0, 0.0, 0.0)
    assert item_counts(6, [], []).prf() == Wmt25PRF(1.0, 1.0, 1.0)


def test_unknown_severity_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown severity 'neutral'"):
        severity_counts([S(0, 1, "neutral")], 2)


def test_pair_pools_translations_then_pairs_are_averaged() -> None:
    # en-de: A credit 2 of gold 2, pred 4; B credit 0, gold 2, pred 0 → pooled P 2/4, R 2/4
    items = [
        Wmt25Item("en-de", "A", 6, (S(0, 2, "major"),), (S(0, 4, "major"),)),
        Wmt25Item("en-de", "B", 6, (S(0, 2, "minor"),), ()),
        # en-ja: one translation, credit 1 (half of 2 characters), gold 2, pred 2 → 0.5 each
        Wmt25Item("en-ja", "A", 3, (S(0, 2, "minor"),), (S(0, 2, "major"),)),
    ]
    result = score_items(items)
    assert result.pairs["en-de"].prf() == Wmt25PRF(0.5, 0.5, 0.5)
    assert result.systems["en-de"]["B"].prf() == Wmt25PRF(1.0, 0.0, 0.0)
    assert result.average == Wmt25PRF(0.5, 0.5, 0.5)
    # A's mean over its pairs: en-de P 0.5 R 1 F 2/3, en-ja 0.5/0.5/0.5
    got = result.system_average("A")
    assert got.precision == 0.5 and got.recall == 0.75
    assert got.f1 == pytest.approx((2 / 3 + 0.5) / 2, abs=1e-15)
    assert result.to_dict()["average"]["precision"] == 0.5


# ------------------------------------------------------------------ properties

spans = st.lists(
    st.tuples(
        st.integers(0, 12), st.integers(0, 6), st.sampled_from(["major", "minor", "critical"])
    ),
    max_size=5,
).map(lambda xs: [S(a, min(a + n, 12), sev) for a, n, sev in xs])


@settings(max_examples=120, deadline=None)
@given(spans, spans)
def test_scores_lie_in_0_1_and_predicting_the_gold_gives_1(gold, pred) -> None:
    prf = item_counts(12, gold, pred).prf()
    assert all(0.0 <= v <= 1.0 for v in prf)
    assert item_counts(12, gold, gold).prf() == (1.0, 1.0, 1.0)
    assert item_counts(12, gold, pred).credit == item_counts(12, pred, gold).credit


# ------------------------------------------------------------------ the TSV


def _row(
    hyp: str, spans: tuple[Wmt25Span, ...], system: str = "A", pair: str = "en-de"
) -> Wmt25Row:
    src, tgt = pair.split("-")
    values = ["d1", "1", src, tgt, "official", system, "src", hyp, "ref", "news", "ESA"]
    return Wmt25Row(dict(zip(TSV_FIELDS_RELEASE, values, strict=True)), spans)


def test_tsv_round_trip_keeps_tabs_newlines_and_quotes() -> None:
    hyp = 'a\tb\nc "d" é'
    row = _row(hyp, (S(0, 3, "major"), S(None, None, "minor"), S(4, 5, "critical")))
    rows, warnings = parse_tsv(write_tsv([row, _row("x", (), "B")]), "t.tsv")
    assert warnings == []
    assert rows[0].fields == row.fields and rows[0].spans == row.spans
    assert rows[1].spans == () and rows[1].line == 4  # the first row spans lines 2-3


def test_no_error_is_written_as_the_organisers_write_it() -> None:
    line = write_tsv([_row("x", ())]).splitlines()[1]
    assert line.split("\t")[-3:] == ["-1", "-1", "no-error"]


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ("0 1\t2\tmajor", "list 2, 1 and 1 entries"),
        ("0\t2\tminr", "unknown error type 'minr'"),
        ("a\t2\tminor", "offsets 'a'-'2' are not whole numbers"),
        ("missing\t2\tminor", "only one is missing"),
        ("0\t99\tmajor", "span 0-99 does not lie inside the hypothesis"),
        ("0 \t2 \tmajor ", "an empty entry"),
    ],
)
def test_bad_span_cells_warn_with_file_and_line(cells: str, message: str) -> None:
    head = "\t".join(TSV_FIELDS) + "\n"
    body = "\t".join(["d", "1", "en", "de", "official", "A", "s", "abcd", "r", "news", "ESA"])
    rows, warnings = parse_tsv(head + body + "\t" + cells + "\n", "p.tsv")
    assert rows[0].spans == ()
    assert len(warnings) == 1 and warnings[0].startswith("p.tsv, line 2: ")
    assert message in warnings[0]


def test_bad_files_are_refused_with_a_message() -> None:
    with pytest.raises(InputError, match=r"x\.tsv: the file is empty"):
        parse_tsv("", "x.tsv")
    with pytest.raises(InputError, match=r"x\.tsv, line 1: the header lacks error_types"):
        parse_tsv("\t".join(TSV_FIELDS[:-1]) + "\n", "x.tsv")
    text = write_tsv([_row("ab", ()), _row("ab", ())])
    with pytest.raises(InputError, match=r"g, line 3: this row repeats the translation of line 2"):
        score_tsv(parse_tsv(text, "g")[0], parse_tsv(text, "p")[0], files=("g", "p"))


def test_gold_and_predictions_must_cover_the_same_translations() -> None:
    gold = parse_tsv(write_tsv([_row("ab", ()), _row("ab", (), "B")]), "g")[0]
    pred = parse_tsv(write_tsv([_row("ab", ())]), "p")[0]
    with pytest.raises(StudyError, match=r"g, line 3: no row of p for this translation"):
        score_tsv(gold, pred, files=("g", "p"))
    with pytest.raises(StudyError, match=r"g, line 3: a translation the gold does not have"):
        score_tsv(pred, gold, files=("p", "g"))
    other = parse_tsv(write_tsv([_row("ab", (), pair="en-ja")]), "p")[0]
    with pytest.raises(StudyError, match="share no language pair"):
        score_tsv(gold, other, files=("g", "p"))


def test_other_sets_and_one_sided_pairs_are_left_out_and_said() -> None:
    gold = [_row("ab", (S(0, 1, "major"),)), _row("ab", (), pair="en-ja")]
    extra = Wmt25Row({**gold[0].fields, "set_id": "extra"}, (), 9)
    result = score_tsv([*gold, extra], [gold[0]], files=("g", "p"))
    assert list(result.pairs) == ["en-de"]
    assert any("set other than 'official'" in n for n in result.notes)
    assert any("g: pair(s) en-ja only on this side" in n for n in result.notes)


# ------------------------------------------------------------------ on a study


def test_bleu_spans_follow_the_unmatched_runs_and_the_severity_rules() -> None:
    study = load_demo("ted-en-de")
    items, _ = rated_items(study)
    items = items[:40]
    minor = bleu_spans(study, items, severity="minor", max_order=2)
    by_order = bleu_spans(study, items, severity="by-order", max_order=2)
    for a, b in zip(minor, by_order, strict=True):
        assert {s.severity for s in a} <= {"minor"}
        # by-order splits the same characters into major (no reference has the word) and minor
        assert sum(s.end - s.start for s in a) >= sum(s.end - s.start for s in b if s.end)
    with pytest.raises(BleuOptionError, match="unknown severity rule 'huge'"):
        bleu_spans(study, items, severity="huge")
    # severity "minor" at order n is bleu-study's predicted_spans of the order-n matched mask
    assert all(isinstance(s.start, int) for spans in minor for s in spans)
    assert predicted_spans([0, 4], [3, 7], 0) == [(0, 7)]


def test_first_rating_in_file_order_gives_the_gold() -> None:
    study = load_demo("ted-en-de")
    items, _ = rated_items(study)
    first = {}
    for r in study.ratings:
        if r.segment_id is not None and r.system in study.machine_systems:
            first.setdefault((r.system, r.segment_id), r.rater)
    assert {
        (it.system, study.segments[it.index].id): it.rater for it in items
    }.items() <= first.items()


def test_study_scores_equal_the_scores_of_the_written_tsvs(tmp_path: Path) -> None:
    study = load_demo("ted-en-de")
    result = wmt25_span_scores(study, max_order=2, severity="by-order")
    items, gold, _ = gold_rows(study)
    pred = study_rows(study, items, bleu_spans(study, items, max_order=2, severity="by-order"))
    (tmp_path / "g.tsv").write_text(write_tsv(gold), encoding="utf-8")
    (tmp_path / "p.tsv").write_text(write_tsv(pred), encoding="utf-8")
    pairs, means = score_files(tmp_path / "g.tsv", tmp_path / "p.tsv")
    assert tuple(result.average) == pytest.approx(means, abs=1e-9)
    assert tuple(result.pairs["en-de"].prf()) == pytest.approx(pairs["en-de"], abs=1e-9)


@pytest.mark.skipif(not REAL.is_dir(), reason="needs ../shared/data/wmt24-general-esa")
@pytest.mark.parametrize("severity", ["minor", "by-order"])
def test_wmt24_en_ja_en_hi_through_the_tsv_match_the_second_implementation(
    tmp_path: Path, severity: str
) -> None:
    from bleu_core.study.loading import load_study
    from bleu_core.tokenize.tokenizers import tokenizer_for_language

    gold_rows_all, pred_rows_all, ours = [], [], {}
    for pair in ("en-ja", "en-hi"):
        study = load_study(str(REAL), pair=pair).study
        tok = tokenizer_for_language(study.target_lang)
        items, gold, _ = gold_rows(study)
        pred = study_rows(
            study, items, bleu_spans(study, items, max_order=2, tokenize=tok, severity=severity)
        )
        gold_rows_all += gold
        pred_rows_all += pred
        ours[pair] = wmt25_span_scores(study, max_order=2, tokenize=tok, severity=severity)
    (tmp_path / "g.tsv").write_text(write_tsv(gold_rows_all), encoding="utf-8")
    (tmp_path / "p.tsv").write_text(write_tsv(pred_rows_all), encoding="utf-8")
    pairs, means = score_files(tmp_path / "g.tsv", tmp_path / "p.tsv")
    read_back = score_tsv(
        parse_tsv((tmp_path / "g.tsv").read_text(encoding="utf-8"), "g")[0],
        parse_tsv((tmp_path / "p.tsv").read_text(encoding="utf-8"), "p")[0],
    )
    assert tuple(read_back.average) == pytest.approx(means, abs=1e-9)
    for pair in ("en-ja", "en-hi"):
        assert tuple(ours[pair].pairs[pair].prf()) == pytest.approx(pairs[pair], abs=1e-9)
        assert not math.isnan(ours[pair].average.f1)
