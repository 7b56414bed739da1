"""BLEU vs the raters' MQM error spans in the app: Explore's spans view, its sorts, and the
"BLEU vs error spans" page, under Streamlit's AppTest on the TED en-de demo (Apache-2.0, Google's MQM
annotations with their ``<v>…</v>`` spans), plus the HTML escaping of the combined highlighting.

Expected numbers come from :func:`bleu_core.study.error_agreement.error_agreement` (a bit-mask count over
the whole study); the app's Explore line is computed per translation by ``token_records``: two
implementations that must agree.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from app_runs import html_text
from app_runs import start_app as start
from streamlit.testing.v1 import AppTest

from bleu_core.study import Segment, Study
from bleu_core.study.error_agreement import (
    AgreementCounts,
    error_agreement,
    error_agreement_by_order,
    token_records,
)
from bleu_core.study.spans import ErrorSpan
from ui.app import state as K
from ui.explore import agreement as ag
from ui.explore.error_spans import counts_line, source_spans_html, spans_hypothesis_html

ROOT = Path(__file__).resolve().parents[2]
XSS = "<script>alert(1)</script>"
COUNTS = re.compile(
    r"BLEU vs the raters \(order (\d)\): <b>(\d+)</b> of (\d+) matched tokens lie inside error spans"
    r".*?<b>(\d+)</b> of (\d+) unmatched tokens"
)


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def error_tokens(body: str) -> int:
    """Tokens drawn inside an error span (not the style sheet's rule)."""
    return len(re.findall(r'class="[^"]*bs-errtok', body))


def focus_html(at: AppTest) -> str:
    """Explore's block of one system's translation (with pop-ups), not the all-systems table."""
    blocks = [
        h.proto.body for h in at.get("html") if "the raters&#x27; error spans</div>" in h.proto.body
    ]
    assert len(blocks) == 1
    return blocks[0]


def table_html(at: AppTest) -> str:
    """Explore's all-systems table."""
    return next(h.proto.body for h in at.get("html") if "<table class='bs-table'>" in h.proto.body)


def show_segment(at: AppTest, segment: str, system: str) -> str:
    at.session_state[K.EXPLORE_SEGMENT] = segment
    rerun(at)
    at.selectbox(key=K.EXPLORE_NGRAM_SYSTEM).set_value(system)
    return html_text(rerun(at))


@pytest.fixture(scope="module")
def by_order(ted_en_de):
    return error_agreement_by_order(ted_en_de, references=["ref"])


@pytest.fixture(scope="module")
def agreement_1(by_order):
    return by_order[1]


def test_explore_draws_spans_with_a_popup_and_the_counts_line(ted_en_de, agreement_1):
    # segment 138 of HuaweiTSC: the most rewarded errors of the demo (error_agreement's ranking)
    top = agreement_1.segment_ranking("matched_in_error", top=1)[0]
    at = start("explore")
    show_segment(at, top.segment_id, top.system)
    body = focus_html(at)
    found = COUNTS.search(body)
    assert found, "no counts line"
    order, rewarded, matched, penalised, unmatched = map(int, found.groups())
    expected = top.counts
    assert order == 1
    assert rewarded == expected.matched_in_error
    assert matched == expected.matched_in_error + expected.matched_clean
    assert penalised == expected.unmatched_clean
    assert unmatched == expected.unmatched_in_error + expected.unmatched_clean
    span = next(
        s
        for s in ted_en_de.error_spans
        if s.system == top.system and s.segment_id == top.segment_id and s.side == "target"
    )
    pop = f"{span.severity} error · {span.category} · rater {span.rater}"
    assert re.search(r'class="bs-tok bs-\w+ bs-errtok"[^>]*tabindex="0">', body)
    assert '<span class="bs-pop">' in body and pop in body
    assert f"bs-err-{span.severity.lower()}" in body
    # the all-systems table underlines the spans too, naming them in the tokens' tooltips
    table = table_html(at)
    assert error_tokens(table) and re.search(r'bs-errtok" title="[^"]*' + re.escape(pop), table)


def test_explore_rater_filter_and_order(ted_en_de):
    at = start("explore")
    # segment 138 of HuaweiTSC was annotated by one rater only: another rater's filter leaves no spans
    raters = {
        s.rater for s in ted_en_de.error_spans if (s.system, s.segment_id) == ("HuaweiTSC", "138")
    }
    rated = {r.rater for r in ted_en_de.ratings if (r.system, r.segment_id) == ("HuaweiTSC", "138")}
    other = sorted({s.rater for s in ted_en_de.error_spans} - raters - rated)[0]
    body = show_segment(at, "138", "HuaweiTSC")
    assert error_tokens(body)
    at.multiselect(key=K.EXPLORE_SPAN_RATERS).set_value([other])
    body = focus_html(rerun(at))
    assert "no chosen rater annotated this translation" in body
    assert not error_tokens(body)
    at.multiselect(key=K.EXPLORE_SPAN_RATERS).set_value([])
    at.session_state[K.EXPLORE_ORDER] = 2
    body = html_text(rerun(at))
    counts = error_agreement(ted_en_de, max_order=2, systems=["HuaweiTSC"]).systems["HuaweiTSC"]
    row = counts.segment_counts[ted_en_de.segment_index("138")]
    found = COUNTS.search(body)
    assert found and int(found.group(1)) == 2
    assert (int(found.group(2)), int(found.group(4))) == (row[0], row[3])


def test_explore_shows_omissions_on_the_source(ted_en_de):
    span = next(s for s in ted_en_de.error_spans if s.side == "source")
    at = start("explore")
    body = show_segment(at, span.segment_id, span.system)
    assert "bs-src-err" in body and span.category in body
    source = ted_en_de.segments[ted_en_de.segment_index(span.segment_id)].source
    assert source[span.start : span.end] in body


@pytest.mark.parametrize("sort, count", [("rewarded errors", 0), ("penalised words", 3)])
def test_explore_sorts_by_rewarded_errors_and_penalised_words(ted_en_de, agreement_1, sort, count):
    at = start("explore")
    at.selectbox(key=K.EXPLORE_SORT).set_value(sort)
    at.toggle(key=K.EXPLORE_DESCENDING).set_value(True)
    rerun(at)
    table = at.dataframe[0].value
    assert sort in table.columns
    by = ("matched_in_error", "matched_clean", "unmatched_in_error", "unmatched_clean")[count]
    ranking = agreement_1.segment_ranking(by, top=len(table))
    assert table[sort].tolist() == [r.value for r in ranking]
    first = (table.iloc[0]["system"], str(table.iloc[0]["segment"]))
    assert first in {(r.system, r.segment_id) for r in ranking if r.value == ranking[0].value}
    label = at.get("popover")[0].proto.popover.label
    assert label.endswith(f"sorted by {ag.BROWSE_SORTS[sort]} ↓")


def test_error_spans_page_tables_equal_error_agreement(ted_en_de, by_order):
    at = start("error_spans")
    assert at.title[0].value == "BLEU vs error spans"
    result = by_order[1]
    table = at.dataframe[0].value
    total = result.counts
    assert table.loc["BLEU matched"].tolist() == [
        total.matched_in_error,
        total.matched_clean,
        total.matched_in_error + total.matched_clean,
    ]
    assert table.loc["BLEU did not match", "outside every span"] == total.unmatched_clean
    per_system = at.dataframe[1].value.set_index("system")
    for name, a in result.systems.items():
        row = per_system.loc[name]
        assert [row[ag.CELL_LABELS[k]] for k in a.counts.to_dict()] == list(a.counts.as_tuple())
        assert row["annotated segments"] == a.annotated_segments
        assert row[ag.REWARDED_RATE] == pytest.approx(100 * a.counts.rewarded_error_rate)
    severity = at.dataframe[2].value.set_index("severity")
    for key, counts in result.by_severity.items():
        assert severity.loc[key, "matched, in error"] == counts.matched_in_error
    category = at.dataframe[3].value.set_index("category")
    assert set(category.index) == set(result.by_category)
    orders = at.dataframe[4].value.set_index("max order")
    for n, a in by_order.items():
        assert orders.loc[n, "unmatched, clean"] == a.counts.unmatched_clean
    assert {m.label: m.value for m in at.metric}["Rewarded errors"] == f"{total.matched_in_error:,}"
    # Major spans only, at order 2
    at.selectbox(key=K.SPANS_SEVERITY).set_value("Major")
    at.session_state[K.SPANS_ORDER] = 2
    rerun(at)
    major = error_agreement(ted_en_de, references=["ref"], max_order=2, severities=["Major"])
    per_system = at.dataframe[1].value.set_index("system")
    for name, a in major.systems.items():
        assert per_system.loc[name, "matched, in error"] == a.counts.matched_in_error
    assert at.dataframe[0].value.loc["all tokens", "inside an error span"] == major.counts.in_error


def test_pages_without_spans_say_so():
    study = Study(
        name="no spans",
        segments=(Segment("1"), Segment("2")),
        references={"ref": ["the cat sat", "a dog"]},
        systems={"A": ["the cat sat", "a cat"]},
    )
    at = start("error_spans", study)
    assert "no error spans" in at.info[0].value
    at = start("explore", study)
    assert "rewarded errors" not in at.selectbox(key=K.EXPLORE_SORT).options
    assert not error_tokens(html_text(at)) and "bs-counts" not in html_text(at)


def xss_spans_study() -> Study:
    hyp = f"a {XSS} dog barks"
    start = hyp.index("<")
    spans = (
        ErrorSpan(
            "S", "1", f"rater {XSS}", "target", start, start + len(XSS), f"Cat/{XSS}", "Major"
        ),
        ErrorSpan("S", "1", "r2", "source", 0, 4, f"Accuracy/Omission {XSS}", f"Minor{XSS}"),
    )
    return Study(
        name=f"spans {XSS}",
        segments=(Segment("1", source=f"eine {XSS} Hund"),),
        references={"ref": [f"a {XSS} dog"]},
        systems={"S": [hyp]},
        error_spans=spans,
    )


def test_explore_and_page_escape_text_category_and_rater():
    study = xss_spans_study()
    at = start("explore", study)
    body = show_segment(at, "1", "S")
    assert "<script>" not in body and "&lt;script&gt;" in body
    assert "rater rater &lt;script&gt;" in body and "Cat/&lt;script&gt;" in body
    assert "bs-src-err" in body
    at = start("error_spans", study)
    assert not at.exception


def test_combined_highlighting_escapes_every_piece():
    study = xss_spans_study()
    hyp = study.systems["S"][0]
    seg = token_records(hyp, study.references["ref"], study.error_spans)
    out = spans_hypothesis_html(seg) + source_spans_html(
        study.segments[0].source or "", [s for s in study.error_spans if s.side == "source"]
    )
    assert "<script>" not in out and "</script>" not in out
    # every character of the texts is there, escaped, in order
    visible = re.sub(r'<span class="bs-pop">.*?</span>', "", out)
    visible = re.sub(r"<[^>]+>", "", visible)
    assert hyp.replace("<", "&lt;").replace(">", "&gt;") in visible.replace("\n", "")
    assert out.count("Cat/&lt;script&gt;") >= 1 and "Minor&lt;script&gt;" in out


def test_counts_line_says_when_nobody_annotated():
    assert "no chosen rater" in counts_line(AgreementCounts(), order=1, annotated=False)
    assert "<b>2</b> of 5 matched" in counts_line(AgreementCounts(2, 3, 0, 1), order=1)


def test_browse_columns_leave_unannotated_translations_empty(ted_en_de, agreement_1):
    import numpy as np
    import pandas as pd

    systems = list(ted_en_de.systems)
    frame = pd.DataFrame({"system": np.repeat(systems, ted_en_de.n_segments)})
    out = ag.browse_columns(frame, agreement_1, systems)
    rewarded = out["rewarded errors"].to_numpy(dtype=float, na_value=np.nan)
    cells = np.stack([agreement_1.systems[s].segment_counts[:, 0] for s in systems]).ravel()
    assert np.array_equal(np.isnan(rewarded), cells < 0)
    assert np.array_equal(rewarded[cells >= 0], cells[cells >= 0])


def test_charts_are_valid_vega_lite_and_name_all_50_systems():
    import numpy as np

    from bleu_core.study.error_agreement import ErrorAgreement, SystemAgreement

    names = [f"system-{k:02d}-with-a-long-name" for k in range(50)]
    systems = {
        name: SystemAgreement(
            name, AgreementCounts(k, 100, 50, 20 + k), {}, {}, np.zeros((1, 4), dtype=int), 1, 0
        )
        for k, name in enumerate(names)
    }
    result = ErrorAgreement(systems, ("1",), ("ref",), 1, "13a", False)
    spec = ag.rates_chart(result).to_dict()  # altair validates against the Vega-Lite schema
    left = spec["hconcat"][0]
    assert left["height"] >= 50 * 20
    assert left["encoding"]["y"]["axis"]["labelOverlap"] is False
    assert left["encoding"]["y"]["sort"][0] == names[-1]  # most rewarded errors first
    ag.orders_chart({1: result, 2: result}).to_dict()


def test_study_digest_changes_with_the_error_spans():
    import dataclasses

    from ui.app.export import study_digest

    study = xss_spans_study()
    fewer = dataclasses.replace(study, error_spans=study.error_spans[:1])
    moved = dataclasses.replace(
        study,
        error_spans=(dataclasses.replace(study.error_spans[0], start=0), *study.error_spans[1:]),
    )
    digests = {study_digest(s) for s in (study, fewer, moved)}
    assert len(digests) == 3
    assert study_digest(dataclasses.replace(study, error_spans=study.error_spans[::-1])) in digests


def test_error_spans_page_scores_bleu_as_a_span_detector(ted_en_de):
    from bleu_core.study.span_scores import span_scores

    at = start("error_spans")
    expected = span_scores(ted_en_de, references=["ref"], max_order=1)
    frame = next(d.value for d in at.dataframe if "exact span P" in d.value.columns)
    overall = frame.set_index("system").loc["overall"]
    assert overall["exact span P"] == pytest.approx(expected.overall.exact.precision)
    assert overall["characters R"] == pytest.approx(expected.overall.character.recall)
    at.toggle(key=K.SPANS_WEIGHTED).set_value(True)
    rerun(at)
    frame = next(d.value for d in at.dataframe if "exact span P" in d.value.columns)
    weighted = frame.set_index("system").loc["overall", "overlapping span F1"]
    assert weighted == pytest.approx(expected.overall.overlap_weighted.f1)
