"""Projector (class mode): the class's ratings against BLEU, live, in large type for a lecture hall.

Opened by the Campaigns page's view-only link (``?lesson=&view=``: it stays in the address, so a reload shows the
same lesson), on the teacher's browser by the lesson it remembers (with the teacher's controls), or by typing the
campaign code and organiser key (:mod:`ui.campaigns.projector_access`). The live part is a fragment that re-runs
itself every few seconds (``st.fragment(run_every=…)``) and only reads the campaign database, so judges are never
blocked; "Freeze" stops it for discussion. Numbers: :func:`bleu_core.campaigns.lesson.class_snapshot`.
"""

from __future__ import annotations

import streamlit as st

from bleu_core.campaigns.lesson import is_lesson
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.context import ensure_entrypoint
from ui.app.markup import md_escape
from ui.app.presentation import presentation_switch, show_altair
from ui.campaigns import class_mode as cm
from ui.campaigns import contrastive_projector as cesa
from ui.campaigns import esa_projector as esa
from ui.campaigns import lesson_study
from ui.campaigns import projector_access as pa
from ui.campaigns import projector_parts as parts
from ui.campaigns.browser_memory import sync_browser_memory
from ui.campaigns.db import open_store

REFRESH_SECONDS = 2
state = st.session_state

ensure_entrypoint()
st.markdown(cm.PROJECTOR_STYLE, unsafe_allow_html=True)
cm.connection_notice("Reconnecting — the class's ratings are saved")
store = open_store()
address_error = pa.choose_lesson(store)
# a page for the room: no organiser key on it, not even in a cookie script
sync_browser_memory(lessons=False)
if address_error:
    st.error(md_escape(address_error))
if not state.get(K.PROJ_CODE):
    st.title("Projector")
    with st.form("proj_sign_in"):
        code = st.text_input("Campaign code", key=K.PROJ_FORM_CODE, max_chars=16)
        key = st.text_input("Organiser key", key=K.PROJ_FORM_KEY, type="password")
        if st.form_submit_button("Show the class", type="primary"):
            try:
                pa.sign_in_projector(store, code, key)
            except BleuStudyError as err:
                st.error(md_escape(str(err)))
            else:
                st.rerun()
    st.stop()

code, key = state[K.PROJ_CODE], state.get(K.PROJ_KEY)
try:
    campaign = pa.class_data(store).campaign
except BleuStudyError as err:
    st.error(md_escape(str(err)))
    pa.leave_projector()
    st.stop()
if not is_lesson(campaign):
    st.warning("This campaign was not made by class mode: it carries no BLEU scores to draw.")
    st.stop()
# a new tab or F5: the study the lesson was planned on opens again
if lesson_study.follow_lesson_study(campaign):
    st.rerun()

organiser = bool(state.get(K.PROJ_KEY))  # the teacher's browser: timer and end-of-class downloads

st.title(md_escape(campaign.name))
presentation_switch()  # large type for the back of the room, kept in the address (?present=1)
frozen = bool(state.get(K.PROJ_FROZEN))
c1, c2, c3, c4 = st.columns([1, 1.2, 1, 1.4])
if c1.button("Resume live" if frozen else "Freeze", icon=":material/ac_unit:", type="primary"):
    state[K.PROJ_FROZEN] = not frozen
    st.rerun()
parts.results_switch(c2)  # kept in the address (?results=1): F5 stays on the results
if organiser:
    with c3.popover("Timer", icon=":material/timer:"):
        parts.timer_controls(store, code, key)
    with c4.popover("End of class", icon=":material/save:"):
        parts.end_of_class(store, campaign)
if not state.get(K.PROJ_RESULTS):
    # the localhost banner is the teacher's (Campaigns page), not the class's
    cm.join_panel(campaign.code, cm.app_base_url(), qr_width=260, warn=False)
st.caption(
    f"BLEU over the whole test set: `{campaign.metadata.get('bleu_signature', '')}` · seed {campaign.seed}"
    + (" · frozen for discussion" if frozen else f" · refreshes every {REFRESH_SECONDS} s")
)


@st.fragment(run_every=None if frozen else REFRESH_SECONDS)
def live() -> None:
    data = pa.class_data(store)
    snap = parts.snapshot(data)
    parts.show_timer(store, data, key)
    columns = st.columns([2, 2, 1, 1, 1])
    for column, criterion in zip(columns, campaign.criterion_names, strict=False):
        column.markdown(cm.r_html(snap, criterion), unsafe_allow_html=True)
    columns[2].metric("Students joined", snap.n_joined)
    columns[3].metric("Ratings so far", snap.n_ratings, help="One per student and item.")
    columns[4].metric("Done", f"{snap.progress:.0%}")
    st.progress(snap.progress)
    left, right = st.columns(2)
    for column, criterion in zip((left, right), campaign.criterion_names, strict=False):
        with column:
            show_altair(cm.fit_chart(campaign, snap, criterion).properties(height=300))
    left, right = st.columns(2)
    with left:
        show_altair(cm.normalised_class_chart(campaign, snap))
    with right:
        parts.alpha_part(snap)
    if campaign.protocol == "cesa":  # which translation the class preferred, against BLEU's order
        cesa.pairwise_panel(campaign, data.ratings)
    if campaign.protocol in ("esa", "cesa"):  # the class's error spans against BLEU's matches
        esa.esa_class_panel(store, campaign, data.ratings)


live()
