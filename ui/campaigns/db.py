"""The campaign database as the app's pages open it: shared per process, with a clear message when it cannot open.

Both campaign pages (organisers and judges) call :func:`open_store` only once someone actually uses a campaign, so
merely visiting a page never creates the database file.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from bleu_core.campaigns import CampaignStore
from bleu_core.errors import BleuStudyError

OPEN_FAILED = (
    "The campaign database could not be opened: {error}. Set the environment variable BLEU_STUDY_DB "
    "to a writable file path or an SQLAlchemy URL and restart the app."
)


def open_store() -> CampaignStore:
    """The campaign database (``BLEU_STUDY_DB`` or the per-user default); stops the page with a message naming
    the fix if it cannot be opened."""
    try:
        return CampaignStore.shared()
    except (BleuStudyError, SQLAlchemyError, OSError) as err:
        st.error(OPEN_FAILED.format(error=err))
        st.stop()
        raise  # unreachable: st.stop() ends the run
