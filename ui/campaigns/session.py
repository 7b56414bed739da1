"""What the Campaigns page remembers between runs (``st.session_state``): the campaign the organiser has open,
the organiser key of a campaign just created (shown once), and the open study once it holds a campaign's ratings;
on a session's first visit, the latest lesson this browser remembers (:mod:`ui.campaigns.browser_memory`).

The keys themselves are declared in :mod:`ui.app.state` (section "Campaigns page").
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import astuple

import streamlit as st

from bleu_core.campaigns import (
    Campaign,
    CampaignStore,
    StoredRating,
    StoredSpan,
    apply_to_study,
    ratings_digest,
    study_criterion_name,
)
from bleu_core.campaigns.integration import name_clash_note, quality_note
from bleu_core.errors import BleuStudyError
from bleu_core.study.model import Study
from ui.app import state as K
from ui.campaigns.browser_memory import forget_lesson, my_lessons

#: Marks the part of the study key that names the campaign whose ratings the study holds.
CAMPAIGN_KEY_MARK = "|campaign:"


def remember_campaign(code: str, key: str, *, tab: str, new: bool = False) -> None:
    """Keep *code* and its organiser *key* for this browser session and open *tab* on the next run.

    A *new* campaign's key is also kept to be shown once (:data:`ui.app.state.CAMP_NEW_KEY`) and pre-fills the
    "open a campaign" form.
    """
    state = st.session_state
    state[K.CAMP_CODE], state[K.CAMP_KEY] = code, key
    if new:
        state[K.CAMP_NEW_KEY] = (code, key)
        state[K.CAMP_FORM_CODE], state[K.CAMP_FORM_KEY] = code, key
    state[K.CAMP_TAB_NEXT] = tab


def reopen_remembered_lesson(store: Callable[[], CampaignStore], *, tab: str) -> None:
    """On a session's first visit, open the latest lesson this browser remembers (on *tab*): a reload of the
    Campaigns page is back in the same lesson without a key typed. Lessons whose key no longer works are
    forgotten. *store* opens the campaign store (only when the browser remembers a lesson)."""
    first_visit = st.session_state.get(K.CAMP_LESSONS) is None
    lessons = my_lessons()
    if not first_visit or not lessons or st.session_state.get(K.CAMP_CODE):
        return
    for code, key in lessons:
        try:
            store().check_organiser(code, key)
        except BleuStudyError:
            forget_lesson(code)
            continue
        remember_campaign(code, key, tab=tab)
        return


def forget_campaign() -> None:
    """Close the organiser's view of the campaign (the key is dropped from this session)."""
    st.session_state[K.CAMP_CODE] = st.session_state[K.CAMP_KEY] = None


def campaign_study_key(study_key: str, campaign_code: str, digest: str) -> str:
    """The cache key of a study that holds a campaign's ratings: the study's own key (any earlier campaign part
    dropped), the campaign code and the ratings' digest, so new ratings give a new key.

    >>> campaign_study_key("demo:ted|campaign:OLD:123", "K7P2QX", "abc")
    'demo:ted|campaign:K7P2QX:abc'
    """
    base = study_key.split(CAMPAIGN_KEY_MARK)[0]
    return f"{base}{CAMPAIGN_KEY_MARK}{campaign_code}:{digest}"


def use_ratings_in_study(
    study: Study,
    campaign: Campaign,
    ratings: Sequence[StoredRating],
    *,
    spans: Sequence[StoredSpan] = (),
    left_out: Sequence[str] = (),
    kept: Sequence[str] = (),
) -> str:
    """Make the open study the one with the campaign's current *ratings* (and ESA *spans*) as criteria, without
    the judges *left_out* by the quality control; return the notice for the organiser. Raises
    :class:`~bleu_core.campaigns.CampaignError` when the study is not the campaign's."""
    names = ", ".join(study_criterion_name(campaign, c.name, study) for c in campaign.criteria)
    clash = name_clash_note(study, campaign)
    new = apply_to_study(study, campaign, ratings, spans=spans, left_out=left_out, kept=kept)
    state = st.session_state
    old_key = str(state.get(K.STUDY_KEY) or study.name)
    state[K.STUDY] = new
    extra = hashlib.sha256(
        repr((sorted(left_out), [astuple(x) for x in spans])).encode()
    ).hexdigest()
    digest = f"{ratings_digest(ratings)}{extra[:8] if spans or left_out else ''}"
    state[K.STUDY_KEY] = campaign_study_key(old_key, campaign.code, digest)
    n_used = sum(1 for r in ratings if r.kind == "test" and r.judge not in left_out)
    notice = (
        f"{n_used} ratings added to the open study as criteria: {names}. "
        "The BLEU vs human, Judges and Correlation pages now offer them."
    )
    if clash:
        notice += f" {clash}"
    if spans:
        n_spans = sum(1 for x in spans if x.kind == "test" and x.judge not in left_out)
        notice += f" {n_spans} error spans too (BLEU vs error spans)."
    note = quality_note(left_out, kept)
    return f"{notice} {note}" if note else notice
