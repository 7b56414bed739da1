"""The app's error boundary: a page that raises shows one clean message, never a traceback.

``app.py`` runs every page through :func:`ui.app.boundary.run_page`. Under AppTest an uncaught exception
would appear in ``at.exception`` (Streamlit's box with the traceback); behind the boundary it is an error box
with the reason in words, no server path, a "Try again" button and a link to the start page.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_core.study.model import Segment, Study
from ui.app import state as K
from ui.app.boundary import HEADLINE, failure_message, strip_paths

ROOT = Path(__file__).resolve().parents[2]


def shown(at: AppTest) -> str:
    """Every text the page shows (errors, markdown, captions, exceptions, button labels), Markdown's
    backslash escapes removed (what a reader sees)."""
    parts = [e.value for e in at.error] + [m.value for m in at.markdown]
    parts += [c.value for c in at.caption] + [str(e.value) for e in at.exception]
    parts += ["\n".join(e.stack_trace) for e in at.exception]
    parts += [b.label for b in at.button]
    return "\n".join(str(p) for p in parts).replace("\\", "")


def boundary_script() -> None:
    """A two-page app like app.py; the session state's "kind" says how the default page ends."""
    import streamlit as st

    from bleu_core.errors import InputError
    from ui.app.boundary import run_page

    def page() -> None:
        st.session_state["runs"] = st.session_state.get("runs", 0) + 1
        st.write("page start")
        kind = st.session_state.get("kind")
        if kind == "value":
            raise ValueError("cannot read /work/main/ui/secret.py: bad")
        if kind == "input":
            raise InputError("line is too long", file="/srv/data/hyp.txt", line=2)
        if kind == "stop":
            st.stop()
        if kind == "rerun" and st.session_state["runs"] == 1:
            st.rerun()
        st.write("page end")

    def other() -> None:
        st.write("other page")

    nav = st.navigation(
        [st.Page(page, title="Main", default=True), st.Page(other, title="Other", url_path="other")]
    )
    run_page(nav, home=nav)


def run_boundary(kind: str) -> AppTest:
    at = AppTest.from_function(boundary_script, default_timeout=30)
    at.session_state["kind"] = kind
    return at.run()


def test_a_page_that_raises_shows_one_clean_message(caplog):
    with caplog.at_level(logging.ERROR, logger="bleu_study.app"):
        at = run_boundary("value")
    assert not at.exception  # no Streamlit exception box
    assert len(at.error) == 1
    text = shown(at)
    assert HEADLINE in text and "unexpected error inside the app (ValueError)" in text
    assert "/work/" not in text and "Traceback" not in text and "secret" not in text
    assert "page start" in text and "page end" not in text  # what the page drew before stays
    assert [b.label for b in at.button] == ["Try again"]
    # the traceback went to the server's log
    assert any(r.exc_info and "secret.py" in str(r.exc_info[1]) for r in caplog.records)


def test_our_own_errors_keep_their_words_without_directories():
    at = run_boundary("input")
    assert not at.exception
    assert "hyp.txt, line 2: line is too long" in shown(at) and "/srv/" not in shown(at)


def test_try_again_reruns_the_page():
    at = run_boundary("value")
    at.session_state["kind"] = None
    at.button[0].click().run()
    assert not at.error and "page end" in shown(at)


@pytest.mark.parametrize("kind", ["stop", "rerun", None])
def test_stop_and_rerun_pass_through(kind):
    at = run_boundary(kind)
    assert not at.exception and not at.error
    assert ("page end" in shown(at)) == (kind != "stop")
    assert at.session_state["runs"] == (2 if kind == "rerun" else 1)


def test_failure_message_names_the_problem_not_the_internals():
    assert (
        failure_message(KeyError("/etc/passwd")) == "an unexpected error inside the app (KeyError)"
    )
    assert "nested too deeply" in failure_message(RecursionError("maximum recursion depth"))
    message = failure_message(FileNotFoundError(2, "No such file or directory", "/srv/x/y.txt"))
    assert message.endswith("no such file or directory") and "/srv" not in message
    assert strip_paths("see /a/b/c.txt and ./rel/x") == "see c.txt and ./rel/x"


def test_the_real_app_shows_the_boundary_on_a_failing_page(monkeypatch):
    """The Study page of app.py with its overview broken: one clean message, the sidebar still there."""
    import ui.study.overview

    def broken(*args: object, **kwargs: object) -> None:
        raise TypeError(f"unsupported operand in {ROOT}/ui/study/overview.py")

    monkeypatch.setattr(ui.study.overview, "study_overview", broken)
    study = Study(
        name="toy",
        segments=tuple(Segment(f"s{i}") for i in range(3)),
        references={"ref": ["a b c", "d e f", "g h i"]},
        systems={"A": ["a b c", "d e x", "g h i"]},
    )
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state[K.STUDY] = study
    at.session_state[K.STUDY_KEY] = "test:toy"
    at.session_state[K.DEFAULT_STUDY_TRIED] = True
    at.run()
    assert not at.exception
    text = shown(at)
    assert HEADLINE in text and "(TypeError)" in text
    assert "/work/" not in text and str(ROOT) not in text and "Traceback" not in text
    assert at.title[0].value == "Study"  # the page's start is drawn, then the message
    assert [p.proto.label for p in at.get("page_link")] == ["Back to the start"]
    assert any("toy" in c.value for c in at.sidebar.caption)  # the app around the page still works
