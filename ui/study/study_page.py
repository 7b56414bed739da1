"""The Study page's one door into ``ui.study``: everything ``pages/study.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.study import upload
from ui.study.metric_upload import metric_scores_panel
from ui.study.overview import study_overview

__all__ = [
    "metric_scores_panel",
    "study_overview",
    "upload",
]
