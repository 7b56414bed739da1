"""A small TCP proxy for the browser tests: it forwards a loopback port to the app server and can cut the
network as a phone losing its signal does, which Playwright's ``context.set_offline`` does not do to an open
WebSocket.

``go_offline()`` closes every proxied connection (the browser's WebSocket and any request under way) and from
then on closes each new connection as soon as it is accepted, so the browser can neither reach the server
nor reconnect; ``go_online()`` forwards again. The server itself keeps running throughout.
"""

from __future__ import annotations

import socket
import threading


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in recv on it
    except OSError:
        pass
    sock.close()


class TcpProxy:
    """Forward ``127.0.0.1:<port>`` (a free port, :attr:`port`) to ``127.0.0.1:<target_port>``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.listener.settimeout(0.2)  # the accept loop looks at `closed` this often
        self.port = self.listener.getsockname()[1]
        self.online = True
        self.closed = False
        self.refused = 0  # connections closed on arrival while offline
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if not self.online:
                self.refused += 1
                _close(client)
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=10)
            except OSError:
                _close(client)
                continue
            client.settimeout(None)
            upstream.settimeout(None)
            with self._lock:
                self._open |= {client, upstream}
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open -= {src, dst}
            _close(src)
            _close(dst)

    def go_offline(self) -> None:
        """Cut every connection and refuse new ones."""
        self.online = False
        with self._lock:
            cut, self._open = list(self._open), set()
        for sock in cut:
            _close(sock)

    def go_online(self) -> None:
        """Forward new connections again."""
        self.online = True

    def close(self) -> None:
        self.closed = True
        self.go_offline()
        self.listener.close()
