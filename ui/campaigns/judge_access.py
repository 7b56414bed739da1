"""How a judge gets in on the Rate translations page: join a campaign with its code, resume with a resume code
(typed, or in the page's address), sign out.

Who the judge is lives in ``st.session_state`` (:data:`ui.app.state.RATE_CODE`, :data:`~ui.app.state.RATE_TOKEN`);
everything else (position, ratings) is in the campaign database. A resume code in the address
(``?resume=<code>-<token>``, a bookmarked link) signs the judge in and is taken out of the address at once, so
it does not stay in the browser's history or on a shared screen; a judge who just joined sees the resume code
once, to note down.

Guessing is bounded: one process-wide :class:`bleu_core.campaigns.AttemptLimiter` (:data:`ATTEMPTS`) counts
each *failed* attempt (a campaign code not found, a join or a resume code refused) per client (the IP address
the server sees, else this browser session); over the limit, no look-up is made and the judge is told how many
seconds to wait. Successful joins are not counted, so a class behind one school router can join together.
Every message that may echo what was typed or put in the address is Markdown-escaped.
"""

from __future__ import annotations

import html
import math
import secrets

import streamlit as st

from bleu_core.campaigns import (
    AttemptLimiter,
    Campaign,
    CampaignStore,
    JudgeSession,
    TooManyAttempts,
)
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.markup import STYLE, html_text, label_html, md_escape
from ui.campaigns.browser_memory import forget_judge, judge_for, remember_judge
from ui.campaigns.db import open_store
from ui.campaigns.judge_link import CAMPAIGN_PARAM, RESUME_PARAM  # noqa: E402,F401 (re-exported)

#: What a judge is told they will see, per display mode.
JUDGE_SEES: dict[str, str] = {
    "source": "the source sentence and the translation",
    "reference": "a reference translation and the translation",
    "both": "the source sentence, a reference translation and the translation",
    "neither": "only the translation",
}

#: Failed joins and resumes per client, for the whole server process (all sessions share it).
ATTEMPTS = AttemptLimiter()

#: Longest campaign code the join box takes (``st.text_input(max_chars=...)``).
CODE_MAX_CHARS = 16


def client_id() -> str:
    """Who counts as one client for :data:`ATTEMPTS`: the IP address the server sees (``st.context``), else a
    random id kept in this browser session (:data:`ui.app.state.RATE_CLIENT_ID`)."""
    ip = getattr(st.context, "ip_address", None)
    if isinstance(ip, str) and ip:  # None on localhost (and not a str under AppTest)
        return f"ip:{ip}"
    session_id = st.session_state.get(K.RATE_CLIENT_ID)
    if not session_id:
        session_id = st.session_state[K.RATE_CLIENT_ID] = secrets.token_hex(8)
    return f"session:{session_id}"


def wait_message(err: TooManyAttempts) -> str:
    """What a client over the limit is told: the limit and when to try again.

    >>> wait_message(TooManyAttempts("x", retry_after=12.2))
    'Too many wrong codes from here (at most 10 a minute): wait 13 s and try again.'
    """
    limit = f"at most {ATTEMPTS.max_attempts} per {ATTEMPTS.window_seconds:g} s"
    if ATTEMPTS.window_seconds == 60:
        limit = f"at most {ATTEMPTS.max_attempts} a minute"
    wait = max(1, math.ceil(float(getattr(err, "retry_after", 0) or 0)))
    return f"Too many wrong codes from here ({limit}): wait {wait} s and try again."


def attempt_blocked() -> str | None:
    """The wait message when this client has used up its attempts (nothing is counted), else None."""
    client = client_id()
    if ATTEMPTS.remaining(client) > 0:
        return None
    try:
        ATTEMPTS.hit(client)  # raises with the time to wait; a refused hit is not counted
    except TooManyAttempts as err:
        return wait_message(err)
    return None  # pragma: no cover - an attempt expired between the two calls


def count_failure() -> None:
    """Count one failed attempt of this client (a full window is simply full)."""
    try:
        ATTEMPTS.hit(client_id())
    except TooManyAttempts:
        pass


def sign_in(session: JudgeSession, notice: str | None = None) -> None:
    """Remember the judge of *session* in this browser session and in this browser (a reload brings the same
    judge back), and leave only the campaign code in the address (a resume code never stays there); *notice*
    (the resume code of a judge who just joined) is shown once on the next run."""
    st.session_state[K.RATE_CODE] = session.code
    st.session_state[K.RATE_TOKEN] = session.token
    st.session_state[K.RATE_NOTICE] = notice
    remember_judge(session.resume_code)
    st.query_params.clear()
    st.query_params[CAMPAIGN_PARAM] = session.code  # a reload opens the Rate page again


def sign_out() -> None:
    """Forget the judge in this browser session and in this browser, and clear the address."""
    if st.session_state.get(K.RATE_CODE):
        forget_judge(st.session_state[K.RATE_CODE])
    st.session_state[K.RATE_CODE] = None
    st.session_state[K.RATE_TOKEN] = None
    st.session_state[K.RATE_NOTICE] = None
    st.query_params.clear()


def signed_in() -> bool:
    """Whether a judge is signed in in this browser session."""
    return bool(st.session_state.get(K.RATE_TOKEN))


def resume_from_address() -> None:
    """Sign in the judge whose resume code is in the address (a bookmarked link), unless someone is signed in
    already. The code is taken out of the address whatever happens; one that does not work gives a warning
    (escaped) and counts as a failed attempt."""
    resume_code = st.query_params.get(RESUME_PARAM)
    if not resume_code:
        return
    del st.query_params[RESUME_PARAM]  # used once: not left in the history or on a shared screen
    if signed_in():
        return
    blocked = attempt_blocked()
    if blocked:
        st.warning(blocked)
        return
    try:
        session = JudgeSession.from_resume_code(open_store(), resume_code)
    except BleuStudyError as err:
        count_failure()
        st.warning(f"The resume code in the address does not work: {md_escape(str(err))}")
        return
    sign_in(session)


def resume_from_browser() -> None:
    """Sign in the judge this browser remembers (the campaign of the address's ``?campaign=``, else the latest),
    unless someone is signed in already: a reload, a closed tab or a locked phone comes back to the same judge
    on the same item. A remembered code that no longer works is forgotten (the campaign was deleted)."""
    if signed_in():
        return
    link_code = st.query_params.get(CAMPAIGN_PARAM)
    if link_code and len(link_code) > CODE_MAX_CHARS:
        return
    resume_code = judge_for(link_code or None)
    if not resume_code or attempt_blocked():
        return
    try:
        session = JudgeSession.from_resume_code(open_store(), resume_code)
    except BleuStudyError:
        count_failure()
        forget_judge(resume_code.partition("-")[0])
        return
    sign_in(session)


def current_session() -> JudgeSession:
    """The signed-in judge's session, rebuilt from the database; a token that no longer works (wrong, or the
    campaign was deleted) signs the judge out and stops the page with the reason."""
    try:
        return JudgeSession(
            open_store(), st.session_state[K.RATE_CODE], st.session_state[K.RATE_TOKEN]
        )
    except BleuStudyError as err:  # AccessDenied, or e.g. the campaign was deleted
        sign_out()
        st.error(md_escape(str(err)))
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
        + f'<div class="bs-seg"><b>{html_text(campaign.name)}</b> · {campaign.n_items} '
        f"items · you will see {html.escape(shows)}</div>"
    )


def anonymous_name() -> str:
    """A random judge name for a student who joins without a name (65,536 of them: a clash is told as
    "name taken", and the student presses the button again).

    >>> name = anonymous_name(); name.startswith("student ") and len(name) == 12
    True
    """
    return f"student {secrets.token_hex(2)}"


def _find_campaign(store: CampaignStore, code: str) -> Campaign | None:
    """The campaign of a typed code, or None after an error message. A code not found counts as a failed
    attempt once (re-runs with the same code show the same message without another look-up)."""
    wanted = code.strip().upper()
    failed = st.session_state.get(K.RATE_FAILED_LOOKUP)
    if failed and failed[0] == wanted:
        st.error(failed[1])
        return None
    blocked = attempt_blocked()
    if blocked:
        st.error(blocked)
        return None
    try:
        return store.get_campaign(code)
    except BleuStudyError as err:
        count_failure()
        message = md_escape(str(err))
        st.session_state[K.RATE_FAILED_LOOKUP] = (wanted, message)
        st.error(message)
        return None


def _join_form(store: CampaignStore, code: str) -> None:
    campaign = _find_campaign(store, code)
    if campaign is None:
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
        group = campaign.groups[0]
        if len(campaign.groups) > 1:  # one group: nothing to choose, nothing shown
            group = st.radio(
                "Your group",
                list(campaign.groups),
                key=K.RATE_JOIN_GROUP,
                format_func=md_escape,  # organiser-written: plain text (radio options render Markdown)
                horizontal=True,
                help="The paper had a monolingual group (judging only the English) and a bilingual "
                "group. Ask your organiser which one you are in.",
            )
        if st.form_submit_button("Start rating", type="primary"):
            blocked = attempt_blocked()
            if blocked:
                st.error(blocked)
                return
            try:
                session = JudgeSession.join(
                    store, code, anonymous_name() if anonymous else name, group
                )
            except BleuStudyError as err:
                count_failure()
                st.error(md_escape(str(err)))
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
            blocked = attempt_blocked()
            if blocked:
                st.error(blocked)
                return
            try:
                session = JudgeSession.from_resume_code(open_store(), resume)
            except BleuStudyError as err:
                count_failure()
                st.error(md_escape(str(err)))
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
    if link_code and len(link_code) > CODE_MAX_CHARS:
        st.warning(f"The address holds no campaign code: {md_escape(link_code[:80])}")
    elif link_code and not st.session_state.get(K.RATE_JOIN_CODE):
        st.session_state[K.RATE_JOIN_CODE] = link_code
    join_tab, resume_tab = st.tabs(["Join a campaign", "Resume"])
    with join_tab:
        code = st.text_input(
            "Campaign code",
            key=K.RATE_JOIN_CODE,
            max_chars=CODE_MAX_CHARS,
            placeholder="e.g. K7P2QX",
        )
        if code.strip():
            _join_form(open_store(), code)
    with resume_tab:
        _resume_form()
