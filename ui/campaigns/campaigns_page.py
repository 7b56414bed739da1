"""The Campaigns page's one door into ``ui.campaigns``: everything ``pages/campaigns.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.campaigns import forms, lesson_panel
from ui.campaigns.db import open_store
from ui.campaigns.esa_manage import AnalysisInput, field_downloads, quality_section
from ui.campaigns.lesson_study import study_mismatch
from ui.campaigns.pearmut_import import pearmut_import_section
from ui.campaigns.session import (
    forget_campaign,
    remember_campaign,
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
    "AnalysisInput",
    "field_downloads",
    "forget_campaign",
    "forms",
    "lesson_panel",
    "open_store",
    "pearmut_import_section",
    "quality_section",
    "ratings_download",
    "remember_campaign",
    "show_agreement",
    "show_created_notice",
    "show_progress",
    "show_summary",
    "study_mismatch",
    "use_ratings_in_study",
]
