"""The Explore page's one door into ``ui.explore``: everything ``pages/explore.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.explore import browse, span_view
from ui.explore.frames import ngram_frame, system_entries
from ui.explore.highlight import browse_label, comparison_table, texts_block
from ui.explore.rated import rated_only, render_rated_counts

__all__ = [
    "browse",
    "browse_label",
    "comparison_table",
    "ngram_frame",
    "rated_only",
    "render_rated_counts",
    "span_view",
    "system_entries",
    "texts_block",
]
