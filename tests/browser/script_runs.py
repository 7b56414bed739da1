"""Count the app's script runs a browser page sees, from its websocket frames (for the browser tests).

Streamlit's browser sends a ``rerun_script`` message for each user action (a widget change, a link) and the
server answers every run with ``new_session`` when it starts and ``script_finished`` when it ends (a run cut
short by another, or by ``st.rerun``/``st.switch_page``, ends with ``FINISHED_EARLY_FOR_RERUN``). Counting
those frames tells how many runs an action caused, and whether the page ran again on its own while idle.

It also gives a wait that cannot return too early. :func:`app_server.wait_app_idle` reads the page's
``data-test-script-state``, which the browser does not change when it *sends* a run request: it reads
``notRunning`` until the server announces the run. When the server is slow to answer (a loaded machine,
the GIL held by a background count), ``wait_app_idle`` right after a click can return before the click's
run has started, and that run then redraws the page under the test: a "late re-run" that the app never
made. :meth:`ScriptRuns.settle` waits until every request sent has been answered by a run and every run
has finished, then for the page to be drawn.

Playwright's synchronous API delivers the frames only while the test is inside a Playwright call, so the
counts are read after a wait (``settle`` polls with ``page.wait_for_timeout``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app_server import wait_app_idle


@dataclass
class ScriptRuns:
    """The script runs seen by one page, counted from the frames of its websockets (attach with
    :meth:`watch` before the page loads the app)."""

    requested: int = 0
    """``rerun_script`` messages the browser sent (user actions, page loads, fragments' timers)."""
    started: int = 0
    """Runs the server started (``new_session``; a fragment's run counts too)."""
    finished: int = 0
    """Runs the server finished (``script_finished``, whatever its status)."""
    unanswered: int = 0
    """Requests sent since the last run started (a run answers every request sent before it)."""
    log: list[str] = field(default_factory=list)
    """What was seen, in order (``request``, ``start``, ``end 0``/``end 2``...): for failure messages."""

    @classmethod
    def watch(cls, page) -> ScriptRuns:
        """Count the runs of ``page`` from now on (call before ``page.goto``)."""
        runs = cls()
        page.on("websocket", runs._attach)
        return runs

    def _attach(self, websocket) -> None:
        if not websocket.url.endswith("/_stcore/stream"):
            return
        websocket.on("framesent", self._sent)
        websocket.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        if isinstance(payload, bytes) and BackMsg.FromString(payload).HasField("rerun_script"):
            self.requested += 1
            self.unanswered += 1
            self.log.append("request")

    def _received(self, payload) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if not isinstance(payload, bytes):
            return
        message = ForwardMsg.FromString(payload)
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self.started += 1
            self.unanswered = 0
            self.log.append("start")
        elif kind == "script_finished":
            self.finished += 1
            self.log.append(f"end {message.script_finished}")

    @property
    def settled(self) -> bool:
        """Every request answered by a run and every run finished (as far as the frames seen tell)."""
        return self.unanswered == 0 and self.finished >= self.started

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

    def settle(self, page, timeout_ms: int = 60_000, poll_ms: int = 100) -> None:
        """Wait until :attr:`settled` and the page is drawn (:func:`app_server.wait_app_idle`)."""
        waited = 0
        while True:
            page.wait_for_timeout(poll_ms)  # frames are delivered during Playwright calls
            waited += poll_ms
            if self.settled:
                wait_app_idle(page, timeout_ms=timeout_ms)
                if self.settled:  # nothing new arrived while the page finished drawing
                    return
            if waited > timeout_ms:
                raise TimeoutError(f"the app's runs did not settle: {self.log[-12:]}")
