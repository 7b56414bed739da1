"""Projector (class mode): the class's ratings against BLEU, live, in large type for a lecture hall.

Opened by the Campaigns page's view-only link (``?lesson=&view=``: it stays in the address, so a reload shows the
same lesson), on the teacher's browser by the lesson it remembers (with the teacher's controls), or by typing the
campaign code and organiser key (:mod:`ui.campaigns.projector_access`). The live part is a fragment that re-runs
itself every few seconds (``st.fragment(run_every=…)``) and only reads the campaign database, so judges are never
blocked; "Freeze" stops it for discussion. Numbers: :func:`bleu_core.campaigns.lesson.class_snapshot`.
"""

from __future__ import annotations

import altair as alt
import streamlit as st

from bleu_core.campaigns import apply_to_study
from bleu_core.campaigns.lesson import class_snapshot, is_lesson
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.context import current_study, ensure_entrypoint, open_study
from ui.app.markup import md_escape
from ui.campaigns.projector_page import class_mode as cm
from ui.campaigns.projector_page import open_store, sync_browser_memory
from ui.campaigns.projector_page import projector_access as pa

REFRESH_SECONDS = 2
ALPHA_RESAMPLES = 200
state = st.session_state

ensure_entrypoint()
st.markdown(cm.PROJECTOR_STYLE, unsafe_allow_html=True)
cm.connection_notice("Reconnecting — the class's ratings are saved")
store = open_store()
address_error = pa.choose_lesson(store)
sync_browser_memory()
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

st.title(md_escape(campaign.name))
cm.join_panel(campaign.code, cm.app_base_url(), qr_width=260)
frozen = bool(state.get(K.PROJ_FROZEN))
c1, c2, c3 = st.columns([1, 1, 3])
if c1.button("Resume live" if frozen else "Freeze", icon=":material/ac_unit:", type="primary"):
    state[K.PROJ_FROZEN] = not frozen
    st.rerun()
c3.caption(
    f"BLEU over the whole test set: `{campaign.metadata.get('bleu_signature', '')}` · seed {campaign.seed}"
    + (" · frozen for discussion" if frozen else f" · refreshes every {REFRESH_SECONDS} s")
)


@st.fragment(run_every=None if frozen else REFRESH_SECONDS)
def live() -> None:
    data = pa.class_data(store)
    snap = class_snapshot(
        data.campaign,
        data.ratings,
        len(data.progress),
        n_resamples=ALPHA_RESAMPLES,
        seed=campaign.seed,
    )
    m1, m2, m3 = st.columns(3)
    m1.metric("Students joined", snap.n_joined)
    m2.metric("Ratings so far", snap.n_ratings)
    m3.metric("Done", f"{snap.progress:.0%}")
    st.progress(snap.progress)
    left, right = st.columns(2)
    for column, criterion in zip((left, right), campaign.criterion_names, strict=False):
        with column:
            st.altair_chart(cm.fit_chart(campaign, snap, criterion), width="stretch")
    left, right = st.columns(2)
    with left:
        st.altair_chart(cm.normalised_class_chart(campaign, snap), width="stretch")
    with right:
        st.subheader("Do the students agree? (Krippendorff's α)")
        for line in cm.alpha_lines(snap):
            st.markdown(f"#### {md_escape(line)}")
        if snap.alpha_history:
            chart = (
                alt.Chart(cm.alpha_frame(snap))
                .mark_line(point=True)
                .encode(
                    x=alt.X("ratings:Q", title="ratings so far"),
                    y=alt.Y("alpha:Q", title="α"),
                    color=alt.Color("criterion:N"),
                )
                .properties(height=220, title="α as the ratings came in")
            )
            st.altair_chart(chart, width="stretch")
        for name, value in snap.experts.items():
            r = value["r"]
            st.markdown(
                f"**The class vs the experts** ({md_escape(name)}, {int(value['n'])} systems): "
                + ("r not yet defined" if r != r else f"r = {r:.2f}")
            )


live()
study = current_study()
with c2.popover("Keep the results", icon=":material/save:"):
    st.write(
        "Add the class's ratings to the open study as criteria: every page (BLEU vs human, Judges, "
        "Correlation, Export's reproducible zip) then offers them."
    )
    if st.button("Add to the open study", disabled=study is None):
        try:
            new = apply_to_study(study, campaign, pa.class_data(store).ratings)
        except BleuStudyError as err:
            st.error(md_escape(str(err)))
        else:
            open_study(
                new,
                key=f"{state.get(K.STUDY_KEY)}|class:{campaign.code}:{len(new.ratings)}",
                label=f"{state.get(K.STUDY_LABEL)} + class {campaign.code}",
            )
            st.success("Added. Open Export for the reproducible zip.")
