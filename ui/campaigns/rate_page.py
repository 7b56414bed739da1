"""The Rate translations page's one door into ``ui.campaigns``: everything ``pages/rate.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.campaigns.browser_memory import sync_browser_memory
from ui.campaigns.contrastive_rating import rate_screen
from ui.campaigns.esa_marking import rate_slider_item, show_feedback
from ui.campaigns.judge_access import (
    current_session,
    join_or_resume,
    resume_from_address,
    resume_from_browser,
    sign_out,
    signed_in,
)
from ui.campaigns.lesson_timer import seconds_left, timer_text
from ui.campaigns.rating_widgets import (
    connection_notice,
    finished_choice,
    judge_header,
    keyboard_controls,
    live_countdown,
    navigation,
    score_form,
    scroll_to_item,
    show_item,
    welcome,
)

__all__ = [
    "connection_notice",
    "current_session",
    "finished_choice",
    "join_or_resume",
    "judge_header",
    "keyboard_controls",
    "live_countdown",
    "navigation",
    "rate_screen",
    "rate_slider_item",
    "resume_from_address",
    "resume_from_browser",
    "score_form",
    "seconds_left",
    "scroll_to_item",
    "show_feedback",
    "show_item",
    "sign_out",
    "signed_in",
    "sync_browser_memory",
    "timer_text",
    "welcome",
]
