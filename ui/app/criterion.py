"""The human criterion every page opens on: the standardised one first, then the one chosen last.

Each page keeps its own criterion select box (:data:`ui.app.state.BVH_CRITERION`, ...), and they agree
through one shared value, :data:`ui.app.state.CRITERION`: a select box's ``on_change`` stores its choice
there (callbacks run before the page script), and before a page draws its select box,
:func:`criterion_widget` starts it on that value. Unset (a new study, "Reset to defaults"), a page opens
on the first of :func:`bleu_core.study.criterion_order.criteria_order`: DA z where the study has it.

>>> state = {"criterion": "da", "bvh_criterion": "da_z"}
>>> sync_criterion(state, "bvh_criterion", ["da_z", "da"])
>>> state["bvh_criterion"]
'da'
>>> state = {"bvh_criterion": "da"}                 # nothing chosen yet (or reset): the headline
>>> sync_criterion(state, "bvh_criterion", ["da_z", "da"]); state["bvh_criterion"]
'da_z'
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

import streamlit as st

from bleu_core.study.criterion_order import criteria_order
from ui.app import state as K

if TYPE_CHECKING:
    from bleu_core.study.model import Study


def sync_criterion(state: MutableMapping[str, Any], key: str, options: list[str]) -> None:
    """Start the select box ``key`` on the shared criterion, else on the headline (``options[0]``)."""
    chosen = state.get(K.CRITERION)
    if chosen in options:
        state[key] = chosen
    elif options:
        state[key] = options[0]


def _remember(key: str) -> None:
    st.session_state[K.CRITERION] = st.session_state.get(key)


def criterion_widget(key: str, options: list[str]) -> dict[str, Any]:
    """The keyword arguments of a page's criterion select box: its ``key``, started on the shared
    criterion, and an ``on_change`` that makes its choice the shared one."""
    sync_criterion(st.session_state, key, options)
    return {"key": key, "on_change": _remember, "args": (key,)}


def criterion_box(where: Any, label: str, study: Study, key: str) -> str | None:
    """Draw a page's criterion select box in ``where`` (``st`` or a column): the study's criteria in
    :func:`~bleu_core.study.criterion_order.criteria_order`, started as :func:`criterion_widget` says
    (nothing drawn, ``None``, for a study without human criteria)."""
    options = criteria_order(study.criteria)
    if not options:
        return None
    return where.selectbox(label, options, **criterion_widget(key, options))
