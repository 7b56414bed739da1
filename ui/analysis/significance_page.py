"""The Significance page's one door into ``ui.analysis``: everything ``pages/significance.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis import significance_data
from ui.analysis.cluster_view import render_clusters
from ui.analysis.stats_charts import block_chart, histogram, interval_chart, verdict_matrix
from ui.analysis.stats_frames import (
    block_frames,
    comparisons_frame,
    intervals_frame,
    matrix_frame,
    pairs_display,
)
from ui.app.context import analysis_caption

__all__ = [
    "analysis_caption",
    "block_chart",
    "block_frames",
    "comparisons_frame",
    "histogram",
    "interval_chart",
    "intervals_frame",
    "matrix_frame",
    "pairs_display",
    "render_clusters",
    "significance_data",
    "verdict_matrix",
]
