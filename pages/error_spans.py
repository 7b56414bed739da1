"""BLEU vs error spans: where BLEU and the MQM raters disagree, token by token."""

from __future__ import annotations

import streamlit as st

from ui.app import state as K
from ui.app.context import (
    current_key,
    current_options,
    current_references,
    require_study,
    show_chart,
    signature_caption,
    table_downloads,
)
from ui.app.markup import md_escape
from ui.explore import agreement as ag
from ui.explore.error_spans import rater_label
from ui.explore.error_spans_ahead import count_view_ahead
from ui.explore.span_scores_view import cached_span_scores, show_span_scores
from ui.explore.span_view import open_in_explore
from ui.explore.wmt25_view import show_wmt25_spans

st.title("BLEU vs error spans")
study = require_study()
if not study.error_spans:
    st.info(
        "This study has no error spans. Raters' error spans come with MQM annotations: Google's MQM "
        "TSVs mark each error in the translation with `<v>…</v>` (the TED demos and WMT21 carry them). "
        "Open such a study on the Study page to see where BLEU and the raters disagree, word by word."
    )
    st.stop()

key = current_key()  # the open study, restricted to the sidebar's domain
options = current_options()
references = current_references(study)
if not references:
    st.info("BLEU's matches need a reference translation: choose one in the sidebar.")
    st.stop()
overview = ag.span_overview(key, study)
st.markdown(
    "Each token of an annotated translation is **matched** by BLEU (it lies in a matched n-gram) or "
    "not, and **inside** an error span a rater marked or not. Where the two disagree:\n"
    "- a **rewarded error** is a token BLEU matched although a rater marked it as wrong;\n"
    "- a **penalised correct word** is a token BLEU left unmatched although no rater objected to it "
    "(often a correct synonym or a different word order).\n\n"
    "A token is inside a span when one of its characters is. Tokens follow the sidebar's tokenizer, "
    "case and references."
)
severities = ["", *overview.severities]
if st.session_state.get(K.SPANS_SEVERITY) not in severities:
    st.session_state[K.SPANS_SEVERITY] = ""
left, right = st.columns(2)
with left:
    severity = st.selectbox(
        "Spans counted as errors",
        severities,
        format_func=lambda s: f"{s} errors only" if s else "every severity",
        key=K.SPANS_SEVERITY,
    )
with right:
    order = st.segmented_control(
        "A token counts as matched inside a matched n-gram of order",
        [1, 2, 3, 4],
        key=K.SPANS_ORDER,
        help="1: the token itself is matched (unigram precision). n: it lies in a matched n-gram.",
    )
order = int(order or 1)
by_order = ag.agreement_by_order(
    key,
    study,
    tuple(references),
    options.tokenize,
    options.lowercase,
    None,
    (severity,) if severity else None,
)
result = by_order[order]
total = result.counts
errors_named = f"{severity} error spans" if severity else "error spans"

st.subheader("All systems", divider="gray")
one, two, three = st.columns(3)
one.metric("Rewarded errors", f"{total.matched_in_error:,}", help=ag.RATE_HELP[ag.REWARDED_RATE])
two.metric("Penalised correct words", f"{total.unmatched_clean:,}")
three.metric("Tokens counted", f"{total.tokens:,}")
st.markdown(
    f"Of the **{total.in_error:,}** tokens inside {errors_named}, BLEU matched "
    f"**{ag.counts_row(total)[ag.REWARDED_RATE]:.1f}%**; of the **{total.clean:,}** tokens outside "
    f"every span, BLEU left **{ag.counts_row(total)[ag.PENALISED_RATE]:.1f}%** unmatched."
)
st.dataframe(ag.table_2x2(total))
signature_caption(prefix=f"Max order {order} · tokens as in the BLEU signature")

st.subheader("Per system", divider="gray")
per_system = ag.systems_frame(result)
rate_format = st.column_config.NumberColumn(format="%.1f")
st.dataframe(
    per_system,
    hide_index=True,
    column_config={ag.REWARDED_RATE: rate_format, ag.PENALISED_RATE: rate_format},
)
table_downloads(per_system, f"bleu vs error spans order {order}")
show_chart(ag.rates_chart(result), f"rewarded errors and penalised words order {order}")

st.subheader("By severity and error category", divider="gray")
systems = ["", *result.systems]
if st.session_state.get(K.SPANS_SYSTEM) not in systems:
    st.session_state[K.SPANS_SYSTEM] = ""
chosen = st.selectbox(
    "System", systems, format_func=lambda s: s or "all systems", key=K.SPANS_SYSTEM
)
groups = result.systems[chosen] if chosen else result
st.caption(
    "Each row is the table computed as if only that kind of span existed (a token inside spans of two "
    "kinds counts in both rows)."
)
by_severity = ag.groups_frame(groups.by_severity, "severity")
by_category = ag.groups_frame(groups.by_category, "category")
for frame, name in ((by_severity, "severity"), (by_category, "category")):
    if frame.empty:
        st.caption(f"No spans to split by {name}.")
        continue
    st.dataframe(
        frame,
        hide_index=True,
        column_config={ag.REWARDED_RATE: rate_format, ag.PENALISED_RATE: rate_format},
    )

st.subheader("How the picture changes with the max order", divider="gray")
st.caption(
    "At order n a token counts as matched only inside a matched n-gram of order n: longer n-grams "
    "credit fewer tokens, so fewer errors are rewarded and more correct words go unmatched."
)
st.dataframe(
    ag.orders_frame(by_order),
    hide_index=True,
    column_config={ag.REWARDED_RATE: rate_format, ag.PENALISED_RATE: rate_format},
)
show_chart(ag.orders_chart(by_order), "bleu vs error spans by max order")
with st.expander("Both rates per system and max order"):
    st.dataframe(
        ag.orders_by_system_frame(by_order),
        hide_index=True,
        column_config={
            c: rate_format for c in ag.orders_by_system_frame(by_order).columns if "%" in c
        },
    )

st.subheader("Examples for a class", divider="gray")
st.caption(
    "The translations with the most rewarded errors and the most penalised correct words: select one "
    "to open it in Explore, its tokens drawn with BLEU's matches and the raters' spans."
)
rankings = [
    ("matched_in_error", "Most rewarded errors", K.SPANS_REWARDED_TABLE),
    ("unmatched_clean", "Most penalised correct words", K.SPANS_PENALISED_TABLE),
]
for column, (by, title, table_key) in zip(st.columns(2), rankings, strict=True):
    with column:
        st.markdown(f"**{title}**")
        ranking = ag.ranking_frame(result, by)
        event = st.dataframe(
            ranking, hide_index=True, on_select="rerun", selection_mode="single-row", key=table_key
        )
    picked = [r for r in (event.selection.rows if event is not None else []) if r < len(ranking)]
    if picked:
        row = ranking.iloc[picked[0]]
        open_in_explore(str(row["system"]), str(row["segment"]), min(order, options.max_order))
spans_key = (tuple(references), options.tokenize, options.lowercase, order)
show_span_scores(cached_span_scores(key, study, *spans_key, (severity,) if severity else None))
count_view_ahead(key, study, *spans_key, (severity,) if severity else None, ag.ORDERS)
show_wmt25_spans(key, study, *spans_key)
raters = ", ".join(md_escape(rater_label(r)) for r in overview.raters)
st.caption(
    f"{overview.n_spans:,} error spans by {len(overview.raters)} raters ({raters}); "
    f"{result.seconds:.1f} s to count."
)
