"""The Judges page's one door into ``ui.analysis``: everything ``pages/judges.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis import judges_cache
from ui.analysis.stats_charts import judges_chart

__all__ = [
    "judges_cache",
    "judges_chart",
]
