"""The Metric ranking page's context for every number: chance line, human ceiling, explainers, a release.

* :func:`show_chance_lines`: under each ranking, the random and the constant metric's values and the human
  ceiling beside each metric's (:mod:`bleu_core.evaluation.chance`, :mod:`bleu_core.evaluation.ceiling`, carried
  in ``ranking.extra``), drawn on a chart, and a warning where a tie threshold is degenerate;
* :func:`show_explainers`: what each statistic means on the study's own data — a pair of systems BLEU
  orders against the humans, acc\\*_eq as the tie threshold ε moves (a slider), why soft pairwise accuracy
  is soft, what a cluster means;
* :func:`show_release_view`: several language pairs at once, WMT24's way
  (:mod:`bleu_core.evaluation.multi_pair`), on every pair of the release the open study was read from, or
  on the two TED demos.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from bleu_core.evaluation.ceiling_flags import FLAG_RULE, ceiling_flags, ceiling_line, chance_of
from bleu_core.evaluation.chance import ranking_data
from bleu_core.evaluation.clusters import MetricRanking
from bleu_core.evaluation.multi_pair import MultiPairResult, multi_pair_meta, task_from_study
from bleu_core.evaluation.multi_pair_tables import format_latex
from bleu_core.evaluation.statistic_names import TIE_VARIANTS, statistic_name
from bleu_core.evaluation.ties import at_tie_threshold, tie_calibrated
from ui.analysis.ranking import chance_numbers, highlight_bleu, ranking_frame
from ui.analysis.release_ceiling import show_release_ceilings
from ui.app import chart_layout as layout
from ui.app import state as K
from ui.app.markup import md_escape

if TYPE_CHECKING:
    from bleu_core.study.model import Study

LINE_COLOURS = {
    "random metric": "#b22222",
    "constant metric": "#7f7f7f",
    "human ceiling": "#2e8b57",
}


def chance_frame(ranking: MetricRanking) -> pd.DataFrame:
    """One row per metric: its value, the random metric's mean and range, the constant metric's value,
    whether it beats the random range, and the human ceiling."""
    ceiling = (ranking.extra.get("ceiling") or {}).get("statistic")
    rows = []
    for row in ranking.rows:
        line = chance_numbers(ranking, row.metric)  # NaN where there is none
        high = line["random high"]
        rows.append(
            {
                "metric": row.metric,
                "value": row.statistic,
                **line,
                "above chance": None if math.isnan(high) else bool(row.statistic > high + 1e-9),
                "human ceiling": math.nan if ceiling is None else float(ceiling),
            }
        )
    return pd.DataFrame(rows)


def chance_chart(ranking: MetricRanking, frame: pd.DataFrame) -> alt.LayerChart:
    """Each metric's value (point) with the random metric's range (grey bar) and the constant metric and
    the human ceiling as vertical rules."""
    order = list(frame["metric"])
    base = alt.Chart(frame).encode(
        y=alt.Y("metric:N", sort=order, title=None, axis=layout.category_axis(order))
    )
    band = base.mark_rule(strokeWidth=6, opacity=0.35, color=LINE_COLOURS["random metric"]).encode(
        x=alt.X("random low:Q", title=ranking.statistic, scale=alt.Scale(zero=False)),
        x2="random high:Q",
    )
    points = base.mark_point(filled=True, size=80, color="#1f3f8f").encode(
        x="value:Q", tooltip=["metric:N", alt.Tooltip("value:Q", format=".3f")]
    )
    means = base.mark_tick(thickness=2, size=18, color=LINE_COLOURS["random metric"]).encode(
        x="random metric:Q",
        tooltip=["metric:N", alt.Tooltip("random metric:Q", format=".3f", title="random metric")],
    )
    lines = []
    for name in ("constant metric", "human ceiling"):
        value = frame[name].dropna()
        if len(value):
            rule = pd.DataFrame({"x": [float(value.iloc[0])], "line": [name]})
            lines.append(
                alt.Chart(rule)
                .mark_rule(strokeDash=[5, 3], color=LINE_COLOURS[name])
                .encode(x="x:Q", tooltip=["line:N", alt.Tooltip("x:Q", format=".3f")])
            )
    first = next(iter(ranking.extra.get("chance", {}).values()), {})
    return alt.layer(band, means, points, *lines).properties(
        title=layout.chart_title(
            f"{ranking.criterion}: {ranking.statistic} against chance",
            "red tick: a random metric's mean, bar: its middle 95 % "
            f"({first.get('n_permutations')} permutations, seed {first.get('seed')}); "
            "dashed: constant metric (grey), human ceiling (green)",
        ),
        height=layout.rows_height(len(frame), per=26),
    )


def show_chance_lines(ranking: MetricRanking, show_chart: Any) -> None:
    """Under one ranking: the chance-line table and chart, the degenerate warning, the ceiling's note."""
    frame = chance_frame(ranking)
    if ranking.extra.get("degenerate"):
        names = ", ".join(md_escape(m) for m in ranking.extra["degenerate"])
        st.warning(
            f"**Degenerate tie threshold** for {names}: the calibrated ε makes every pair of "
            "translations a metric tie, so the value is the share of pairs the humans tie — what a "
            "metric giving every translation the same score gets. These metrics are not ranked by what "
            "they say here."
        )
    if frame["random metric"].notna().any():
        st.dataframe(highlight_bleu(frame), hide_index=True, width="stretch")
        show_chart(
            chance_chart(ranking, frame), f"chance line {ranking.criterion} {ranking.statistic}"
        )
        first = next(iter(ranking.extra["chance"].values()))
        st.caption(
            f"Random metric: each metric's own scores permuted within {md_escape(first['grouping'])} "
            f"({first['n_permutations']} permutations, seed {first['seed']}), the statistic computed as "
            "for the metric; constant metric: every translation the same score."
        )
    if ranking.extra.get("tau_like"):  # kendall-wmt: the pairs counted and why that threshold
        st.caption(f"WMT tau-like: {md_escape(ranking.extra['tau_like']['said'])}.")
    ceiling = ranking.extra.get("ceiling")
    if ceiling:  # with its interval and n, as meta prints it; a flag as a warning
        chance = chance_of(ranking.extra.get("chance"))
        st.caption(f"Human ceiling: {md_escape(ceiling_line(ceiling, chance))}.")
        flags = ceiling_flags(ceiling, chance)
        if flags:
            st.warning(
                f"Read this human ceiling with care: {md_escape('; '.join(flags))}. "
                f"({md_escape(FLAG_RULE)}.)"
            )


def show_each_ranking(rankings: Sequence[MetricRanking], show_chart: Any) -> None:
    """The Metric ranking page's "Each ranking" section: one expander per ranking with its table (BLEU's
    row highlighted), what it was computed on, its clusters' test and interval, and its chance lines."""
    st.subheader("Each ranking")
    for r in rankings:
        head = f"{r.criterion} · {r.level} level · {statistic_name(r.statistic)}"
        with st.expander(md_escape(head), expanded=len(rankings) <= 2):
            frame = ranking_frame([r]).drop(columns=["criterion", "level", "statistic"])
            st.dataframe(highlight_bleu(frame), hide_index=True, width="stretch")
            notes = [r.describe_systems(), f"clusters: {r.test}"]
            notes += [f"95% CI: {r.interval}"] if r.interval else []
            notes += [r.note] if r.note else []
            st.caption(" · ".join(md_escape(n) for n in notes))
            show_chance_lines(r, show_chart)


# ------------------------------------------------------------------------------------------ explainers
def _oriented(
    study: Study, criterion: str, systems: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    sign = 1.0 if study.criteria[criterion].higher_is_better else -1.0
    index = [list(study.systems).index(s) for s in systems]
    scores = study.system_scores(criterion)
    h_sys = sign * np.array([scores.get(s, math.nan) for s in systems], dtype=float)
    return h_sys, sign * study.segment_scores(criterion)[index]


def disagreeing_pair(
    systems: Sequence[str], metric: np.ndarray, human: np.ndarray
) -> tuple[str, str, float, float] | None:
    """The pair of systems the humans separate most among those the metric orders the other way:
    ``(better by the humans, worse, human difference, metric difference)``, or ``None``."""
    best = None
    for i in range(len(systems)):
        for j in range(len(systems)):
            dh, dm = human[i] - human[j], metric[i] - metric[j]
            if dh > 0 and dm < 0 and (best is None or dh > best[2]):
                best = (systems[i], systems[j], float(dh), float(dm))
    return best


def _explain_pair(tables: Mapping[str, Any], h_sys: np.ndarray, criterion: str) -> None:
    bleu = tables["BLEU"]
    pair = disagreeing_pair(bleu.systems, bleu.oriented_system(), h_sys)
    st.markdown(
        "**Pairwise accuracy** counts the pairs of systems a metric orders as the humans do."
    )
    if pair is None:
        st.caption("On this study BLEU orders every pair of systems as the humans do.")
        return
    good, bad, dh, dm = pair
    st.markdown(
        f"Here the humans put **{md_escape(good)}** above **{md_escape(bad)}** by {dh:.3f} "
        f"({md_escape(criterion)}), the widest such gap, yet BLEU puts it {abs(dm):.2f} points below: "
        "that pair counts against BLEU."
    )


def _explain_epsilon(tables: Mapping[str, Any], h_sys: np.ndarray, h_seg: np.ndarray) -> None:
    human, scores = ranking_data(list(tables.values()), "acc-eq", h_sys, h_seg)
    if "BLEU" not in scores:
        return
    res = tie_calibrated(scores["BLEU"], human, TIE_VARIANTS["acc-eq"], average_by="item")
    steps = np.unique(np.quantile(res.thresholds, np.linspace(0, 1, 41)))
    st.markdown(
        "**acc\\*_eq** counts pairs of translations of one segment ordered *or tied* as the humans do; "
        "a metric tie is any difference of at most ε, and ε is tuned to the metric's best value "
        f"(BLEU: ε = {res.threshold:.4g}, acc\\*_eq {res.statistic:.3f}). Move ε:"
    )
    labels = list(dict.fromkeys(f"{s:.4g}" for s in steps))  # ε as shown; read back as a number
    if st.session_state.get(K.RANK_EPSILON) not in labels:
        st.session_state[K.RANK_EPSILON] = labels[0]
    shown = st.select_slider("ε (BLEU points)", options=labels, key=K.RANK_EPSILON)
    eps = float(shown) * (1 + 1e-9) + 1e-12  # the label rounds ε: keep the threshold it stands for
    at = at_tie_threshold(scores["BLEU"], human, eps, TIE_VARIANTS["acc-eq"], average_by="item")
    c, d, th, tm, tb = at.counts
    st.caption(
        f"At ε = {shown}: acc\\*_eq {at.statistic:.3f}; pairs concordant {c:,}, discordant {d:,}, tied by the "
        f"humans only {th:,}, by BLEU only {tm:,}, by both {tb:,}. At the largest ε every pair is a BLEU "
        "tie and the value is the share of human ties: the constant metric's."
    )


def _explain_spa(tables: Mapping[str, Any], h_sys: np.ndarray, h_seg: np.ndarray) -> None:
    """Soft pairwise accuracy on the pair of systems BLEU orders against the humans: both p-values."""
    from bleu_core.evaluation.pairwise import soft_pairwise_accuracy

    bleu = tables["BLEU"]
    rated = ~np.isnan(h_sys) & ~np.isnan(h_seg).all(axis=1)
    names = [s for s, keep in zip(bleu.systems, rated, strict=True) if keep]
    human, scores = ranking_data(list(tables.values()), "soft-pairwise-accuracy", h_sys, h_seg)
    pair = disagreeing_pair(bleu.systems, bleu.oriented_system(), h_sys)
    if "BLEU" not in scores or human.shape[1] < 2 or pair is None or pair[0] not in names:
        return
    res = soft_pairwise_accuracy(scores["BLEU"], human)
    i, j = names.index(pair[0]), names.index(pair[1])
    lo, hi = min(i, j), max(i, j)
    ph, pm = res.human_pvalues[lo, hi], res.metric_pvalues[lo, hi]
    if i > j:  # the matrices hold p(row beats column) above the diagonal
        ph, pm = 1 - ph, 1 - pm
    st.caption(
        f"On the {human.shape[1]} segments every system was rated on: the humans' p-value that "
        f"{md_escape(pair[0])} beats {md_escape(pair[1])} is {ph:.3f}, BLEU's {pm:.3f}; this pair "
        f"costs BLEU {abs(ph - pm):.3f} of the {res.n_pairs} pairs' average (SPA {res.statistic:.3f}). "
        "Pairwise accuracy would count it as simply wrong."
    )


def show_explainers(
    study: Study, tables: Mapping[str, Any], rankings: Sequence[MetricRanking], criterion: str
) -> None:
    """What each statistic means on this study's data (see the module docstring)."""
    st.subheader("What the numbers mean on this study")
    if "BLEU" not in tables or criterion not in study.criteria:
        st.caption("Rank BLEU to see the explanations on its scores.")
        return
    systems = list(tables["BLEU"].systems)
    h_sys, h_seg = _oriented(study, criterion, systems)
    _explain_pair(tables, h_sys, criterion)
    if tables["BLEU"].segment is not None and not np.isnan(h_seg).all():
        _explain_epsilon(tables, h_sys, h_seg)
    st.markdown(
        "**Soft pairwise accuracy** does not ask only *who wins* a pair of systems but *how sure*: for "
        "each pair it compares the p-value of a permutation test over segments that one system beats the "
        "other, computed from the human scores and from the metric's, and averages 1 − |difference|. A "
        "metric that is confident where the humans are confident, and unsure where they are unsure, "
        "scores high; a pair the humans cannot separate costs nothing if the metric cannot either."
    )
    if tables["BLEU"].segment is not None and not np.isnan(h_seg).all():
        _explain_spa(tables, h_sys, h_seg)
    first = rankings[0] if rankings else None
    if first is not None and first.rows and first.rows[0].rank is not None:
        top = [md_escape(r.metric) for r in first.rows if r.rank == 1]
        st.markdown(
            f"**A cluster** is a group of metrics no test separates: in {md_escape(first.criterion)} · "
            f"{md_escape(first.statistic)}, cluster 1 holds {', '.join(top)}. Walking down the sorted "
            f"list, a metric starts a new cluster when a metric of the current one beats it at "
            f"p ≤ {first.alpha} (PERM-BOTH, {first.n_resamples} resamples)."
        )


# ------------------------------------------------------------------------------------------ release
DEMO_RELEASE = "demo:ted-en-de,ted-zh-en"
"""The release view's default: the two TED demos (en-de, zh-en; MQM) as one release."""


def release_of(study: Study) -> tuple[str, list[str]] | None:
    """The release folder or zip the open study was read from and its pairs, when it is on disk and
    has two or more pairs (a study the server opened from a WMT release); else ``None``."""
    import os

    from bleu_core.study.loading import list_pairs

    path = (study.metadata or {}).get("release")
    if not isinstance(path, str) or not os.path.exists(path):
        return None
    pairs = list_pairs(path)
    return (path, pairs) if len(pairs) >= 2 else None


@st.cache_data(max_entries=4, show_spinner="Meta-evaluating every language pair…")
def release_result(source: str, n_resamples: int, seed: int, alpha: float) -> MultiPairResult:
    """BLEU and chrF ranked by SPA and acc*_eq over every pair of ``source``: a release path, or
    :data:`DEMO_RELEASE`. Each pair against its first criterion, with its target language's tokenizer."""
    from bleu_core.metrics.study_scores import study_metric_scores
    from bleu_core.study import load_study
    from bleu_core.study.criterion_order import criteria_order
    from bleu_core.study.demo import load_demo
    from bleu_core.study.loading import list_pairs
    from bleu_core.tokenize.tokenizers import tokenizer_for_language

    if source == DEMO_RELEASE:
        studies = [load_demo(name) for name in ("ted-en-de", "ted-zh-en")]
    else:
        studies = [load_study(source, pair=pair).study for pair in list_pairs(source)]
    tasks = []
    for study in studies:
        tables = study_metric_scores(
            study, ["BLEU", "chrF"], systems=study.machine_systems,
            tokenize=tokenizer_for_language(study.target_lang),
        )  # fmt: skip
        tasks.append(task_from_study(study, tables, criteria_order(study.criteria)[0]))
    return multi_pair_meta(tasks, n_resamples=n_resamples, seed=seed, alpha=alpha)


def release_frame(result: MultiPairResult) -> pd.DataFrame:
    """The global table: rank, metric, global score, average rank, then each task's value (rank)."""
    rows = []
    for m in result.metrics:
        row: dict[str, Any] = {
            "rank": result.rank.get(m),
            "metric": m,
            "global": result.average[m],
            "average rank": result.average_rank[m],
        }
        for i, (task, stat) in enumerate(result.columns):
            value, rank = result.value(i, m)
            column = f"{task} {statistic_name(stat)}"
            row[column] = f"{value:.3f} ({rank})" if rank is not None else f"{value:.3f}"
        rows.append(row)
    return pd.DataFrame(rows)


def show_release_view(
    study: Study, n_resamples: int, seed: int, alpha: float, highlight: Any
) -> None:
    """Several language pairs at once, as the WMT24 findings report them: every pair of the release
    the open study came from, or the two TED demos."""
    st.subheader("A whole release at once (WMT24's view)")
    st.caption(
        "WMT24 ranks metrics over every language pair: per pair soft pairwise accuracy and acc\\*_eq, "
        "the average of those values (each mapped to 0-1), the average rank and clusters from the tests' "
        "null draws summed over pairs. For a release on disk: `bleu-study meta PATH --pairs all` "
        "(text, `--format json`, `--latex`)."
    )
    found = release_of(study)
    source, label = (
        (found[0], f"every pair of this release ({', '.join(found[1])})")
        if found
        else (DEMO_RELEASE, "both TED demos (en-de, zh-en)")
    )
    if not st.toggle(f"Compute it on {label}", key=K.RANK_RELEASE):
        return
    result = release_result(source, n_resamples, seed, alpha)
    st.dataframe(highlight(release_frame(result)), hide_index=True, width="stretch")
    show_release_ceilings(result)
    st.caption(
        f"{result.n_resamples} resamples, seed {result.seed}, alpha {result.alpha}; equal weights. "
        + " ".join(md_escape(n) for n in result.notes)
    )
    st.download_button(
        "LaTeX (release, findings style)",
        data=format_latex(result, caption=f"BLEU and chrF over {label}"),
        file_name="metric-ranking-release.tex",
        mime="application/x-tex",
        on_click="ignore",
        icon=":material/download:",
    )


def warn_degenerate(rankings: Sequence[MetricRanking]) -> None:
    """One warning above the findings table naming every ranking with a degenerate tie threshold."""
    found = [
        f"{md_escape(r.criterion)} · {md_escape(r.statistic)}: "
        + ", ".join(md_escape(m) for m in r.extra["degenerate"])
        for r in rankings
        if r.extra.get("degenerate")
    ]
    if found:
        st.warning(
            "Some metrics' calibrated tie threshold makes every pair a tie, so their value is the share "
            "of pairs the humans tie (a constant metric's), not a measure of the metric — "
            + "; ".join(found)
            + ". See each ranking's chance line below."
        )


@st.cache_data(max_entries=32, show_spinner="Computing the human ceiling…")
def cached_ceiling(
    study_key: str, _study: Study, criterion: str, statistic: str, systems: tuple, other: str
) -> dict[str, Any]:
    """:func:`bleu_core.evaluation.ceiling.human_ceiling` of ``other`` against ``criterion`` (as a dict), with
    its interval (:data:`bleu_core.evaluation.ceiling.CEILING_RESAMPLES` resamples of its segments)."""
    from bleu_core.evaluation.ceiling import CEILING_RESAMPLES, human_ceiling

    found = human_ceiling(
        _study, criterion, statistic, systems=systems, other=other, n_resamples=CEILING_RESAMPLES
    )
    return found.to_dict()


def show_ceiling_choice(study_key: str, study: Study, rankings: Sequence[MetricRanking]) -> None:
    """The human ceiling from a second criterion (another campaign of the same outputs, MQM next to
    DA...), chosen here, for every ranking; the rankings' own ceilings split the raters of one criterion."""
    others = list(study.criteria)
    if len(others) < 2 or not rankings:
        return
    st.subheader("Human ceiling from a second set of human scores")
    other = st.selectbox(
        "Compare each ranking's criterion with",
        ["", *others],
        format_func=lambda c: c or "— (raters of the same criterion, as in the rankings)",
        key=K.RANK_CEILING_OTHER,
        help="The same statistic with this criterion's scores as the 'metric' and the ranking's "
        "criterion as the gold: how well two human judgments agree. Components of one annotation "
        "(MQM accuracy and MQM) are not independent opinions.",
    )
    if not other:
        return
    rows = []
    for r in rankings:
        if r.criterion == other or r.criterion not in study.criteria:
            continue
        c = cached_ceiling(study_key, study, r.criterion, r.statistic, tuple(r.systems), other)
        best = max((row.statistic for row in r.rows if not math.isnan(row.statistic)), default=None)
        ci = c.get("confidence_interval") or (math.nan, math.nan)
        flags = ceiling_flags(c, chance_of(r.extra.get("chance")))
        rows.append(
            {"ranking": f"{r.criterion} · {statistic_name(r.statistic)}", "best metric": best,
             "human ceiling": math.nan if c["statistic"] is None else c["statistic"],
             "CI low": ci[0], "CI high": ci[1],
             "items": c["n_items"], "segments": c["n_segments"], "systems": c["n_systems"],
             "flagged": "; ".join(flags) or "—", "note": c["note"]}
        )  # fmt: skip
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        st.caption(f"95% interval: the ceiling's segments resampled. {md_escape(FLAG_RULE)}.")
