"""Who the Projector page shows the class to, and with which rights.

* a **view-only link** (``/projector?lesson=CODE&view=TOKEN``, the one the Campaigns page offers): the class's
  numbers and nothing else; it stays in the address, so a reload shows the same lesson. The token is no organiser
  key (:meth:`bleu_core.campaigns.CampaignStore.class_view`): a student who copies it from the screen can only
  watch;
* the **teacher's browser** (the lesson is in "my lessons", :mod:`ui.campaigns.browser_memory`): the same, plus
  the teacher's controls (the timer, closing rating). With no link, the latest lesson of this browser opens;
* an older link with ``&key=``: the key is taken out of the address at once and remembered by this session
  (this browser's cookie is written by the Campaigns page: the projector's page never carries a key).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from bleu_core.campaigns import Campaign, CampaignStore, JudgeProgress, StoredRating
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.campaigns.browser_memory import forget_lesson, my_lessons, remember_lesson, remembered_key

#: The projector's own query parameters (not ``campaign``: that one makes a browser session a judge's).
LESSON_PARAM = "lesson"
VIEW_PARAM = "view"
PROJECTOR_PATH = "projector"


@dataclass(frozen=True)
class ClassData:
    """What the projector draws: the campaign, its ratings and its judges' progress."""

    campaign: Campaign
    ratings: list[StoredRating]
    progress: list[JudgeProgress]


def projector_link(base: str, code: str, view: str) -> str:
    """The projector's view-only link (no organiser rights in it).

    >>> projector_link("http://h:1/", "K7", "v1ew")
    'http://h:1/projector?lesson=K7&view=v1ew'
    """
    return f"{base.rstrip('/')}/{PROJECTOR_PATH}?{LESSON_PARAM}={code}&{VIEW_PARAM}={view}"


def _organiser_key(store: CampaignStore, code: str, key: str | None) -> str | None:
    """*key* if it is the organiser key of *code*, else None (a remembered key that fails is forgotten)."""
    if not key:
        return None
    try:
        store.check_organiser(code, key)
    except BleuStudyError:
        forget_lesson(code)
        return None
    return key


def _show(store: CampaignStore, code: str, key: str | None, view: str | None) -> None:
    state = st.session_state
    if key and not view:
        view = store.viewer_token(code, key)
    state[K.PROJ_CODE], state[K.PROJ_KEY], state[K.PROJ_VIEW] = code, key, view
    st.query_params[LESSON_PARAM] = code  # a reload shows the same lesson, view-only at worst
    st.query_params[VIEW_PARAM] = view


def _from_address(store: CampaignStore) -> str | None:
    params = st.query_params
    code, key, view = params.get(LESSON_PARAM), params.get("key"), params.get(VIEW_PARAM)
    if "key" in params:
        del params["key"]  # an organiser key never stays in the address (history, shared screens)
    if not code or not (key or view):
        return None
    try:
        if key:
            campaign = store.check_organiser(code, key)
            remember_lesson(campaign.code, key)
        else:
            campaign = store.class_view(code, view)[0]
    except BleuStudyError as err:
        return str(err)
    if st.session_state.get(K.PROJ_CODE) != campaign.code:
        key = key or _organiser_key(store, campaign.code, remembered_key(campaign.code))
        _show(store, campaign.code, key, None if key else view)
    return None


def choose_lesson(store: CampaignStore) -> str | None:
    """Put the lesson to show in the session: the address's, else (first run) the latest of this browser.

    Returns an error message for the page, or None.
    """
    error = _from_address(store)
    if error or st.session_state.get(K.PROJ_CODE):
        return error
    for code, key in my_lessons():
        if _organiser_key(store, code, key):
            _show(store, code, key, None)
            return None
    return None


def sign_in_projector(store: CampaignStore, code: str, key: str) -> None:
    """The projector's sign-in form: a typed code and key (remembered by this browser); raises when wrong."""
    campaign = store.check_organiser(code.strip(), key.strip())
    remember_lesson(campaign.code, key.strip())
    _show(store, campaign.code, key.strip(), None)


def class_data(store: CampaignStore) -> ClassData:
    """The campaign, ratings and progress of the lesson shown, read with the rights this projector has."""
    state = st.session_state
    code, key, view = state[K.PROJ_CODE], state.get(K.PROJ_KEY), state.get(K.PROJ_VIEW)
    if key:
        campaign = store.check_organiser(code, key)
        return ClassData(campaign, store.ratings(code, key), store.progress(code, key))
    return ClassData(*store.class_view(code, view))


def leave_projector() -> None:
    """Forget the lesson shown in this session and clear the address."""
    state = st.session_state
    state[K.PROJ_CODE] = state[K.PROJ_KEY] = state[K.PROJ_VIEW] = None
    st.query_params.clear()
