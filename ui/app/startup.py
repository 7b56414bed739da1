"""The study every new session opens: the one named on the command line, else the TED demo.

``bleu-study app PATH --pair xx-yy --references A,B`` (and ``streamlit run app.py -- PATH …``) hands the app
``PATH`` and its options after ``--``; Streamlit leaves them in ``sys.argv``. The study is loaded once per
server process and shared by all sessions (read-only); a load error is shown on the Study page, and the
session can still open a demo or an upload there.

>>> parse_startup(["demo:ted-zh-en"])
StartupStudy(path='demo:ted-zh-en', pair=None, references=None)
>>> parse_startup(["/data/wmt21", "--pair", "de-en", "--references", "A,B"]).reference_choice
['A', 'B']
>>> parse_startup([]) is None
True
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bleu_core.errors import BleuStudyError, InputError

if TYPE_CHECKING:
    from bleu_core.study.model import Study

DEMO_PREFIX = "demo:"


@dataclass(frozen=True)
class StartupStudy:
    """The study named on the command line."""

    path: str
    pair: str | None = None
    references: str | None = None

    @property
    def reference_choice(self) -> str | list[str] | None:
        """``references`` as :func:`bleu_core.study.load_study` takes it (``"all"`` or letters)."""
        if self.references is None:
            return None
        if self.references.strip().lower() == "all":
            return "all"
        return [r.strip() for r in self.references.split(",") if r.strip()]

    @property
    def demo(self) -> str | None:
        return self.path[len(DEMO_PREFIX) :] if self.path.startswith(DEMO_PREFIX) else None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        raise InputError(f"the app's command-line arguments: {message}")


def app_arguments(argv: list[str], app_file: str) -> list[str]:
    """The arguments after ``--`` when this process serves *app_file* (``streamlit run`` puts the script in
    ``argv[0]``); none in any other process (a test runner's own arguments are not a study).

    >>> app_arguments(["/srv/app.py", "demo:ted-zh-en"], "/srv/app.py")
    ['demo:ted-zh-en']
    >>> app_arguments(["/usr/bin/pytest", "-n", "2"], "/srv/app.py")
    []
    """
    if not argv or os.path.realpath(argv[0]) != os.path.realpath(app_file):
        return []
    return list(argv[1:])


def parse_startup(argv: list[str]) -> StartupStudy | None:
    """The study named in the arguments after ``--`` (None: no arguments)."""
    if not argv:
        return None
    parser = _Parser(prog="app.py --", add_help=False)
    parser.add_argument("path")
    parser.add_argument("--pair")
    parser.add_argument("--references", "--reference")
    args = parser.parse_args(argv)
    return StartupStudy(args.path, args.pair, args.references)


@dataclass(frozen=True)
class LoadedStartup:
    study: Study
    key: str
    label: str
    warnings: tuple[Any, ...]
    """The loader's :class:`bleu_core.study.model.LoadWarning` objects (files named by their paths)."""
    inputs: tuple[dict[str, Any], ...] = ()
    """The files read, each ``{name, bytes, sha256}`` (:func:`bleu_core.study.provenance.input_files`;
    a demo: its bundled file), for the Export's ``settings.json``."""


_lock = threading.Lock()
_loaded: dict[StartupStudy, LoadedStartup] = {}
_preloads: dict[StartupStudy, _Preload] = {}
_preload_lock = threading.Lock()  # not _lock: that one is held for the whole of a load


class _Preload:
    """A load started with the server (:func:`preload`): its outcome, and its last progress report."""

    def __init__(self) -> None:
        self.started = threading.Event()  # loading has begun (``before`` has returned)
        self.finished = threading.Event()
        self.error: BaseException | None = None
        self.report: tuple[int, int, str] | None = None

    def progress(self, done: int, total: int, message: str) -> None:
        self.report = (done, total, message)


def _fingerprint(path: str) -> str:
    """Path, size and modification time of a file or of a folder's files: a changed study is reloaded."""
    parts = [os.path.abspath(path)]
    if os.path.isdir(path):
        for root, _dirs, files in os.walk(path):
            for name in sorted(files):
                stat = os.stat(os.path.join(root, name))
                parts.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}")
    elif os.path.exists(path):
        stat = os.stat(path)
        parts.append(f"{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def preload(
    request: StartupStudy | None,
    then: Callable[[LoadedStartup], object] | None = None,
    before: Callable[[], object] | None = None,
) -> threading.Thread | None:
    """Start loading the command-line study in a thread as the server starts (``bleu-study app``, through
    :mod:`ui.app.serve`), so that a user who opens the browser a few seconds later finds it loaded or
    nearly so. A session asking meanwhile waits for this load and shows its progress; an error reaches the
    session as if it had loaded the study itself. ``before()`` runs in the thread first (:mod:`ui.app.serve`:
    wait until the server answers, so that loading does not slow its start); ``then(loaded)`` after a
    successful load (count the first statistics)."""
    if request is None:
        return None
    with _preload_lock:
        if request in _loaded or request in _preloads:
            return None
        pending = _preloads[request] = _Preload()

    def run() -> None:
        try:
            if before is not None:
                before()
            pending.started.set()
            loaded = _load_once(request, pending.progress)
        except BaseException as exc:  # kept for the session that asks: it shows the message
            pending.error = exc
            return
        finally:
            pending.finished.set()
        if then is not None:
            try:
                then(loaded)
            except Exception:  # counting ahead is a convenience: a page counts what it needs itself
                logging.getLogger(__name__).warning("after the preload", exc_info=True)

    thread = threading.Thread(target=run, name="bleu-study-preload", daemon=True)
    thread.start()
    return thread


def _wait_for_preload(
    request: StartupStudy, pending: _Preload, progress: Any, poll_s: float = 0.25
) -> None:
    """Wait for a load started by :func:`preload`, passing its reports on to ``progress``."""
    while not pending.finished.wait(poll_s):
        if progress is not None and pending.report is not None:
            progress(*pending.report)
    if pending.error is not None:
        with _preload_lock:  # the next session tries again (the file may have been fixed meanwhile)
            if _preloads.get(request) is pending:
                del _preloads[request]
        raise pending.error


def load_startup(request: StartupStudy, progress: Any = None) -> LoadedStartup:
    """Load the command-line study once per process (a :class:`BleuStudyError` reaches the caller);
    ``progress(done, total, message)``: how far the load has got (:mod:`bleu_core.study.load_progress`).
    A load of the same study already started by :func:`preload` is waited for, not repeated."""
    pending = _preloads.get(request)
    if (
        pending is not None and pending.started.is_set()
    ):  # not yet started: load here, it finds it done
        _wait_for_preload(request, pending, progress)
    return _load_once(request, progress)


def _load_once(request: StartupStudy, progress: Any) -> LoadedStartup:
    from bleu_core.study import demo, load_study
    from bleu_core.study.provenance import input_files

    with _lock:
        if request in _loaded:
            return _loaded[request]
        result = load_study(
            request.path, pair=request.pair, reference=request.reference_choice, progress=progress
        )
        suffix = f" ({request.pair})" if request.pair else ""
        key = (
            f"demo:{request.demo}"
            if request.demo and not request.references
            else f"path:{_fingerprint(request.path)}:{request.pair}:{request.references}"
        )
        source = demo.demo_path(request.demo) if request.demo else request.path
        loaded = LoadedStartup(
            result.study,
            key,
            f"{os.path.basename(request.path.rstrip('/')) or request.path}{suffix}",
            tuple(result.warnings),
            tuple(input_files(source, pair=request.pair)),
        )
        _loaded[request] = loaded
        return loaded


def startup_error(exc: BleuStudyError) -> str:
    return f"The study named on the command line could not be opened: {exc}"
