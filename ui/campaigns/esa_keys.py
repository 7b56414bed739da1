"""Keyboard controls of the ESA marking screen, for judges who rate many items at a desk.

The word toggles form a toolbar: Tab reaches it, the arrow keys move between the words and Space chooses
one (all three are the framework's own). On top of that, while a word toggle or the score slider has the
focus (character keys act only there, so they never clash with typing and meet WCAG 2.1.4):

* ``m`` marks the focused word, with the words already chosen, as a minor error; ``Shift+M`` as a major one;
  ``Delete`` (or ``Backspace``) removes the mark on the focused word;
* a digit sets the score to ten times it (``7`` → 70), ``+`` and ``-`` change it by 5;
* ``Enter`` saves and goes to the next item (Space still chooses a word).

After a mark is made or removed the focus is back on the same word, and a polite live region says what
happened ("minor error marked", "score 70"). The words and the slider carry ``aria-keyshortcuts``; the help
line is shown on a desktop and hidden on a phone (no keys to press). The script (:data:`ESA_KEYS_JS`)
holds no user text; what it needs of the item, the position and which words each mark covers, is in a
hidden element (:func:`keys_map`) drawn on each run.

>>> keys_map(3, [(0, 3), (4, 7), (8, 11)], [MarkedSpan(4, 11, "major"), MarkedSpan(None, None, "minor", True)])
'{"position": 3, "marks": [[1, 2], [3, 3]]}'
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

import streamlit as st

from bleu_core.campaigns import MarkedSpan
from bleu_core.campaigns.span_editing import words_covered
from ui.app import state as K

ESA_KEYS_HELP = (
    "Keyboard, on a word: arrow keys move between the words, Space chooses one, <b>m</b> marks it (with the "
    "words chosen) a minor error, <b>Shift+M</b> a major one, <b>Delete</b> removes its mark. On a word or "
    "the slider: a digit sets the score (<b>7</b> → 70), <b>+</b> and <b>-</b> change it by 5, "
    "<b>Enter</b> saves and goes to the next item."
)

ESA_KEYS_STYLE = """
<style>
.bs-esa-help { font-size: 0.85rem; }
@media (max-width: 640px), (hover: none) and (pointer: coarse) { .bs-esa-help { display: none; } }
</style>
"""

ESA_KEYS_JS = """
<script>
(function () {
  if (window.__bsEsaKeys) return;
  window.__bsEsaKeys = true;
  const q = (s) => document.querySelector(s);
  const info = () => { const el = q(".bs-esa-map"); return el ? JSON.parse(el.dataset.map) : null; };
  const running = () => { const a = q('[data-testid="stApp"]');
    return !a || a.getAttribute("data-test-script-state") === "running"; };
  const words = (m) => Array.from(document.querySelectorAll(`[class*="st-key-__WORDS__${m.position}_"] button`));
  const button = (key) => q(`.st-key-${key} button`);
  const slider = (m) => q(`.st-key-__SLIDER__${m.position} input[type="range"]`);
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  let scoredAt = 0;
  function say(text) {
    let el = document.getElementById("bs-esa-live");
    if (!el) {
      el = document.createElement("div");
      el.id = "bs-esa-live";
      el.setAttribute("role", "status");
      el.setAttribute("aria-live", "polite");
      el.style.cssText = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap";
      document.body.appendChild(el);
    }
    el.textContent = text;
  }
  function when(ready, then) {  // once the app is idle and ready() holds (at most 10 s)
    let n = 0;
    const t = setInterval(() => {
      if (++n > 200) { clearInterval(t); return; }
      if (!running() && ready()) { clearInterval(t); then(); }
    }, 50);
  }
  function refocus(before, w) {  // the marks changed: the toggles are new; focus the same word again
    when(() => { const m = info(); return m && JSON.stringify(m.marks) !== before && words(m)[w]; },
         () => words(info())[w].focus());
  }
  function mark(m, w, severity) {
    const b = words(m)[w];
    const before = JSON.stringify(m.marks);
    const go = () => {
      button(`rate_mark_${severity}_${m.position}`).click();
      say(`${severity} error marked`);
      refocus(before, w);
    };
    if (b.getAttribute("aria-pressed") === "true") { go(); return; }
    b.click();
    when(() => { const mb = button(`rate_mark_${severity}_${m.position}`); return mb && !mb.disabled; }, go);
  }
  function unmark(m, w) {
    const i = m.marks.findIndex(([first, last]) => first <= w && w <= last);
    if (i < 0) { say("no mark on this word"); return; }
    const before = JSON.stringify(m.marks);
    button(`rate_remove_${m.position}_${i}`).click();
    say("mark removed");
    refocus(before, w);
  }
  function score(m, value) {
    const input = slider(m);
    if (!input) return;
    const v = Math.max(Number(input.min), Math.min(Number(input.max), value));
    // set the value one step short, then one arrow key: the slider takes the value and reports it once
    const up = v > Number(input.min);
    setValue.call(input, String(up ? v - 1 : v + 1));
    input.dispatchEvent(new Event("input", { bubbles: true }));
    const key = up ? "ArrowRight" : "ArrowLeft";
    for (const type of ["keydown", "keyup"]) {
      input.dispatchEvent(new KeyboardEvent(type, { key, code: key, bubbles: true, cancelable: true }));
    }
    scoredAt = Date.now();
    say(`score ${v}`);
  }
  function save(m) {
    const b = button(`rate_save_${m.position}`);
    if (!b || b.disabled) return;
    setTimeout(() => b.click(), Math.max(0, 500 - (Date.now() - scoredAt)));  // the score reported first
  }
  function annotate() {
    const m = info();
    if (!m) return;
    for (const b of words(m)) {
      if (!b.hasAttribute("aria-keyshortcuts")) b.setAttribute("aria-keyshortcuts", "M Shift+M Delete Enter");
    }
    const s = slider(m);
    if (s && !s.hasAttribute("aria-keyshortcuts")) s.setAttribute("aria-keyshortcuts", "0 1 2 3 4 5 6 7 8 9 + - Enter");
  }
  new MutationObserver(() => requestAnimationFrame(annotate)).observe(document.body, { childList: true, subtree: true });
  document.addEventListener("keydown", function (e) {
    if (!e.isTrusted || e.ctrlKey || e.metaKey || e.altKey) return;  // our own slider keys pass through
    const m = info();
    if (!m) return;
    const w = words(m).indexOf(e.target);
    const onSlider = e.target === slider(m);
    if (w < 0 && !onSlider) return;  // character keys act only on the marking controls
    if (/^[0-9]$/.test(e.key)) score(m, 10 * Number(e.key));
    else if (e.key === "+" || e.key === "=") score(m, Number(slider(m).value) + 5);
    else if (e.key === "-") score(m, Number(slider(m).value) - 5);
    else if (e.key === "Enter") save(m);
    else if (w >= 0 && e.key === "m") mark(m, w, "minor");
    else if (w >= 0 && e.key === "M") mark(m, w, "major");
    else if (w >= 0 && (e.key === "Delete" || e.key === "Backspace")) unmark(m, w);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }, true);
})();
</script>
""".replace("__WORDS__", K.RATE_WORDS_PREFIX).replace("__SLIDER__", K.RATE_SLIDER_PREFIX)


def keys_map(position: int, words: Sequence[tuple[int, int]], marks: Sequence[MarkedSpan]) -> str:
    """What the script needs of the item at *position*, as JSON: for each mark (in the order of its "Remove"
    button) the first and last word toggle it covers; ``[missing]``, the toggle after the words, for an
    omission."""
    covered = [list(words_covered(words, span) or (-1, -1)) for span in marks]
    return json.dumps({"position": position, "marks": covered})


def esa_keyboard(
    position: int, words: Sequence[tuple[int, int]], marks: Sequence[MarkedSpan]
) -> None:
    """The help line (desktop only), the item's map for the script, and the script (see the module)."""
    st.html(ESA_KEYS_STYLE)
    st.markdown(
        f'<div id="bs-esa-keys-help" class="bs-esa-help">{ESA_KEYS_HELP}</div>'
        f'<div class="bs-esa-map" data-map="{html.escape(keys_map(position, words, marks))}" '
        'style="display:none"></div>',
        unsafe_allow_html=True,
    )
    st.html(ESA_KEYS_JS, unsafe_allow_javascript=True)
