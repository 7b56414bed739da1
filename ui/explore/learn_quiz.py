"""Learn BLEU for a class: the paper's examples named for what they show, the paper's own settings by default,
and a quiz (p_n, BP and BLEU hidden until the class has predicted them), and steps 3-5 of the walk-through
(precisions, brevity penalty, BLEU) drawn hidden or shown.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.segment_level import sentence_options
from ui.app import state as K
from ui.app.presentation import show_altair
from ui.explore.charts import precision_bars
from ui.explore.frames import precisions_frame
from ui.explore.teach import SMOOTHED_ABOVE_ONE, Walkthrough, bp_formula

#: The paper's examples (the paper-examples demo: segment id, candidate name) named for what they show.
EXAMPLE_NAMES = {
    (
        "example-1",
        "candidate-1",
    ): "A good candidate: many n-grams of the references (paper's Example 1)",
    ("example-1", "candidate-2"): "A poor candidate: few n-grams of the references (Example 1)",
    ("example-2", "candidate-1"): "Clipping: the the the the the the the (Example 2)",
    (
        "example-3",
        "candidate-1",
    ): "Too short: 'of the' (high precision, brevity penalty; Example 3)",
    ("example-4", "candidate-1"): "Recall: I always invariably perpetually do (Example 4)",
    ("example-4", "candidate-2"): "Recall: I always do (Example 4)",
}
#: What a hidden number shows during the quiz.
HIDDEN = "?"


def example_label(title: str, candidate: str) -> str:
    """The name of a worked example in the Example box: what it shows, for the paper's; else its title.

    >>> example_label("BLEU paper section 2 · example-2", "candidate-1")
    'Clipping: the the the the the the the (Example 2)'
    >>> example_label("my-doc · s1", "sys")
    'my-doc · s1 · sys'
    """
    segment = title.split(" · ")[-1]
    return EXAMPLE_NAMES.get((segment, candidate), f"{title} · {candidate}")


def paper_options() -> BleuOptions:
    """The paper's settings: its tokenizer (case-folded words without punctuation), uniform weights up to
    4-grams, the closest reference length, no smoothing (its Example 2 scores 0)."""
    return BleuOptions(tokenize="paper", smooth="none")


def learn_options(use_sidebar: bool, sidebar: BleuOptions) -> BleuOptions:
    """The paper's settings, or the sidebar's (as sentence BLEU on every page: effective order)."""
    return sentence_options(sidebar) if use_sidebar else paper_options()


def quiz_controls(candidate: str, references: list[str], max_order: int = 4) -> bool:
    """The quiz switch, the class's guesses (p_1 .. p_N, BP, BLEU, all on the 0-1 scale) and the Reveal
    button; True while p_n, BP and BLEU are to be hidden.

    A new example (other candidate or references) hides them again."""
    quiz = st.toggle(
        "Quiz: hide p_n, BP and BLEU until the class has predicted them",
        key=K.LEARN_QUIZ,
    )
    if not quiz:
        return False
    example = hashlib.sha256("\x1f".join([candidate, *references]).encode()).hexdigest()
    if st.session_state.get(K.LEARN_REVEALED) == example:
        if st.button("Hide the numbers again", icon=":material/visibility_off:"):
            st.session_state[K.LEARN_REVEALED] = None
            st.rerun()
        return False
    st.info(
        "Quiz: look at the tokens and the n-gram tables (steps 1-2), then let the class predict each "
        "modified precision p_n, the brevity penalty and BLEU. Reveal when everyone has a guess.",
        icon=":material/quiz:",
    )
    guess_inputs(max_order)
    if st.button("Reveal", type="primary", icon=":material/visibility:"):
        st.session_state[K.LEARN_REVEALED] = example
        st.rerun()
    return True


def guess_inputs(max_order: int) -> None:
    """One box per number the class predicts (0 to 1, empty until guessed): p_1 .. p_N, BP and BLEU."""
    columns = st.columns(max_order + 2)
    for n, column in zip(range(1, max_order + 1), columns, strict=False):
        column.number_input(
            f"p_{n}",
            min_value=0.0,
            max_value=1.0,
            step=0.05,
            value=None,
            key=f"{K.LEARN_GUESS_PN_PREFIX}{n}",
        )
    columns[-2].number_input(
        "BP", min_value=0.0, max_value=1.0, step=0.05, value=None, key=K.LEARN_GUESS_BP
    )
    columns[-1].number_input(
        "BLEU", min_value=0.0, max_value=1.0, step=0.05, value=None, key=K.LEARN_GUESS
    )


def guess_rows(w: Walkthrough) -> list[dict[str, object]]:
    """The class's guesses beside the numbers, one row per guessed quantity (0-1 scale): the modified
    precisions as the paper defines them (clipped matches / candidate n-grams), BP and sentence BLEU."""
    state = st.session_state
    actual: list[tuple[str, str, float]] = [
        (f"p_{s.n}", f"{K.LEARN_GUESS_PN_PREFIX}{s.n}", s.matches / s.total if s.total else 0.0)
        for s in w.orders
    ]
    actual += [("BP", K.LEARN_GUESS_BP, w.bp), ("BLEU", K.LEARN_GUESS, w.bleu)]
    rows: list[dict[str, object]] = []
    for name, key, value in actual:
        guess = state.get(key)
        if guess is not None:
            rows.append(
                {
                    "number": name,
                    "class's guess": f"{guess:.2f}",
                    "value": f"{value:.4f}",
                    "off by": f"{value - guess:+.4f}",
                }
            )
    return rows


def show_guesses(w: Walkthrough) -> None:
    """After Reveal: every guess the class made next to the number it predicted."""
    if not st.session_state.get(K.LEARN_QUIZ):
        return
    rows = guess_rows(w)
    if rows:
        st.subheader("The class's guesses, revealed")
        st.table(rows)


def precision_line(n: int, fraction: str, matches: int, total: int, *, hidden: bool) -> str:
    """Step 2's sentence under each order's table.

    >>> precision_line(2, "8/14", 8, 14, hidden=True)
    'Modified 2-gram precision $p_2$ = clipped matches / candidate 2-grams = **?**'
    """
    head = f"Modified {n}-gram precision $p_{n}$ = clipped matches / candidate {n}-grams = "
    if hidden:
        return head + f"**{HIDDEN}**"
    return head + f"**{fraction}**" + (f" = {matches / total:.4f}" if total else " (no n-grams)")


def precision_step(w: Walkthrough, options: BleuOptions, *, hidden: bool) -> None:
    """Step 3: the modified precisions and their geometric mean."""
    if hidden:
        st.markdown(f"$p_1, \\dots, p_{len(w.orders)}$ = **{HIDDEN}** — predict them, then Reveal.")
        return
    prec = precisions_frame(w.orders, w.weights)
    st.dataframe(prec, hide_index=True, width="stretch")
    bars = prec.assign(precision=prec["p_n used (after smoothing)"], label=prec["matches/total"])
    show_altair(precision_bars(bars, title="Modified precision per order"))
    if (prec["p_n used (after smoothing)"] > 1).any():
        st.caption(SMOOTHED_ABOVE_ONE)
    terms = " + ".join(
        f"{wn:.3g}\\log {p:.4g}"
        for wn, p in zip(w.weights, prec["p_n used (after smoothing)"], strict=True)
    )
    st.latex(
        rf"\begin{{aligned}}\exp\Big(\sum_n w_n \log p_n\Big) &= \exp\big({terms}\big)\\ "
        rf"&= {w.geometric_mean:.4g}\end{{aligned}}"
    )
    if any(s.matches == 0 for s in w.orders) and options.smooth == "none":
        st.warning(
            "An order has no match: log 0 = −∞, so the geometric mean and BLEU are 0. See step 6."
        )


def penalty_and_bleu_steps(w: Walkthrough, options: BleuOptions, *, hidden: bool) -> None:
    """Steps 4 and 5: the brevity penalty and BLEU (lengths shown, the numbers hidden during the quiz)."""
    st.header("4 · Brevity penalty")
    st.write(
        f"Candidate length c = **{w.hyp_len}**; reference lengths {w.ref_lens}; effective reference length "
        f"r = **{w.ref_len:g}** (policy `{options.ref_length}`: the paper's *best match length* is "
        "`closest`)."
    )
    st.latex(r"\mathrm{BP} = \,?" if hidden else bp_formula(w.hyp_len, w.ref_len))
    st.header("5 · BLEU")
    if hidden:
        st.latex(r"\mathrm{BLEU} = \mathrm{BP} \cdot \exp\Big(\sum_n w_n \log p_n\Big) = \,?")
        st.metric("Sentence BLEU", HIDDEN)
        return
    st.latex(
        rf"\mathrm{{BLEU}} = \mathrm{{BP}} \cdot \exp\Big(\sum_n w_n \log p_n\Big) = {w.bp:.4g} \times "
        rf"{w.geometric_mean:.4g} = {w.bleu:.4f}"
    )
    guess = st.session_state.get(K.LEARN_GUESS) if st.session_state.get(K.LEARN_QUIZ) else None
    st.metric(
        "Sentence BLEU",
        f"{w.bleu:.4f}",
        delta=None if guess is None else f"{w.bleu - guess:+.4f} from the class's {guess:.2f}",
        delta_color="off",
        help=f"{100 * w.bleu:.2f} on the 0-100 scale",
    )
    show_guesses(w)
