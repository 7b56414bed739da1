"""The Metric ranking page's one door into ``ui.analysis``: everything ``pages/metric_ranking.py`` uses from
this room, re-exported from the modules that define it (a page imports one module of its room)."""

from ui.analysis.error_free_view import show_error_free
from ui.analysis.ranking import (
    STATISTIC_NAMES,
    cached_ranking,
    findings_display,
    findings_frame,
    findings_latex,
    highlight_bleu,
    ranking_frame,
)
from ui.analysis.ranking_extras import (
    show_ceiling_choice,
    show_chance_lines,
    show_explainers,
    show_release_view,
    warn_degenerate,
)
from ui.app.context import analysis_caption

__all__ = [
    "analysis_caption",
    "STATISTIC_NAMES",
    "cached_ranking",
    "findings_display",
    "findings_frame",
    "findings_latex",
    "highlight_bleu",
    "ranking_frame",
    "show_ceiling_choice",
    "show_chance_lines",
    "show_error_free",
    "show_explainers",
    "show_release_view",
    "warn_degenerate",
]
