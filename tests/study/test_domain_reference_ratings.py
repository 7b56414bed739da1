"""A domain's view keeps only its own segments' set-aside reference ratings and spans.

A WMT24+ release keeps the ESA ratings of its reference stream aside (``metadata["reference_ratings"]``;
spans in ``["reference_spans"]``). :func:`bleu_core.study.granularity.restrict_to_domain` (the app's sidebar
domain choice, ``--domain`` on the command line) cuts them with the segments, so the ESA table and the
reference's score on the Corpus page are the domain's. Data: ``tests/study/data/wmt24-mini`` (invented text):
ref-A has one rating, of segment 4, a social segment (``humeval/esa_mini.csv``)."""

from __future__ import annotations

from pathlib import Path

from bleu_core.study import load_study
from bleu_core.study.formats.esa import esa_system_scores
from bleu_core.study.granularity import restrict_to_domain
from bleu_core.study.reference_choice import reference_human_scores

MINI = Path(__file__).resolve().parent / "data" / "wmt24-mini"


def test_the_domains_view_keeps_its_reference_ratings_only() -> None:
    study = load_study(MINI, pair="en-ja").study
    assert [row[1] for row in study.metadata["reference_ratings"]] == ["4"]
    news = restrict_to_domain(study, "news")
    assert news.metadata["reference_ratings"] == []
    assert reference_human_scores(news) == {}
    assert "ref-A" not in {s.system for s in esa_system_scores(news)}
    social = restrict_to_domain(study, "social")
    assert social.metadata["reference_ratings"] == study.metadata["reference_ratings"]
    assert reference_human_scores(social) == {"ref-A": {"esa": (100.0, 1)}}


def test_reference_spans_follow_their_segments() -> None:
    # with reference B, ref-B's ratings (segments 1 news, 4 social) and its span (segment 4) are set aside
    study = load_study(MINI, pair="en-ja", reference="B").study
    assert [row[1] for row in study.metadata["reference_spans"]] == ["4"]
    news = restrict_to_domain(study, "news")
    assert news.metadata["reference_spans"] == []
    assert [row[1] for row in news.metadata["reference_ratings"]] == ["1"]
    social = restrict_to_domain(study, "social")
    assert social.metadata["reference_spans"] == study.metadata["reference_spans"]
