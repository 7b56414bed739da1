"""The Correlation page's one door into ``ui.analysis``: everything ``pages/correlation.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis import correlation_cache
from ui.analysis.correlation_lines import chance_said
from ui.analysis.correlation_table import correlation_chart, correlation_frame, correlation_notes
from ui.analysis.human_passes import show_human_passes
from ui.analysis.stats_charts import subset_chart
from ui.analysis.stats_frames import subset_frames

__all__ = [
    "chance_said",
    "correlation_cache",
    "correlation_chart",
    "correlation_frame",
    "correlation_notes",
    "show_human_passes",
    "subset_chart",
    "subset_frames",
]
