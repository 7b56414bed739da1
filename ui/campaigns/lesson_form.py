"""Class mode's questions before a lesson is made: what the class reads, how many students, and whether the
systems the lesson would take can show the paper's point (spread over the BLEU range, a human translation among
them). An open study whose translations are not in English gets the offer of the bundled zh-en demo (English
translations, a human translation, BLEU from 27 to 44).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import streamlit as st

from bleu_core.campaigns.lesson import (
    RATINGS_PER_SYSTEM,
    READS,
    choose_lesson_systems,
    lesson_segments,
    seconds_per_item,
)
from bleu_core.errors import BleuStudyError
from bleu_core.study.model import Study
from ui.app import state as K
from ui.app.context import open_demo
from ui.app.markup import md_escape
from ui.campaigns.browser_memory import my_lessons
from ui.campaigns.db import open_store

#: The bundled study class mode offers to a class that reads English.
ENGLISH_DEMO = "ted-zh-en"
#: Below this BLEU spread the class's r swings with every rating.
MIN_SPREAD = 10.0
LANGUAGES = {
    "en": "English",
    "de": "German",
    "zh": "Chinese",
    "fr": "French",
    "es": "Spanish",
    "ru": "Russian",
    "ja": "Japanese",
    "cs": "Czech",
    "it": "Italian",
    "pt": "Portuguese",
}


def language_name(code: str | None, fallback: str) -> str:
    """A language's English name from its code (the code itself when unknown).

    >>> language_name("de", "x"), language_name("xx", "x"), language_name(None, "the source language")
    ('German', 'xx', 'the source language')
    """
    if not code:
        return fallback
    return LANGUAGES.get(code.split("-")[0].lower(), code)


def reads_labels(study: Study) -> dict[str, str]:
    """The choices of "The class reads", named by the study's languages."""
    target = language_name(study.target_lang, "the translations' language")
    source = language_name(study.source_lang, "the source language")
    return {
        "target": f"{target} (they see a reference translation)",
        "source": f"{source} (they see the source sentence)",
        "both": f"{source} and {target} (they see both)",
    }


def _students_changed() -> None:
    st.session_state[K.CLASS_SEGMENTS] = lesson_segments(int(st.session_state[K.CLASS_STUDENTS]))


def audience_inputs(study: Study) -> str:
    """ "The class reads" and "Students": what the students see, and the lesson's size (segments follow the
    number of students). Returns what the class reads (one of :data:`READS`)."""
    labels = reads_labels(study)
    left, right = st.columns([3, 1])
    reads = left.radio(
        "The class reads",
        list(READS),
        format_func=labels.__getitem__,
        key=K.CLASS_READS,
        horizontal=True,
    )
    right.number_input(
        "Students",
        min_value=1,
        max_value=500,
        key=K.CLASS_STUDENTS,
        on_change=_students_changed,
        help="Sets the segments so that r settles (each student rates every system on every segment).",
    )
    return str(reads)


#: Seconds a student takes per item, by protocol, for the lesson's estimate. Adequacy + fluency: two taps on
#: the paper's 1-5 scale, ~6 s each (as the app has always assumed). ESA: an assumption, not a measurement
#: (reading the translation, tapping the words of each error, marking it, then the slider): 30 s an item;
#: a contrastive screen counts that per translation. Once this browser's teacher has run a lesson of the
#: protocol, its ratings' times are the measure instead (:func:`measured_pace`).
SECONDS_PER_ITEM = {"adequacy-fluency": 12, "esa": 30, "da": 10, "cesa": 30}
#: How each protocol's time is worded in the estimate.
PACE = {
    "adequacy-fluency": "adequacy and fluency, ~6 s a rating",
    "esa": "ESA: marking errors, then a score, ~30 s an item (an assumption)",
    "da": "a 0-100 score, ~10 s an item (an assumption)",
    "cesa": "contrastive ESA: ~30 s a translation (an assumption)",
}


def size_caption(
    n_students: int,
    n_systems: int,
    n_segments: int,
    protocol: str = "adequacy-fluency",
    measured: tuple[float, str] | None = None,
) -> str:
    """How many ratings each system will get, against what r needs, and the time per student, at the
    *protocol*'s pace: *measured* ``(seconds an item, lesson code)`` when an earlier lesson of this protocol
    timed it (:func:`measured_pace`), else :data:`SECONDS_PER_ITEM`.

    >>> size_caption(20, 5, 10)
    '50 items per student, about 10 minutes (adequacy and fluency, ~6 s a rating). Each system gets 200 ratings of each criterion from 20 students; r settles at about 40.'
    >>> size_caption(20, 5, 10, "esa").split(". ")[0]
    '50 items per student, about 25 minutes (ESA: marking errors, then a score, ~30 s an item (an assumption))'
    >>> size_caption(20, 5, 10, "esa", (42.0, "K7P2QX")).split(". ")[0]
    '50 items per student, about 35 minutes (~42 s an item, as your lesson K7P2QX took)'
    """
    per_system = n_students * n_segments
    seconds = measured[0] if measured else SECONDS_PER_ITEM.get(protocol, SECONDS_PER_ITEM["esa"])
    minutes = math.ceil(n_systems * n_segments * seconds / 60)
    pace = (
        f"~{measured[0]:.0f} s an item, as your lesson {measured[1]} took"
        if measured
        else PACE.get(protocol, PACE["esa"])
    )
    text = (
        f"{n_systems * n_segments} items per student, about {minutes} minutes ({pace}). Each system gets "
        f"{per_system} ratings of each criterion from {n_students} students; r settles at about "
        f"{RATINGS_PER_SYSTEM}."
    )
    if per_system < RATINGS_PER_SYSTEM:
        text += " Too few: add segments, or r will swing until the end."
    return text


def measured_pace(protocol: str) -> tuple[float, str] | None:
    """``(seconds an item, code)`` from the latest lesson of *protocol* this browser remembers, when its
    ratings time the class's pace (:func:`bleu_core.campaigns.lesson.seconds_per_item`); else None."""
    for code, key in my_lessons():
        try:
            campaign = open_store().get_campaign(code)
            if campaign.protocol != protocol:
                continue
            seconds = seconds_per_item(open_store().ratings(code, key))
        except BleuStudyError:
            continue
        return (seconds, code) if seconds is not None else None
    return None


def systems_preview(study: Study, system_bleu: Mapping[str, float], n_systems: int) -> None:
    """The systems the lesson would take, with BLEU, and a warning when they cannot show the paper's point."""
    try:
        chosen = choose_lesson_systems(system_bleu, set(study.human_systems), n_systems)
    except BleuStudyError as err:
        st.warning(str(err))
        return
    humans = [s for s in chosen if s in study.human_systems]
    names = ", ".join(
        f"{md_escape(s)} ({'human, ' if s in humans else ''}{system_bleu[s]:.1f})"
        for s in sorted(chosen, key=lambda s: system_bleu[s])
    )
    values = [system_bleu[s] for s in chosen]
    spread = max(values) - min(values)
    st.caption(f"Systems (BLEU): {names} · spread {spread:.1f} BLEU points")
    problems = []
    if not humans:
        problems.append("no human translation among them")
    if spread < MIN_SPREAD:
        problems.append(f"they span only {spread:.1f} BLEU points")
    if problems:
        st.warning(
            f"This lesson may not show the paper's point: {' and '.join(problems)}, so the class's r will "
            "swing with every rating.",
            icon=":material/warning:",
        )


def english_offer(study: Study) -> None:
    """For a study whose translations are not English: the bundled English-output demo, one click away."""
    if (study.target_lang or "").lower().startswith("en"):
        return
    target = language_name(study.target_lang, "another language")
    st.info(
        f"The students will read {target} translations. Does your class read English? The bundled zh-en "
        "study has English translations, a human translation among the systems and BLEU from 27 to 44: "
        "the paper's point shows clearly.",
        icon=":material/translate:",
    )
    st.button(
        "Use the English demo (zh-en)",
        on_click=open_demo,
        args=(ENGLISH_DEMO,),
        icon=":material/swap_horiz:",
    )
