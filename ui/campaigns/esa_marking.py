"""Rating under ESA and DA: mark error spans word by word, then score 0-100 on a slider.

Streamlit has no text-selection widget, so a span is chosen from the translation's words: each word is a
toggle button (``st.pills``, reached with Tab and switched with Space or Enter, large enough for a thumb on a
390-px phone), neighbouring chosen words form one span, and "Minor error" / "Major error" mark them. Choosing
words of a span already marked and marking them again changes that span; each marked span has its own
"Remove" and "Make minor / major" buttons. ``[missing]`` (the last toggle) marks an omission. The translation
is shown with the marks highlighted, each mark labelled for screen readers ("major error: …").

The slider shows its number; the ESA anchors (0 / 33 / 66 / 100) are written under it. A score exists only once
the judge gives it: by moving the slider or, in ESA with no error marked, by choosing "No errors: score 100";
until then "Save and next" is refused with a word (an untouched slider is no rating). When the score and the
spans disagree (a high score with a major error, a low score with no error) a gentle question appears above
"Save and next"; the judge may save anyway. A save names the item it was tapped on, and the store takes it
only for the item the judge is on (a late second tap is ignored and says so; ``CampaignStore.rate(...,
at_cursor=True)``). The segments before and after the item in its document are one tap away
(:func:`show_context`). Marks not yet saved live in the session (``ui.app.state.RATE_MARKS_PREFIX``) and in a
cookie of this browser (:func:`ui.campaigns.browser_memory.remember_draft`: a reload shows them again), and
are saved with the score in one transaction. At a desk the whole screen works from the keyboard
(:mod:`ui.campaigns.esa_keys`).

The rules of marking (what a word is, how chosen words become spans, how a new mark replaces the ones it
overlaps, switching and removing) are :mod:`bleu_core.campaigns.span_editing`; this module draws them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field

import streamlit as st

from bleu_core.campaigns import AlreadySaved, Campaign, Item, JudgeSession, MarkedSpan
from bleu_core.campaigns.protocols import SLIDER_ANCHORS, score_span_check
from bleu_core.campaigns.span_editing import (
    mark_words,
    other_severity,
    remove_mark,
    switch_severity,
    words_of,
)
from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.markup import html_text, md_escape
from ui.campaigns import browser_memory
from ui.campaigns.esa_keys import esa_keyboard
from ui.campaigns.rating_widgets import SAVE_LABEL, SKIP_LABEL, text_box

MISSING = "missing"  # the option of the [missing] toggle, after the word indices
NO_ERRORS_LABEL = "No errors: score 100"
NOT_GIVEN = "**No score yet.** Move the slider to your score"
NO_ERRORS_HINT = " (or, with no error marked, choose “No errors: score 100”)"
SCORE_FIRST = "Nothing was saved: give your score first. Move the slider"
ESA_STYLE = """
<style>
.bs-esa mark { padding: 0.05rem 0.15rem; border-radius: 0.25rem; }
.bs-esa mark.bs-minor { background: #ffe08a; color: #3d2e00; }
.bs-esa mark.bs-major { background: #f4a3a3; color: #4a0000; text-decoration: underline; }
.bs-esa .bs-missing { border: 1px dashed #4a0000; padding: 0 0.2rem; border-radius: 0.25rem; }
@media (max-width: 640px) {
  [data-testid="stButtonGroup"] button { min-height: 44px; font-size: 1rem; }
  [data-testid="stButton"] button { min-height: 48px; }
}
</style>
"""


def marked_html(text: str, marks: Sequence[MarkedSpan]) -> str:
    """*text* escaped, with the marks highlighted and labelled for screen readers.

    >>> marked_html("a <b> c", [MarkedSpan(2, 5, "major"), MarkedSpan(None, None, "minor", True)])
    '<div class="bs-esa" style="max-width:75ch;font-size:1.15rem">a <mark class="bs-major" aria-label="major error: &lt;b&gt;">&lt;b&gt;</mark> c <span class="bs-missing" role="note" aria-label="minor error: something is missing">[missing]</span></div>'
    """
    out, at = [], 0
    for span in sorted((s for s in marks if not s.missing), key=lambda s: s.start or 0):
        start, end = span.start or 0, span.end or 0
        piece = html_text(text[start:end])
        out.append(html_text(text[at:start]))
        severity = html.escape(span.severity)
        out.append(
            f'<mark class="bs-{severity}" aria-label="{severity} error: {piece}">{piece}</mark>'
        )
        at = end
    out.append(html_text(text[at:]))
    for span in marks:
        if span.missing:
            out.append(
                f' <span class="bs-missing" role="note" aria-label="{html.escape(span.severity)} error: '
                'something is missing">[missing]</span>'
            )
    return '<div class="bs-esa" style="max-width:75ch;font-size:1.15rem">' + "".join(out) + "</div>"


def anchors_caption() -> str:
    """The slider's anchors as one line: ``0 no meaning preserved · 33 some meaning preserved · …``."""
    return " · ".join(f"**{score}** {md_escape(text)}" for score, text in SLIDER_ANCHORS.items())


def marks_key(position: int) -> str:
    return f"{K.RATE_MARKS_PREFIX}{position}"


def slider_key(position: int) -> str:
    return f"{K.RATE_SLIDER_PREFIX}{position}"


def touched_key(position: int) -> str:
    return f"{K.RATE_TOUCHED_PREFIX}{position}"


def current_marks(
    code: str, position: int, stored: Sequence[MarkedSpan], *, slider: bool = True
) -> list[MarkedSpan]:
    """The marks of item *position* in this session: on the session's first look, this browser's unsaved
    draft of the item (a reload), else the stored ones. With *slider* (ESA's screen) a draft's score goes
    back on the slider."""
    state = st.session_state
    if marks_key(position) not in state:
        draft = browser_memory.draft_for(code, position)
        if draft is not None:
            state[marks_key(position)] = [s.to_dict() for s in draft.marks]
            if slider and draft.score is not None:
                state[slider_key(position)] = draft.score
                state[touched_key(position)] = True
        else:
            state[marks_key(position)] = [s.to_dict() for s in stored]
    return [MarkedSpan.from_dict(d) for d in state[marks_key(position)]]


def set_marks(position: int, marks: Sequence[MarkedSpan]) -> None:
    st.session_state[marks_key(position)] = [s.to_dict() for s in marks]


def keep_draft(code: str, position: int, marks: Sequence[MarkedSpan]) -> None:
    """Keep the item's unsaved marks and score (once given) in this browser, for a reload."""
    state = st.session_state
    score = state.get(slider_key(position)) if state.get(touched_key(position)) else None
    browser_memory.remember_draft(code, {position: (marks, score)})


def forget_marks(position: int) -> None:
    """Drop the unsaved marks and score of *position* (after saving: the stored ones are read again)."""
    for key in (marks_key(position), touched_key(position)):
        st.session_state.pop(key, None)
    browser_memory.forget_draft()


def _touched(position: int) -> None:
    st.session_state[touched_key(position)] = True


def _no_errors(position: int) -> None:
    """ "No errors: score 100": the judge's explicit choice, the slider goes to 100."""
    st.session_state[slider_key(position)] = 100
    st.session_state[touched_key(position)] = True


def _save_for(position: int) -> None:
    st.session_state[K.RATE_SAVE_FOR] = position


@dataclass(frozen=True)
class SliderAnswer:
    """What the judge did: ``save`` with the ``score`` (None: not given yet) and ``spans``, ``skip``, or
    neither."""

    save: bool = False
    skip: bool = False
    score: int | None = None
    spans: list[MarkedSpan] = field(default_factory=list)


def _label(text: str, span: MarkedSpan) -> str:
    return "[missing]" if span.missing else repr(text[span.start : span.end])


def word_picker(item: Item, position: int, marks: list[MarkedSpan]) -> None:
    """The word toggles, "Minor error" / "Major error", and each mark with its buttons."""
    text = item.translation
    words = words_of(text)
    options: list[int | str] = [*range(len(words)), MISSING]
    version = abs(hash(tuple(marks))) % 10**8  # a new mark clears the choice: a new widget key
    chosen = st.pills(
        "Tap the words of an error (neighbouring words form one span), then mark it minor or major. "
        "[missing] marks something left out.",
        options,
        selection_mode="multi",
        format_func=lambda o: "[missing]" if o == MISSING else md_escape(text[slice(*words[o])]),
        key=f"{K.RATE_WORDS_PREFIX}{position}_{version}",
    )
    picked = [o for o in chosen or [] if o != MISSING]
    c1, c2 = st.columns(2)
    for column, severity in ((c1, "minor"), (c2, "major")):
        if column.button(
            f"{severity.capitalize()} error",
            key=f"rate_mark_{severity}_{position}",
            disabled=not chosen,
            width="stretch",
        ):
            missing = MISSING in (chosen or [])
            set_marks(position, mark_words(marks, words, picked, severity, missing=missing))
            st.rerun()
    for i, span in enumerate(marks):
        c1, c2, c3 = st.columns([3, 1, 1])
        c1.markdown(f"{md_escape(_label(text, span))} — **{span.severity}**")
        if c2.button(f"Make {other_severity(span.severity)}", key=f"rate_swap_{position}_{i}"):
            set_marks(position, switch_severity(marks, i))
            st.rerun()
        if c3.button("Remove", key=f"rate_remove_{position}_{i}"):
            set_marks(position, remove_mark(marks, i))
            st.rerun()


def slider_form(
    campaign: Campaign,
    item: Item,
    position: int,
    stored_score: int | None,
    stored_spans: Sequence[MarkedSpan],
    *,
    save_label: str,
    skip_label: str,
) -> SliderAnswer:
    """The ESA screen (marks, then the slider) or, for DA, the slider alone; "Save and next" (full width, a
    thumb's size on a phone) and "Skip". The score is None until the judge gives it (module docstring)."""
    st.html(ESA_STYLE)
    esa = campaign.protocol == "esa"
    marks = current_marks(campaign.code, position, stored_spans) if esa else []
    st.markdown("**Translation to rate**")
    st.markdown(marked_html(item.translation, marks), unsafe_allow_html=True)
    if esa:
        word_picker(item, position, marks)
    crit = campaign.criteria[0]
    state = st.session_state
    if slider_key(position) not in state:  # a fresh slider: no score given on it yet
        state[slider_key(position)] = stored_score if stored_score is not None else 50
        state.pop(touched_key(position), None)
    score = st.slider(
        f"{md_escape(crit.name)} — {md_escape(crit.question)}",
        min_value=0,
        max_value=100,
        key=slider_key(position),
        on_change=_touched,
        args=(position,),
    )
    given = stored_score is not None or bool(state.get(touched_key(position)))
    st.caption(anchors_caption())
    if not given:
        st.markdown(NOT_GIVEN + (NO_ERRORS_HINT if esa else "") + ".")
    if esa and not marks and not given:
        st.button(
            NO_ERRORS_LABEL, key=f"rate_no_errors_{position}", on_click=_no_errors, args=(position,)
        )
    question = score_span_check(score, marks) if esa and given else None
    if question:
        st.info(question + " You can save anyway.")
    if esa:
        keep_draft(campaign.code, position, marks)
    save = st.button(
        save_label, type="primary", key=f"rate_save_{position}", width="stretch",
        on_click=_save_for, args=(position,),
    )  # fmt: skip
    skip = st.button(skip_label, key=f"rate_skip_{position}")
    if esa:
        esa_keyboard(position, words_of(item.translation), marks)
    return SliderAnswer(
        save=save, skip=skip, score=int(score) if given else None, spans=list(marks)
    )


def tutorial_feedback(outcome: object) -> None:
    """What the judge got right or missed on the tutorial item they just saved (a ``CheckOutcome``)."""
    passed = getattr(outcome, "passed", None)
    missed = getattr(outcome, "missed", ())
    explanation = getattr(outcome, "explanation", "")
    if passed:
        st.success("Tutorial item: well done. " + md_escape(explanation))
        return
    lines = "\n".join(f"- {md_escape(m)}" for m in missed)
    st.warning(f"Tutorial item: {md_escape(explanation)}\n\n{lines}")


def show_feedback() -> None:
    """The tutorial feedback kept for this run (:data:`ui.app.state.RATE_FEEDBACK`), shown once."""
    outcome = st.session_state.get(K.RATE_FEEDBACK)
    if outcome is not None:
        st.session_state[K.RATE_FEEDBACK] = None
        tutorial_feedback(outcome)


def show_context(campaign: Campaign, item: Item) -> None:
    """The segments before and after this one in its document (the source when the judge sees sources, and
    this system's translations), folded away, when the campaign stored them."""
    entry = (campaign.metadata.get("context") or {}).get(item.segment_id) or {}
    sides = []
    if item.source is not None:
        sides.append(("source", entry.get("source") or [None, None]))
    sides.append(("translation", entry.get(item.system) or [None, None]))
    if not any(text for _, pair in sides for text in pair):
        return
    with st.expander("The document around this segment"):
        for where, index in (("Before", 0), ("After", 1)):
            for what, pair in sides:
                if pair[index]:
                    text_box(f"{where} ({what})", pair[index])


def rate_slider_item(session: JudgeSession, position: int, item: Item) -> bool:
    """An ESA or DA item: the texts for context, the marks and the slider; saving stores score and spans
    together (and keeps a tutorial's feedback for the next run). True when the judge saved or skipped."""
    if item.kind == "tutorial":
        st.info("Tutorial item: after you save it, you see what was expected.")
    show_context(session.campaign, item)
    if item.source is not None:
        text_box("Source", item.source)
    if item.reference is not None:
        text_box("Reference translation", item.reference)
    meant_for = st.session_state.pop(K.RATE_SAVE_FOR, None)  # the item whose Save was tapped
    answer = slider_form(
        session.campaign,
        item,
        position,
        session.scores(position).get(session.campaign.criteria[0].name),
        session.spans(position) if session.campaign.protocol == "esa" else (),
        save_label=SAVE_LABEL,
        skip_label=SKIP_LABEL,
    )
    if meant_for is not None and meant_for != position and session.scores(meant_for):
        st.info(f"Item {meant_for + 1} is already saved: the second tap changed nothing.")
    try:
        if answer.save:
            return save_slider_item(session, position, item, answer)
        if answer.skip:
            session.skip(position)
            forget_marks(position)
            return True
    except AlreadySaved:
        # The first tap's run saved this item while this run (the second tap's) was starting: Streamlit
        # begins a new run before the old one stops. Nothing changed; go on to the next item and say so there.
        st.session_state[K.RATE_SAVE_FOR] = position
        return True
    except BleuStudyError as err:
        st.error(md_escape(str(err)))
    return False


def save_slider_item(
    session: JudgeSession, position: int, item: Item, answer: SliderAnswer
) -> bool:
    """Save the item the judge saw (*position*, the one the store has them on) with its score and spans;
    refused, with a word, while no score is given. True when saved."""
    if answer.score is None:
        esa = session.campaign.protocol == "esa"
        st.warning(SCORE_FIRST + (NO_ERRORS_HINT if esa else "") + ".")
        return False
    spans = answer.spans if session.campaign.protocol == "esa" else None
    name = session.campaign.criteria[0].name
    session.submit(position, {name: answer.score}, spans, at_cursor=True)
    forget_marks(position)
    if item.kind == "tutorial":
        st.session_state[K.RATE_FEEDBACK] = session.feedback(position)
    return True
