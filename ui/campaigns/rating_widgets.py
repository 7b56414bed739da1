"""The judge's rating screen: the item's texts, the score form, the navigation buttons and the keyboard controls.

Each function draws widgets and returns what the judge asked for; the Rate page calls
:class:`bleu_core.campaigns.JudgeSession` with it. Texts are escaped before they go into HTML, and the
organiser's criterion names, questions and scale labels are Markdown-escaped (radio labels and options render
Markdown): a judge sees them as plain text, never a link or a remote image.

Keyboard (:data:`KEYBOARD_JS`): Tab / arrow keys move through the scores; number keys set the next criterion
without a score; Enter saves and goes to the next item; ``s`` skips; ``b`` goes back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from bleu_core.campaigns import Campaign, Item, JudgeSession
from ui.app import state as K
from ui.app.markup import STYLE, html_text, md_escape, plain_html

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

#: On a phone (≤ 640 px): a smaller title, the score options as large touch targets (44 px, Apple's and
#: Google's minimum), "Save and next" across the screen within reach of the thumb.
PHONE_STYLE = """
<style>
@media (max-width: 640px) {
  h1 { font-size: 1.6rem !important; padding-top: 0 !important; }
  [data-testid="stForm"] [role="radiogroup"] { gap: 0.35rem; }
  [data-testid="stForm"] [role="radiogroup"] label {
    min-height: 44px; min-width: 44%; padding: 0.35rem 0.6rem; margin: 0 !important;
    border: 1px solid #ccc; border-radius: 0.6rem; align-items: center;
  }
  [data-testid="stForm"] [data-testid="stFormSubmitButton"],
  [data-testid="stForm"] [data-testid="stFormSubmitButton"] button { width: 100%; min-height: 52px; }
}
</style>
"""

KEYBOARD_HELP = (
    "Keyboard: Tab and arrow keys move between scores, number keys set the next open criterion, "
    "Enter saves, **s** skips, **b** goes back. Every rating is saved as soon as you submit it."
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
    """One text (escaped) with its label; *emphasis* sets it larger (the translation to rate)."""
    body = plain_html(text, label=label)
    if emphasis:
        body = body.replace(
            'class="bs-seg"', 'class="bs-seg" style="font-size:1.15rem;font-weight:500"', 1
        )
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
    """Greet a judge who just joined and show the resume code to keep."""
    st.success(
        "Welcome! Keep your resume code to continue later, here or on another device. "
        "It is shown only this once and is not kept in the page's address: note it down now."
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
    st.caption(KEYBOARD_HELP)
    st.html(KEYBOARD_JS, unsafe_allow_javascript=True)
