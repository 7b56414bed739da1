"""Significance clusters and ranks of the systems, BLEU beside the human scores (Significance and BLEU vs
human pages, the Export zip).

* :func:`render_clusters` (Significance): the clusters of the page's metric (from its paired bootstrap of
  every pair) beside every criterion's human clusters as WMT25 computes them and the release's own
  clusters when it ships them (:func:`bleu_core.evaluation.cluster_report.study_clusters`);
* :func:`render_ranks` (BLEU vs human): each system's BLEU rank against its human rank, a chart and a
  table (:func:`bleu_core.evaluation.cluster_report.rank_rows`), with a BLEU rank per single reference when
  the study's BLEU uses several;
* :func:`reference_scatter` (BLEU vs human): the system scatter with the reference drawn as the human
  translation it is: a rated reference has no BLEU of its own (it would be scored against itself), so its
  human score is a labelled rule across the chart with a star at its end; human translations that are
  systems are diamonds, always labelled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from bleu_core.evaluation.cluster_report import rank_rows, study_clusters
from bleu_core.evaluation.system_clusters import SystemClusters, bleu_clusters
from bleu_core.study import Study
from bleu_core.study.reference_choice import reference_human_scores
from bleu_core.study.system_names import system_label
from ui.analysis.charts import regression_scatter
from ui.app.context import Scores, show_chart, table_downloads
from ui.app.markup import md_escape
from ui.app.numbers import tidy_frame

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions

CLUSTER_HELP = (
    "Systems sorted best first. A system's **ranks** run from the highest position no system above "
    "significantly beats it to the lowest position it does not significantly beat; a **cluster** ends "
    "where every system above is significantly better than every system below (WMT25's procedure, "
    "`humeval/08-compute_clusters.py` of wmt-conference/wmt25-general-mt). Human clusters: one-sided "
    "Wilcoxon signed-rank test on the items both systems rated, p < alpha/2."
)

#: The reference's mark on the BLEU vs human chart: a star (an SVG path), distinct from circle and diamond.
STAR = "M0,-1L0.3,-0.3L1,-0.3L0.4,0.1L0.6,0.8L0,0.4L-0.6,0.8L-0.4,0.1L-1,-0.3L-0.3,-0.3Z"


def clusters_frame(results: Sequence[SystemClusters], study: Study) -> pd.DataFrame:
    """Long form: one row per ranking × system (ranking, cluster, ranks, system, score, items, p next)."""
    rows = [
        {
            "ranking": result.name,
            "cluster": r.cluster,
            "ranks": f"{r.rank_start}-{r.rank_end}",
            "system": system_label(r.system, study.human_systems),
            "score": r.score,
            "rated items": r.n_items,
            "p vs next": r.pvalue_below,
        }
        for result in results
        for r in result.rows
    ]
    return pd.DataFrame(rows)


def side_by_side(results: Sequence[SystemClusters], study: Study) -> pd.DataFrame:
    """One row per system: each ranking's cluster (``cluster · NAME``), systems in the first ranking's
    order; ``—`` where a ranking leaves the system out."""
    order: dict[str, None] = {}
    for result in results:
        order.update({r.system: None for r in result.rows})
    data: dict[str, list[Any]] = {"system": [system_label(s, study.human_systems) for s in order]}
    for result in results:
        of = result.cluster_of()
        data[f"cluster · {result.name}"] = [of.get(s) for s in order]
    return pd.DataFrame(data)


@st.cache_data(max_entries=32, show_spinner=False)
def human_clusters_of(
    study_key: str, _study: Study, names: tuple[str, ...], alpha: float
) -> list[SystemClusters]:
    """Every criterion's clusters and the release's (``study_clusters`` of
    :mod:`bleu_core.evaluation.cluster_report`, without BLEU's), computed once per study, systems and alpha."""
    return study_clusters(_study, names, None, alpha)


def render_clusters(scores: Scores, names: Sequence[str], paired: Any, metric: str) -> None:
    """The Significance page's clusters: ``paired`` (the page's paired bootstrap of every pair of
    ``names``) clustered, beside each criterion's human clusters and the release's own."""
    study = scores.study
    human = human_clusters_of(scores.key, study, tuple(names), paired.alpha)
    results = [bleu_clusters(paired, name=metric), *human]
    st.subheader("Significance clusters: the metric beside the human scores")
    st.caption(CLUSTER_HELP)
    wide = side_by_side(results, study)
    st.dataframe(tidy_frame(wide), hide_index=True, width="stretch")
    long = clusters_frame(results, study)
    with st.expander("Each ranking with its scores, rank ranges and tests"):
        for result in results:
            st.caption(f"**{md_escape(result.name)}**: {md_escape(result.method)}")
            for note in result.notes:
                st.caption(md_escape(note))
        st.dataframe(tidy_frame(long), hide_index=True, width="stretch")
    table_downloads(
        long, "significance clusters", caption=f"Significance clusters ({metric} and human)"
    )


def ranks_frame(
    scores: Scores,
    systems: Sequence[str],
    bleu: Mapping[str, float],
    criterion: str,
    by_reference: Mapping[str, Mapping[str, float]] | None = None,
) -> pd.DataFrame:
    """:func:`bleu_core.evaluation.cluster_report.rank_rows` of ``systems`` with a ``human`` flag column."""
    study = scores.study
    human = study.system_scores(criterion)
    rows = rank_rows(
        systems,
        bleu,
        human,
        human_higher_is_better=study.criteria[criterion].higher_is_better,
        by_reference=by_reference,
    )
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    frame.insert(1, "human translation", [s in study.human_systems for s in frame["system"]])
    frame["system"] = [system_label(s, study.human_systems) for s in frame["system"]]
    return frame.rename(columns={"human": criterion})


def ranks_chart(frame: pd.DataFrame, criterion: str, metric: str = "BLEU") -> alt.LayerChart:
    """BLEU rank (x) against human rank (y), 1 = best at the top right; the diagonal = same rank; every
    point labelled; human translations are diamonds."""
    top = int(max(frame["BLEU rank"].max(), frame["human rank"].max()))
    axis = alt.Scale(domain=[top + 0.5, 0.5])
    enc_x = alt.X("BLEU rank:Q", title=f"{metric} rank (1 = best)", scale=axis)
    enc_y = alt.Y("human rank:Q", title=f"{criterion} rank (1 = best)", scale=axis)
    diagonal = (
        alt.Chart(pd.DataFrame({"a": [1, top], "b": [1, top]}))
        .mark_line(color="#888", strokeDash=[5, 3])
        .encode(x=alt.X("a:Q", scale=axis), y=alt.Y("b:Q", scale=axis))
    )
    base = alt.Chart(frame).encode(x=enc_x, y=enc_y)
    shape = alt.Shape(
        "human translation:N",
        scale=alt.Scale(domain=[False, True], range=["circle", "diamond"]),
        legend=alt.Legend(
            title="translation", labelExpr="datum.label == 'true' ? 'human' : 'machine'"
        ),
    )
    points = base.mark_point(size=80, filled=True).encode(
        shape=shape, tooltip=["system", "BLEU rank", "human rank", "rank difference"]
    )
    labels = base.mark_text(align="left", dx=7, dy=-6, fontSize=11).encode(text="system:N")
    size = max(260, 22 * top)
    return alt.layer(diagonal, points, labels).properties(
        width=size,
        height=size,
        title=alt.TitleParams(
            f"{metric} rank against {criterion} rank",
            subtitle="on the diagonal: the same rank; below it: BLEU ranks the system higher",
        ),
    )


@st.cache_data(max_entries=16, show_spinner=False)
def single_reference_bleu(
    study_key: str, _study: Study, systems: tuple[str, ...], _options: BleuOptions, options_key: str
) -> dict[str, dict[str, float]]:
    """``{reference: {system: corpus BLEU against that reference alone}}`` (a study with 2+ references)."""
    from bleu_core.evaluation.systems import bleu_scores
    from bleu_core.study.output_rows import study_statistics

    out = {}
    for ref in _study.references:
        totals = study_statistics(_study, list(systems), (ref,), _options).sum(axis=1)
        out[ref] = dict(zip(systems, bleu_scores(totals, _options).tolist(), strict=True))
    return out


def render_ranks(
    scores: Scores, systems: Sequence[str], bleu: Mapping[str, float], criterion: str, metric: str
) -> None:
    """The BLEU vs human page's rank-against-rank view: chart and table (and a rank per single reference
    when BLEU uses several)."""
    study = scores.study
    by_ref = None
    if metric == "BLEU" and len(scores.references) > 1:
        by_ref = single_reference_bleu(
            scores.key, study, tuple(systems), scores.options, scores.signature
        )
    frame = ranks_frame(scores, systems, bleu, criterion, by_ref)
    st.subheader("Rank against rank")
    if len(frame) < 2:
        st.info(f"Fewer than two systems have both {metric} and {criterion}: no ranks to compare.")
        return
    moved = int((frame["rank difference"] != 0).sum())
    st.caption(
        f"{moved} of {len(frame)} systems change rank between {md_escape(metric)} and "
        f"{md_escape(criterion)} (rank difference = {md_escape(criterion)} rank − {md_escape(metric)} "
        "rank; ties share the better rank)."
        + (" `BLEU rank · REF`: the rank with that reference alone." if by_ref else "")
    )
    show_chart(ranks_chart(frame, criterion, metric), f"{metric} rank vs {criterion} rank")
    with st.expander("Ranks as a table"):
        st.dataframe(tidy_frame(frame), hide_index=True, width="stretch")
        table_downloads(
            frame,
            f"{metric} rank vs {criterion} rank",
            caption=f"{metric} rank vs {criterion} rank",
        )


def reference_scatter(
    study: Study, criterion: str | None, frame: pd.DataFrame, **kwargs: Any
) -> alt.LayerChart:
    """:func:`ui.analysis.charts.regression_scatter` with the human translations always labelled and, for
    ``criterion`` (``None``: a rater group's series, no reference line), each rated reference drawn as a
    rule at its human score with a star and its name: the level a human translation reaches."""
    chart = regression_scatter(frame, **kwargs)
    x, y = kwargs["x"], kwargs["y"]
    layers: list[Any] = [chart]
    humans = frame[frame["human"]]
    if len(humans) and not kwargs.get("all_labels"):
        layers.append(
            alt.Chart(humans)
            .mark_text(align="left", dx=8, dy=8, fontSize=11, fontWeight="bold")
            .encode(x=f"{x}:Q", y=f"{y}:Q", text="system:N")
        )
    refs = reference_human_scores(study) if criterion else {}
    rows = [
        {"reference": f"{ref} (the reference: no BLEU of its own)", y: by[criterion][0]}
        for ref, by in refs.items()
        if criterion in by
    ]
    if rows and len(frame):  # on the same y field as the systems: one axis, one title
        ref_frame = pd.DataFrame(rows).assign(**{x: float(frame[x].max())})
        rule = alt.Chart(ref_frame).mark_rule(strokeDash=[2, 2], color="#555")
        star = alt.Chart(ref_frame).mark_point(shape=STAR, size=160, filled=True, color="#555")
        text = alt.Chart(ref_frame).mark_text(align="right", dy=-9, fontSize=11)
        layers += [
            rule.encode(y=f"{y}:Q"),
            star.encode(x=f"{x}:Q", y=f"{y}:Q", tooltip=["reference", f"{y}:Q"]),
            text.encode(x=f"{x}:Q", y=f"{y}:Q", text="reference:N"),
        ]
    if len(layers) == 1:
        return chart
    # The title goes on the outermost chart: there show_chart(subtitle=False) finds it and leaves the
    # subtitle, whose numbers change with the settings, off the screen (the spec then stays the same).
    title, chart.title = chart.title, alt.Undefined
    return alt.layer(*layers, title=title)
