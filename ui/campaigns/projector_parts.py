"""The Projector page's parts for the teacher and the room: the timer, the end-of-class downloads, the
ratings into the open study, the countdown and the agreement column. The page passes what it shows (the store,
the lesson, its code and organiser key); every text a student or organiser wrote is escaped.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import altair as alt
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bleu_core.campaigns import Campaign, CampaignStore, apply_to_study, study_criterion_name
from bleu_core.campaigns.integration import name_clash_note
from bleu_core.campaigns.lesson import ClassSnapshot, class_snapshot
from bleu_core.errors import BleuStudyError
from ui.analysis.export_zip import export_state
from ui.app import chart_images
from ui.app import state as K
from ui.app.context import current_scores, current_study, open_study
from ui.app.markup import md_escape
from ui.app.presentation import show_altair
from ui.campaigns import class_mode as cm
from ui.campaigns import class_results as results
from ui.campaigns import lesson_timer
from ui.campaigns.lesson_study import study_mismatch
from ui.campaigns.projector_access import ClassData, class_data

#: Bootstrap draws of alpha's interval on the projector (re-computed when the ratings change).
ALPHA_RESAMPLES = 200
#: Snapshots kept per server process (a few lessons, each with a projector or two).
KEPT_SNAPSHOTS = 8
_kept: OrderedDict[tuple, ClassSnapshot] = OrderedDict()
_kept_lock = threading.Lock()


def snapshot_key(data: ClassData) -> tuple:
    """Everything :func:`snapshot` reads: the lesson, the number of students and every rating, whole
    (:class:`~bleu_core.campaigns.StoredRating` is frozen: score, times and all)."""
    return data.campaign.code, data.campaign.seed, len(data.progress), tuple(data.ratings)


def snapshot(data: ClassData) -> ClassSnapshot:
    """The class's numbers so far. The projector's fragment asks every 2 s, and every projector of the
    lesson asks; a snapshot is computed once per state of the ratings (:func:`snapshot_key`) and shared
    within the server process (the last :data:`KEPT_SNAPSHOTS`; it is never changed after it is made)."""
    key = snapshot_key(data)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    snap = class_snapshot(
        data.campaign,
        data.ratings,
        len(data.progress),
        n_resamples=ALPHA_RESAMPLES,
        seed=data.campaign.seed,
    )
    with _kept_lock:
        _kept[key] = snap
        while len(_kept) > KEPT_SNAPSHOTS:
            _kept.popitem(last=False)
    return snap


def timer_controls(store: CampaignStore, code: str, key: str) -> None:
    """The teacher sets the timer (minutes and seconds): the projector counts down and rating closes at
    zero."""
    minutes = st.number_input(
        "Minutes", min_value=0, max_value=120, value=10, key=K.PROJ_TIMER_MINUTES
    )
    seconds = st.number_input(
        "Seconds", min_value=0, max_value=59, value=0, step=5, key=K.PROJ_TIMER_SECONDS
    )
    total = 60 * int(minutes) + int(seconds)
    if st.button(
        "Start the timer",
        type="primary",
        icon=":material/timer:",
        disabled=total <= 0,
        help=None if total > 0 else "Set the minutes or seconds first.",
    ):

        def close() -> None:  # at zero the server closes rating, projector open or not
            store.set_open(code, key, False)

        store.set_open(code, key, True)
        lesson_timer.start_timer(code, total / 60, on_zero=close)
        st.rerun()
    if st.button("Stop the timer", disabled=lesson_timer.seconds_left(code) is None):
        lesson_timer.stop_timer(code)
        st.rerun()


def teacher_data(store: CampaignStore, code: str, key: str) -> ClassData:
    """The lesson's campaign, ratings and progress read with the organiser *key*, without the session
    (a download built on the click runs outside the page, where ``st.session_state`` is empty)."""
    return ClassData(
        store.check_organiser(code, key), store.ratings(code, key), store.progress(code, key)
    )


def end_of_class(store: CampaignStore, campaign: Campaign) -> None:
    """The end-of-class downloads (one picture, the study's reproducible zip with the class's ratings, the
    class's own zip) and the ratings into the open study. The downloads are built on the click from the
    ratings then; what they read from the session is read now."""
    stem, code, key = f"class-{campaign.code}", campaign.code, st.session_state[K.PROJ_KEY]

    def picture() -> bytes:
        snap = snapshot(teacher_data(store, code, key))
        return chart_images.chart_png(results.summary_chart(campaign, snap).to_json())

    def zipped() -> bytes:
        data = teacher_data(store, code, key)
        items, spans = store.class_spans(code, key=key)  # an ESA lesson's spans go in too
        return results.class_zip(
            campaign, snapshot(data), data.ratings, chart_images.chart_png, chart_images.chart_svg,
            items=items, spans=spans,
        )  # fmt: skip

    st.download_button(
        "Summary picture (PNG)",
        data=picture,
        file_name=f"{stem}.png",
        mime="image/png",
        on_click="ignore",
        icon=":material/image:",
    )
    study_zip_button(lambda: teacher_data(store, code, key), campaign)
    st.download_button(
        "The class's ratings and results (zip)",
        data=zipped,
        file_name=f"{stem}.zip",
        mime="application/zip",
        on_click="ignore",
        icon=":material/folder_zip:",
    )
    keep_results(store, campaign)


def study_zip_button(read: Callable[[], ClassData], campaign: Campaign) -> None:
    """The open study's reproducible zip (Export's) with the class's ratings (*read* on the click) joined."""
    mismatch = study_mismatch(campaign, current_study())  # the lesson's sentences and systems?
    if mismatch:
        st.caption(md_escape(mismatch))
        return
    scores, state = current_scores(), export_state(st.session_state)

    def study_zip() -> bytes:
        data = read()
        return results.class_study_zip(
            scores,
            state,
            campaign,
            snapshot(data),
            data.ratings,
            chart_images.chart_png,
            chart_images.chart_svg,
        )

    st.download_button(
        "The study's reproducible zip with the class's ratings",
        data=study_zip,
        type="primary",
        file_name=f"bleu-study-{campaign.code.lower()}-class.zip",
        mime="application/zip",
        on_click="ignore",
        icon=":material/folder_zip:",
    )


def keep_results(store: CampaignStore, campaign: Campaign) -> None:
    """Add the class's ratings to the open study as criteria."""
    study = current_study()
    state = st.session_state
    st.write(
        "Add the class's ratings to the open study as criteria: every page (BLEU vs human, Judges, "
        "Correlation, Export's reproducible zip) then offers them."
    )
    if st.button("Add to the open study", disabled=study is None):
        mismatch = study_mismatch(campaign, study)
        if mismatch:
            st.error(md_escape(mismatch))
            return
        try:
            new = apply_to_study(study, campaign, class_data(store).ratings)
        except BleuStudyError as err:
            st.error(md_escape(str(err)))
        else:
            open_study(
                new,
                key=f"{state.get(K.STUDY_KEY)}|class:{campaign.code}:{len(new.ratings)}",
                label=f"{state.get(K.STUDY_LABEL)} + class {campaign.code}",
            )
            names = ", ".join(
                study_criterion_name(campaign, c, study) for c in campaign.criterion_names
            )
            note = name_clash_note(study, campaign)
            st.success(
                md_escape(f"Added as criteria: {names}. {note}".strip())
                + " Open Export for the reproducible zip."
            )


#: The address's mark of the results view (``?results=1``), so that a reload stays on it.
RESULTS_PARAM = "results"


def _results_changed() -> None:
    if st.session_state.get(K.PROJ_RESULTS):
        st.query_params[RESULTS_PARAM] = "1"
    elif RESULTS_PARAM in st.query_params:
        del st.query_params[RESULTS_PARAM]


def results_switch(column: DeltaGenerator) -> None:
    """The "Results view" switch, kept in the address: a reload (or the link copied to another tab) shows
    the results view again."""
    state = st.session_state
    if K.PROJ_RESULTS not in state and st.query_params.get(RESULTS_PARAM) == "1":
        state[K.PROJ_RESULTS] = True
    column.toggle(
        "Results view",
        key=K.PROJ_RESULTS,
        on_change=_results_changed,
        help="Once the class has joined: the join QR code goes, r and the charts fill the screen.",
    )


def show_timer(store: CampaignStore, data: ClassData, key: str | None) -> None:
    """The countdown in large type; at zero the teacher's projector (*key* given) closes rating."""
    code = data.campaign.code
    left = lesson_timer.seconds_left(code)
    if left is None:
        return
    st.markdown(
        f'<div class="bs-proj-timer">{lesson_timer.timer_text(left)}</div>', unsafe_allow_html=True
    )
    if left <= 0 and key and data.campaign.is_open:
        store.set_open(code, key, False)


def alpha_part(snap: ClassSnapshot) -> None:
    """Do the students agree? Alpha per criterion, its history, and the class against the experts."""
    st.subheader("Do the students agree? (Krippendorff's α)")
    for line in cm.alpha_lines(snap):
        st.markdown(f"#### {md_escape(line)}")
    if snap.alpha_history:
        chart = (
            alt.Chart(cm.alpha_frame(snap))
            .mark_line(point=True)
            .encode(
                x=alt.X("ratings:Q", title="ratings so far"),
                y=alt.Y("alpha:Q", title="α"),
                color=alt.Color("criterion:N", scale=alt.Scale(range=results.OKABE_ITO)),
            )
            .properties(height=220, title="α as the ratings came in")
        )
        show_altair(chart)  # large labels in presentation mode
    for name, value in snap.experts.items():
        st.markdown(
            f"**The class vs the experts** ({md_escape(name)}, {int(value['n'])} systems): "
            + results.r_text(value["r"])
        )
