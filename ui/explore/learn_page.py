"""The Learn BLEU page's one door into ``ui.explore``: everything ``pages/learn.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.explore.charts import precision_bars
from ui.explore.error_free_card import error_free_card
from ui.explore.frames import corpus_vs_sentence_frame, ngram_frame, precisions_frame, tokens_frame
from ui.explore.highlight import legend_html, segment_block
from ui.explore.learn_quiz import (
    example_label,
    learn_options,
    penalty_and_bleu_steps,
    precision_line,
    precision_step,
    quiz_controls,
)
from ui.explore.teach import (
    SMOOTHED_ABOVE_ONE,
    bp_formula,
    examples_from_study,
    smoothing_rows,
    walkthrough,
)

__all__ = [
    "SMOOTHED_ABOVE_ONE",
    "bp_formula",
    "corpus_vs_sentence_frame",
    "error_free_card",
    "example_label",
    "examples_from_study",
    "learn_options",
    "legend_html",
    "ngram_frame",
    "penalty_and_bleu_steps",
    "precision_bars",
    "precision_line",
    "precision_step",
    "precisions_frame",
    "quiz_controls",
    "segment_block",
    "smoothing_rows",
    "tokens_frame",
    "walkthrough",
]
