"""The Projector page's one door into ``ui.campaigns``: everything ``pages/projector.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.campaigns import (
    class_mode,
    contrastive_projector,
    esa_projector,
    lesson_study,
    projector_access,
    projector_parts,
)
from ui.campaigns.browser_memory import sync_browser_memory
from ui.campaigns.db import open_store

__all__ = [
    "class_mode",
    "contrastive_projector",
    "esa_projector",
    "lesson_study",
    "open_store",
    "projector_access",
    "projector_parts",
    "sync_browser_memory",
]
