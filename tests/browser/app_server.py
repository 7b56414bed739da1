"""Start a web server in a subprocess for the end-to-end tests and the benchmarks: the app (``streamlit run
app.py``, as ``make run`` starts it, or ``python -m bleu_core app PATH``), Streamlit's hello world, the app
under the stack sampler of ``benchmarks/sampled_server.py``.

:func:`running_server` is the one place that starts such a server: it runs a command that serves Streamlit's
health endpoint (``/_stcore/health``) on a port, waits until that answers, yields the base URL and the process
id, and stops that one process afterwards. :func:`streamlit_server` is the common case (the project's
``app.py`` or another script under ``streamlit run``). A server that exits, or does not answer in time, is
reported by :class:`ServerStartError` with the last lines of its output (its traceback, "Port 8501 is already
in use", ...).

The tests import this module as ``app_server`` (``tests/browser/conftest.py`` puts this folder on
``sys.path``) or as ``tests.browser.app_server``; the benchmarks put this folder on ``sys.path`` too (tests
never import from ``benchmarks/``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TAIL_BYTES = 4000
"""How much of the end of a server's output an error quotes."""


class Running(NamedTuple):
    """A server that answers: its base URL and its process id (for ``/proc/PID/...`` readings)."""

    url: str
    pid: int


class ServerStartError(RuntimeError):
    """The server exited, or did not answer its health endpoint in time; the message ends with the last
    lines of its output."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that no one listens on now (the system picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, timeout: float = 60.0, process: subprocess.Popen | None = None) -> float:
    """Poll Streamlit's health endpoint at *url*; return the seconds until it answered.

    With *process* (the server), stop waiting as soon as it has exited: an answer on its port is then
    another server's. Raises :class:`TimeoutError` after *timeout* seconds, :class:`ServerStartError`
    when *process* exited."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                healthy = response.status == 200
        except OSError:
            healthy = False
        if process is not None and process.poll() is not None:
            raise ServerStartError(f"the server exited with code {process.returncode}")
        if healthy:
            return time.perf_counter() - start
        time.sleep(0.1)
    raise TimeoutError(f"the server did not answer on {url} within {timeout:g} s")


def output_tail(log: IO[bytes], limit: int = TAIL_BYTES) -> str:
    """The last *limit* bytes of the server's output file *log*, as text (from a line start when the
    output is longer)."""
    log.flush()
    size = log.seek(0, os.SEEK_END)
    log.seek(max(0, size - limit))
    text = log.read().decode("utf-8", errors="replace")
    if size > limit:
        text = text.partition("\n")[2]
    return text.rstrip() or "(no output)"


@contextmanager
def running_server(
    command: list[str],
    port: int,
    *,
    cwd: Path,
    extra_env: dict[str, str] | None = None,
    quiet: bool = True,
    timeout: float = 60.0,
    stop_timeout: float = 10.0,
) -> Iterator[Running]:
    """Run *command* (a server on 127.0.0.1:*port*) in *cwd*, the environment this process's plus
    *extra_env*; yield :class:`Running` once its health endpoint answers (within *timeout* seconds).

    Its output (stdout and stderr) goes to a temporary file: a failed start raises
    :class:`ServerStartError` quoting the file's end. Unless *quiet*, an exception from the ``with`` body
    also gets the end of the server's output as a note (pytest prints it under the traceback).
    Afterwards the server is stopped (SIGTERM, SIGKILL after *stop_timeout* seconds): only this process."""
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            command,
            cwd=cwd,
            env={**os.environ, **(extra_env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            try:
                wait_healthy(url, timeout, proc)
            except (TimeoutError, ServerStartError) as exc:
                raise ServerStartError(
                    f"{exc}: {' '.join(command)}\n--- its output ends ---\n{output_tail(log)}"
                ) from None
            yield Running(url, proc.pid)
        except Exception as exc:
            if not quiet and not isinstance(exc, ServerStartError):
                exc.add_note(f"--- the server's output ends ---\n{output_tail(log)}")
            raise
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=stop_timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


CONFIG = ROOT / ".streamlit" / "config.toml"
"""The app's Streamlit settings (headless, no file watcher, no after-run gc.collect(), …). Streamlit reads
the ``.streamlit/config.toml`` next to the script it runs and in its working directory; the command
below adds only the port and address, so the tests and benchmarks run the app as ``make run`` does."""


def streamlit_command(app: Path, port: int, args: list[str] | None = None) -> list[str]:
    """The ``streamlit run`` command line for ``app`` on ``port`` (other settings: :data:`CONFIG`);
    ``args`` go to the app after ``--`` (``[PATH]``: the study every session opens, see ui/app/startup.py).
    The project's own app runs through ``ui.app.serve``, as ``make run`` and ``bleu-study app`` start it;
    any other script (hello world, another tree's app) under plain ``streamlit run``."""
    own = Path(app).resolve() == (ROOT / "app.py").resolve()
    return [
        sys.executable,
        "-m",
        "ui.app.serve" if own else "streamlit",
        "run",
        str(app),
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        *(["--", *args] if args else []),
    ]


@contextmanager
def streamlit_server(
    *,
    extra_env: dict[str, str] | None = None,
    app: Path | None = None,
    quiet: bool = False,
    cwd: Path | None = None,
    args: list[str] | None = None,
    port: int | None = None,
) -> Iterator[str]:
    """Run ``app`` (default: the project's ``app.py``) under ``streamlit run`` in a subprocess; yield its base
    URL once the health endpoint answers; stop it (only this process) afterwards.

    The working directory is the repository root (its ``.streamlit/config.toml`` applies, as for
    ``make run``) unless ``cwd`` says otherwise; ``port`` (default: a free one) lets a test stop the server
    and start it again at the same address; ``quiet`` and the reports of a failed start:
    :func:`running_server`."""
    port = port or free_port()
    command = streamlit_command(app or ROOT / "app.py", port, args)
    with running_server(command, port, cwd=cwd or ROOT, extra_env=extra_env, quiet=quiet) as server:
        yield server.url


IDLE = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
        && app.getAttribute('data-test-connection-state') === 'CONNECTED'
        && document.querySelectorAll('[data-testid="stSkeleton"]').length === 0;
}"""
"""The page reads idle: connected, no script run under way, no skeleton placeholders left."""
POLL_MS = 50
"""How often :func:`wait_app_idle` looks again while a run the browser asked for is still to come."""


def wait_app_idle(page, timeout_ms: int = 60_000, settle_ms: int = 400) -> None:
    """Wait until Streamlit has run the script for everything done so far and drawn it all.

    The page must read idle (:data:`IDLE`) at both ends of ``settle_ms``: right after a navigation or a
    widget change it can still show the previous run's state for a moment. With a run counter on the
    page (``page.script_runs``, a :class:`script_runs.ScriptRuns`; ``tests/browser/conftest.py`` puts
    one on every page the browser tests open) the page's reading is not trusted alone: the browser
    keeps reading ``notRunning`` between sending a run request and the server's start of that run. The
    wait then also needs every request answered by a run that has finished (``runs.settled``), and no
    frame of a run arriving during the ``settle_ms`` (the page draws what the last frames brought, and
    a run can follow another: ``st.rerun``). Pages without a counter (the benchmarks') get the page's
    reading only. Raises :class:`TimeoutError` after ``timeout_ms`` in all.
    """
    runs = getattr(page, "script_runs", None)
    end = time.monotonic() + timeout_ms / 1000
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout_ms)
    while (left := int((end - time.monotonic()) * 1000)) > 0:
        page.wait_for_function(IDLE, timeout=left)
        if runs is not None and not runs.settled:
            page.wait_for_timeout(POLL_MS)  # Playwright delivers the frames during its calls
            continue
        seen = runs.seen if runs is not None else 0
        page.wait_for_timeout(settle_ms)
        if page.evaluate(IDLE) and (runs is None or (runs.settled and runs.seen == seen)):
            return
    seen_last = f": the last frames {runs.log[-12:]}" if runs is not None else ""
    raise TimeoutError(f"the app did not become idle within {timeout_ms} ms{seen_last}")


def axe_serious(page) -> list[str]:
    """axe-core's serious and critical WCAG 2.1 AA violations on *page*, the framework's sidebar navigation
    left out (as ``test_accessibility.py`` does); needs the ``axe-playwright-python`` test extra."""
    from axe_playwright_python.sync_playwright import Axe

    options = {
        "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
        "resultTypes": ["violations"],
    }
    context = {"exclude": [['[data-testid="stSidebarNav"]']]}
    found = Axe().run(page, context=context, options=options).response["violations"]
    return [
        f"{v['id']}: {v['nodes'][0]['html'][:120]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
