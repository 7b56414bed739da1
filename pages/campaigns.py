"""Campaigns (organisers): create a human rating campaign from the open study, follow it, use its ratings.

A campaign is the BLEU paper's human evaluation (§4) for a class or a lab: a seeded random sample of segments,
each paired with the translations of the chosen systems, in one fixed order that disperses the translations of
the same source; judges rate each from 1 (very bad) to 5 (very good). The organiser key shown at creation is
needed for everything on the "Manage" tab.
"""

from __future__ import annotations

import hashlib
import html

import numpy as np
import pandas as pd
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from bleu_core.campaigns import (
    DISPLAY_MODES,
    PAPER_LABELS,
    CampaignStore,
    RatingCriterion,
    apply_to_study,
    display_database_url,
    judge_calibration,
    krippendorff_alpha,
    pairwise_correlation,
    plan_from_study,
    ratings_to_csv,
    reliability_data,
    study_criterion_name,
)
from bleu_core.campaigns.model import DEFAULT_QUESTIONS
from bleu_core.campaigns.planning import DEFAULT_GROUPS
from bleu_core.errors import BleuStudyError
from ui import state as K
from ui.context import current_study, file_stem
from ui.html import STYLE, label_html

DISPLAY_HELP = {
    "neither": "only the translation (the paper's monolingual judges: readability and fluency)",
    "source": "the source sentence and the translation (bilingual judges)",
    "reference": "a reference translation and the translation",
    "both": "the source, a reference and the translation",
}
ALL_JUDGES = "all judges"
NEW_TAB = "New campaign"
MANAGE_TAB = "Manage a campaign"
MAX_AGREEMENT_RESAMPLES = 1000


def open_store() -> CampaignStore:
    try:
        return CampaignStore.shared()
    except (BleuStudyError, SQLAlchemyError, OSError) as err:
        st.error(
            f"The campaign database could not be opened: {err}. Set the environment variable BLEU_STUDY_DB "
            "to a writable file path or an SQLAlchemy URL and restart the app."
        )
        st.stop()
        raise


def parse_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def new_campaign_tab() -> None:
    study = current_study()
    if study is None:
        st.info(
            "Open a study first (the **Study** page): a campaign samples its segments and systems."
        )
        return
    st.write(
        "Choose what to rate. Every judge will see the same items in the same shuffled order, in which the "
        "translations of one source sentence are spread apart (paper, §4)."
    )
    systems_all = list(study.systems)
    with st.form("camp_new_form"):
        name = st.text_input("Campaign name", value=f"{study.name}: human evaluation", max_chars=80)
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
            "Seed", min_value=0, value=int(st.session_state.get(K.SEED, 12345)), step=1,
            help="Fixes the sample and the order; the same seed gives the same campaign.",
        )  # fmt: skip
        criteria_names = st.multiselect(
            "Criteria",
            ["adequacy", "fluency"],
            default=["adequacy", "fluency"],
            help="Fluency: "
            + DEFAULT_QUESTIONS["fluency"]
            + " Adequacy: "
            + DEFAULT_QUESTIONS["adequacy"],
        )
        c1, c2 = st.columns(2)
        custom_name = c1.text_input(
            "Extra criterion (optional)", max_chars=80, placeholder="e.g. overall"
        )
        custom_question = c2.text_input(
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
        submitted = st.form_submit_button("Create campaign", type="primary")
    if not submitted:
        return
    labels = tuple(parse_list(labels_text))
    try:
        criteria = [
            RatingCriterion(c, DEFAULT_QUESTIONS.get(c, ""), labels) for c in criteria_names
        ]
        if custom_name.strip():
            criteria.append(RatingCriterion(custom_name, custom_question.strip(), labels))
        plan = plan_from_study(
            study,
            systems=systems,
            n_segments=int(n_segments),
            seed=int(seed),
            criteria=criteria,
            display=display,
            groups=parse_list(groups_text),
            reference_stream=reference_stream,
            name=name,
        )
        created = open_store().create_campaign(plan)
    except BleuStudyError as err:
        st.error(str(err))
        return
    except SQLAlchemyError as err:
        st.error(f"The campaign could not be saved: {err}")
        return
    st.session_state[K.CAMP_CODE] = created.campaign.code
    st.session_state[K.CAMP_KEY] = created.organiser_key
    st.session_state[K.CAMP_NEW_KEY] = (created.campaign.code, created.organiser_key)
    st.session_state[K.CAMP_FORM_CODE] = created.campaign.code
    st.session_state[K.CAMP_FORM_KEY] = created.organiser_key
    st.session_state[K.CAMP_TAB_NEXT] = MANAGE_TAB
    st.rerun()


def open_campaign_form() -> None:
    with st.form("camp_open_form"):
        c1, c2 = st.columns(2)
        code = c1.text_input("Campaign code", key=K.CAMP_FORM_CODE, max_chars=16)
        key = c2.text_input("Organiser key", key=K.CAMP_FORM_KEY, type="password")
        if st.form_submit_button("Open campaign"):
            try:
                campaign = open_store().check_organiser(code, key)
            except BleuStudyError as err:
                st.error(str(err))
            else:
                st.session_state[K.CAMP_CODE] = campaign.code
                st.session_state[K.CAMP_KEY] = key.strip()
                st.session_state[K.CAMP_TAB_NEXT] = MANAGE_TAB
                st.rerun()


def progress_section(store: CampaignStore, code: str, key: str) -> None:
    progress = store.progress(code, key)
    if not progress:
        st.info("No judge has joined yet.")
        return
    frame = pd.DataFrame(
        {
            "judge": [p.judge for p in progress],
            "group": [p.group for p in progress],
            "rated": [p.n_rated for p in progress],
            "skipped": [p.n_skipped for p in progress],
            "items": [p.n_items for p in progress],
            "done": [p.fraction for p in progress],
            "last activity (UTC)": [
                p.last_activity.strftime("%Y-%m-%d %H:%M:%S") if p.last_activity else ""
                for p in progress
            ],
        }
    )
    st.dataframe(
        frame,
        hide_index=True,
        column_config={
            "done": st.column_config.ProgressColumn(
                "done", min_value=0.0, max_value=1.0, format="percent"
            )
        },
    )
    total = sum(p.n_rated for p in progress)
    st.caption(f"{len(progress)} judges · {total} items fully rated in all")


def agreement_section(campaign, ratings) -> None:
    if not ratings:
        st.info("No ratings yet.")
        return
    state = st.session_state
    choice = st.selectbox("Judges", [ALL_JUDGES, *campaign.groups], key=K.CAMP_AGREEMENT_GROUP)
    group = None if choice == ALL_JUDGES else choice
    seed = int(state.get(K.SEED, 12345))
    n_resamples = min(int(state.get(K.N_RESAMPLES, 1000)), MAX_AGREEMENT_RESAMPLES)
    rows = []
    calib_rows = []
    matrices = {}
    for crit in campaign.criteria:
        rd = reliability_data(ratings, crit.name, group=group)
        if rd.data.size == 0:
            continue
        row = {"criterion": crit.name}
        for level in ("interval", "ordinal"):
            res = krippendorff_alpha(rd.data, level=level, n_resamples=n_resamples, seed=seed)
            low, high = res.confidence_interval
            row[f"alpha ({level})"] = res.statistic
            row[f"{level} 95% CI"] = "—" if np.isnan(low) else f"{low:.3f} – {high:.3f}"
        pw = pairwise_correlation(rd.data, rd.raters, method="pearson")
        row["mean pairwise r"] = pw.statistic
        row["items rated by ≥ 2"] = res.n_units
        row["judges"] = len(rd.raters)
        rows.append(row)
        matrices[crit.name] = pd.DataFrame(
            pw.matrix, index=list(rd.raters), columns=list(rd.raters)
        )
        group_of = dict(zip(rd.raters, rd.groups, strict=True))
        for cal in judge_calibration(rd.data, rd.raters):
            calib_rows.append(
                {
                    "criterion": crit.name,
                    "judge": cal.rater,
                    "group": group_of[cal.rater],
                    "items": cal.n,
                    "mean": cal.mean,
                    "sd": cal.std,
                    "offset vs others": cal.offset,
                    "shared items": cal.n_shared,
                }
            )
    if not rows:
        st.info("No ratings from this group yet.")
        return
    three = st.column_config.NumberColumn(format="%.3f")
    st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        column_config={
            "alpha (interval)": three,
            "alpha (ordinal)": three,
            "mean pairwise r": three,
        },
    )
    st.caption(
        f"Alpha: 1 = perfect agreement, 0 = chance level (Krippendorff). Confidence intervals: bootstrap over "
        f"items, {n_resamples} resamples, seed {seed} (the app's resampling settings)."
    )
    st.markdown("**Calibration** — each judge's mean; *offset* is how much higher the judge scores than the "
                "other judges on the same items (the paper: some judges are more liberal).")  # fmt: skip
    st.dataframe(
        pd.DataFrame(calib_rows),
        hide_index=True,
        column_config={
            "mean": three,
            "sd": three,
            "offset vs others": st.column_config.NumberColumn(format="%+.3f"),
        },
    )
    with st.expander("Pairwise correlation between judges"):
        for name, matrix in matrices.items():
            st.caption(name)
            st.dataframe(matrix, column_config={c: three for c in matrix.columns})


def use_in_analyses(campaign, ratings) -> None:
    study = current_study()
    if study is None:
        st.info("Open the study this campaign was made from to use its ratings in the analyses.")
        return
    clicked = st.button(
        "Use these ratings in the analyses", type="primary", icon=":material/insights:"
    )
    notice = st.session_state.get(K.CAMP_NOTICE)
    if notice:
        st.success(notice)
        st.session_state[K.CAMP_NOTICE] = None
    if clicked:
        try:
            new = apply_to_study(study, campaign, ratings)
        except BleuStudyError as err:
            st.error(str(err))
            return
        digest = hashlib.sha256(ratings_to_csv(ratings).encode("utf-8")).hexdigest()[:12]
        base_key = str(st.session_state.get(K.STUDY_KEY) or study.name).split("|campaign:")[0]
        st.session_state[K.STUDY] = new
        st.session_state[K.STUDY_KEY] = f"{base_key}|campaign:{campaign.code}:{digest}"
        names = ", ".join(study_criterion_name(campaign, c.name) for c in campaign.criteria)
        st.session_state[K.CAMP_NOTICE] = (
            f"{len(ratings)} ratings added to the open study as criteria: {names}. "
            "The BLEU vs human, Judges and Correlation pages now offer them."
        )
        st.rerun()


def manage_tab() -> None:
    state = st.session_state
    code, key = state.get(K.CAMP_CODE), state.get(K.CAMP_KEY)
    if not code or not key:
        open_campaign_form()
        return
    store = open_store()  # opened (and created) only once someone uses a campaign
    try:
        campaign = store.check_organiser(code, key)
    except BleuStudyError as err:
        st.error(str(err))
        state[K.CAMP_CODE] = state[K.CAMP_KEY] = None
        open_campaign_form()
        return
    new = state.get(K.CAMP_NEW_KEY)
    if new and new[0] == campaign.code:
        st.success(
            f"Campaign created. Judges join on the **Rate translations** page with the code "
            f"**{campaign.code}**. Your organiser key is below: note it down now, it is shown only once "
            "and only a hash of it is stored."
        )
        st.code(f"campaign code: {campaign.code}\norganiser key: {new[1]}", language=None)
        state[K.CAMP_NEW_KEY] = None
    st.markdown(
        STYLE
        + label_html("Campaign")
        + f'<div class="bs-seg"><b>{html.escape(campaign.name)}</b> · code <code>{html.escape(campaign.code)}'
        + f"</code> · study {html.escape(campaign.study_name)} · {campaign.n_items} items "
        + f"({len(campaign.segment_ids)} segments × {len(campaign.systems)} systems) · seed {campaign.seed}</div>"
        + label_html("Systems")
        + f'<div class="bs-seg">{html.escape(", ".join(campaign.systems))}</div>'
        + label_html("Judges see")
        + f'<div class="bs-seg">{html.escape(DISPLAY_HELP[campaign.display])}; groups: '
        + f"{html.escape(', '.join(campaign.groups))}</div>",
        unsafe_allow_html=True,
    )
    c1, c2, c3 = st.columns([1, 1, 2])
    is_open = c1.toggle("Open to judges", value=campaign.is_open)
    if is_open != campaign.is_open:
        store.set_open(campaign.code, key, is_open)
        st.rerun()
    if c2.button("Close this view", icon=":material/logout:"):
        state[K.CAMP_CODE] = state[K.CAMP_KEY] = None
        st.rerun()
    with c3.popover("Delete campaign…", icon=":material/delete:"):
        st.write(
            "This deletes the campaign, its judges and all their ratings. It cannot be undone."
        )
        if st.button("Delete for good", type="primary"):
            store.delete_campaign(campaign.code, key)
            state[K.CAMP_CODE] = state[K.CAMP_KEY] = None
            st.rerun()

    ratings = store.ratings(campaign.code, key)
    st.subheader("Progress")
    progress_section(store, campaign.code, key)
    st.subheader("Agreement and calibration")
    agreement_section(campaign, ratings)
    st.subheader("Use the ratings")
    c1, _ = st.columns([1, 3])
    c1.download_button(
        "Ratings as CSV",
        data=ratings_to_csv(ratings),
        file_name=f"{file_stem(campaign.name)}-{campaign.code}-ratings.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        disabled=not ratings,
    )
    use_in_analyses(campaign, ratings)


st.title("Rating campaigns")
st.write(
    "Run the BLEU paper's human evaluation with your class or lab: judges rate translations from 1 (very bad) "
    "to 5 (very good) on the **Rate translations** page, and their ratings go straight into the analyses."
)
st.caption(f"Database: `{display_database_url()}` (set BLEU_STUDY_DB to change it)")
if st.session_state.get(
    K.CAMP_TAB_NEXT
):  # set before the tabs exist: a widget's state cannot change after
    st.session_state[K.CAMP_TAB] = st.session_state.pop(K.CAMP_TAB_NEXT)
tab_new, tab_manage = st.tabs([NEW_TAB, MANAGE_TAB], key=K.CAMP_TAB, on_change="rerun")
with tab_new:
    new_campaign_tab()
with tab_manage:
    manage_tab()
