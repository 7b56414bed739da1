"""Domains side by side and BLEU vs human at three granularities (Corpus, BLEU vs human and Export pages).

WMT24+ studies group their documents into domains (news, social, speech, literary). With "all domains" in
the sidebar, the Corpus page adds a table of each system's BLEU and human scores per domain, and the BLEU vs
human page the correlation of the two per domain; a study without domains (or a page restricted to one
domain) shows nothing new. The BLEU vs human page also compares BLEU with the raters at the lecture notes'
three granularities: sentence (sentence BLEU vs the segment's rating), document (the document's BLEU, its
statistics summed, vs the mean of its rated segments) and corpus (corpus BLEU vs the system score).

The frames are pure functions of :class:`ui.app.context.Scores` (tested without a page); the numbers come
from :mod:`bleu_core.evaluation.domains`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from bleu_core.engine.segment_level import SEGMENT_RULE
from bleu_core.evaluation.domains import bleu_human_pairs, compare_by_domain
from bleu_core.study.criterion_order import criteria_order
from bleu_core.study.granularity import LEVELS, domain_names, group_bleu, group_means, grouping
from bleu_core.study.system_names import system_label
from ui.analysis.charts import regression_scatter, segment_density
from ui.analysis.frames import binned_counts, fit_line, system_points
from ui.analysis.relate import linear_fit
from ui.app import state as K
from ui.app.context import Scores, show_chart, table_downloads
from ui.app.frames import system_human_scores
from ui.app.markup import md_escape
from ui.app.numbers import format_number, format_p, tidy_frame

LEVEL_HELP = {
    "sentence": f"{SEGMENT_RULE} against the segment's mean rating",
    "document": "a document's BLEU (its segments' statistics summed, scored once) against the mean of "
    "its rated segments",
    "corpus": "a system's corpus BLEU against its system score",
}


def has_domains(scores: Scores) -> bool:
    """Whether the study on screen has at least two domains (nothing to set side by side otherwise)."""
    return len(domain_names(scores.study)) > 1


def domain_frame(scores: Scores, systems: Sequence[str]) -> pd.DataFrame:
    """One row per system: corpus BLEU overall and per domain (``BLEU · news``…), then each criterion's
    system score overall and per domain (``esa · news``: mean over the system's rated segments there).
    Rows sorted by overall BLEU, best first; a human translation is shown as ``HUMAN-B (ref-B)``."""
    study, rows = scores.study, [scores.system_index(s) for s in systems]
    bleu = compare_by_domain(study, scores.stats, scores.options, None, systems=systems)
    data: dict[str, object] = {
        "system": [system_label(s, study.human_systems) for s in systems],
        "human": [s in study.human_systems for s in systems],
        "BLEU": [float(scores.corpus.score[r]) for r in rows],
    }
    for k, domain in enumerate(bleu.domains):
        data[f"BLEU · {domain}"] = bleu.bleu[:, k]
    for criterion in criteria_order(study.criteria):
        overall = system_human_scores(study, criterion)
        data[criterion] = [overall.get(s, math.nan) for s in systems]
        by_domain = compare_by_domain(
            study, scores.stats, scores.options, criterion, systems=systems
        )
        for k, domain in enumerate(by_domain.domains):
            data[f"{criterion} · {domain}"] = by_domain.human[:, k]
    frame = pd.DataFrame(data)
    return frame.sort_values("BLEU", ascending=False, kind="stable").reset_index(drop=True)


def domain_fits(scores: Scores, criterion: str, systems: Sequence[str]) -> pd.DataFrame:
    """One row per domain (and ``all domains``): BLEU vs ``criterion`` over ``systems``, Pearson r and
    Kendall tau-b with their p-values, and the number of systems with both scores."""
    study = scores.study
    pearson = compare_by_domain(study, scores.stats, scores.options, criterion, systems=systems)
    kendall = compare_by_domain(
        study, scores.stats, scores.options, criterion, systems=systems, method="kendall"
    )
    overall = bleu_human_pairs(
        study, scores.stats, scores.options, criterion, level="corpus", systems=systems
    )
    rows = [("all domains", overall.correlation("pearson"), overall.correlation("kendall"))]
    rows += [(d, pearson.correlations[d], kendall.correlations[d]) for d in pearson.domains]
    return pd.DataFrame(
        [
            {
                "domain": name,
                "Pearson r": r.statistic,
                "p (Pearson)": r.pvalue,
                "Kendall tau": tau.statistic,
                "p (Kendall)": tau.pvalue,
                "systems": r.n,
            }
            for name, r, tau in rows
        ]
    )


def granularity_frame(scores: Scores, criterion: str, systems: Sequence[str]) -> pd.DataFrame:
    """One row per granularity the study allows (document needs document ids): Pearson r and Kendall
    tau-b of BLEU vs ``criterion``, and the number of rated units."""
    rows = []
    for level in available_levels(scores):
        pairs = bleu_human_pairs(
            scores.study, scores.stats, scores.options, criterion, level=level, systems=systems
        )
        r, tau = pairs.correlation("pearson"), pairs.correlation("kendall")
        rows.append(
            {
                "granularity": level,
                "Pearson r": r.statistic,
                "p (Pearson)": r.pvalue,
                "Kendall tau": tau.statistic,
                "p (Kendall)": tau.pvalue,
                "units": r.n,
            }
        )
    return pd.DataFrame(rows)


def available_levels(scores: Scores) -> list[str]:
    """The granularities of the study: document only when its segments name documents."""
    has_docs = any(s.doc_id is not None for s in scores.study.segments)
    return [level for level in LEVELS if level != "document" or has_docs]


def domain_chart(scores: Scores, criterion: str, systems: Sequence[str]) -> alt.Chart:
    """Small multiples: per domain, each system's BLEU on the domain against its human score there."""
    result = compare_by_domain(
        scores.study, scores.stats, scores.options, criterion, systems=systems
    )
    frame = pd.DataFrame(
        [
            {"domain": d, "system": s, "BLEU": result.bleu[i, k], "human score": result.human[i, k]}
            for k, d in enumerate(result.domains)
            for i, s in enumerate(result.systems)
        ]
    ).dropna()
    return (
        alt.Chart(frame, width=260, height=200)
        .mark_circle(size=60)
        .encode(
            x=alt.X("BLEU:Q", title="BLEU on the domain", scale=alt.Scale(zero=False)),
            y=alt.Y("human score:Q", title=criterion, scale=alt.Scale(zero=False)),
            tooltip=["system", "domain", alt.Tooltip("BLEU:Q", format=".2f"), "human score:Q"],
        )
        .facet(facet=alt.Facet("domain:N", sort=list(result.domains), title=None), columns=2)
        .resolve_scale(x="independent", y="independent")
        .properties(title=f"BLEU vs {criterion} per domain")
    )


def render_corpus_domains(scores: Scores, include_humans: bool = True) -> None:
    """The Corpus page's per-domain table (a study with domains, all domains on screen); human
    translations are left out unless ``include_humans``."""
    if not has_domains(scores):
        return
    human_systems = scores.study.human_systems
    systems = [s for s in scores.systems if include_humans or s not in human_systems]
    st.subheader("Per domain")
    st.caption(
        "BLEU of each domain: its segments' statistics summed, scored once. Human columns: the mean "
        "over the system's rated segments of the domain."
    )
    frame = domain_frame(scores, systems)
    config = {  # as the Corpus table: BLEU with 2 decimals, human scores with 3
        name: st.column_config.NumberColumn(
            name, format="%.2f" if name.startswith("BLEU") else "%.3f"
        )
        for name in frame.columns
        if name not in ("system", "human")
    }
    st.dataframe(tidy_frame(frame), hide_index=True, column_config=config, width="stretch")
    table_downloads(
        frame, "corpus bleu per domain", caption=f"Corpus BLEU per domain ({scores.signature})"
    )


def render_granularity(scores: Scores, criterion: str, systems: Sequence[str]) -> None:
    """BLEU vs ``criterion`` at the sentence, document and corpus level: a table of all three and the
    chart of the granularity chosen."""
    st.subheader("Sentence, document, corpus")
    levels = available_levels(scores)
    if st.session_state.get(K.BVH_GRANULARITY) not in levels:
        st.session_state[K.BVH_GRANULARITY] = levels[0]
    level = st.radio(
        "Granularity",
        levels,
        key=K.BVH_GRANULARITY,
        horizontal=True,
        help="\n\n".join(f"**{n}**: {LEVEL_HELP[n]}" for n in levels),
    )
    table = granularity_frame(scores, criterion, systems)
    st.dataframe(tidy_frame(table), hide_index=True, width="stretch")
    pairs = bleu_human_pairs(
        scores.study, scores.stats, scores.options, criterion, level=level, systems=systems
    )
    fit = linear_fit(pairs.metric, pairs.human)
    r = pairs.correlation("pearson")
    subtitle = f"r = {format_number(r.statistic)} (p = {format_p(r.pvalue)}), n = {r.n}"
    st.caption(f"BLEU: {LEVEL_HELP[level]} · {subtitle}")
    if level == "corpus":
        human = system_human_scores(scores.study, criterion)
        frame = system_points(
            systems, _corpus_bleu(scores, systems), human, scores.study.human_systems
        )
        chart = regression_scatter(
            frame, x="BLEU", y="human score", title=f"Corpus BLEU vs {criterion}", subtitle=subtitle
        )
    else:
        cells = binned_counts(pairs.metric, pairs.human, bins=25, x_range=(0.0, 100.0))
        chart = segment_density(
            cells,
            fit_line(fit.slope, fit.intercept, 0.0, 100.0),
            title=f"{level.capitalize()} BLEU vs {criterion}",
            subtitle=subtitle,
            x_title=f"{level} BLEU",
            y_title=criterion,
        )
    table_downloads(table, f"bleu vs {criterion} by granularity", caption=f"BLEU vs {criterion}")
    show_chart(chart, f"{level} bleu vs {criterion}", subtitle=False)


def _corpus_bleu(scores: Scores, systems: Sequence[str]) -> dict[str, float]:
    return {s: float(scores.corpus.score[scores.system_index(s)]) for s in systems}


def render_bvh_domains(scores: Scores, criterion: str, systems: Sequence[str]) -> None:
    """The BLEU vs human page's sections of this module: the granularities, and (a study with domains,
    all domains on screen) BLEU vs ``criterion`` per domain."""
    render_granularity(scores, criterion, systems)
    if not has_domains(scores):
        return
    st.subheader("Per domain")
    st.caption(
        f"Each system's BLEU on the domain (its segments' statistics summed, scored once) against its "
        f"{md_escape(criterion)} there (mean over its rated segments of the domain), system level."
    )
    fits = domain_fits(scores, criterion, systems)
    st.dataframe(tidy_frame(fits), hide_index=True, width="stretch")
    table_downloads(
        fits, f"bleu vs {criterion} per domain", caption=f"BLEU vs {criterion} per domain"
    )
    show_chart(domain_chart(scores, criterion, systems), f"bleu vs {criterion} per domain")


def document_frame(scores: Scores) -> pd.DataFrame:
    """One row per (document, system): the document's domain, its segments, its BLEU (statistics summed
    over its segments, scored once) and each criterion's mean over its rated segments (long form)."""
    study = scores.study
    docs = grouping(study.segments, "document")
    bleu = group_bleu(scores.stats, docs, scores.options).bleu.score
    sizes = np.bincount(docs.codes[docs.codes >= 0], minlength=docs.n_groups)
    domain = {s.doc_id: s.domain for s in study.segments}
    human = {c: group_means(study.segment_scores(c), docs) for c in criteria_order(study.criteria)}
    rows = []
    for k, doc in enumerate(docs.names):
        for i, system in enumerate(scores.systems):
            row = {"document": doc, "domain": domain.get(doc), "segments": int(sizes[k])}
            row |= {"system": system_label(system, study.human_systems), "BLEU": bleu[i, k]}
            rows.append(row | {c: values[i, k] for c, values in human.items()})
    return pd.DataFrame(rows)


def domain_tables(scores: Scores) -> dict[str, tuple[pd.DataFrame, str]]:
    """The Export zip's tables of documents and domains: every system's BLEU and human scores per
    document (a study with document ids), and (a study with domains, all domains on screen) per domain
    with BLEU vs each criterion per domain."""
    tables = {}
    if any(s.doc_id is not None for s in scores.study.segments):
        tables["bleu-per-document"] = (
            document_frame(scores),
            f"BLEU and human scores per document ({scores.signature})",
        )
    if not has_domains(scores):
        return tables
    systems = list(scores.systems)
    tables |= {
        "corpus-bleu-per-domain": (
            domain_frame(scores, systems),
            f"Corpus BLEU and human scores per domain ({scores.signature})",
        )
    }
    fits = [
        domain_fits(scores, criterion, systems).assign(criterion=criterion)
        for criterion in criteria_order(scores.study.criteria)
    ]
    if fits:
        tables["bleu-vs-human-per-domain"] = (
            pd.concat(fits, ignore_index=True),
            "BLEU vs human scores per domain, system level (all systems)",
        )
    return tables
