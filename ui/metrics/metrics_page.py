"""The Metrics page's one door into ``ui.metrics``: everything ``pages/metrics.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.app.context import analysis_caption
from ui.metrics import charts
from ui.metrics.panels import (
    correlation_notes,
    explorer_grid,
    system_scores_table,
    williams_table,
)

__all__ = [
    "analysis_caption",
    "charts",
    "correlation_notes",
    "explorer_grid",
    "system_scores_table",
    "williams_table",
]
