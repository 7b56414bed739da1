"""How a judge gets in on the Rate translations page: join a campaign with its code, resume with a resume code
(typed, or in the page's address), sign out.

Who the judge is lives in ``st.session_state`` (:data:`ui.app.state.RATE_CODE`, :data:`~ui.app.state.RATE_TOKEN`) and in
the address (``?resume=<code>-<token>``), so a reload or a closed tab continues where the judge was; everything
else (position, ratings) is in the campaign database.
"""

from __future__ import annotations

import html
import secrets

import streamlit as st

from bleu_core.campaigns import Campaign, CampaignStore, JudgeSession
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.markup import STYLE, label_html
from ui.campaigns.db import open_store
from ui.campaigns.judge_link import CAMPAIGN_PARAM, RESUME_PARAM  # noqa: E402,F401 (re-exported)

#: What a judge is told they will see, per display mode.
JUDGE_SEES: dict[str, str] = {
    "source": "the source sentence and the translation",
    "reference": "a reference translation and the translation",
    "both": "the source sentence, a reference translation and the translation",
    "neither": "only the translation",
}


def sign_in(session: JudgeSession, notice: str | None = None) -> None:
    """Remember the judge of *session* and put their resume code in the address; *notice* (the resume code of a
    judge who just joined) is shown once on the next run."""
    st.session_state[K.RATE_CODE] = session.code
    st.session_state[K.RATE_TOKEN] = session.token
    st.session_state[K.RATE_NOTICE] = notice
    st.query_params.clear()
    st.query_params[RESUME_PARAM] = session.resume_code


def sign_out() -> None:
    """Forget the judge in this browser session and clear the address."""
    st.session_state[K.RATE_CODE] = None
    st.session_state[K.RATE_TOKEN] = None
    st.session_state[K.RATE_NOTICE] = None
    st.query_params.clear()


def signed_in() -> bool:
    """Whether a judge is signed in in this browser session."""
    return bool(st.session_state.get(K.RATE_TOKEN))


def resume_from_address() -> None:
    """Sign in the judge whose resume code is in the address (a reload or a bookmarked link), unless someone is
    signed in already; a code that does not work gives a warning and is removed from the address."""
    resume_code = st.query_params.get(RESUME_PARAM)
    if signed_in() or not resume_code:
        return
    try:
        sign_in(JudgeSession.from_resume_code(open_store(), resume_code))
    except BleuStudyError as err:
        st.warning(f"The resume code in the address does not work: {err}")
        st.query_params.clear()


def current_session() -> JudgeSession:
    """The signed-in judge's session, rebuilt from the database; a token that no longer works (wrong, or the
    campaign was deleted) signs the judge out and stops the page with the reason."""
    try:
        return JudgeSession(
            open_store(), st.session_state[K.RATE_CODE], st.session_state[K.RATE_TOKEN]
        )
    except BleuStudyError as err:  # AccessDenied, or e.g. the campaign was deleted
        sign_out()
        st.error(str(err))
        st.stop()
        raise  # unreachable: st.stop() ends the run


def campaign_intro_html(campaign: Campaign) -> str:
    """The campaign's name (escaped), size and what the judge will see, as HTML.

    >>> from datetime import datetime, UTC
    >>> from bleu_core.campaigns import default_criteria
    >>> c = Campaign("K7P2QX", "<i>x</i>", "toy", ("A",), ("s1",), default_criteria(), "source",
    ...              ("mono",), 3, 1, datetime(2024, 1, 1, tzinfo=UTC))
    >>> "&lt;i&gt;x&lt;/i&gt;</b> · 1 items · you will see the source sentence" in campaign_intro_html(c)
    True
    """
    shows = JUDGE_SEES[campaign.display]
    return (
        STYLE
        + label_html("Campaign")
        + f'<div class="bs-seg"><b>{html.escape(campaign.name)}</b> · {campaign.n_items} '
        f"items · you will see {html.escape(shows)}</div>"
    )


def anonymous_name() -> str:
    """A random judge name for a student who joins without a name (65,536 of them: a clash is told as
    "name taken", and the student presses the button again).

    >>> name = anonymous_name(); name.startswith("student ") and len(name) == 12
    True
    """
    return f"student {secrets.token_hex(2)}"


def _join_form(store: CampaignStore, code: str) -> None:
    try:
        campaign = store.get_campaign(code)
    except BleuStudyError as err:
        st.error(str(err))
        return
    st.markdown(campaign_intro_html(campaign), unsafe_allow_html=True)
    if not campaign.is_open:
        st.warning("This campaign is closed; ask the organiser to reopen it.")
    with st.form("rate_join_form"):
        name = st.text_input("Your name", key=K.RATE_JOIN_NAME, max_chars=80)
        anonymous = st.checkbox(
            "Join without my name",
            key=K.RATE_ANONYMOUS,
            help="You get a random name such as 'student 4f2a'; your resume code still brings you back.",
        )
        group = st.radio(
            "Your group",
            list(campaign.groups),
            key=K.RATE_JOIN_GROUP,
            horizontal=True,
            help="The paper had a monolingual group (judging only the English) and a bilingual "
            "group. Ask your organiser which one you are in.",
        )
        if st.form_submit_button("Start rating", type="primary"):
            try:
                session = JudgeSession.join(
                    store, code, anonymous_name() if anonymous else name, group
                )
            except BleuStudyError as err:
                st.error(str(err))
            else:
                sign_in(session, notice=session.resume_code)
                st.rerun()


def _resume_form() -> None:
    with st.form("rate_resume_form"):
        resume = st.text_input(
            "Resume code",
            key=K.RATE_RESUME_CODE,
            placeholder="e.g. K7P2QX-12-…",
            type="password",
        )
        if st.form_submit_button("Resume", type="primary"):
            try:
                session = JudgeSession.from_resume_code(open_store(), resume)
            except BleuStudyError as err:
                st.error(str(err))
            else:
                sign_in(session)
                st.rerun()


def join_or_resume() -> None:
    """The "Join a campaign" and "Resume" tabs shown before a judge has signed in.

    The campaign code of an organiser's link (``?campaign=``) pre-fills the join form; the database is opened only
    once a code is typed, so visiting the page creates nothing.
    """
    st.write(
        "Your organiser gave you a **campaign code**. Enter it with your name to start; you rate one "
        "translation at a time and can stop whenever you like. Already started? Use your **resume code**."
    )
    link_code = st.query_params.get(CAMPAIGN_PARAM)
    if link_code and not st.session_state.get(K.RATE_JOIN_CODE):
        st.session_state[K.RATE_JOIN_CODE] = link_code
    join_tab, resume_tab = st.tabs(["Join a campaign", "Resume"])
    with join_tab:
        code = st.text_input(
            "Campaign code", key=K.RATE_JOIN_CODE, max_chars=16, placeholder="e.g. K7P2QX"
        )
        if code.strip():
            _join_form(open_store(), code)
    with resume_tab:
        _resume_form()
