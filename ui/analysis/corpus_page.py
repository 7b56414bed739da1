"""The Corpus page's one door into ``ui.analysis``: everything ``pages/corpus.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis.charts import corpus_bars
from ui.analysis.domains import render_corpus_domains
from ui.analysis.frames import WMT_ESA_COLUMN, corpus_frame, wmt_esa_column
from ui.analysis.reference_bias_view import render_reference_bias
from ui.analysis.reference_scores import (
    reference_rows,
    render_reference_scores,
    with_reference_rows,
)

__all__ = [
    "WMT_ESA_COLUMN",
    "corpus_bars",
    "corpus_frame",
    "reference_rows",
    "render_corpus_domains",
    "render_reference_bias",
    "render_reference_scores",
    "with_reference_rows",
    "wmt_esa_column",
]
