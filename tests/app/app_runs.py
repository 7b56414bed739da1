"""The app under Streamlit's AppTest, for the app tests (imported as ``app_runs``: see ``conftest.py`` here).

Two ways in:

* :func:`start_app` runs the whole app (``app.py``: session set-up, sidebar, navigation) and switches to a
  page, as a browser would;
* :func:`page_alone` runs one page script with a session state prepared by the test (no ``app.py``).

and what a test reads off a run: :func:`captions`, :func:`markdown_text`, :func:`html_text`, :func:`plain`.

Each test module states its own variant in one line (its study key, whether the demo opens, the timeout),
so what a test means stays written beside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bleu_core.study import Study
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "pages"


def start_app(
    page: str | None = None,
    study: Study | None = None,
    *,
    key: str | None = None,
    label: str | None = "test",
    open_demo: bool = True,
    first_run: bool = True,
    query: Mapping[str, str] | None = None,
    timeout: float = 120,
    **state: object,
) -> AppTest:
    """The whole app switched to ``pages/<page>.py`` (``page=None``: the first page), with no exception.

    ``study``: opened in the session under ``key`` (default ``"test:<study name>"``) and ``label`` (None:
    not set). Without a study the app opens its default demo, unless ``open_demo=False``. ``state``: more
    session-state values; ``query``: the address's query parameters. ``first_run``: run ``app.py`` once
    before switching (as a visitor who lands on the first page); False switches before the first run (a
    deep link).
    """
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    if study is not None:
        at.session_state[K.STUDY] = study
        at.session_state[K.STUDY_KEY] = key or f"test:{study.name}"
        if label is not None:
            at.session_state[K.STUDY_LABEL] = label
    if study is not None or not open_demo:
        at.session_state[K.DEFAULT_STUDY_TRIED] = True  # do not open the demo study
    for name, value in state.items():
        at.session_state[name] = value
    for name, value in (query or {}).items():
        at.query_params[name] = value
    if first_run:
        at.run()
    if page is not None:
        at.switch_page(f"pages/{page}.py")
        at.run()
    elif not first_run:
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def page_alone(
    page: str | Path, state: Mapping[str, object], *, check: bool = True, timeout: float = 120
) -> AppTest:
    """One page script run alone (``page``: a file name under ``pages/`` or a path) with every session key
    at its default (:func:`ui.app.state.init_state`) updated by ``state``; ``check``: assert no exception."""
    at = AppTest.from_file(str(PAGES / page), default_timeout=timeout)
    session: dict[str, object] = {}
    K.init_state(session)
    session.update(state)
    for name, value in session.items():
        at.session_state[name] = value
    at.run()
    if check:
        assert not at.exception, [e.value for e in at.exception]
    return at


def captions(at: AppTest) -> str:
    """Every caption of the run, one per line."""
    return "\n".join(c.value for c in at.caption)


def markdown_text(at: AppTest) -> str:
    """Every markdown block of the run (as the page wrote it: escaped user text included), one per line."""
    return "\n".join(m.value for m in at.markdown)


def html_text(at: AppTest) -> str:
    """The bodies of every ``st.html`` block of the run, one per line."""
    return "\n".join(h.proto.body for h in at.get("html"))


def plain(label: str) -> str:
    """A metric label without the backslashes that markdown-escape user text in it."""
    return label.replace(chr(92), "")
