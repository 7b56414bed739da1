"""Rate translations (judges): join a campaign with its code, rate items one at a time, resume any time.

As in the BLEU paper's §4, every judge sees the same items in the same shuffled order and rates each translation
from 1 (very bad) to 5 (very good). Everything is saved in the campaign database the moment it is submitted;
the page keeps only who the judge is (a resume code in the URL signs the judge in and is then taken out
of it).
Signing in: :mod:`ui.campaigns.judge_access`; the rating screen and its keyboard controls: :mod:`ui.campaigns.rating_widgets`.
"""

from __future__ import annotations

import streamlit as st

from bleu_core.campaigns import AlreadySaved, JudgeSession
from bleu_core.campaigns.lesson import is_lesson
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.context import ensure_entrypoint
from ui.app.markup import md_escape
from ui.campaigns.browser_memory import sync_browser_memory
from ui.campaigns.contrastive_rating import rate_screen
from ui.campaigns.esa_marking import rate_slider_item, show_feedback
from ui.campaigns.judge_access import (
    current_session,
    join_or_resume,
    resume_from_address,
    resume_from_browser,
    sign_out,
    signed_in,
)
from ui.campaigns.lesson_timer import seconds_left, timer_text
from ui.campaigns.rating_widgets import (
    connection_notice,
    finished_choice,
    judge_header,
    keyboard_controls,
    live_countdown,
    navigation,
    score_form,
    scroll_to_item,
    show_item,
    welcome,
)


def moved() -> None:
    """The judge saved, skipped or moved: the next run brings the new item's top into view."""
    st.session_state[K.RATE_SCROLL_TO_ITEM] = True
    st.rerun()


def rate_item(session: JudgeSession) -> None:
    """The current item: its texts, the score form, and the way back and forth."""
    pos = session.position
    if session.campaign.protocol == "cesa":  # contrastive ESA: the sentence's translations stacked
        if rate_screen(session, pos):
            moved()
        return
    item = session.item(pos)
    assert item is not None  # the caller checked session.finished
    st.subheader(f"Item {pos + 1} of {session.n_items}", anchor="bs-item")
    if st.session_state.pop(K.RATE_SCROLL_TO_ITEM, False):
        scroll_to_item(pos)
    show_feedback()
    if session.campaign.protocol != "adequacy-fluency":  # ESA or DA: marks and a 0-100 slider
        if rate_slider_item(session, pos, item):
            moved()
        go_elsewhere(session, pos)
        return
    show_item(item)
    second_tap = st.session_state.pop(K.RATE_NOTICE_SAVED, None)
    if second_tap:
        st.info(second_tap)
    existing = session.scores(pos)
    answer = score_form(session.campaign, pos, existing)
    if answer.save:
        if answer.missing:
            missing = ", ".join(md_escape(name) for name in answer.missing)
            st.warning(f"Choose a score for {missing} (or skip this item).")
        else:
            try:
                session.submit(pos, answer.chosen, at_cursor=True)  # only the item on screen
            except AlreadySaved as err:  # the first tap's run saved it: nothing changed, go on
                st.session_state[K.RATE_NOTICE_SAVED] = md_escape(str(err).capitalize()) + "."
                moved()
            except BleuStudyError as err:
                st.error(md_escape(str(err)))
            else:
                moved()
    if answer.skip:
        try:
            session.skip(pos)
        except BleuStudyError as err:
            st.error(md_escape(str(err)))
        else:
            moved()
    go_elsewhere(session, pos)
    keyboard_controls()


def go_elsewhere(session: JudgeSession, pos: int) -> None:
    """Back, Next and Go to item…"""
    target = navigation(pos, session.n_items, rated=bool(session.scores(pos)))
    if target is not None:
        session.go_to(target)
        moved()


def rating_view(session: JudgeSession) -> None:
    """Who is rating and how far they are, then the current item or, past the last one, the end screen."""
    rated, skipped, n = session.progress()
    judge_header(session, rated, skipped)
    notice = st.session_state.get(K.RATE_NOTICE)
    if notice:
        welcome(notice)
        st.session_state[K.RATE_NOTICE] = None
    left = seconds_left(session.code)  # the lesson's timer, when the teacher set one
    if left is not None and left <= 0:
        st.info(f"{timer_text(left)}. Thank you! Look at the projector.")
        return
    if not session.campaign.is_open:
        st.info("Rating is closed. Thank you!")
        return
    if left is not None or is_lesson(session.campaign):  # a lesson's phone follows its timer live
        live_countdown(
            session.code,
            lambda: session.store.get_campaign(session.code).is_open,
            timed=left is not None,
        )
    if not session.finished:
        rate_item(session)
        return
    target = finished_choice(n, rated, session.first_unrated())
    if target is not None:
        session.go_to(target)
        st.rerun()


ensure_entrypoint()  # a judge's first request may be a deep link (/rate?resume=…)
connection_notice()  # "reconnecting — your ratings are saved" instead of the framework's dialog
st.title("Rate translations")
resume_from_address()
resume_from_browser()  # the judge this browser remembers: a reload loses nothing
sync_browser_memory()
if not signed_in():
    join_or_resume()  # the database is opened only once a code is typed
    st.stop()

judge_session = current_session()
with st.sidebar:
    st.text(f"Rating as {judge_session.judge.name}")
    if st.button("Sign out", icon=":material/logout:"):
        sign_out()
        st.rerun()
rating_view(judge_session)
