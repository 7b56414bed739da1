"""Documents and domains in the app (AppTest): the sidebar's domain choice restricts every analysis page and
keys its caches; the Corpus and BLEU vs human pages set the domains side by side and compare BLEU with the
raters at the sentence, document and corpus level; the Export zip carries the per-domain figures; a study
without domains shows nothing new.

The study is the bundled TED en-de demo (Apache-2.0) with invented domains per talk; oracles: sacrebleu 2.6
``corpus_bleu`` on the domain's segments, scipy's ``pearsonr``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from app_runs import start_app
from scipy import stats
from streamlit.testing.v1 import AppTest

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.statistics import compute_system_statistics
from bleu_core.study import Study, load_study
from bleu_core.study.demo import load_demo
from ui.analysis.domains import document_frame
from ui.app import state as K
from ui.app.context import Scores
from ui.app.markup import md_escape

ROOT = Path(__file__).resolve().parents[2]
# Invented domains for the TED demo's five talks (the demo has none).
TED_DOMAINS = {"talk.1": "science", "talk.3": "science", "talk.4": "arts", "talk.5": "arts"}
ANALYSIS_PAGES = (
    "corpus",
    "bleu_vs_human",
    "explore",
    "error_spans",
    "significance",
    "judges",
    "correlation",
    "metrics",
    "metric_ranking",
    "export",
)


def domain_study(systems: int = 5) -> Study:
    ted = load_demo("ted-en-de")
    ted = ted.subset(list(ted.systems)[:systems])
    return replace(
        ted,
        name=f"ted-domains-{systems}",  # the study key: one per content
        segments=tuple(
            replace(s, domain=TED_DOMAINS.get(s.doc_id or "", "society")) for s in ted.segments
        ),
    )


def start(study: Study, page: str | None = None, domain: str = "") -> AppTest:
    """The whole app on ``page`` with the sidebar's domain set to ``domain`` (tests/app/app_runs.py)."""
    return start_app(page, study, timeout=180, **{K.OPT_DOMAIN: domain})


def frames(at: AppTest) -> list:
    return [d.value for d in at.dataframe]


def test_the_sidebar_offers_the_domains_of_a_study_with_domains_only():
    at = start(domain_study())
    [box] = [s for s in at.sidebar.selectbox if s.label == "Domain"]
    assert box.options == ["all domains", "science", "arts", "society"]
    plain = start(load_demo("ted-en-de").subset(["Nemo", "UEdin"]))
    assert not [s for s in plain.sidebar.selectbox if s.label == "Domain"]


def test_corpus_bleu_follows_the_domain_and_matches_sacrebleu():
    study = domain_study()
    at = start(study, "corpus", domain="arts")
    rows = [i for i, s in enumerate(study.segments) if s.domain == "arts"]
    reference = study.references[next(iter(study.references))]
    table = frames(at)[0]
    for system in study.systems:
        # Oracle: sacrebleu 2.6 corpus_bleu of the system's segments of the domain, reference A, 13a.
        oracle = sacrebleu.corpus_bleu(
            [study.systems[system][p] for p in rows], [[reference[p] for p in rows]]
        )
        shown = float(table.loc[table["system"] == system, "BLEU"].iloc[0])
        assert shown == pytest.approx(oracle.score, abs=1e-9)
    # One domain on screen: nothing to set side by side.
    assert all("BLEU · " not in c for d in frames(at) for c in d.columns)


def test_corpus_sets_the_domains_side_by_side():
    study = domain_study()
    at = start(study, "corpus")
    [per_domain] = [d for d in frames(at) if "BLEU · arts" in d.columns]
    assert {"BLEU · science", "BLEU · society", "mqm · arts", "mqm · society"} <= set(
        per_domain.columns
    )
    whole = frames(at)[0]
    for system in study.systems:
        assert float(per_domain.loc[per_domain["system"] == system, "BLEU"].iloc[0]) == (
            pytest.approx(float(whole.loc[whole["system"] == system, "BLEU"].iloc[0]))
        )


def test_bleu_vs_human_per_domain_and_by_granularity():
    study = domain_study()
    at = start(study, "bleu_vs_human")
    [fits] = [d for d in frames(at) if "domain" in d.columns]
    assert fits["domain"].tolist() == ["all domains", "science", "arts", "society"]
    [levels] = [d for d in frames(at) if "granularity" in d.columns]
    assert levels["granularity"].tolist() == ["sentence", "document", "corpus"]
    assert levels["units"].tolist()[1] == 5 * 5  # five systems x five talks, every talk rated
    # Oracle for the corpus row: scipy's pearsonr of corpus BLEU (sacrebleu) and the system MQM means.
    reference = study.references[next(iter(study.references))]
    bleu = [sacrebleu.corpus_bleu(t, [reference]).score for t in study.systems.values()]
    mqm = [study.system_scores("mqm")[s] for s in study.systems]
    assert levels["Pearson r"].tolist()[2] == pytest.approx(stats.pearsonr(bleu, mqm).statistic)
    radio = at.radio(key=K.BVH_GRANULARITY)
    assert radio.value == "document"  # the segment level has its own section below
    assert any(c.value.startswith("BLEU: a document's BLEU") for c in at.caption)
    radio.set_value("corpus").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(c.value.startswith("BLEU: a system's corpus BLEU") for c in at.caption)


def test_bleu_vs_human_on_one_domain_has_no_per_domain_section():
    at = start(domain_study(), "bleu_vs_human", domain="science")
    assert not [d for d in frames(at) if "domain" in d.columns]
    assert [d for d in frames(at) if "granularity" in d.columns]


@pytest.mark.parametrize("page", ANALYSIS_PAGES)
def test_every_analysis_page_draws_on_a_domain(page):
    study = domain_study(3)
    at = start(study, page, domain="society")
    keys = at.session_state[K.DOMAIN_RECORD]
    assert keys.shown == "society"
    if page == "explore":  # the browser lists only the domain's segments
        table = frames(at)[0]
        ids = {s.id for s in study.segments if s.domain == "society"}
        assert set(table["segment"]) <= ids


@pytest.mark.parametrize("page", ["bleu_vs_human", "metrics"])
def test_the_analysis_signature_names_the_domain(page):
    """The one-line analysis signature says which domain the numbers are cut to (``domain:`` after the BLEU
    signature, as ``bleu-study ... --domain`` writes it) and says nothing of domains on all of them."""
    study = domain_study(3)
    signatures = {}
    for domain in ("science", ""):
        at = start(study, page, domain=domain)
        assert not at.exception, [e.value for e in at.exception]
        [line] = [c.value for c in at.caption if c.value.startswith("Analysis signature: ")]
        signatures[domain] = line
    assert "|domain:science|" in signatures["science"]
    assert "domain:" not in signatures[""]


def test_switching_the_domain_rekeys_the_scores():
    study = domain_study(3)
    at = start(study, "corpus")
    everything = frames(at)[0]["BLEU"].tolist()
    at.session_state[K.OPT_DOMAIN] = "science"
    at.run()
    science = frames(at)[0]["BLEU"].tolist()
    at.session_state[K.OPT_DOMAIN] = ""
    at.run()
    assert frames(at)[0]["BLEU"].tolist() == everything != science


def test_a_domain_of_another_study_falls_back_to_all_domains():
    at = start(domain_study(2), domain="sports")
    assert at.session_state[K.OPT_DOMAIN] == ""
    [box] = [s for s in at.sidebar.selectbox if s.label == "Domain"]
    assert box.value == ""
    at.switch_page("pages/corpus.py")
    at.run()
    assert [d for d in frames(at) if "BLEU · arts" in d.columns]


def test_the_export_carries_the_per_domain_figures():
    at = start(domain_study(3), "export")
    tables = " ".join(m.value for m in at.markdown if m.value.startswith("**Tables**"))
    assert "`corpus-bleu-per-domain`" in tables and "`bleu-vs-human-per-domain`" in tables
    assert "`bleu-per-document`" in tables


MINI = ROOT / "tests" / "study" / "data" / "wmt24-mini"


def test_human_translations_in_the_per_domain_table_follow_the_toggle():
    # wmt24-mini (invented text, WMT24 layout): reference B is rated like a system, a human translation.
    study = load_study(MINI, pair="en-ja").study
    at = start(study, "corpus")  # out by default, as meta (issue 39)
    [per_domain] = [d for d in frames(at) if "BLEU · news" in d.columns]
    assert set(per_domain["system"]) == {"sysA", "sysB"}
    at.session_state[K.INCLUDE_HUMANS] = True
    at.run()
    [per_domain] = [d for d in frames(at) if "BLEU · news" in d.columns]
    assert "HUMAN-B (ref-B)" in set(per_domain["system"])
    assert {"esa · news", "esa · social", "esa · literary"} <= set(per_domain.columns)
    at.session_state[K.INCLUDE_HUMANS] = False
    at.run()
    [per_domain] = [d for d in frames(at) if "BLEU · news" in d.columns]
    assert set(per_domain["system"]) == {"sysA", "sysB"}


def test_a_criterion_name_is_shown_as_text_in_the_per_domain_caption():
    study = domain_study(3)
    name = "*mqm* <b>x</b>"
    study = replace(
        study,
        name="ted-domains-markup",
        criteria={name: replace(study.criteria["mqm"], name=name)},
        ratings=tuple(replace(r, criterion=name) for r in study.ratings if r.criterion == "mqm"),
    )
    at = start(study, "bleu_vs_human")
    [caption] = [
        c.value for c in at.caption if c.value.startswith("Each system's BLEU on the domain")
    ]
    assert md_escape(name) in caption and name not in caption


def test_the_per_document_table_is_document_bleu_and_the_documents_human_mean():
    study = domain_study(3)
    counted = compute_system_statistics(study.systems, study.reference_streams(), max_order=4)
    stats = np.stack([counted[name].array for name in study.systems])
    options = BleuOptions()
    scores = Scores(
        study, "test", options, "sig", tuple(study.references), tuple(study.systems), stats,
        bleu_from_stats(stats.sum(axis=1), options),
    )  # fmt: skip
    frame = document_frame(scores)
    assert len(frame) == 5 * 3 and set(frame["domain"]) == {"science", "arts", "society"}
    row = frame[(frame["document"] == "talk.4") & (frame["system"] == "Nemo")].iloc[0]
    rows = [p for p, s in enumerate(study.segments) if s.doc_id == "talk.4"]
    reference = study.references[next(iter(study.references))]
    # Oracle: sacrebleu 2.6 corpus_bleu of the talk's segments (13a, reference A).
    oracle = sacrebleu.corpus_bleu(
        [study.systems["Nemo"][p] for p in rows], [[reference[p] for p in rows]]
    )
    assert row["BLEU"] == pytest.approx(oracle.score, abs=1e-9)
    assert row["segments"] == len(rows) and row["domain"] == "arts"
    nemo = list(study.systems).index("Nemo")
    assert row["mqm"] == pytest.approx(np.nanmean(study.segment_scores("mqm")[nemo, rows]))


def test_the_corpus_page_shows_the_references_own_human_score():
    """wmt24-mini rates its reference ref-A like a system: the Corpus page shows that score beside the
    table (the reference has no BLEU of its own), with the mean of its ratings."""
    from bleu_core.study.reference_choice import reference_human_scores

    study = load_study(MINI, pair="en-ja", reference="A").study
    scores = reference_human_scores(study)
    assert set(scores) == {"ref-A"}
    at = start(study, "corpus")
    assert not at.exception, at.exception
    shown = " ".join(m.value for m in at.markdown)
    mean, n = scores["ref-A"]["esa"]
    assert f"esa **{mean:.3f}** ({n} rating" in shown
