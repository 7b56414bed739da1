"""``app_server.running_server``, the one place the browser tests and the benchmarks start a server: it yields
the URL and process id once the health endpoint answers, in the working directory and environment asked for,
stops that process afterwards, and a failed start says why (the end of the server's output).

A stand-in server (:data:`STAND_IN`, a few lines of ``http.server``) keeps these tests fast and free of
Streamlit and Chromium: it answers every GET, ``/_stcore/health`` included, with its working directory and
``$WHO``, and logs each request to stderr as ``http.server`` does.
"""

from __future__ import annotations

import os
import sys
import urllib.request

import pytest
from app_server import Running, ServerStartError, free_port, running_server

STAND_IN = """
import http.server, os, sys
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(f"{os.getcwd()}|{os.environ.get('WHO')}".encode())
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


def stand_in(port: int) -> list[str]:
    return [sys.executable, "-c", STAND_IN, str(port)]


def test_the_server_answers_in_its_folder_and_environment_and_is_stopped_after(tmp_path):
    port = free_port()
    with running_server(stand_in(port), port, cwd=tmp_path, extra_env={"WHO": "ana"}) as server:
        assert server == Running(f"http://127.0.0.1:{port}", server.pid)
        with urllib.request.urlopen(f"{server.url}/_stcore/health") as response:
            assert response.read().decode() == f"{tmp_path}|ana"
    with pytest.raises(ProcessLookupError):  # stopped and reaped: no such process any more
        os.kill(server.pid, 0)


def test_a_server_that_exits_is_reported_with_the_end_of_its_output(tmp_path):
    port = free_port()
    command = [sys.executable, "-c", "import sys; sys.exit('no study at broken.tsv')"]
    with pytest.raises(
        ServerStartError, match=r"exited with code 1: .*\n(.|\n)*no study at broken\.tsv"
    ):
        with running_server(command, port, cwd=tmp_path):
            pass  # pragma: no cover - never reached


def test_a_server_that_never_answers_is_reported_after_the_timeout(tmp_path):
    port = free_port()
    command = [
        sys.executable,
        "-c",
        "import time; print('listening elsewhere', flush=True); time.sleep(60)",
    ]
    with pytest.raises(
        ServerStartError, match=r"did not answer .* within 1 s(.|\n)*listening elsewhere"
    ):
        with running_server(command, port, cwd=tmp_path, timeout=1):
            pass  # pragma: no cover - never reached


@pytest.mark.parametrize("quiet", [False, True])
def test_a_failure_inside_the_block_carries_the_server_output_unless_quiet(tmp_path, quiet):
    port = free_port()
    with pytest.raises(ValueError, match="the test failed") as failed:
        with running_server(stand_in(port), port, cwd=tmp_path, quiet=quiet):
            raise ValueError("the test failed")
    notes = "\n".join(getattr(failed.value, "__notes__", []))
    assert ("GET /_stcore/health" in notes) is not quiet
