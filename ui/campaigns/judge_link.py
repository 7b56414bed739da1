"""A judge's link: is this browser session a judge's, who gets the Rate page and nothing else?

Light on purpose (no ``bleu_core.campaigns``, no scipy): ``app.py`` asks it on every run, before the first
page, which must not import heavy libraries (tests/house/test_layers.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui.app import state as K

#: Query parameters: the judge's resume code, and the campaign code of an organiser's link (``/rate?campaign=``).
RESUME_PARAM = "resume"
CAMPAIGN_PARAM = "campaign"


def judge_view(query_params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """Whether this browser session gets the judge-only app: a judge's link (``?campaign=`` or ``?resume=``
    in the address) or a judge signed in. The app then lists only the Rate page, draws no sidebar
    settings and opens no study: a judge sees the items of the campaign and nothing else. Signing out
    (which clears the address) gives the whole app back.

    >>> judge_view({"campaign": "ABC123"}, {}), judge_view({}, {K.RATE_TOKEN: "t"}), judge_view({}, {})
    (True, True, False)
    """
    return bool(
        query_params.get(CAMPAIGN_PARAM)
        or query_params.get(RESUME_PARAM)
        or state.get(K.RATE_TOKEN)
    )
