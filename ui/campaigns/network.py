"""Can the students' phones reach the app? The join link must carry an address they can open.

An app opened at ``localhost`` (as ``make run`` prints) gives a join link that phones cannot open: it names the
phone itself. :func:`reachable_join_base` puts this machine's network address in its place
(:func:`network_address`: the address of the interface with the default route, found by a UDP socket
``connect``, which sends nothing) and says what the teacher must know: whether the server listens on the
network at all (``server.address``) and how to start it so (``make run ADDRESS=0.0.0.0``).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

#: How to start the app so that phones on the network reach it.
START_ON_NETWORK = "make run ADDRESS=0.0.0.0"


@dataclass(frozen=True)
class JoinBase:
    """The address the join link and QR code use, and what the class panel tells the teacher (or None)."""

    base: str
    warning: str | None = None


def is_loopback(host: str | None) -> bool:
    """Whether *host* names this machine only (phones cannot open it).

    >>> [is_loopback(h) for h in ("localhost", "127.0.0.1", "::1", "192.168.1.20", "example.org", "")]
    [True, True, True, False, False, True]
    """
    if not host or host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def network_address() -> str | None:
    """This machine's address on the network (IPv4), or None when it has none but loopback.

    A UDP socket ``connect`` to a private address picks the interface the system would use, without sending
    anything; the host name's addresses are the fallback.
    """
    candidates: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("10.254.254.254", 1))
            candidates.append(sock.getsockname()[0])
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        candidates += [str(info[4][0]) for info in infos]
    except OSError:
        pass
    return next((ip for ip in candidates if ip and not is_loopback(ip)), None)


def with_host(base: str, host: str) -> str:
    """*base* with its host replaced by *host*, scheme and port kept.

    >>> with_host("http://localhost:8501", "192.168.1.20")
    'http://192.168.1.20:8501'
    """
    parts = urlsplit(base)
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, f"{host}{port}", "", "", ""))


def reachable_join_base(base: str, *, listen_address: str | None, detected: str | None) -> JoinBase:
    """The address for the join link when the app was opened at *base*.

    *listen_address* is the server's ``server.address`` (None or ``0.0.0.0``: every interface); *detected* the
    machine's network address (:func:`network_address`).

    >>> reachable_join_base("http://192.168.1.20:8501", listen_address=None, detected="10.0.0.2").base
    'http://192.168.1.20:8501'
    >>> j = reachable_join_base("http://localhost:8501", listen_address=None, detected="10.0.0.2")
    >>> j.base, "which phones cannot open" in j.warning
    ('http://10.0.0.2:8501', True)
    """
    host = urlsplit(base).hostname
    if not is_loopback(host):
        return JoinBase(base)
    if detected is None:
        return JoinBase(
            base,
            "This app is open at localhost, which phones cannot open, and this computer has no network "
            "address: connect it to the classroom's network (Wi-Fi) and reload this page.",
        )
    reachable = with_host(base, detected)
    if listen_address and is_loopback(listen_address):
        return JoinBase(
            reachable,
            f"This app listens on this computer only ({listen_address}): phones cannot reach it. Stop it "
            f"and start it on the network with `{START_ON_NETWORK}`, then open it at {reachable}.",
        )
    return JoinBase(
        reachable,
        f"You opened this app at localhost, which phones cannot open: the join link and QR code use this "
        f"computer's network address, {reachable}. If phones still cannot open it, start the app with "
        f"`{START_ON_NETWORK}` and check that they are on the same network (Wi-Fi) as this computer.",
    )
