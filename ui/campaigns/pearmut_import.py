"""The Campaigns page's "Import a Pearmut campaign": Pearmut's files (its annotation log, its download, the
campaign file, ``progress.json``) become an ESA campaign of the database, opened on the Manage tab.

The reading and importing is :func:`bleu_core.campaigns.pearmut_import.import_pearmut`; nothing here computes.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from bleu_core.campaigns.pearmut_import import import_pearmut
from bleu_core.errors import BleuStudyError
from bleu_core.io.members import MemoryTree
from bleu_core.study.formats.pearmut_study import pearmut_files
from ui.app import state as K
from ui.app.markup import md_escape
from ui.campaigns import forms
from ui.campaigns.db import open_store
from ui.campaigns.session import remember_campaign


def pearmut_import_section() -> None:
    """An expander with the upload and the Import button; on success the campaign opens on Manage."""
    with st.expander("Import a Pearmut campaign (WMT26's tool)"):
        st.caption(
            "Upload Pearmut's annotation log (`data/annotations/*.jsonl`) or its download "
            "(`annotations.json`), with the campaign file if you have it. Resets, resubmissions, tutorial "
            "and attention items are read as Pearmut counts them; see docs/formats.md §3d."
        )
        uploads = st.file_uploader(
            "Pearmut files",
            type=["json", "jsonl"],
            accept_multiple_files=True,
            key=K.CAMP_PEARMUT_FILES,
        )
        if not st.button("Import", disabled=not uploads, key=K.CAMP_PEARMUT_IMPORT):
            return
        try:
            files = pearmut_files(MemoryTree({u.name: u.getvalue() for u in uploads or []}))
            if files is None:
                st.error("No Pearmut annotation log or download among these files.")
                return
            got = import_pearmut(open_store(), files)
        except BleuStudyError as err:
            st.error(md_escape(str(err)))
            return
        except SQLAlchemyError as err:
            st.error(f"The campaign could not be saved: {md_escape(str(err))}")
            return
        notes = "; ".join(got.notes)
        st.session_state[K.CAMP_NOTICE] = (
            f"Imported from Pearmut: {got.n_ratings} ratings. {notes}".strip()
        )
        remember_campaign(
            got.created.campaign.code, got.created.organiser_key, tab=forms.MANAGE_TAB, new=True
        )
        st.rerun()
