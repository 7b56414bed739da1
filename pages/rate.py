"""Rate translations (judges): join a campaign with its code, rate items one at a time, resume any time.

As in the BLEU paper's §4, every judge sees the same items in the same shuffled order and rates each translation
from 1 (very bad) to 5 (very good). Everything is saved in the campaign database the moment it is submitted;
the page keeps only who the judge is (and puts the resume code in the URL, so a reload continues).

Keyboard: Tab / arrow keys move through the scores; number keys set the next criterion without a score; Enter
saves and goes to the next item; ``s`` skips; ``b`` goes back.
"""

from __future__ import annotations

import html

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from bleu_core.campaigns import AccessDenied, CampaignStore, JudgeSession
from bleu_core.errors import BleuStudyError
from ui import state as K
from ui.context import ensure_entrypoint
from ui.html import STYLE, label_html, plain_html

RESUME_PARAM = "resume"
CAMPAIGN_PARAM = "campaign"
SAVE_LABEL = "Save and next"
SKIP_LABEL = "Skip"
BACK_LABEL = "Back"

# Number keys, Enter, s and b. Runs in the page itself (st.html with JavaScript allowed; the script is this
# constant, no user text goes into it) and adds its listener once per browser tab. It never acts while the judge
# is typing in a text field.
KEYBOARD_JS = (
    """
<script>
(function () {
  if (window.__bsRateKeys) return;
  window.__bsRateKeys = true;
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && ((t.tagName === "INPUT" && t.type !== "radio") || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    const form = document.querySelector('[data-testid="stForm"]');
    if (!form || !form.querySelector('[role="radiogroup"]')) return;
    const button = (label) => Array.from(document.querySelectorAll("button"))
        .find((b) => b.innerText.trim() === label);
    if (/^[0-9]$/.test(e.key)) {
      const groups = Array.from(form.querySelectorAll('[role="radiogroup"]'));
      const group = groups.find((g) => !g.querySelector("input:checked"));
      if (!group) return;
      const label = Array.from(group.querySelectorAll("label"))
          .find((l) => l.innerText.trim().split(" ")[0] === e.key);
      if (label) { label.click(); e.preventDefault(); }
    } else if (e.key === "Enter") {
      const b = button("__SAVE__"); if (b) { b.click(); e.preventDefault(); }
    } else if (e.key === "s") {
      const b = button("__SKIP__"); if (b) { b.click(); e.preventDefault(); }
    } else if (e.key === "b") {
      const b = button("__BACK__"); if (b && !b.disabled) { b.click(); e.preventDefault(); }
    }
  }, true);
})();
</script>
""".replace("__SAVE__", SAVE_LABEL)
    .replace("__SKIP__", SKIP_LABEL)
    .replace("__BACK__", BACK_LABEL)
)


def open_store() -> CampaignStore:
    """The campaign database (``BLEU_STUDY_DB`` or the per-user default); stops the page if it cannot open."""
    try:
        return CampaignStore.shared()
    except (BleuStudyError, SQLAlchemyError, OSError) as err:
        st.error(
            f"The campaign database could not be opened: {err}. Set the environment variable BLEU_STUDY_DB "
            "to a writable file path or an SQLAlchemy URL and restart the app."
        )
        st.stop()
        raise  # unreachable: st.stop() ends the run


def sign_in(session: JudgeSession, notice: str | None = None) -> None:
    st.session_state[K.RATE_CODE] = session.code
    st.session_state[K.RATE_TOKEN] = session.token
    st.session_state[K.RATE_NOTICE] = notice
    st.query_params.clear()
    st.query_params[RESUME_PARAM] = session.resume_code


def sign_out() -> None:
    st.session_state[K.RATE_CODE] = None
    st.session_state[K.RATE_TOKEN] = None
    st.session_state[K.RATE_NOTICE] = None
    st.query_params.clear()


def text_box(label: str, text: str | None, *, emphasis: bool = False) -> None:
    """One text (escaped) with its label."""
    body = plain_html(text, label=label)
    if emphasis:
        body = body.replace(
            'class="bs-seg"', 'class="bs-seg" style="font-size:1.15rem;font-weight:500"', 1
        )
    st.markdown(body, unsafe_allow_html=True)


def join_or_resume() -> None:
    """The forms shown before a judge has signed in."""
    st.write(
        "Your organiser gave you a **campaign code**. Enter it with your name to start; you rate one "
        "translation at a time and can stop whenever you like. Already started? Use your **resume code**."
    )
    link_code = st.query_params.get(CAMPAIGN_PARAM)
    if link_code and not st.session_state.get(K.RATE_JOIN_CODE):
        st.session_state[K.RATE_JOIN_CODE] = link_code
    join_tab, resume_tab = st.tabs(["Join a campaign", "Resume"])
    with join_tab:
        code = st.text_input(
            "Campaign code", key=K.RATE_JOIN_CODE, max_chars=16, placeholder="e.g. K7P2QX"
        )
        if code.strip():
            store = open_store()
            try:
                campaign = store.get_campaign(code)
            except BleuStudyError as err:
                st.error(str(err))
            else:
                shows = {
                    "source": "the source sentence and the translation",
                    "reference": "a reference translation and the translation",
                    "both": "the source sentence, a reference translation and the translation",
                    "neither": "only the translation",
                }[campaign.display]
                st.markdown(
                    STYLE
                    + label_html("Campaign")
                    + f'<div class="bs-seg"><b>{html.escape(campaign.name)}</b> · {campaign.n_items} '
                    f"items · you will see {html.escape(shows)}</div>",
                    unsafe_allow_html=True,
                )
                if not campaign.is_open:
                    st.warning("This campaign is closed; ask the organiser to reopen it.")
                with st.form("rate_join_form"):
                    name = st.text_input("Your name", key=K.RATE_JOIN_NAME, max_chars=80)
                    group = st.radio(
                        "Your group",
                        list(campaign.groups),
                        key=K.RATE_JOIN_GROUP,
                        horizontal=True,
                        help="The paper had a monolingual group (judging only the English) and a bilingual "
                        "group. Ask your organiser which one you are in.",
                    )
                    if st.form_submit_button("Start rating", type="primary"):
                        try:
                            session = JudgeSession.join(store, code, name, group)
                        except BleuStudyError as err:
                            st.error(str(err))
                        else:
                            sign_in(session, notice=session.resume_code)
                            st.rerun()
    with resume_tab:
        with st.form("rate_resume_form"):
            resume = st.text_input(
                "Resume code",
                key=K.RATE_RESUME_CODE,
                placeholder="e.g. K7P2QX-12-…",
                type="password",
            )
            if st.form_submit_button("Resume", type="primary"):
                try:
                    session = JudgeSession.from_resume_code(open_store(), resume)
                except BleuStudyError as err:
                    st.error(str(err))
                else:
                    sign_in(session)
                    st.rerun()


def finished_view(session: JudgeSession, rated: int, skipped: int) -> None:
    n = session.n_items
    if rated == n:
        st.success(f"You have rated all {n} items. Thank you!")
    else:
        st.info(f"You reached the end: {rated} of {n} items rated, {n - rated} still open.")
    first_open = session.first_unrated()
    c1, c2, _ = st.columns([1, 1, 3])
    if first_open is not None and c1.button(
        f"Rate the open items ({n - rated})", type="primary", icon=":material/redo:"
    ):
        session.go_to(first_open)
        st.rerun()
    if c2.button("Review from the start", icon=":material/first_page:"):
        session.go_to(0)
        st.rerun()


def rating_view(session: JudgeSession) -> None:
    campaign = session.campaign
    state = st.session_state
    rated, skipped, n = session.progress()
    st.markdown(
        STYLE
        + '<div class="bs-seg">'
        + f"<b>{html.escape(campaign.name)}</b> · judge <b>{html.escape(session.judge.name)}</b> "
        + f"({html.escape(session.judge.group)})</div>",
        unsafe_allow_html=True,
    )
    st.progress(rated / n if n else 0.0, text=f"{rated} of {n} rated · {skipped} skipped")
    notice = state.get(K.RATE_NOTICE)
    if notice:
        st.success(
            "Welcome! Keep your resume code to continue later, here or on another device "
            "(it is also in this page's address):"
        )
        st.code(notice, language=None)
        state[K.RATE_NOTICE] = None
    if session.finished:
        finished_view(session, rated, skipped)
        return

    pos = session.position
    item = session.item(pos)
    assert item is not None
    st.subheader(f"Item {pos + 1} of {n}")
    if item.source is not None:
        text_box("Source", item.source)
    if item.reference is not None:
        text_box("Reference translation", item.reference)
    text_box("Translation to rate", item.translation, emphasis=True)

    existing = session.scores(pos)
    widget_keys = [f"{K.RATE_SCORE_PREFIX}{pos}_{i}" for i in range(len(campaign.criteria))]
    with st.form(f"rate_form_{pos}"):
        for crit, key in zip(campaign.criteria, widget_keys, strict=True):
            options = list(crit.scores)
            old = existing.get(crit.name)
            st.radio(
                f"**{crit.name}**" + (f" — {crit.question}" if crit.question else ""),
                options,
                index=options.index(old) if old in options else None,
                format_func=lambda s, c=crit: f"{s} · {c.label(s)}",
                horizontal=True,
                key=key,
            )
        c1, c2, _ = st.columns([1, 1, 3])
        save = c1.form_submit_button(SAVE_LABEL, type="primary")
        skip = c2.form_submit_button(SKIP_LABEL)
    if save:
        scores = {
            crit.name: state.get(key)
            for crit, key in zip(campaign.criteria, widget_keys, strict=True)
        }
        missing = [name for name, score in scores.items() if score is None]
        if missing:
            st.warning(f"Choose a score for {', '.join(missing)} (or skip this item).")
        else:
            try:
                session.submit(pos, scores)
            except BleuStudyError as err:
                st.error(str(err))
            else:
                st.rerun()
    if skip:
        try:
            session.skip(pos)
        except BleuStudyError as err:
            st.error(str(err))
        else:
            st.rerun()

    c1, c2, c3 = st.columns([1, 1, 3])
    if c1.button(BACK_LABEL, icon=":material/arrow_back:", disabled=pos == 0):
        session.back()
        st.rerun()
    if existing and c2.button("Next", icon=":material/arrow_forward:"):
        session.go_to(pos + 1)
        st.rerun()
    with c3.popover("Go to item…"):
        target = st.number_input("Item number", min_value=1, max_value=n, value=pos + 1, step=1)
        if st.button("Go"):
            session.go_to(int(target) - 1)
            st.rerun()
    st.caption(
        "Keyboard: Tab and arrow keys move between scores, number keys set the next open criterion, "
        "Enter saves, **s** skips, **b** goes back. Every rating is saved as soon as you submit it."
    )
    st.html(KEYBOARD_JS, unsafe_allow_javascript=True)


ensure_entrypoint()  # a judge's first request may be a deep link (/rate?resume=…)
st.title("Rate translations")
state = st.session_state

resume_code = st.query_params.get(RESUME_PARAM)
if not state.get(K.RATE_TOKEN) and resume_code:
    try:
        sign_in(JudgeSession.from_resume_code(open_store(), resume_code))
    except BleuStudyError as err:
        st.warning(f"The resume code in the address does not work: {err}")
        st.query_params.clear()

if not state.get(K.RATE_TOKEN):
    join_or_resume()  # the database is opened only once a code is typed
    st.stop()

try:
    judge_session = JudgeSession(open_store(), state[K.RATE_CODE], state[K.RATE_TOKEN])
except AccessDenied as err:
    sign_out()
    st.error(str(err))
    st.stop()
except BleuStudyError as err:  # e.g. the campaign was deleted
    sign_out()
    st.error(str(err))
    st.stop()

with st.sidebar:
    st.text(f"Rating as {judge_session.judge.name}")
    if st.button("Sign out", icon=":material/logout:"):
        sign_out()
        st.rerun()
rating_view(judge_session)
