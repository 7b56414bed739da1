"""A headless Streamlit client: one browser tab's conversation with a running app server, without a browser.

A Streamlit page talks to its server over one websocket (``/_stcore/stream``): the browser sends protobuf
``BackMsg`` messages (``rerun_script`` with the address's query string, the page and the values of the
widgets), the server answers with ``ForwardMsg`` messages (``new_session``, one ``delta`` per element drawn,
``page_info_changed`` when the script changes the address, ``script_finished``). :class:`StreamlitClient`
does what the browser does, and nothing more: it opens a page, keeps the elements of the latest run by their
place on the page (``delta_path``), finds a widget by its label and sends a new value or a button press as
the next rerun. Widget ids come from the server's deltas, never from guessing: a widget's id is whatever the
server sent for it in the latest run.

What the browser does and this client does not: draw anything, run the page's JavaScript (cookies written by
a script, a component's iframe), report cached messages (so the server sends every element in full, as to a
browser opening the page for the first time), or send the browser's context (timezone, locale, theme).

>>> from streamlit.proto.WidgetStates_pb2 import WidgetState
>>> state = widget_value("$$ID-1-slider", [40.0]); state.double_array_value.data[:]
[40.0]
>>> widget_value("$$ID-2-name", "student 007").string_value
'student 007'
>>> widget_value("$$ID-3-save", True, trigger=True).trigger_value
True
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

#: ``script_finished`` statuses that end a run the page can be read from (a run stopped early for a
#: rerun, ``st.rerun()`` or ``st.switch_page``, goes on in a new run).
FINISHED = {
    ForwardMsg.FINISHED_SUCCESSFULLY,
    ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
}
EARLY = ForwardMsg.FINISHED_EARLY_FOR_RERUN


def widget_value(widget_id: str, value: Any, *, trigger: bool = False) -> WidgetState:
    """The ``WidgetState`` the browser sends for *value*: a press (``trigger``), a string, a bool, a list
    of numbers (sliders: ``double_array_value``) or a list of strings (pills: the options' labels)."""
    state = WidgetState(id=widget_id)
    if trigger:
        state.trigger_value = bool(value)
    elif isinstance(value, bool):
        state.bool_value = value
    elif isinstance(value, str):
        state.string_value = value
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        state.string_array_value.data.extend(value)
    elif isinstance(value, list):
        state.double_array_value.data.extend(float(v) for v in value)
    else:
        raise TypeError(f"no widget value for {value!r}")
    return state


@dataclass
class Element:
    """One element of the page: its kind (``button``, ``slider``, ``heading``, …) and its protobuf."""

    kind: str
    proto: Any

    @property
    def label(self) -> str:
        return getattr(self.proto, "label", "") or getattr(self.proto, "body", "")


@dataclass
class Run:
    """What one script run drew, by place on the page, and how long the server took to finish it."""

    elements: dict[tuple[int, ...], Element] = field(default_factory=dict)
    seconds: float = 0.0
    status: int = -1

    def find(self, kind: str, test: Callable[[Element], bool] = lambda e: True) -> Element | None:
        """The first element (in page order) of *kind* that passes *test*."""
        for path in sorted(self.elements):
            element = self.elements[path]
            if element.kind == kind and test(element):
                return element
        return None

    def texts(self, kind: str) -> list[str]:
        return [
            self.elements[p].label for p in sorted(self.elements) if self.elements[p].kind == kind
        ]


class ServerError(RuntimeError):
    """The server closed the connection, or a run did not finish in time."""


class StreamlitClient:
    """One browser tab on *base_url* (``http://127.0.0.1:8501``): :meth:`open` a page with a query string,
    then :meth:`rerun` with widget values; each call returns the :class:`Run` the server drew."""

    def __init__(self, base_url: str, *, timeout_s: float = 120.0) -> None:
        self.ws_url = base_url.replace("http", "ws", 1).rstrip("/") + "/_stcore/stream"
        self.timeout_s = timeout_s
        self.query_string = ""
        self.page_script_hash = ""
        self.page = Run()
        self._ws: Any = None

    async def open(self, page_name: str, query_string: str) -> Run:
        """Connect and run *page_name* (the address's path, ``rate``) with *query_string*."""
        from websockets.asyncio.client import connect

        self._ws = await connect(self.ws_url, subprotocols=["streamlit"], max_size=None)
        self.query_string = query_string
        return await self._run(self._rerun_msg([], page_name=page_name))

    async def rerun(self, states: list[WidgetState]) -> Run:
        """Send *states* (the widgets changed, a button pressed) as the browser does, and read the run."""
        return await self._run(self._rerun_msg(states))

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
            self._ws = None

    def _rerun_msg(self, states: list[WidgetState], page_name: str = "") -> BackMsg:
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query_string
        rerun.page_name = page_name
        rerun.page_script_hash = self.page_script_hash
        rerun.widget_states.widgets.extend(states)
        return msg

    async def _run(self, msg: BackMsg) -> Run:
        start = time.perf_counter()
        await self._ws.send(msg.SerializeToString())
        run = Run()
        deadline = start + self.timeout_s
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise ServerError(f"no script_finished within {self.timeout_s:.0f} s")
            try:
                data = await asyncio.wait_for(self._ws.recv(), left)
            except Exception as err:  # closed connection, timeout
                raise ServerError(f"{type(err).__name__}: {err}") from err
            fwd = ForwardMsg()
            fwd.ParseFromString(data)
            if self._read(fwd, run):
                run.seconds = time.perf_counter() - start
                self.page = run
                return run

    def _read(self, fwd: ForwardMsg, run: Run) -> bool:
        """Take in one ForwardMsg; True once the run is finished."""
        kind = fwd.WhichOneof("type")
        if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
            element = fwd.delta.new_element
            which = element.WhichOneof("type")
            run.elements[tuple(fwd.metadata.delta_path)] = Element(which, getattr(element, which))
        elif kind == "page_info_changed":
            self.query_string = fwd.page_info_changed.query_string
        elif kind == "navigation":
            self.page_script_hash = fwd.navigation.page_script_hash
        elif kind == "new_session" and fwd.new_session.page_script_hash:
            self.page_script_hash = fwd.new_session.page_script_hash
        elif kind == "script_finished":
            run.status = fwd.script_finished
            if fwd.script_finished == EARLY:
                run.elements.clear()  # the next run draws the page anew
            return fwd.script_finished in FINISHED
        return False
