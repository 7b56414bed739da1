"""The Export page's one door into ``ui.analysis``: everything ``pages/export.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis.charts import corpus_bars, normalised_chart, regression_scatter
from ui.analysis.domains import domain_tables
from ui.analysis.frames import corpus_frame, normalised_frame
from ui.analysis.relate import describe_fit, linear_fit

__all__ = [
    "corpus_bars",
    "corpus_frame",
    "describe_fit",
    "domain_tables",
    "linear_fit",
    "normalised_chart",
    "normalised_frame",
    "regression_scatter",
]
