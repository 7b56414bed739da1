"""The lesson owns its study: a lesson keeps where the study it was planned on came from (the app's study key,
``demo:ted-zh-en``; :func:`bleu_core.campaigns.lesson.lesson_study_source`), and after a reload, in a new tab,
the Campaigns page (class mode and Manage) and the Projector open that study again by themselves, once per
lesson and session (:data:`ui.app.state.LESSON_STUDY_FOLLOWED`: a study the teacher opens afterwards is left
alone). A bundled demo reopens; a study from an upload or a path cannot be reopened from here, and
:func:`study_mismatch` then says in words which study to open instead of listing segment ids.
"""

from __future__ import annotations

import streamlit as st

from bleu_core.campaigns import Campaign
from bleu_core.campaigns.lesson import is_lesson, lesson_study_source
from bleu_core.errors import BleuStudyError
from bleu_core.study.model import Study
from ui.app import state as K
from ui.app.context import open_demo
from ui.app.startup import DEMO_PREFIX


def open_study_source() -> str:
    """Where the open study came from: its key without the parts a reference choice, a domain or added
    ratings append (``demo:ted-zh-en|campaign:…`` → ``demo:ted-zh-en``); '' with no study open."""
    return str(st.session_state.get(K.STUDY_KEY) or "").split("|")[0]


def say_reopened() -> None:
    """Say, once, which lesson study :func:`follow_lesson_study` reopened. It is said on the run after the
    caller's rerun: a toast sent just before ``st.rerun()`` can leave the browser with a blank page
    (Streamlit 1.67's "Bad delta path index")."""
    opened = st.session_state.pop(K.LESSON_STUDY_OPENED, None)
    if opened:
        st.toast(f"Opened the lesson's study again ({opened}).", icon=":material/sync:")


def follow_lesson_study(campaign: Campaign) -> bool:
    """Open the study *campaign* was planned on when another one is open, once per lesson and session.
    True when a study was opened (the caller reruns, so the sidebar and every part show it)."""
    source = lesson_study_source(campaign)
    state = st.session_state
    say_reopened()
    followed = set(state.get(K.LESSON_STUDY_FOLLOWED) or ())
    if campaign.code in followed:
        return False
    state[K.LESSON_STUDY_FOLLOWED] = followed | {campaign.code}
    if source is None or source == open_study_source() or not source.startswith(DEMO_PREFIX):
        return False
    try:
        open_demo(source[len(DEMO_PREFIX) :])
    except BleuStudyError:
        return False  # the demo is gone from this installation: study_mismatch says what to open
    state[K.LESSON_STUDY_OPENED] = source
    return True


def study_mismatch(campaign: Campaign, study: Study | None) -> str | None:
    """Why *study* cannot take *campaign*'s ratings, in words (None when it can): which study to open.

    >>> from datetime import datetime, UTC
    >>> from bleu_core.campaigns.model import RatingCriterion
    >>> from bleu_core.study.model import Segment
    >>> c = Campaign("K7", "Lesson", "TED zh-en", ("a",), ("174",), (RatingCriterion("adequacy", "q"),),
    ...              "neither", ("class",), 1, 1, datetime(2026, 1, 1, tzinfo=UTC),
    ...              metadata={"lesson": True, "study_source": "demo:ted-zh-en"})
    >>> other = Study("TED en-de", (Segment("1"),), {"ref": ["x"]}, {"a": ["x"]})
    >>> print(study_mismatch(c, other))
    Lesson K7 was made from the study “TED zh-en”, but the open study is “TED en-de”, which has other sentences or systems. Reload this page (the lesson opens its study again) or open “TED zh-en” on the Study page.
    """
    what = "Lesson" if is_lesson(campaign) else "Campaign"
    head = f"{what} {campaign.code} was made from the study “{campaign.study_name}”"
    demo = (lesson_study_source(campaign) or "").startswith(DEMO_PREFIX)
    reload = "Reload this page (the lesson opens its study again) or open" if demo else "Open"
    if study is None:
        return f"{head}: open it on the Study page."
    segments = set(study.segment_ids)
    lacks_systems = any(s not in study.systems for s in campaign.systems)
    lacks_segments = sum(1 for s in campaign.segment_ids if s not in segments)
    if not lacks_systems and not lacks_segments:
        return None
    if study.name != campaign.study_name:
        return (
            f"{head}, but the open study is “{study.name}”, which has other sentences or systems. "
            f"{reload} “{campaign.study_name}” on the Study page."
        )
    return (
        f"{head}, and the open study of that name lacks "
        + (
            f"{lacks_segments} of its {len(campaign.segment_ids)} sentences"
            if lacks_segments
            else ""
        )
        + (" and " if lacks_segments and lacks_systems else "")
        + ("some of its systems" if lacks_systems else "")
        + ": open the study as it was when the lesson was made (same file, same references)."
    )
