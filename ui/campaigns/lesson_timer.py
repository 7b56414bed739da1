"""The lesson's timer: the teacher sets it on the projector, the projector counts down, rating closes at zero.

The deadline of each lesson is kept by the server process (every session sees it: the teacher's projector, a
view-only projector, the students' phones) in :data:`DEADLINES`; at zero the server closes the campaign in the
database (*on_zero*, :meth:`bleu_core.campaigns.CampaignStore.set_open`, whether or not a projector is open),
which refuses further ratings, and the phones' live countdown turns into "rating is closed". A server restart
forgets the deadline, not the closing.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

#: Campaign code → deadline (``time.time()`` seconds).
DEADLINES: dict[str, float] = {}
#: Campaign code → the server's timer that closes rating at the deadline.
_CLOSERS: dict[str, threading.Timer] = {}
_LOCK = threading.Lock()
_log = logging.getLogger(__name__)


def start_timer(
    code: str,
    minutes: float,
    *,
    now: float | None = None,
    on_zero: Callable[[], None] | None = None,
) -> float:
    """Set lesson *code*'s deadline *minutes* from *now*; return it. *on_zero* runs on the server at the
    deadline (closing rating in the database), unless the timer is stopped or set again before."""
    if not math.isfinite(minutes) or minutes <= 0:
        raise ValueError(f"a timer needs a positive number of minutes, not {minutes!r}")
    deadline = (time.time() if now is None else now) + 60.0 * minutes
    closer = None
    if on_zero is not None:
        closer = threading.Timer(max(0.0, deadline - time.time()), _run_closer, (code, on_zero))
        closer.daemon = True
    with _LOCK:
        DEADLINES[code] = deadline
        old = _CLOSERS.pop(code, None)
        if closer is not None:
            _CLOSERS[code] = closer
    if old is not None:
        old.cancel()
    if closer is not None:
        closer.start()
    return deadline


def _run_closer(code: str, on_zero: Callable[[], None]) -> None:
    with _LOCK:
        _CLOSERS.pop(code, None)
    try:
        on_zero()
    except Exception:  # noqa: BLE001 - a deleted lesson: nothing to close; the server runs on
        _log.warning("closing lesson %s at its deadline failed", code, exc_info=True)


def stop_timer(code: str) -> None:
    """Take lesson *code*'s timer away (rating stays as it is)."""
    with _LOCK:
        DEADLINES.pop(code, None)
        closer = _CLOSERS.pop(code, None)
    if closer is not None:
        closer.cancel()


def seconds_left(code: str, *, now: float | None = None) -> float | None:
    """Seconds until lesson *code*'s deadline (0 once it has passed), or None without a timer."""
    with _LOCK:
        deadline = DEADLINES.get(code)
    if deadline is None:
        return None
    return max(0.0, deadline - (time.time() if now is None else now))


def timer_text(seconds: float) -> str:
    """What the projector shows.

    >>> timer_text(272.4), timer_text(0.0)
    ('Rating closes in 4:33', 'Time is up: rating is closed')
    """
    if seconds <= 0:
        return "Time is up: rating is closed"
    whole = math.ceil(seconds)
    return f"Rating closes in {whole // 60}:{whole % 60:02d}"
