"""The lesson's timer: the teacher sets it on the projector, the projector counts down, rating closes at zero.

The deadline of each lesson is kept by the server process (every session sees it: the teacher's projector, a
view-only projector, the students' phones) in :data:`DEADLINES`; at zero the teacher's projector closes the
campaign in the database (:meth:`bleu_core.campaigns.CampaignStore.set_open`), which refuses further ratings,
and the Rate page tells the students that time is up. A server restart forgets the deadline, not the closing.
"""

from __future__ import annotations

import math
import threading
import time

#: Campaign code → deadline (``time.time()`` seconds).
DEADLINES: dict[str, float] = {}
_LOCK = threading.Lock()


def start_timer(code: str, minutes: float, *, now: float | None = None) -> float:
    """Set lesson *code*'s deadline *minutes* from *now*; return it."""
    if not math.isfinite(minutes) or minutes <= 0:
        raise ValueError(f"a timer needs a positive number of minutes, not {minutes!r}")
    deadline = (time.time() if now is None else now) + 60.0 * minutes
    with _LOCK:
        DEADLINES[code] = deadline
    return deadline


def stop_timer(code: str) -> None:
    """Take lesson *code*'s timer away (rating stays as it is)."""
    with _LOCK:
        DEADLINES.pop(code, None)


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
