"""The organiser's inputs on the Campaigns page: the "new campaign" form, the "open a campaign" form and the
open / close / delete controls of an open campaign.

Each function draws widgets and returns what the organiser asked for; the page calls the core
(:mod:`bleu_core.campaigns`) with it. Nothing here touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from bleu_core.campaigns import (
    DISPLAY_MODES,
    PAPER_LABELS,
    PROTOCOLS,
    Campaign,
    CampaignPlan,
    add_quality_control,
    criteria_from_choices,
    plan_from_study,
    split_names,
)
from bleu_core.campaigns.model import DEFAULT_QUESTIONS
from bleu_core.campaigns.planning import DEFAULT_GROUPS
from bleu_core.campaigns.protocols import PROTOCOL_TITLES
from bleu_core.study.model import Study
from ui.app import state as K
from ui.campaigns.views import DISPLAY_HELP

#: Labels of the tabs of the Campaigns page.
CLASS_TAB = "Class mode"
NEW_TAB = "New campaign"
MANAGE_TAB = "Manage a campaign"

#: What :func:`organiser_controls` returns.
OPEN, SHUT, LEAVE, DELETE = "open", "shut", "leave", "delete"


@dataclass(frozen=True)
class NewCampaignChoices:
    """What the organiser filled in on the "new campaign" form, as typed (lists still comma-separated)."""

    name: str
    systems: tuple[str, ...]
    n_segments: int
    seed: int
    criteria_names: tuple[str, ...]
    extra_name: str
    extra_question: str
    labels_text: str
    display: str
    reference_stream: str | None
    groups_text: str
    protocol: str = "adequacy-fluency"
    tutorials: int = 0
    attention: int = 0

    def to_plan(self, study: Study) -> CampaignPlan:
        """The campaign plan these choices describe over *study*.

        Raises :class:`~bleu_core.campaigns.CampaignError` (a :class:`~bleu_core.errors.BleuStudyError`) with
        the fix when a choice is invalid (no system, a one-label scale, a group listed twice, ...).
        """
        criteria = None  # ESA and DA: the protocol's own criteria
        if self.protocol == "adequacy-fluency":
            criteria = criteria_from_choices(
                self.criteria_names,
                split_names(self.labels_text),
                extra_name=self.extra_name,
                extra_question=self.extra_question,
            )
        plan = plan_from_study(
            study,
            systems=self.systems,
            n_segments=self.n_segments,
            seed=self.seed,
            criteria=criteria,
            display=self.display,
            groups=split_names(self.groups_text),
            reference_stream=self.reference_stream,
            name=self.name,
            protocol=self.protocol,
        )
        if self.tutorials or self.attention:
            plan = add_quality_control(plan, tutorials=self.tutorials, attention=self.attention)
        return plan


def new_campaign_form(study: Study, *, default_seed: int) -> NewCampaignChoices | None:
    """Draw the "new campaign" form for *study*; the organiser's choices once submitted, else ``None``."""
    systems_all = list(study.systems)
    with st.form("camp_new_form"):
        name = st.text_input("Campaign name", value=f"{study.name}: human evaluation", max_chars=80)
        protocol = st.radio(
            "Protocol",
            list(PROTOCOLS),
            format_func=lambda p: PROTOCOL_TITLES[p],
            horizontal=True,
            key=K.CAMP_PROTOCOL,
            help="ESA: judges mark the errors (minor / major) and score 0-100, as WMT since 2024. "
            "DA: one 0-100 slider. Adequacy + fluency: the BLEU paper's 1-5 scales (the criteria below).",
        )
        systems = st.multiselect(
            "Systems to rate",
            systems_all,
            default=systems_all[: min(5, len(systems_all))],
            help="Human translations can be rated too (the paper rated H1 and H2 next to three MT systems).",
        )
        c1, c2 = st.columns(2)
        n_segments = c1.number_input(
            "Number of source segments (random sample)",
            min_value=1,
            max_value=max(1, study.n_segments),
            value=min(50, study.n_segments),
            step=1,
            help="The paper used 50 sentences × 5 systems = 250 pairs.",
        )
        seed = c2.number_input(
            "Seed", min_value=0, value=default_seed, step=1,
            help="Fixes the sample and the order; the same seed gives the same campaign.",
        )  # fmt: skip
        criteria_names = st.multiselect(
            "Criteria",
            ["adequacy", "fluency"],
            default=["adequacy", "fluency"],
            help=f"Fluency: {DEFAULT_QUESTIONS['fluency']} Adequacy: {DEFAULT_QUESTIONS['adequacy']}",
        )
        c1, c2 = st.columns(2)
        extra_name = c1.text_input(
            "Extra criterion (optional)", max_chars=80, placeholder="e.g. overall"
        )
        extra_question = c2.text_input(
            "Its question", max_chars=200, placeholder="e.g. How good is it?"
        )
        labels_text = st.text_input(
            "Scale labels, lowest to highest (comma-separated)",
            value=", ".join(PAPER_LABELS),
            help="The paper: from 1 (very bad) to 5 (very good). Scores run from 1 to the number of labels.",
        )
        display = st.radio(
            "Judges see",
            list(DISPLAY_MODES),
            index=DISPLAY_MODES.index("neither"),
            format_func=lambda d: DISPLAY_HELP[d],
        )
        reference_stream = None
        if len(study.references) > 1:
            reference_stream = st.selectbox("Reference shown to judges", list(study.references))
        groups_text = st.text_input(
            "Rater groups (comma-separated)", value=", ".join(DEFAULT_GROUPS)
        )
        c1, c2 = st.columns(2)
        tutorials = c1.number_input(
            "Tutorial items (first, with expected answers)", min_value=0, max_value=20, value=0,
            help="Judges see what they missed after each tutorial item.",
        )  # fmt: skip
        attention = c2.number_input(
            "Attention checks (damaged on purpose)", min_value=0, max_value=20, value=0,
            help="A phrase swapped in from another segment; judges who miss too many are left out of "
            "the analyses unless you keep them.",
        )  # fmt: skip
        submitted = st.form_submit_button("Create campaign", type="primary")
    if not submitted:
        return None
    return NewCampaignChoices(
        name=name,
        systems=tuple(systems),
        n_segments=int(n_segments),
        seed=int(seed),
        criteria_names=tuple(criteria_names),
        extra_name=extra_name,
        extra_question=extra_question,
        labels_text=labels_text,
        display=display,
        reference_stream=reference_stream,
        groups_text=groups_text,
        protocol=protocol,
        tutorials=int(tutorials),
        attention=int(attention),
    )


def open_campaign_form() -> tuple[str, str] | None:
    """Draw the "open a campaign" form; ``(code, organiser key)`` as typed once submitted, else ``None``.

    Its widgets are keyed :data:`ui.app.state.CAMP_FORM_CODE` / :data:`~ui.app.state.CAMP_FORM_KEY`, so a campaign just
    created can be pre-filled.
    """
    with st.form("camp_open_form"):
        c1, c2 = st.columns(2)
        code = c1.text_input("Campaign code", key=K.CAMP_FORM_CODE, max_chars=16)
        key = c2.text_input("Organiser key", key=K.CAMP_FORM_KEY, type="password")
        submitted = st.form_submit_button("Open campaign")
    return (code, key) if submitted else None


def organiser_controls(campaign: Campaign) -> str | None:
    """Draw the "open to judges" toggle, "close this view" and "delete" controls of an open campaign.

    Returns what the organiser asked for: :data:`OPEN` / :data:`SHUT` (open or close the campaign to judges),
    :data:`LEAVE` (close this view), :data:`DELETE` (delete for good, confirmed in a popover), or ``None``.
    """
    c1, c2, c3 = st.columns([1, 1, 2])
    is_open = c1.toggle("Open to judges", value=campaign.is_open)
    action = None
    if is_open != campaign.is_open:
        action = OPEN if is_open else SHUT
    if c2.button("Close this view", icon=":material/logout:"):
        action = LEAVE
    with c3.popover("Delete campaign…", icon=":material/delete:"):
        st.write(
            "This deletes the campaign, its judges and all their ratings. It cannot be undone."
        )
        if st.button("Delete for good", type="primary"):
            action = DELETE
    return action
