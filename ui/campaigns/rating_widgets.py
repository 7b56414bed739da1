"""The judge's rating screen: the item's texts, the score form, the navigation buttons and the keyboard controls.

Each function draws widgets and returns what the judge asked for; the Rate page calls
:class:`bleu_core.campaigns.JudgeSession` with it. Texts are escaped before they go into HTML, and the
organiser's criterion names, questions and scale labels are Markdown-escaped (radio labels and options render
Markdown): a judge sees them as plain text, never a link or a remote image.

Keyboard (:data:`KEYBOARD_JS`): Tab / arrow keys move through the scores; number keys set the next criterion
without a score; Enter saves and goes to the next item; ``s`` skips; ``b`` goes back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from bleu_core.campaigns import Campaign, Item, JudgeSession
from ui.app import state as K
from ui.app.markup import STYLE, html_text, md_escape, plain_html
from ui.campaigns.lesson_timer import seconds_left, timer_text

SAVE_LABEL = "Save and next"
SKIP_LABEL = "Skip"
BACK_LABEL = "Back"

# Number keys, Enter, s and b. Runs in the page itself (st.html with JavaScript allowed; the script is this
# constant, no user text goes into it) and adds its listener once per browser tab. It never acts while the judge
# is typing in a text field.
KEYBOARD_JS = (
    """
<script>
(function () {
  if (window.__bsRateKeys) return;
  window.__bsRateKeys = true;
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && ((t.tagName === "INPUT" && t.type !== "radio") || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    const form = document.querySelector('[data-testid="stForm"]');
    if (!form || !form.querySelector('[role="radiogroup"]')) return;
    const button = (label) => Array.from(document.querySelectorAll("button"))
        .find((b) => b.innerText.trim() === label);
    if (/^[0-9]$/.test(e.key)) {
      const groups = Array.from(form.querySelectorAll('[role="radiogroup"]'));
      const group = groups.find((g) => !g.querySelector("input:checked"));
      if (!group) return;
      const label = Array.from(group.querySelectorAll("label"))
          .find((l) => l.innerText.trim().split(" ")[0] === e.key);
      if (label) { label.click(); e.preventDefault(); }
    } else if (e.key === "Enter") {
      const b = button("__SAVE__"); if (b) { b.click(); e.preventDefault(); }
    } else if (e.key === "s") {
      const b = button("__SKIP__"); if (b) { b.click(); e.preventDefault(); }
    } else if (e.key === "b") {
      const b = button("__BACK__"); if (b && !b.disabled) { b.click(); e.preventDefault(); }
    }
  }, true);
})();
</script>
""".replace("__SAVE__", SAVE_LABEL)
    .replace("__SKIP__", SKIP_LABEL)
    .replace("__BACK__", BACK_LABEL)
)

#: On a phone (≤ 640 px): a smaller title; the 1-5 scale in one row of five large touch targets (no radio
#: circles: the chosen score is filled in); "Save and next" across the screen within reach of the thumb; no
#: keyboard help (phones have no keys to press).
PHONE_STYLE = """
<style>
#bs-item { scroll-margin-top: 3.5rem; }
[data-testid="stForm"] [role="radiogroup"] label:has(input:checked) {
  background: #1f4e8c; color: #fff; border-color: #1f4e8c;
}
@media (max-width: 640px) {
  h1 { font-size: 1.6rem !important; padding-top: 0 !important; }
  [data-testid="stForm"] [role="radiogroup"] { display: flex; flex-wrap: nowrap; gap: 0.3rem; }
  [data-testid="stForm"] [role="radiogroup"] > div { flex: 1 1 0; min-width: 0; margin: 0 !important; }
  [data-testid="stForm"] [role="radiogroup"] label {
    width: 100%; min-width: 0; min-height: 56px; padding: 0.3rem 0.15rem; margin: 0 !important;
    border: 1px solid #bbb; border-radius: 0.6rem; justify-content: center; text-align: center;
    display: flex; align-items: center;
  }
  [data-testid="stForm"] [role="radiogroup"] label > div { justify-content: center; width: 100%; }
  [data-testid="stForm"] [role="radiogroup"] label > div > div:not([data-testid="stMarkdownContainer"]) {
    display: none;
  }
  [data-testid="stForm"] [role="radiogroup"] label p { font-size: 0.85rem; line-height: 1.15; }
  [data-testid="stForm"] [data-testid="stElementContainer"]:has([data-testid="stFormSubmitButton"]),
  [data-testid="stForm"] [data-testid="stElementContainer"]:has([data-testid="stFormSubmitButton"]) > div,
  [data-testid="stForm"] [data-testid="stFormSubmitButton"],
  [data-testid="stForm"] [data-testid="stFormSubmitButton"] button { width: 100% !important; min-height: 52px; }
  .bs-keys-help { display: none; }
}
</style>
"""


def reconnect_style(message: str) -> str:
    r"""The style sheet that shows *message* in a bar at the top of the screen while the connection to the
    server is down (Streamlit marks the app ``data-test-connection-state``), instead of Streamlit's own
    "Connection error" dialog, which is hidden meanwhile.

    >>> 'content: "Reconnecting \\2014  saved"' in reconnect_style("Reconnecting — saved")
    True
    """
    content = "".join(c if c.isascii() and c not in '"\\' else f"\\{ord(c):x} " for c in message)
    down = '[data-testid="stApp"]:not([data-test-connection-state="CONNECTED"])'
    return f"""
<style>
body:has({down}) [data-testid="stDialog"] {{ display: none !important; }}
{down}::before {{
  content: "{content}"; position: fixed; top: 0; left: 0; right: 0; z-index: 1000100;
  padding: 0.8rem 1rem; background: #fff3c4; color: #3d2e00; font-size: 1.05rem; font-weight: 600;
  text-align: center; border-bottom: 2px solid #b08900;
}}
</style>
"""


KEYBOARD_HELP = (
    "Keyboard: Tab and arrow keys move between scores, number keys set the next open criterion, "
    "Enter saves, <b>s</b> skips, <b>b</b> goes back. Every rating is saved as soon as you submit it."
)

#: What a student sees while the connection is down.
STUDENT_RECONNECT = "Reconnecting — your ratings are saved"


def connection_notice(message: str = STUDENT_RECONNECT) -> None:
    """Replace Streamlit's connection-error dialog by a plain bar saying *message* (:func:`reconnect_style`)."""
    st.html(reconnect_style(message))


def scroll_to_item(position: int) -> None:
    """Bring the top of the current item (the heading ``#bs-item``) into view: after "Save and next" on a phone
    the next sentence is on screen, not the form of the one before. The script names *position*, so each item's
    script is new to the page and runs."""
    st.html(
        f"<script>/* item {int(position)} */ (function () {{ let n = 0; const t = setInterval(() => {{"
        ' const h = document.getElementById("bs-item"); if (h) h.scrollIntoView({block: "start"});'
        " if (h || ++n > 40) clearInterval(t); }, 50); })();</script>",
        unsafe_allow_javascript=True,
    )


@dataclass(frozen=True)
class ScoreAnswer:
    """What the judge did with the score form: ``save`` (with the chosen ``scores``, ``None`` where no score was
    chosen), ``skip``, or neither (the form was not submitted)."""

    save: bool = False
    skip: bool = False
    scores: dict[str, int | None] = field(default_factory=dict)

    @property
    def missing(self) -> list[str]:
        """Criteria without a score, in the campaign's order."""
        return [name for name, score in self.scores.items() if score is None]

    @property
    def chosen(self) -> dict[str, int]:
        """The scores chosen, criteria without a score left out (what ``JudgeSession.submit`` takes)."""
        return {name: score for name, score in self.scores.items() if score is not None}


def text_box(label: str, text: str | None, *, emphasis: bool = False) -> None:
    """One text (escaped) with its label; *emphasis* sets it larger (the translation to rate).

    A paragraph (WMT24+ segments) wraps at about 75 characters a line, a length people read at ease,
    instead of running across a wide screen."""
    body = plain_html(text, label=label)
    style = "max-width:75ch" + (";font-size:1.15rem;font-weight:500" if emphasis else "")
    body = body.replace('class="bs-seg"', f'class="bs-seg" style="{style}"', 1)
    st.markdown(body, unsafe_allow_html=True)


def judge_header(session: JudgeSession, rated: int, skipped: int) -> None:
    """Campaign and judge (escaped) and the progress bar "n of m rated"."""
    n = session.n_items
    st.markdown(
        STYLE
        + '<div class="bs-seg">'
        + f"<b>{html_text(session.campaign.name)}</b> · judge <b>{html_text(session.judge.name)}</b> "
        + f"({html_text(session.judge.group)})</div>",
        unsafe_allow_html=True,
    )
    st.progress(rated / n if n else 0.0, text=f"{rated} of {n} rated · {skipped} skipped")


def welcome(resume_code: str) -> None:
    """Greet a judge who just joined; the resume code (for another device) is one tap away."""
    st.success(
        "Welcome! This browser remembers you: reload, close the tab or lock the phone, and you come back "
        "to the same item."
    )
    with st.expander("Continue on another device"):
        st.caption(
            "Your resume code, shown only this once: type it under **Resume** on the other device."
        )
        st.code(resume_code, language=None)


def finished_choice(n_items: int, rated: int, first_open: int | None) -> int | None:
    """The end of the campaign: a thank-you (or how many items are still open) and buttons to rate the open
    items or review from the start. Returns the position the judge chose to go to, or ``None``."""
    if rated == n_items:
        st.success(f"You have rated all {n_items} items. Thank you!")
    else:
        st.info(
            f"You reached the end: {rated} of {n_items} items rated, {n_items - rated} still open."
        )
    c1, c2, _ = st.columns([1, 1, 3])
    if first_open is not None and c1.button(
        f"Rate the open items ({n_items - rated})", type="primary", icon=":material/redo:"
    ):
        return first_open
    if c2.button("Review from the start", icon=":material/first_page:"):
        return 0
    return None


def show_item(item: Item) -> None:
    """The texts the judge sees: the source and the reference when the campaign shows them, and the
    translation to rate."""
    if item.source is not None:
        text_box("Source", item.source)
    if item.reference is not None:
        text_box("Reference translation", item.reference)
    text_box("Translation to rate", item.translation, emphasis=True)


def criterion_label(name: str, question: str | None) -> str:
    r"""The radio label of a criterion: its name in bold and its question, both as plain text.

    >>> print(criterion_label("fluency", "![x](http://evil/x.png)"))
    **fluency** — \!\[x\]\(http\:\/\/evil\/x\.png\)
    """
    return f"**{md_escape(name)}**" + (f" — {md_escape(question)}" if question else "")


def score_form(campaign: Campaign, position: int, existing: dict[str, int]) -> ScoreAnswer:
    """One radio row per criterion (pre-set to the judge's *existing* scores) with "Save and next" and "Skip".

    The widgets are keyed ``f"{ui.app.state.RATE_SCORE_PREFIX}{position}_{criterion index}"``.
    """
    keys = [f"{K.RATE_SCORE_PREFIX}{position}_{i}" for i in range(len(campaign.criteria))]
    st.html(PHONE_STYLE)
    with st.form(f"rate_form_{position}"):
        for crit, key in zip(campaign.criteria, keys, strict=True):
            options = list(crit.scores)
            old = existing.get(crit.name)
            st.radio(
                criterion_label(crit.name, crit.question),
                options,
                index=options.index(old) if old in options else None,
                format_func=lambda s, c=crit: f"{s} · {md_escape(c.label(s))}",
                horizontal=True,
                key=key,
            )
        c1, c2, _ = st.columns([1, 1, 3])
        save = c1.form_submit_button(SAVE_LABEL, type="primary")
        skip = c2.form_submit_button(SKIP_LABEL)
    scores = {
        crit.name: st.session_state.get(key)
        for crit, key in zip(campaign.criteria, keys, strict=True)
    }
    return ScoreAnswer(save=save, skip=skip, scores=scores)


def navigation(position: int, n_items: int, *, rated: bool) -> int | None:
    """ "Back", "Next" (only for an item already rated) and "Go to item…"; the position the judge chose, or
    ``None``."""
    c1, c2, c3 = st.columns([1, 1, 3])
    if c1.button(BACK_LABEL, icon=":material/arrow_back:", disabled=position == 0):
        return max(position - 1, 0)
    if rated and c2.button("Next", icon=":material/arrow_forward:"):
        return position + 1
    with c3.popover("Go to item…"):
        target = st.number_input(
            "Item number", min_value=1, max_value=n_items, value=position + 1, step=1
        )
        if st.button("Go"):
            return int(target) - 1
    return None


def keyboard_controls() -> None:
    """The keyboard help line, and the script that makes the keys work (see :data:`KEYBOARD_JS`)."""
    st.markdown(
        f'<div class="bs-keys-help" style="font-size:0.85rem;opacity:0.7">{KEYBOARD_HELP}</div>',
        unsafe_allow_html=True,
    )
    st.html(KEYBOARD_JS, unsafe_allow_javascript=True)


#: How often a phone's countdown is redrawn (seconds): at zero the whole page runs again and the form closes.
COUNTDOWN_SECONDS = 1
#: How often a lesson's phone without a timer looks whether the teacher started one or closed rating.
WATCH_SECONDS = 5


def live_countdown(code: str, is_open: Callable[[], bool], *, timed: bool) -> None:
    """A lesson's phone follows the lesson without a tap: with a timer (*timed*) the countdown is redrawn
    every :data:`COUNTDOWN_SECONDS`, without one the phone looks every :data:`WATCH_SECONDS` whether the
    teacher started one (a fragment: the form around it is left alone). When time is up, a timer starts or
    stops, or the teacher closes rating (*is_open* reads the database), the whole page runs again: the form
    gives way to "rating is closed", or the countdown appears."""

    @st.fragment(run_every=COUNTDOWN_SECONDS if timed else WATCH_SECONDS)
    def tick() -> None:
        left = seconds_left(code)
        if (left is not None) != timed or (left is not None and left <= 0) or not is_open():
            st.rerun(scope="app")
        if left is not None:
            st.caption(timer_text(left))

    tick()
