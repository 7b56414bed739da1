"""The Campaigns page's Class mode tab: the lesson form (:func:`ui.campaigns.class_mode.class_mode_form`), then
the lesson: "My lessons on this browser" (switch between the lessons this browser remembers), the join panel and
the projector's view-only link (for the projector), and apart from them the organiser key, drawn only while the
teacher's "for your eyes only" switch is on.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.context import current_scores, current_study
from ui.app.markup import md_escape
from ui.campaigns import class_mode, forms
from ui.campaigns.browser_memory import my_lessons, remember_lesson, sync_browser_memory
from ui.campaigns.db import open_store
from ui.campaigns.lesson_study import follow_lesson_study, say_reopened
from ui.campaigns.projector_access import projector_link
from ui.campaigns.session import remember_campaign, reopen_remembered_lesson

state = st.session_state


def lesson_switch(code: str | None) -> None:
    """ "My lessons on this browser": switch to another lesson this browser remembers."""
    lessons = dict(my_lessons())
    if len(lessons) < 2 and (not lessons or code in lessons):
        return
    codes = list(lessons)
    chosen = st.selectbox(
        "My lessons on this browser",
        codes,
        index=codes.index(code) if code in codes else None,
        placeholder="Open a lesson",
    )
    if chosen and chosen != code:
        remember_campaign(chosen, lessons[chosen], tab=forms.CLASS_TAB)
        st.rerun()


def lesson_links(code: str, key: str) -> None:
    """The join panel and the view-only projector link (for the projector), then, apart, the organiser key
    behind the teacher's "for your eyes only" switch (:func:`private_key`)."""
    base = class_mode.app_base_url()
    class_mode.network_warning(base)  # for the teacher, above the part to project
    st.subheader(f"Lesson {code}: show this on the projector")
    class_mode.join_panel(code, base, warn=False)
    view = open_store().viewer_token(code, key)
    st.link_button(
        "Open the projector dashboard",
        projector_link(base, code, view),
        type="primary",
        icon=":material/present_to_all:",
    )
    st.caption(
        "The projector's link shows the class's numbers and grants nothing else: safe on a shared screen. "
        "On this browser the projector also has your controls (the timer)."
    )
    private_key(key)


def private_key(key: str) -> None:
    """The organiser key, drawn only while the teacher's switch is on (off on every new session): with the
    lesson code on the wall, the key would open Manage to anyone who read it."""
    st.divider()
    st.subheader("For your eyes only", anchor=False)
    shown = st.toggle(
        "Show my organiser key (not while projecting)",
        key=K.CAMP_KEY_SHOWN,
        help="The key opens this lesson's Manage tab (students' names, exports, closing) on any computer.",
    )
    if shown:
        st.code(key, language=None)
        st.caption(
            "Copy it with the button and keep it private: this browser remembers the lesson, the key opens "
            "it on another computer (Manage a campaign). Switch this off before projecting."
        )


def class_mode_tab() -> None:
    """The Class mode tab: the lesson form, then the lesson made (or reopened) with its links."""
    if current_study() is None:
        st.info(
            "Open a study first (the **Study** page): class mode samples its systems and segments."
        )
        return
    code, key = state.get(K.CAMP_CODE), state.get(K.CAMP_KEY)
    lesson_switch(code)
    choices = class_mode.class_mode_form(current_scores())
    if choices is not None:
        try:
            created = class_mode.create_lesson(open_store(), current_scores(), choices)
        except (BleuStudyError, SQLAlchemyError) as err:
            st.error(f"The lesson could not be made: {md_escape(str(err))}")
            return
        code, key = created.campaign.code, created.organiser_key
        remember_lesson(code, key)
        remember_campaign(code, key, tab=forms.CLASS_TAB)  # the key: "for your eyes only"
        st.rerun()
    if code and key:
        lesson_links(code, key)


def remembered_lessons() -> None:
    """On a session's first visit, reopen the latest lesson this browser remembers; keep the cookie in step.
    The lesson open (class mode or Manage) brings back the study it was planned on (:mod:`.lesson_study`)."""
    reopen_remembered_lesson(open_store, tab=forms.CLASS_TAB)
    sync_browser_memory()
    code = state.get(K.CAMP_CODE)
    say_reopened()
    if code and code not in (state.get(K.LESSON_STUDY_FOLLOWED) or ()):
        try:
            campaign = open_store().get_campaign(code)
        except BleuStudyError:
            return  # deleted meanwhile: Manage says so
        if follow_lesson_study(campaign):
            st.rerun()  # the sidebar and every tab show the lesson's study
