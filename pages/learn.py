"""Learn page: BLEU step by step on the paper's examples (or your own sentences), numbers from the engine."""

from __future__ import annotations

import streamlit as st

from bleu_core.engine.signature import make_signature
from bleu_core.errors import BleuStudyError
from ui.app import demos
from ui.app import state as K
from ui.app.context import current_options, current_scores, current_study, signature_caption
from ui.app.frames import records_frame
from ui.app.markup import STYLE, md_escape
from ui.app.presentation import presentation_switch
from ui.explore.error_free_card import error_free_card
from ui.explore.frames import corpus_vs_sentence_frame, ngram_frame, tokens_frame
from ui.explore.highlight import legend_html, segment_block
from ui.explore.learn_quiz import (
    example_label,
    learn_options,
    penalty_and_bleu_steps,
    precision_line,
    precision_step,
    quiz_controls,
)
from ui.explore.teach import SMOOTHED_ABOVE_ONE, examples_from_study, smoothing_rows, walkthrough

st.title("Learn BLEU")
presentation_switch()  # large type for the projector, kept in the address (?present=1)
st.write(
    "Papineni et al. (2002) score a candidate translation by its **modified n-gram precisions** against "
    "one or more references, combined by a geometric mean and multiplied by a **brevity penalty**. Pick "
    "one of the paper's examples or type your own candidate and references; every number below is "
    "computed by the engine. BLEU and its parts are on the 0-1 scale throughout (×100 gives the 0-100 "
    "scale of sacrebleu and of most papers)."
)

try:
    examples = examples_from_study(demos.demo_study("paper-examples"))
except (BleuStudyError, ImportError, FileNotFoundError, KeyError) as err:
    examples = []
    st.warning(f"The paper's examples could not be loaded ({err}); type your own sentences below.")
labels = [example_label(ex.title, name) for ex in examples for name, _ in ex.candidates] + [
    "Your own sentences"
]
pairs = [(ex, text) for ex in examples for _, text in ex.candidates]


def _fill_from_example() -> None:
    idx = st.session_state[K.LEARN_EXAMPLE]
    if idx < len(pairs):
        example, text = pairs[idx]
        st.session_state[K.LEARN_CANDIDATE] = text
        st.session_state[K.LEARN_REFERENCES] = "\n".join(t for _, t in example.references)


if K.LEARN_CANDIDATE not in st.session_state:
    st.session_state[K.LEARN_EXAMPLE] = min(
        st.session_state.get(K.LEARN_EXAMPLE, 0), len(labels) - 1
    )
    st.session_state[K.LEARN_CANDIDATE] = ""
    st.session_state[K.LEARN_REFERENCES] = ""
    _fill_from_example()

c1, c2 = st.columns([3, 2])
c1.selectbox(
    "Example",
    range(len(labels)),
    format_func=labels.__getitem__,
    key=K.LEARN_EXAMPLE,
    on_change=_fill_from_example,
)
use_sidebar = c2.toggle(
    "Use the sidebar's settings",
    key=K.LEARN_USE_SIDEBAR,
    help="Off: the paper's settings, the `paper` tokenizer (case-folded words, punctuation dropped), "
    "4-grams, no smoothing, so its Example 2 scores 0 as in the paper. On: the sidebar's tokenizer, order, "
    "weights and smoothing, as sentence BLEU on every page.",
)
candidate = st.text_area("Candidate", key=K.LEARN_CANDIDATE, height=80)
references = [
    r
    for r in st.text_area(
        "References (one per line)", key=K.LEARN_REFERENCES, height=110
    ).splitlines()
    if r.strip()
]
options = learn_options(use_sidebar, current_options())
if not references:
    st.info("Type at least one reference.")
    st.stop()
# quiz: p_n, BP and BLEU hidden until revealed
hidden = quiz_controls(candidate, references, options.max_order)
w = walkthrough(candidate, references, options)
signature = make_signature(options, len(references))
ref_names = [f"Reference {k}" for k in range(1, len(references) + 1)]

st.header("1 · Tokens")
tokens = {"Candidate": w.matches.hypothesis_tokens}
tokens.update(
    {name: toks for name, toks in zip(ref_names, w.matches.reference_tokens, strict=False)}
)
st.table(tokens_frame(tokens).set_index("text"))  # a table wraps long token lists

st.header("2 · N-grams, counts and clipping")
st.write(
    "For each n-gram of the candidate, count it in the candidate and in each reference. Its count is "
    "**clipped** to the most times it occurs in any *single* reference: "
    r"$\mathrm{Count}_{clip} = \min(\mathrm{Count}, \mathrm{Max\_Ref\_Count})$."
)
tabs = st.tabs([f"n = {step.n}" for step in w.orders])
for tab, step in zip(tabs, w.orders, strict=True):
    with tab:
        st.html(STYLE + legend_html())
        st.html(segment_block(w.matches, step.n, ref_names, system="Candidate"))
        st.dataframe(ngram_frame(w.matches, step.n, ref_names), hide_index=True, width="stretch")
        st.markdown(precision_line(step.n, step.fraction, step.matches, step.total, hidden=hidden))

st.header("3 · Modified precisions and their geometric mean")
precision_step(w, options, hidden=hidden)
penalty_and_bleu_steps(w, options, hidden=hidden)
signature_caption(signature)

st.header("6 · Why short sentences often get 0, and what smoothing does")
st.write(
    "BLEU was designed for a corpus. One sentence often has no matching 4-gram, so $p_4 = 0$ and the "
    "geometric mean collapses to 0 whatever the other orders say. Smoothing replaces zero counts by "
    "something small; the methods differ in how much."
)
if hidden:
    st.caption("Hidden for the quiz: each method's BLEU follows once revealed.")
else:
    st.table(records_frame(smoothing_rows(candidate, references, options)).set_index("smoothing"))
    st.caption(SMOOTHED_ABOVE_ONE)

st.header("7 · Corpus BLEU is not the average of sentence BLEUs")
study = current_study()
if study is None:
    st.caption("Open a study to compare corpus BLEU with the mean sentence BLEU on real data.")
else:
    scores = current_scores()
    st.write(
        f"On the open study (**{md_escape(scores.study.name)}**), corpus BLEU adds up matches and lengths over all segments "
        "before scoring; the mean of sentence BLEUs gives short sentences as much say as long ones and "
        "depends on the smoothing. Both on the 0-1 scale, as above."
    )
    table = corpus_vs_sentence_frame(scores.systems, scores.corpus, scores.sentence)
    st.dataframe(table, hide_index=True, width="stretch")
    signature_caption(scores.signature)
    signature_caption(scores.segment_signature, prefix="Segment BLEU signature")
    error_free_card(scores)  # WMT26's question on the open study (a class's ESA ratings too)

st.header("8 · Does BLEU agree with people? Try it with your class")
st.write(
    "The paper (§4-5) asked people to rate translations and then showed BLEU tracking their judgment. "
    "Class mode runs that in one lesson: students rate a few translations on their phones and the projector "
    "draws their adequacy and fluency against BLEU as the ratings arrive."
)
st.page_link(
    "pages/campaigns.py",
    label="Try it with your class (Campaigns → Class mode)",
    icon=":material/school:",
)
