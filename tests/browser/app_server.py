"""Start ``streamlit run app.py`` on a free port for end-to-end tests and screenshots."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, timeout: float = 60.0) -> float:
    """Poll Streamlit's health endpoint; return the seconds it took."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return time.perf_counter() - start
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"streamlit did not answer on {url} within {timeout:.0f} s")


CONFIG = ROOT / ".streamlit" / "config.toml"
"""The app's Streamlit settings (headless, no file watcher, no after-run gc.collect(), …). Streamlit reads
the ``.streamlit/config.toml`` next to the script it runs and in its working directory; the command
below adds only the port and address, so the tests and benchmarks run the app as ``make run`` does."""


def streamlit_command(app: Path, port: int, args: list[str] | None = None) -> list[str]:
    """The ``streamlit run`` command line for ``app`` on ``port`` (other settings: :data:`CONFIG`);
    ``args`` go to the app after ``--`` (``[PATH]``: the study every session opens, see ui/app/startup.py)."""
    return [
        sys.executable,
        "-m",
        "streamlit",
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
) -> Iterator[str]:
    """Run ``app`` (default: the project's ``app.py``) in a subprocess; yield its base URL once the
    health endpoint answers; stop it (only this process) afterwards. ``quiet`` drops its output.

    The working directory is the repository root (its ``.streamlit/config.toml`` applies, as for
    ``make run``) unless ``cwd`` says otherwise."""
    port = free_port()
    env = {**os.environ, **(extra_env or {})}
    out = subprocess.DEVNULL if quiet else subprocess.PIPE
    proc = subprocess.Popen(
        streamlit_command(app or ROOT / "app.py", port, args),
        cwd=cwd or ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_app_idle(page, timeout_ms: int = 60_000, settle_ms: int = 400) -> None:
    """Wait until Streamlit has run the script and drawn everything (no skeleton placeholders left).

    The script state must read ``notRunning`` for ``settle_ms`` in a row: right after a navigation or a
    widget change it can still show the previous run's state for a moment.
    """
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout_ms)
    idle = """() => {
        const app = document.querySelector('[data-testid="stApp"]');
        return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
            && app.getAttribute('data-test-connection-state') === 'CONNECTED'
            && document.querySelectorAll('[data-testid="stSkeleton"]').length === 0;
    }"""
    deadline = timeout_ms
    while deadline > 0:
        page.wait_for_function(idle, timeout=deadline)
        page.wait_for_timeout(settle_ms)
        deadline -= settle_ms
        if page.evaluate(idle):
            return
    raise TimeoutError("the app did not become idle")


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
