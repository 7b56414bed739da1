"""The BLEU vs error spans page's one door into ``ui.explore``: everything ``pages/error_spans.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.explore import agreement
from ui.explore.error_spans import rater_label
from ui.explore.error_spans_ahead import count_view_ahead
from ui.explore.span_scores_view import cached_span_scores, show_span_scores
from ui.explore.span_view import open_in_explore
from ui.explore.wmt25_view import show_wmt25_spans

__all__ = [
    "agreement",
    "cached_span_scores",
    "count_view_ahead",
    "show_span_scores",
    "show_wmt25_spans",
    "open_in_explore",
    "rater_label",
]
