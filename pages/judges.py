"""Judges page: same-judge, same-segment comparisons of adjacent systems (paper §4, Figures 3-4)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleu_core.errors import BleuStudyError
from ui.analysis import judges_cache
from ui.analysis.stats_charts import judges_chart
from ui.app import state as K
from ui.app.background import Steps
from ui.app.context import current_key, require_study, show_chart, table_downloads
from ui.app.criterion import criterion_box
from ui.app.frames import rater_groups
from ui.app.markup import md_escape
from ui.app.numbers import plural, tidy_frame

st.title("Human judges, pair by pair")
st.write(
    "Judges differ (some are more liberal) and segments differ (some are easier). The paper therefore "
    "compares each judge's score for the *same* segment across two systems, for systems adjacent in the "
    "order of their mean score, and reports the mean difference with a 95 % t interval (§4, Figures 3-4), "
    "separately for each group of judges."
)
study = require_study()
if not study.criteria:
    st.info(
        "This study has no human ratings. Open the TED demo or upload ratings on the Study page."
    )
    st.stop()

c1, c2, c3, c4 = st.columns([1, 2, 1, 1])
criterion = criterion_box(c1, "Criterion", study, K.JUDGE_CRITERION)
groups_all = rater_groups(study, criterion)
if groups_all:
    groups = c2.multiselect(
        "Rater groups",
        groups_all,
        key=K.JUDGE_GROUPS,
        placeholder="every group",
    )
else:  # a disabled widget's faded label fails WCAG contrast; say it in plain text instead
    groups = []
    c2.markdown("**Rater groups**  \nnone in this study: every group")
level = c3.selectbox("Confidence", [0.95, 0.99, 0.9], format_func=lambda v: f"{v:.0%}")
include_humans = c4.toggle(
    "Include human translations", key=K.INCLUDE_HUMANS, disabled=not study.human_systems
)
systems = [s for s in study.systems if include_humans or s not in study.human_systems]
crit = study.criteria[criterion]
key = current_key()  # the open study, restricted to the sidebar's domain
raters = judges_cache.criterion_raters(key, study, criterion)
if not raters - {None}:
    st.info(
        f"The {criterion} ratings of this study carry no rater ids, so nothing says which scores come "
        "from the same judge: the same-judge comparisons of this page cannot be made. Ratings with a "
        "`rater` column (or MQM files, which name their raters) make them possible."
    )
    st.stop()
if None in raters:
    st.warning(
        "Some ratings carry no rater id; they count as one anonymous judge, so their pairs may mix "
        "several people's scores."
    )
steps = Steps(1, "Judges")  # seconds on 500,000 ratings; cached afterwards
steps.step(f"pairing every judge's {criterion} scores of the same segment")
try:
    result = judges_cache.comparisons(key, study, criterion, tuple(groups), tuple(systems), level)
except BleuStudyError as err:
    st.error(md_escape(str(err)))
    st.stop()
finally:
    steps.done()

direction = "higher is better" if crit.higher_is_better else "lower is better (differences negated)"
rows = []
for g in result.groups:
    for p in g.pairs:
        rows.append(
            {
                "group": g.group,
                "pair": f"{p.lower} → {p.higher}",
                "lower": p.lower,
                "higher": p.higher,
                "difference": p.statistic,
                "low": p.confidence_interval[0],
                "high": p.confidence_interval[1],
                "p": p.pvalue,
                "n": p.n,
                "significant": p.significant,
            }
        )
frame = pd.DataFrame(rows)
if frame.empty or frame["n"].max() < 2:
    st.warning(
        "No judge rated the same segment for two adjacent systems, so there is nothing to pair. This is the "
        "case when every (system, segment) was rated by a different judge."
    )
    st.stop()
drawn = frame.dropna(subset=["low"])  # a pair with fewer than 2 paired scores has no interval
show_chart(
    judges_chart(
        drawn,
        title=f"{criterion}: same-judge differences",  # short: it fits a phone's width
        subtitle=f"adjacent systems · mean difference with {level:.0%} t interval · {direction}"
        + (
            f" · {len(frame) - len(drawn)} of {len(frame)} pairs undefined"
            if len(drawn) < len(frame)
            else ""
        ),
    ),
    f"judges {criterion}",
)
st.dataframe(tidy_frame(frame.drop(columns=["lower", "higher"])), hide_index=True, width="stretch")
if len(drawn) < len(frame):
    st.caption(
        f"—: undefined. {len(frame) - len(drawn)} of {len(frame)} pairs have fewer than 2 paired scores "
        "(no judge rated both systems on 2+ segments), so they have no interval and no p, and the chart "
        "leaves them out; n says how many paired scores each pair has."
    )
table_downloads(frame, f"judges {criterion}", caption=f"Same-judge differences, {criterion}")
for g in result.groups:
    title = f"{g.group}: {plural(len(g.systems), 'system')}, {plural(g.n_raters, 'judge')}"
    with st.expander(f"{title}, worst → best"):
        means = pd.DataFrame({"system": g.systems, f"mean {criterion}": g.means})
        st.dataframe(means, hide_index=True, width="stretch")
few = frame[frame["n"] < 30]
if not few.empty:
    st.caption(
        f"{plural(len(few), 'pair')} rest on fewer than 30 paired scores; their intervals are wide (the paper had "
        "350-470 per pair)."
    )
