"""Import the heavy libraries in the background once the first page is up.

The first page (Study) needs neither pandas, pyarrow, altair nor scipy: leaving them out makes it
appear sooner after the server starts. The other pages need them, so :func:`start` imports them in a
daemon thread a moment after the first page was sent, while the user reads it; the first visit to
Explore or BLEU-vs-human then finds them loaded.

Two threads importing the same package at once can see each other's half-initialised modules, so
``app.py`` starts the warm-up only from the Study page (which imports none of these) and calls
:func:`wait` before any other page: opening another page during the warm-up waits for it (that page
needed those imports anyway), and no page imports concurrently with it.

>>> done = start(modules=("json",), delay=0.0)
>>> wait()
>>> done.is_set(), start(modules=("json",)) is done    # once per process
(True, True)
"""

from __future__ import annotations

import importlib
import logging
import threading

MODULES: tuple[str, ...] = (
    "pandas",
    "pyarrow",
    "altair",
    "scipy.stats",
    "ui.frames",
    "ui.charts",
    "ui.relate",
    "ui.export",
)
"""What the pages after the first one import (ordered: dependencies first)."""

DELAY_S = 1.0
"""Seconds to leave the CPU to the browser drawing the first page before warming up."""

_lock = threading.Lock()
_thread: threading.Thread | None = None
_go = threading.Event()
_done = threading.Event()
_log = logging.getLogger(__name__)


def _run(modules: tuple[str, ...], delay: float) -> None:
    _go.wait(delay)
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # a missing optional library shows up on the page that needs it
            _log.warning("warm-up could not import %s", name, exc_info=True)
    _done.set()


def start(modules: tuple[str, ...] = MODULES, delay: float = DELAY_S) -> threading.Event:
    """Start the warm-up once per process (later calls do nothing); return the event set when done."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(
                target=_run, args=(modules, delay), name="bleu-study-warmup", daemon=True
            )
            _thread.start()
    return _done


def wait() -> None:
    """Finish the warm-up now (skip its remaining delay) if it is running; return at once otherwise."""
    thread = _thread
    if thread is not None and not _done.is_set():
        _go.set()
        thread.join()
