"""Campaigns (organisers): create a human rating campaign from the open study, follow it, use its ratings.

A campaign is the BLEU paper's human evaluation (§4) for a class or a lab: a seeded random sample of segments,
each paired with the translations of the chosen systems, in one fixed order that disperses the translations of
the same source; judges rate each from 1 (very bad) to 5 (very good). The organiser key shown at creation is
needed for everything on the "Manage" tab. Forms: :mod:`ui.campaigns.forms`; tables: :mod:`ui.campaigns.views`.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from bleu_core.campaigns import Campaign, StoredRating, agreement_report, display_database_url
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.context import current_study
from ui.app.limits import session_resampling
from ui.app.markup import md_escape
from ui.campaigns import forms, lesson_panel
from ui.campaigns.db import open_store
from ui.campaigns.esa_manage import AnalysisInput, field_downloads, quality_section
from ui.campaigns.lesson_study import study_mismatch
from ui.campaigns.pearmut_import import pearmut_import_section
from ui.campaigns.session import forget_campaign, remember_campaign, use_ratings_in_study
from ui.campaigns.views import (
    ratings_download,
    show_agreement,
    show_created_notice,
    show_progress,
    show_summary,
)

ALL_JUDGES = "all judges"
MAX_AGREEMENT_RESAMPLES = 1000
state = st.session_state


def new_campaign_tab() -> None:
    pearmut_import_section()
    study = current_study()
    if study is None:
        st.info(
            "Open a study first (the **Study** page): a campaign samples its segments and systems."
        )
        return
    st.write(
        "Choose what to rate. Every judge will see the same items in the same shuffled order, in which the "
        "translations of one source sentence are spread apart (paper, §4)."
    )
    seed, _ = session_resampling()
    choices = forms.new_campaign_form(study, default_seed=seed)
    if choices is None:
        return
    try:
        plan = choices.to_plan(study)  # checked before the database is opened
        created = open_store().create_campaign(plan)
    except BleuStudyError as err:
        st.error(md_escape(str(err)))
        return
    except SQLAlchemyError as err:
        st.error(f"The campaign could not be saved: {md_escape(str(err))}")
        return
    remember_campaign(created.campaign.code, created.organiser_key, tab=forms.MANAGE_TAB, new=True)
    st.rerun()


def open_campaign() -> None:
    typed = forms.open_campaign_form()
    if typed is None:
        return
    code, key = typed
    try:
        campaign = open_store().check_organiser(code, key)
    except BleuStudyError as err:
        st.error(md_escape(str(err)))
    else:
        remember_campaign(campaign.code, key.strip(), tab=forms.MANAGE_TAB)
        st.rerun()


def agreement_section(campaign: Campaign, ratings: list[StoredRating]) -> None:
    if not ratings:
        st.info("No ratings yet.")
        return
    choice = st.selectbox("Judges", [ALL_JUDGES, *campaign.groups], key=K.CAMP_AGREEMENT_GROUP)
    seed, n_resamples = session_resampling()
    n_resamples = min(n_resamples, MAX_AGREEMENT_RESAMPLES)
    group = None if choice == ALL_JUDGES else choice
    report = agreement_report(
        campaign.criteria, ratings, group=group, n_resamples=n_resamples, seed=seed
    )
    if not report:
        st.info("No ratings from this group yet.")
        return
    show_agreement(report, n_resamples=n_resamples, seed=seed)


def use_in_analyses(campaign: Campaign, ratings: list[StoredRating], extra: AnalysisInput) -> None:
    study = current_study()
    if study is None:
        st.info("Open the study this campaign was made from to use its ratings in the analyses.")
        return
    clicked = st.button(
        "Use these ratings in the analyses", type="primary", icon=":material/insights:"
    )
    if state.get(K.CAMP_NOTICE):
        st.success(md_escape(state[K.CAMP_NOTICE]))
        state[K.CAMP_NOTICE] = None
    if clicked:
        mismatch = study_mismatch(campaign, study)
        if mismatch:  # in words: which study to open, not a list of segment ids
            st.error(md_escape(mismatch))
            return
        try:
            state[K.CAMP_NOTICE] = use_ratings_in_study(
                study,
                campaign,
                ratings,
                spans=extra.spans,
                left_out=extra.left_out,
                kept=extra.kept,
            )
        except BleuStudyError as err:
            st.error(md_escape(str(err)))
            return
        st.rerun()


def manage_tab() -> None:
    code, key = state.get(K.CAMP_CODE), state.get(K.CAMP_KEY)
    if not code or not key:
        return open_campaign()
    store = open_store()  # opened (and created) only once someone uses a campaign
    try:
        campaign = store.check_organiser(code, key)
    except BleuStudyError as err:
        st.error(md_escape(str(err)))
        forget_campaign()
        return open_campaign()
    new = state.get(K.CAMP_NEW_KEY)
    if new and new[0] == campaign.code:
        show_created_notice(campaign, new[1])
        state[K.CAMP_NEW_KEY] = None
    show_summary(campaign)
    action = forms.organiser_controls(campaign)
    if action in (forms.OPEN, forms.SHUT):
        store.set_open(campaign.code, key, action == forms.OPEN)
    elif action == forms.DELETE:
        store.delete_campaign(campaign.code, key)
    if action in (forms.LEAVE, forms.DELETE):
        forget_campaign()
    if action is not None:
        st.rerun()

    ratings = store.ratings(campaign.code, key)
    st.subheader("Progress")
    show_progress(store.progress(campaign.code, key))
    st.subheader("Agreement and calibration")
    agreement_section(campaign, ratings)
    st.subheader("Quality control")
    extra = quality_section(store, campaign, key)
    st.subheader("Use the ratings")
    ratings_download(campaign, ratings)
    field_downloads(store, campaign, key, ratings, current_study())
    use_in_analyses(campaign, ratings, extra)


st.title("Rating campaigns")
st.write(
    "Run the BLEU paper's human evaluation with your class or lab: judges rate translations from 1 (very bad) "
    "to 5 (very good) on the **Rate translations** page, and their ratings go straight into the analyses."
)
st.caption(f"Database: `{display_database_url()}` (set BLEU_STUDY_DB to change it)")
lesson_panel.remembered_lessons()  # a reload is back in the latest lesson of this browser
if state.get(K.CAMP_TAB_NEXT):  # set before the tabs exist: a widget's state cannot change after
    state[K.CAMP_TAB] = state.pop(K.CAMP_TAB_NEXT)
tab_class, tab_new, tab_manage = st.tabs(
    [forms.CLASS_TAB, forms.NEW_TAB, forms.MANAGE_TAB], key=K.CAMP_TAB, on_change="rerun"
)
with tab_class:
    lesson_panel.class_mode_tab()
with tab_new:
    new_campaign_tab()
with tab_manage:
    manage_tab()
