"""bleu-study: the Streamlit app. Run with ``make run``, ``bleu-study app [PATH]`` or
``streamlit run app.py [-- PATH --pair xx-yy --references A,B]``.

This entry point sets up the session (every key in :mod:`ui.app.state`), opens the demo study on first start,
draws the shared sidebar (the study in use and the BLEU settings, which persist across pages) and hands
over to the page chosen in the navigation. Pages live in ``pages/``; a page of another area is listed only
when its file exists.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st
import streamlit.delta_generator
from streamlit import runtime

st.set_page_config(page_title="bleu-study", page_icon=":material/translate:", layout="wide")
if runtime.exists():
    # On the first element a process draws, Streamlit checks whether it runs outside `streamlit run` (to
    # print a hint how to run it): inspect.stack() reads the source of every frame and resolves the path
    # of every loaded module, 30-40 ms of CPU on the first page. With a runtime no hint is due.
    streamlit.delta_generator._use_warning_has_been_displayed = True

from bleu_core.errors import BleuStudyError  # noqa: E402
from ui.app import context, startup, warmup  # noqa: E402
from ui.app import state as K  # noqa: E402
from ui.app.boundary import run_page  # noqa: E402
from ui.app.domains import render_domain_choice  # noqa: E402
from ui.app.markup import md_escape  # noqa: E402
from ui.app.numbers import plural  # noqa: E402
from ui.app.settings import render_settings  # noqa: E402
from ui.campaigns.judge_link import judge_view  # noqa: E402

PAGES_DIR = Path(__file__).parent / "pages"

# (section, file, title, icon, default)
PAGE_TABLE = [
    ("Study", "study.py", "Study", ":material/folder_open:", True),
    ("Study", "corpus.py", "Corpus", ":material/table_chart:", False),
    ("Study", "export.py", "Export", ":material/download:", False),
    ("Explore & learn", "explore.py", "Explore", ":material/manage_search:", False),
    ("Explore & learn", "learn.py", "Learn BLEU", ":material/school:", False),
    ("Explore & learn", "error_spans.py", "BLEU vs error spans", ":material/spellcheck:", False),
    ("Analyse", "bleu_vs_human.py", "BLEU vs human", ":material/scatter_plot:", False),
    ("Analyse", "significance.py", "Significance", ":material/functions:", False),
    ("Analyse", "judges.py", "Judges", ":material/groups:", False),
    ("Analyse", "correlation.py", "Correlation", ":material/insights:", False),
    ("Analyse", "metrics.py", "Metrics", ":material/compare_arrows:", False),
    ("Analyse", "metric_ranking.py", "Metric ranking", ":material/leaderboard:", False),
    ("Analyse", "published.py", "Published tables", ":material/table_view:", False),
    ("Human evaluation", "rate.py", "Rate translations", ":material/star_rate:", False),
    ("Human evaluation", "campaigns.py", "Campaigns", ":material/assignment:", False),
    ("Human evaluation", "projector.py", "Projector", ":material/present_to_all:", False),
]


def build_navigation(judge: bool = False) -> dict[str, list[st.Page]]:
    """The pages present in ``pages/``, grouped; a page not in PAGE_TABLE joins "Analyse".
    ``judge``: the Rate page only (:func:`ui.campaigns.judge_access.judge_view`)."""
    if judge:  # the address keeps /rate; the root sends a judge there too
        rate = st.Page(PAGES_DIR / "rate.py", title="Rate translations", url_path="rate")

        def to_rate() -> None:
            st.switch_page(rate, query_params=st.query_params.to_dict())  # keeps ?campaign=

        return {"": [st.Page(to_rate, title="Rate translations", default=True), rate]}
    sections: dict[str, list[st.Page]] = {}
    listed = {file for _, file, _, _, _ in PAGE_TABLE}
    extra = [
        ("Analyse", p.name, p.stem.replace("_", " ").capitalize(), ":material/article:", False)
        for p in sorted(PAGES_DIR.glob("*.py"))
        if p.name not in listed and not p.name.startswith("_")
    ]
    for section, file, title, icon, default in PAGE_TABLE + extra:
        path = PAGES_DIR / file
        if path.is_file():
            sections.setdefault(section, []).append(
                st.Page(path, title=title, icon=icon, default=default, url_path=path.stem)
            )
    return sections


def open_default_study() -> None:
    """Open the study named on the command line (``bleu-study app PATH``), else the TED en-de demo, on the
    first run of a session (once: a failure is shown on the Study page, not retried)."""
    if st.session_state[K.STUDY] is not None or st.session_state.get(K.DEFAULT_STUDY_TRIED):
        return
    st.session_state[K.DEFAULT_STUDY_TRIED] = True
    try:
        request = startup.parse_startup(startup.app_arguments(sys.argv, __file__))
        if request is None:
            context.open_demo(context.DEFAULT_DEMO)
            return
        bar = st.progress(0.0, text=md_escape(f"Opening {request.path} …"))  # seconds on 50 × 10k
        try:
            loaded = startup.load_startup(
                request,
                progress=lambda done, total, message: bar.progress(done / total, text=message),
            )
        finally:
            bar.empty()
        context.open_study(
            loaded.study,
            key=loaded.key,
            label=loaded.label,
            warnings=list(loaded.warnings),
            inputs=loaded.inputs,
        )
    except BleuStudyError as err:
        st.session_state[K.STUDY_ERROR] = startup.startup_error(err)
    except (ImportError, FileNotFoundError) as err:
        st.session_state[K.STUDY_ERROR] = f"The demo study could not be opened: {err}"


K.init_state(st.session_state)
K.keep_widget_state(st.session_state)
judge = judge_view(st.query_params, st.session_state)  # a judge's link: the Rate page only
if not judge:
    open_default_study()
    context.sync_references()  # the open study follows the sidebar's reference choice (no file re-read)

navigation = st.navigation(
    build_navigation(judge), expanded=True, position="hidden" if judge else "sidebar"
)

if not judge:  # a judge sees no study and no settings, only the campaign's items
    study = context.current_study()
    with st.sidebar:
        if study is not None:
            st.caption(
                f"Study: **{md_escape(study.name)}** · {plural(study.n_segments, 'segment')} · "
                f"{plural(len(study.systems), 'system')}"
            )
        else:
            st.caption("No study open")
    render_domain_choice(study, st.session_state.get(K.STUDY_KEY))  # studies with domains only
    render_settings(
        context.reference_pool(),
        list(study.references) if study is not None else [],
        study.target_lang if study is not None else None,
    )

# The heavy libraries (pandas, altair, scipy) load in a background thread started by the first run of
# the Study page, which needs none of them (ui.app.warmup); any other page first waits for that thread to
# finish, so no page imports at the same time as it. Not under AppTest: a test process imports in its
# own threads, and the speed of a real server's first page is what this is for.
first_page = navigation.url_path == ""  # the default page (Study)
if not first_page:
    warmup.wait()
try:
    # The page runs inside the error boundary: an exception shows one clean message (traceback: the log).
    run_page(navigation, home=PAGES_DIR / ("rate.py" if judge else "study.py"))
finally:  # also after st.stop(): the Study page stops there when no study is open
    if first_page and not context.under_app_test():
        # Started once the page has been sent, not before: the warm-up's delay (ui.app.warmup.DELAY_S)
        # then leaves the browser that much time to draw it, and the server's one Python lock to the
        # script files the browser asks for meanwhile.
        warmup.start()  # once per process
        if not judge:  # the statistics the next page needs, counted while the user reads this one
            context.count_current_statistics()
