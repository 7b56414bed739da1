"""The Campaigns page's one door into ``ui.campaigns``: everything ``pages/campaigns.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.campaigns import class_mode, forms
from ui.campaigns.browser_memory import my_lessons, remember_lesson, sync_browser_memory
from ui.campaigns.db import open_store
from ui.campaigns.projector_access import projector_link
from ui.campaigns.session import (
    forget_campaign,
    remember_campaign,
    reopen_remembered_lesson,
    use_ratings_in_study,
)
from ui.campaigns.views import (
    ratings_download,
    show_agreement,
    show_created_notice,
    show_progress,
    show_summary,
)

__all__ = [
    "class_mode",
    "forget_campaign",
    "forms",
    "my_lessons",
    "open_store",
    "projector_link",
    "ratings_download",
    "remember_campaign",
    "remember_lesson",
    "reopen_remembered_lesson",
    "show_agreement",
    "show_created_notice",
    "show_progress",
    "show_summary",
    "sync_browser_memory",
    "use_ratings_in_study",
]
