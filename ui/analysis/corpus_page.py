"""The Corpus page's one door into ``ui.analysis``: everything ``pages/corpus.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis.charts import corpus_bars
from ui.analysis.domains import render_corpus_domains
from ui.analysis.frames import corpus_frame
from ui.analysis.reference_scores import render_reference_scores

__all__ = [
    "corpus_bars",
    "corpus_frame",
    "render_corpus_domains",
    "render_reference_scores",
]
