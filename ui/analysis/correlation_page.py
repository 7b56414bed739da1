"""The Correlation page's one door into ``ui.analysis``: everything ``pages/correlation.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis import correlation_cache
from ui.analysis.stats_charts import interval_chart, subset_chart
from ui.analysis.stats_frames import correlation_rows, subset_frames

__all__ = [
    "correlation_cache",
    "correlation_rows",
    "interval_chart",
    "subset_chart",
    "subset_frames",
]
