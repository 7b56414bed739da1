"""The app's error boundary: an unexpected exception on a page becomes one clean message, never a traceback.

``app.py`` runs the chosen page through :func:`run_page`. A page that raises gets, in place of Streamlit's
exception box (type, message, traceback with the server's file paths), one error box saying what went wrong
in words, a "Try again" button and a link back to the start page. The whole traceback goes to the server's
log. Script control flow passes through untouched: ``st.stop()`` (``StopException``), ``st.rerun()`` and
``st.switch_page`` (``RerunException``) are ``BaseException`` subclasses that are never caught here, and a
fragment's error that Streamlit already handled (``FragmentHandledException``) is re-raised as it is.

Errors of a fragment's own re-run (``st.fragment(run_every=...)``) do not pass through ``app.py``; for
those, ``client.showErrorDetails = "none"`` in ``.streamlit/config.toml`` keeps the details off the page.

>>> failure_message(MemoryError())
'the server ran out of memory for this request; try a smaller study, fewer systems or fewer resamples'
>>> failure_message(ValueError("bad value in /work/main/ui/app/x.py, line 3"))
'an unexpected error inside the app (ValueError)'
>>> from bleu_core.errors import InputError
>>> failure_message(InputError("line is too long", file="/srv/data/hyp.txt", line=2))
'hyp.txt, line 2: line is too long'
"""

from __future__ import annotations

import re
from typing import Any

import streamlit as st
from streamlit.errors import FragmentHandledException
from streamlit.logger import get_logger

from bleu_core.errors import BleuStudyError
from ui.app import state as K
from ui.app.markup import md_escape

LOG = get_logger("bleu_study.app")  # the server's console, formatted like Streamlit's own lines

#: Shown above the reason of every failure.
HEADLINE = "Something went wrong on this page"

# An absolute POSIX path (/a/b/c.py) or Windows path (C:\a\b), up to the next space or quote.
_PATH = re.compile(
    r"""(?:(?<![\w.])/(?:[^\s/'"]+/)+|\b[A-Za-z]:\\(?:[^\s\\'"]+\\)+)(?=[^\s/\\'"]+)"""
)


def strip_paths(text: str) -> str:
    """``text`` with every absolute directory part cut off (the file name stays).

    >>> strip_paths("/work/main/pages/x.py, line 3; C:\\\\data\\\\a.txt and 2/3")
    'x.py, line 3; a.txt and 2/3'
    """
    return _PATH.sub("", text)


def failure_message(error: BaseException) -> str:
    """What went wrong, in words a reader of the app understands, without server paths.

    Our own errors (:class:`~bleu_core.errors.BleuStudyError`) are written for users: their message is kept,
    directories cut off. Any other exception is a bug or a resource problem: its type is named, its message
    (which may hold paths, data or internals) is left to the server's log.
    """
    if isinstance(error, BleuStudyError):
        return strip_paths(str(error))
    if isinstance(error, MemoryError):
        return (
            "the server ran out of memory for this request; try a smaller study, fewer systems or "
            "fewer resamples"
        )
    if isinstance(error, RecursionError):
        return "the input is nested too deeply to be read"
    if isinstance(error, OSError):
        reason = f": {error.strerror.lower()}" if error.strerror else ""
        return f"a file could not be read or written on the server{reason}"
    return f"an unexpected error inside the app ({type(error).__name__})"


def show_failure(error: BaseException, *, home: Any = None) -> None:
    """The clean error box for ``error`` (escaped), with "Try again" and a link to ``home`` (a page or a
    page file; none when it cannot be linked)."""
    st.error(
        f"**{HEADLINE}:** {md_escape(failure_message(error))}.\n\n"
        "Nothing you entered was lost. The details are in the server's log.",
        icon=":material/error:",
    )
    left, right = st.columns([1, 3])
    if left.button("Try again", icon=":material/refresh:", key=K.BOUNDARY_RETRY):
        st.rerun()
    if home is not None:
        try:
            right.page_link(home, label="Back to the start", icon=":material/home:")
        except Exception:  # noqa: BLE001 - the way on must not fail the error page itself
            LOG.debug("no link to %r", home, exc_info=True)


def run_page(page: Any, *, home: Any = None) -> None:
    """Run ``page`` (what ``st.navigation`` returned) inside the error boundary.

    An exception is logged with its traceback (logger ``bleu_study.app``) and shown as
    :func:`show_failure`; ``st.stop``, ``st.rerun``, ``st.switch_page`` and a fragment's handled error pass
    through unchanged.
    """
    try:
        page.run()
    except FragmentHandledException:
        raise
    except Exception as error:  # noqa: BLE001 - this is the boundary
        LOG.error(
            "page %r failed: %s: %s",
            getattr(page, "url_path", page),
            type(error).__name__,
            error,
            exc_info=error,
        )
        show_failure(error, home=home)
