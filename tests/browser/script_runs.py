"""Count the app's script runs a browser page sees, from its websocket frames (for the browser tests).

Streamlit's browser sends a ``rerun_script`` message for each user action (a widget change, a link, a page
load) and for each tick of a fragment's timer (``st.fragment(run_every=...)``, marked ``is_auto_rerun``);
the server answers a run with ``new_session`` when it starts and ``script_finished`` when it ends (a run cut
short by another, or by ``st.rerun``/``st.switch_page``, ends with ``FINISHED_EARLY_FOR_RERUN``). A run
answers every request sent before it started (the server folds requests that arrive during a run into
the next one). Counting those frames tells how many runs an action caused, whether the page ran again on
its own while idle, and whether a run the browser asked for is still to come.

That last part is what :func:`app_server.wait_app_idle` needs: the page's ``data-test-script-state``
does not change when the browser *sends* a run request, it reads ``notRunning`` until the server
announces the run. When the server is slow to answer (a loaded machine, the GIL held by a background
count), a wait that reads only the page can return right after a click, before the click's run has
started, and that run then redraws the page under the test. With a :class:`ScriptRuns` on the page
(``page.script_runs``, set by :meth:`ScriptRuns.watch`), ``wait_app_idle`` also waits until
:attr:`ScriptRuns.settled`. ``tests/browser/conftest.py`` watches every page the browser tests open.

Only the messages' type is read (and ``is_auto_rerun`` of a request): Streamlit's own protobuf classes
parse the frames. A timer's request is not waited for: the server drops it when its fragment is gone
(a full run that no longer draws it), so it may never be answered; a run it does start is waited for.
Only the page's newest stream counts: a page that reconnects (a reload, a server restart) has given up
the runs of its old connection.

Playwright's synchronous API delivers the frames only while the test is inside a Playwright call, so
the counts are read after a wait (``wait_app_idle`` polls with ``page.wait_for_timeout``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from app_server import wait_app_idle

STREAM_PATH = "/_stcore/stream"
"""The end of the URL of Streamlit's websocket (other websockets of the page are not the app's)."""


@dataclass
class ScriptRuns:
    """The script runs seen by one page, counted from the frames of its app websocket (attach with
    :meth:`watch` before the page loads the app)."""

    requested: int = 0
    """``rerun_script`` messages the browser sent (user actions, page loads, fragments' timers)."""
    started: int = 0
    """Runs the server started (``new_session``; a fragment's run counts too)."""
    finished: int = 0
    """Runs the server finished (``script_finished``, whatever its status)."""
    unanswered: int = 0
    """Requests (not a timer's) sent on the current stream since its last run started."""
    running: int = 0
    """1 while the current stream's latest run has not finished, else 0."""
    log: list[str] = field(default_factory=list)
    """What was seen, in order (``connect``, ``request``, ``auto request``, ``start``, ``end 0``...,
    ``closed``): for failure messages; its length tells whether anything arrived during a wait."""
    _stream: object = field(default=None, repr=False)
    """The page's newest app websocket; frames of older ones are ignored."""

    @classmethod
    def watch(cls, page) -> ScriptRuns:
        """Count the runs of ``page`` from now on (call before ``page.goto``); the page's counter when it
        has one already (``page.script_runs``), which ``wait_app_idle`` consults."""
        runs = getattr(page, "script_runs", None)
        if runs is None:
            runs = cls()
            page.on("websocket", runs._attach)
            page.script_runs = runs
        return runs

    def _attach(self, websocket) -> None:
        if not websocket.url.endswith(STREAM_PATH):
            return
        self._stream = websocket
        self.unanswered = self.running = 0  # the old stream's runs no longer reach this page
        self.log.append("connect")
        websocket.on("framesent", partial(self._sent, websocket))
        websocket.on("framereceived", partial(self._received, websocket))
        websocket.on("close", self._closed)

    def _sent(self, websocket, payload) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        if websocket is not self._stream or not isinstance(payload, bytes):
            return
        message = BackMsg.FromString(payload)
        if not message.HasField("rerun_script"):
            return
        self.requested += 1
        if message.rerun_script.is_auto_rerun:
            self.log.append("auto request")
        else:
            self.unanswered += 1
            self.log.append("request")

    def _received(self, websocket, payload) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if websocket is not self._stream or not isinstance(payload, bytes):
            return
        message = ForwardMsg.FromString(payload)
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self.started += 1
            # one run at a time per session: a run that starts ends the one before it (an interrupted
            # run does not always send its own script_finished)
            self.running = 1
            self.unanswered = 0
            self.log.append("start")
        elif kind == "script_finished":
            self.finished += 1
            self.running = 0
            self.log.append(f"end {message.script_finished}")

    def _closed(self, websocket) -> None:
        if websocket is self._stream:
            self.unanswered = self.running = 0
            self.log.append("closed")

    @property
    def settled(self) -> bool:
        """Every request answered by a run and every run finished (as far as the frames seen tell)."""
        return self.unanswered == 0 and self.running == 0

    @property
    def seen(self) -> int:
        """How many frames of interest arrived so far (to tell whether any arrived during a wait)."""
        return len(self.log)

    def wait_request(self, page, since: int, timeout_ms: int = 10_000, poll_ms: int = 100) -> bool:
        """Wait until the browser has sent more than ``since`` run requests (:attr:`requested` read before an
        action); False when none came within ``timeout_ms`` (the action asked for no run)."""
        waited = 0
        while self.requested <= since:
            if waited >= timeout_ms:
                return False
            page.wait_for_timeout(poll_ms)
            waited += poll_ms
        return True

    def settle(self, page, timeout_ms: int = 60_000) -> None:
        """Wait until :attr:`settled` and the page is drawn: :func:`app_server.wait_app_idle`, which
        consults this counter (``page.script_runs``)."""
        if getattr(page, "script_runs", None) is not self:
            raise ValueError("settle() needs the page's own counter: ScriptRuns.watch(page)")
        wait_app_idle(page, timeout_ms=timeout_ms)
