"""BLEU vs human page (the paper's §5): system-level fits, range-normalised comparison, segment level."""

from __future__ import annotations

import numpy as np
import streamlit as st

from bleu_core.maths import regression
from ui.analysis import charts, cluster_view, domains, frames, relate
from ui.analysis.correlation_cache import bleu_system_correlations
from ui.app import cache, context
from ui.app import state as K
from ui.app.analysis_cache import metric_scores
from ui.app.background import show_pending
from ui.app.chart_layout import scatter_labels_default
from ui.app.context import current_scores, show_chart, signature_caption, table_downloads
from ui.app.criterion import criterion_box
from ui.app.frames import records_frame
from ui.app.limits import session_resampling
from ui.app.markup import md_escape
from ui.app.metric_tables import metric_choices
from ui.app.numbers import format_number, format_p, interval_note, tidy_frame
from ui.app.segment_bleu import segment_bleu, segment_note

st.title("BLEU vs human judgment")
st.write(
    "Does BLEU rank systems the way people do? Each point is a system: its corpus BLEU against its mean "
    "human score, with the least-squares line (paper, Figures 5-6). Below: scores normalised by their "
    "range (Figure 7) and the segment-level view."
)
scores = current_scores()
study = scores.study
if not study.criteria:
    st.info(
        "This study has no human ratings. Open the TED demo or upload ratings on the Study page."
    )
    st.stop()

c0, c1, c2, c3 = st.columns([1, 1, 2, 1])
choices = metric_choices(study, ("BLEU", "chrF", "chrF++", "TER", "NIST", "PER"))
if st.session_state.get(K.BVH_METRIC) not in choices:  # an attached metric of another study
    st.session_state[K.BVH_METRIC] = "BLEU"
metric = c0.selectbox(
    "Metric",
    choices,
    key=K.BVH_METRIC,
    help="BLEU, another metric computed here, or one "
    "whose scores are attached on the Study page (COMET…).",
)
criterion = criterion_box(c1, "Criterion", study, K.BVH_CRITERION)
groups_all = cache.cached_rater_groups(scores.key, study, criterion)
if groups_all:
    groups = c2.multiselect(
        "Rater groups",
        groups_all,
        key=K.BVH_GROUPS,
        placeholder="all raters pooled",
        help="Each group gets its own fit, as the paper's monolingual and bilingual groups.",
    )
else:  # a disabled widget's faded label fails WCAG contrast; say it in plain text instead
    groups = []
    c2.markdown("**Rater groups**  \nnone in this study: all raters pooled")
include_humans = c3.toggle(
    "Include human translations", key=K.INCLUDE_HUMANS, disabled=not study.human_systems
)
crit = study.criteria[criterion]
direction = "higher is better" if crit.higher_is_better else "lower is better"

systems = [s for s in scores.systems if include_humans or s not in study.human_systems]
if st.session_state.get(K.BVH_LABELS) is None:  # few systems: names on the chart; many: on hover
    st.session_state[K.BVH_LABELS] = scatter_labels_default(len(systems))
all_labels = st.toggle(
    "Label every system",
    key=K.BVH_LABELS,
    help="Off: a system's name shows when the pointer is on its point (and in the tooltip).",
)
if metric == "BLEU":
    bleu = {s: float(scores.corpus.score[scores.system_index(s)]) for s in scores.systems}
    metric_seg, up = segment_bleu(scores), True
else:  # scored here (cached) or attached: system scores, segment scores (NaN where none)
    pending: list = []  # TER: scored in the background, shown when done
    other = metric_scores(
        scores.key, study, (metric,), scores.options.tokenize, scores.options.lowercase,
        pending=pending,
    )  # fmt: skip
    show_pending(pending)
    if metric not in other:  # the page re-runs when TER is done
        st.stop()
    bleu = other[metric].system_scores()
    metric_seg, up = other[metric].segment, other[metric].higher_is_better
series = {
    f"{criterion} (all raters)": cache.cached_system_human_scores(scores.key, study, criterion)
}
series.update(
    {
        f"{criterion} ({g})": cache.cached_system_human_scores(scores.key, study, criterion, g)
        for g in groups
    }
)

table_rows = []
seed, n_res = session_resampling()
cols = st.columns(min(2, len(series)))
pearson = (  # BLEU, all raters: r with its interval, as Correlation and `meta` give it
    bleu_system_correlations(scores, tuple(systems), criterion, n_res, seed)["pearson"]
    if metric == "BLEU" and len(systems) >= 3
    else None
)
for k, (name, human) in enumerate(series.items()):
    frame = frames.system_points(systems, bleu, human, study.human_systems).rename(
        columns={"BLEU": metric}
    )
    fit = regression.linear_fit(frame[metric], frame["human score"])
    interval = pearson if k == 0 else None
    table_rows.append(frames.fit_row(name, fit, interval))
    with cols[k % len(cols)]:
        chart = cluster_view.reference_scatter(  # the rated reference: a rule at its human score
            study,
            criterion if k == 0 else None,
            frame,
            x=metric,
            y="human score",
            title=f"{name} vs {metric}",
            subtitle=f"{relate.describe_fit(fit)} · {direction}",
            x_title="corpus BLEU"
            if metric == "BLEU"
            else f"{metric} ({'higher' if up else 'lower'} is better)",
            y_title=f"{criterion} ({direction})",
            all_labels=all_labels,
        )
        st.metric(
            f"Pearson r · {md_escape(name)}",
            "—" if fit.r != fit.r else f"{fit.r:.3f}",
            help=relate.describe_fit(fit),
        )
        st.caption(relate.describe_fit(fit))
        if interval is not None:
            st.caption(interval_note(interval))
        show_chart(chart, f"{metric} vs {criterion if k == 0 else name}", stable=True, subtitle=False)  # fmt: skip
context.analysis_caption(scores, systems, metric=metric, criterion=criterion, ci=pearson or "none")
fits = records_frame(table_rows)
with st.expander("System-level fits as a table"):
    st.dataframe(tidy_frame(fits), hide_index=True, width="stretch")
    table_downloads(fits, f"system level fits {metric} {criterion}", caption=f"{metric} vs {criterion}, system level")  # fmt: skip

st.subheader("Range-normalised scores (Figure 7)")
order = sorted(systems, key=lambda s: bleu[s] if up else -bleu[s])
norm_series = {metric: bleu if up else {s: -v for s, v in bleu.items()}}
for name, human in series.items():
    norm_series[name] = human if crit.higher_is_better else {s: -v for s, v in human.items()}
norm = frames.normalised_frame(norm_series, order)
flip = "" if crit.higher_is_better else " (human scores negated so that up is better)"
show_chart(
    charts.normalised_chart(
        norm,
        title=f"{metric} and {criterion} normalised by their range",
        subtitle=f"0 = worst, 1 = best system in view{flip}",
    ),
    f"normalised {criterion}",
    stable=True,
)

cluster_view.render_ranks(scores, systems, bleu, criterion, metric)  # BLEU rank against human rank
domains.render_bvh_domains(scores, criterion, systems)  # sentence / document / corpus; per domain
st.subheader("Segment level")
if np.isnan(metric_seg).all():
    st.info(f"{md_escape(metric)} has system-level scores only: no segment-level view.")
    st.stop()
bleu_seg, human_seg = relate.segment_pairs(
    metric_seg,
    cache.segment_scores(scores.key, study, criterion),
    [scores.system_index(s) for s in systems],
)
corr = relate.segment_correlation(bleu_seg, human_seg)
m1, m2, m3 = st.columns(3)
m1.metric("Pearson r", format_number(corr.pearson), help=f"p = {format_p(corr.pearson_p)}")
m2.metric("Kendall tau-b", format_number(corr.kendall), help=f"p = {format_p(corr.kendall_p)}")
m3.metric("Rated translations", corr.n)
st.caption(
    f"Pearson p = {format_p(corr.pearson_p)} · Kendall p = {format_p(corr.kendall_p)} · "
    f"{segment_note(scores.options)} Its smoothing changes the segment-level picture, not the system level."
)
fit = regression.linear_fit(bleu_seg, human_seg)
x_range = (0.0, 100.0) if metric == "BLEU" else (float(np.nanmin(bleu_seg)), float(np.nanmax(bleu_seg)))  # fmt: skip
line = frames.fit_line(fit.slope, fit.intercept, *x_range)
show_chart(
    charts.segment_density(
        frames.binned_counts(bleu_seg, human_seg, bins=25, x_range=x_range),
        line,
        title=f"{'Sentence BLEU' if metric == 'BLEU' else metric} vs {criterion}",
        subtitle=f"r = {corr.pearson:.3f}, tau = {corr.kendall:.3f}, n = {corr.n} translations",
        y_title=f"{criterion} ({direction})",
    ),
    f"segments {metric} vs {criterion}",
    stable=True,
    subtitle=False,  # its numbers are the metrics above
)
signature_caption(scores.signature)
signature_caption(scores.segment_signature, prefix="Segment BLEU signature")
