"""Rating under contrastive ESA (WMT26's cESA): one source sentence and its two or three translations stacked on
one screen, each with its own error marks and its own 0-100 score.

The source sits on top; below it each translation (A, B, C: the systems stay anonymous, in the screen's seeded
order, :mod:`bleu_core.campaigns.contrastive`) in its own box with ESA's word toggles
(:func:`ui.campaigns.esa_marking.word_picker`) and a score slider. As in Pearmut the slider starts unset
(``?``, no score), moves in steps of 5, and names WMT26's band beside the number ("72 · good"). "Save and
next" saves the whole screen or nothing: a translation without a score, or scored below 85 without an error
marked, refuses the Save with a word naming it (:func:`bleu_core.campaigns.contrastive.screen_refusal`). The
Save button's key carries the screen's first position, so a late second tap belongs to the screen it was
made on and never saves the next one. What the student marked and scored on the screen and has not saved yet
is kept in this browser's draft cookie (:func:`ui.campaigns.browser_memory.remember_draft`, every
translation of the screen): a reload shows the marks and scores again; saving the screen empties it.
"""

from __future__ import annotations

import streamlit as st

from bleu_core.campaigns import AlreadySaved, Item, JudgeSession, MarkedSpan
from bleu_core.campaigns.contrastive import (
    SCORE_STEP,
    SPANS_REQUIRED_BELOW,
    band,
    screen_positions,
    screen_refusal,
    submit_screen,
)
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.markup import md_escape
from ui.campaigns import browser_memory
from ui.campaigns.esa_marking import (
    ESA_STYLE,
    current_marks,
    forget_marks,
    marked_html,
    word_picker,
)
from ui.campaigns.rating_widgets import BACK_LABEL, SAVE_LABEL, text_box

#: The unset score.
UNSET = "?"
#: The scores a slider offers (Pearmut's cESA slider moves in steps of 5).
SCORES: tuple[int, ...] = tuple(range(0, 101, SCORE_STEP))
LABELS = "ABC"


def score_text(option: int | str) -> str:
    """What the slider shows: ``?`` (no score yet) or the number with its WMT26 band.

    >>> score_text("?"), score_text(70)
    ('? (no score yet)', '70 · good')
    """
    if option == UNSET:
        return f"{UNSET} (no score yet)"
    return f"{option} · {band(int(option))}"


def _option(stored: int | None) -> int | str:
    """The slider's starting option: the stored score (to the nearest step) or unset."""
    if stored is None:
        return UNSET
    return min(SCORES, key=lambda s: abs(s - stored))


def _stored_score(session: JudgeSession, position: int) -> int | None:
    return session.scores(position).get(session.campaign.criteria[0].name)


def _start_score(session: JudgeSession, position: int) -> None:
    """Put the slider of *position* where it starts when it appears: the score of this browser's unsaved
    draft (a reload), else the stored score, else unset."""
    key = f"{K.RATE_CESA_SCORE_PREFIX}{position}"
    if key not in st.session_state:
        draft = browser_memory.draft_for(session.code, position)
        kept = draft.score if draft is not None else None
        st.session_state[key] = _option(
            kept if kept is not None else _stored_score(session, position)
        )


def translation_box(
    session: JudgeSession, item: Item, label: str
) -> tuple[int | None, list[MarkedSpan]]:
    """One translation of the screen: the text with its marks, the word toggles and the score slider."""
    pos = item.position
    marks = current_marks(session.code, pos, session.spans(pos), slider=False)
    _start_score(session, pos)
    with st.container(border=True):
        st.markdown(f"**Translation {label}**")
        st.markdown(marked_html(item.translation, marks), unsafe_allow_html=True)
        word_picker(item, pos, marks)
        options: list[int | str] = [UNSET, *SCORES]
        chosen = st.select_slider(
            f"Score of translation {label} (0-100; below {SPANS_REQUIRED_BELOW} mark the errors)",
            options=options,
            format_func=score_text,
            key=f"{K.RATE_CESA_SCORE_PREFIX}{pos}",
        )
    return (None if chosen == UNSET else int(chosen)), marks


def keep_screen_draft(
    session: JudgeSession, answers: dict[int, tuple[int | None, list[MarkedSpan]]]
) -> None:
    """Keep in this browser what differs from what is stored on the screen (every translation's marks and
    score given so far), for a reload."""
    unsaved = {
        pos: (marks, score)
        for pos, (score, marks) in answers.items()
        if score != _stored_score(session, pos) or set(marks) != set(session.spans(pos))
    }
    browser_memory.remember_draft(session.code, unsaved)


def bands_caption() -> str:
    """WMT26's bands in one line, for under the screen."""
    return (
        "WMT26's bands: **85-100** very good · **65-84** good · **45-64** acceptable · "
        "**25-44** borderline · **0-24** not acceptable."
    )


def rate_screen(session: JudgeSession, position: int) -> bool:
    """The screen of *position*: source on top, its translations stacked, Save (the whole screen) and Back.
    True when the judge saved or moved (the page then reruns on the new screen)."""
    per_screen = len(session.campaign.systems)
    screen = screen_positions(position, n_positions=session.n_items, per_screen=per_screen)
    if (
        position != screen[0]
    ):  # e.g. "go to the first unrated item" inside a screen: its whole screen
        session.go_to(screen[0])
    items = [session.item(p) for p in screen]
    st.subheader(
        f"Sentence {screen[0] // per_screen + 1} of {session.n_items // per_screen}",
        anchor="bs-item",
    )
    st.html(ESA_STYLE)
    first = items[0]
    assert first is not None
    if first.source is not None:
        text_box("Source", first.source, emphasis=True)
    if first.reference is not None:
        text_box("Reference translation", first.reference)
    st.caption(
        "Mark the errors of each translation (minor or major), then score each from 0 to 100. "
        + bands_caption()
    )
    answers: dict[int, tuple[int | None, list[MarkedSpan]]] = {}
    for label, item in zip(LABELS, items, strict=False):
        assert item is not None
        answers[item.position] = translation_box(session, item, label)
    keep_screen_draft(session, answers)
    c1, c2, _ = st.columns([2, 1, 2])
    save = c1.button(SAVE_LABEL, type="primary", key=f"rate_cesa_save_{screen[0]}", width="stretch")
    back = c2.button(BACK_LABEL, key=f"rate_cesa_back_{screen[0]}", disabled=screen[0] == 0)
    if back:
        session.go_to(max(screen[0] - per_screen, 0))
        return True
    if not save:
        return False
    refusal = screen_refusal([(LABELS[k], *answers[p]) for k, p in enumerate(screen)])
    if refusal:
        st.warning(md_escape(refusal), icon=":material/edit_note:")
        return False
    try:
        submit_screen(session, answers, at_cursor=True)
    except AlreadySaved:  # a late second tap on a screen already saved
        st.info(
            f"Sentence {screen[0] // per_screen + 1} is already saved: the second tap changed nothing."
        )
        return True
    except BleuStudyError as err:
        st.error(md_escape(str(err)))
        return False
    for p in screen:
        forget_marks(p)
    return True
