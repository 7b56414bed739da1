"""The bundled demo studies, loaded once per process and shared read-only by all sessions."""

from __future__ import annotations

import streamlit as st

from bleu_core.study import Study
from bleu_core.study.demo import load_demo


@st.cache_resource(max_entries=4, show_spinner="Loading the demo study…")
def demo_study(name: str) -> Study:
    """A bundled demo study (read-only, shared by all sessions)."""
    return load_demo(name)
