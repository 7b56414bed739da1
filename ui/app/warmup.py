"""Import the heavy libraries in the background once the first page is up.

The first page (Study) needs neither pandas, pyarrow, altair nor scipy: leaving them out makes it
appear sooner after the server starts. The other pages need them, so :func:`start` imports them in a
daemon thread a moment after the first page was sent, while the user reads it; the first visit to
Explore or BLEU-vs-human then finds them loaded.

After the imports it loads the engine's compiled kernels (:data:`LOADERS`). Then it moves every object
alive at that point (modules, the demo study) into Python's permanent generation (:func:`gc.freeze`).
The app runs with Streamlit's after-run ``gc.collect()`` switched off (``.streamlit/config.toml``: it
cost 130-290 ms after every widget change with ~200k tracked objects); Python's own full collections
still come now and then, and without the frozen objects they walk a fraction of the heap.

Two threads importing the same package at once can see each other's half-initialised modules, so
``app.py`` starts the warm-up only from the Study page (which imports none of these) and calls
:func:`wait` before any other page: opening another page during the warm-up waits for it (that page
needed those imports anyway), and no page imports concurrently with it.

>>> done = start(modules=("json",), delay=0.0, freeze=False, loaders=("os:getpid",))
>>> wait()
>>> done.is_set(), start(modules=("json",)) is done    # once per process
(True, True)
"""

from __future__ import annotations

import gc
import importlib
import logging
import threading
from collections.abc import Callable

MODULES: tuple[str, ...] = (
    "pandas",
    "pyarrow",
    "altair",
    "scipy.stats",
    "ui.analysis.frames",
    "ui.analysis.charts",
    "ui.analysis.relate",
    "ui.app.export",
)
"""What the pages after the first one import (ordered: dependencies first)."""

LOADERS: tuple[str, ...] = ("bleu_core.fast.compiled:load_all",)
"""Called after the imports (``module:function``): the engine's compiled kernels. They are a C extension built
at install (no just-in-time compiler to load per process), so this loads a shared library in under a
millisecond and only makes sure a missing extension is noticed (one line on stderr) before a page needs it."""

DELAY_S = 1.0
"""Seconds to leave the CPU to the browser drawing the first page before warming up."""

_lock = threading.Lock()
_thread: threading.Thread | None = None
_go = threading.Event()
_done = threading.Event()
_log = logging.getLogger(__name__)
_step: tuple[int, int, str] = (0, 0, "")
"""(modules imported, modules, the one being imported): what :func:`wait` shows."""


def _run(modules: tuple[str, ...], loaders: tuple[str, ...], delay: float, freeze: bool) -> None:
    global _step
    _go.wait(delay)
    for k, name in enumerate(modules):
        _step = (k, len(modules), name)
        try:
            importlib.import_module(name)
        except Exception:  # a missing optional library shows up on the page that needs it
            _log.warning("warm-up could not import %s", name, exc_info=True)
    for target in loaders:
        module, _, function = target.partition(":")
        try:
            getattr(importlib.import_module(module), function)()
        except Exception:  # the engine falls back to its pure path
            _log.warning("warm-up could not run %s", target, exc_info=True)
    if freeze:
        gc.collect()  # once, so that no garbage is frozen
        gc.freeze()
    _done.set()


def start(
    modules: tuple[str, ...] = MODULES,
    delay: float = DELAY_S,
    freeze: bool = True,
    loaders: tuple[str, ...] = LOADERS,
) -> threading.Event:
    """Start the warm-up once per process (later calls do nothing); return the event set when done.

    ``loaders``: ``module:function`` to call after the imports. ``freeze``: afterwards move all objects
    alive into the permanent generation (:func:`gc.freeze`).
    """
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(
                target=_run,
                args=(modules, loaders, delay, freeze),
                name="bleu-study-warmup",
                daemon=True,
            )
            _thread.start()
    return _done


def join(timeout: float | None = None) -> bool:
    """Wait, drawing nothing and without hurrying it, until the warm-up is done; True when it is (or was
    never started: no warm-up in this process). Work done ahead of time waits for it."""
    if _thread is None:
        return True
    return _done.wait(timeout)


def wait(show: Callable[[float, str], object] | None = None, poll_s: float = 0.25) -> None:
    """Finish the warm-up now (skip its remaining delay) if it is running; return at once otherwise.

    While it runs (seconds when the server is busy: on a large study the statistics are counted at the
    same time), a progress bar says which library is loading: ``show(fraction, text)``, by default a
    Streamlit progress bar at the top of the page, removed when done (app.py calls this before the page).

    >>> shown = []
    >>> done = start(modules=("json", "csv"), delay=0.0, freeze=False, loaders=())
    >>> wait(lambda fraction, text: shown.append(text))
    >>> done.is_set(), wait() is None
    (True, True)
    """
    thread = _thread
    if thread is None or _done.is_set():
        return
    _go.set()
    thread.join(poll_s)  # a short wait draws nothing
    slot = None
    if show is None and thread.is_alive():
        import streamlit as st

        slot = st.empty()
        show = slot.progress
    while thread.is_alive() and show is not None:
        done, total, name = _step
        show(done / total if total else 0.0, _loading_text(done, total, name))
        thread.join(poll_s)
    thread.join()
    if slot is not None:
        slot.empty()


def _loading_text(done: int, total: int, name: str) -> str:
    """
    >>> _loading_text(2, 8, "altair")
    'Loading the analysis libraries: altair (3 of 8), once after the server starts…'
    """
    return f"Loading the analysis libraries: {name} ({done + 1} of {total}), once after the server starts…"
