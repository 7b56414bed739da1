"""Bounding how often one client may try campaign codes and resume tokens (guessing, flooding).

Campaign codes are short on purpose (6 characters, typed by judges), so they can be guessed by someone who
tries many; joining creates a judge row each time, so it can be flooded. :class:`AttemptLimiter` is a
*sliding-window* counter per client: at most ``max_attempts`` attempts in any ``window_seconds``; the next
one raises :class:`TooManyAttempts` saying how long to wait. It is pure (no I/O, no global state, an
injectable clock), thread-safe, and bounded in memory (at most ``max_clients`` clients are tracked; the
least recently seen are forgotten first).

The app keeps one limiter per server process and calls :meth:`AttemptLimiter.hit` with a client key (a
session id, or an address) before every join or resume, and :meth:`AttemptLimiter.reset` after a success if
successes should not count against the client.

>>> clock = [0.0]
>>> limiter = AttemptLimiter(max_attempts=3, window_seconds=60, clock=lambda: clock[0])
>>> for _ in range(3):
...     limiter.hit("browser-1")
>>> limiter.hit("browser-1")
Traceback (most recent call last):
  ...
bleu_core.campaigns.rate_limit.TooManyAttempts: too many attempts to join or resume (3 in 60 s); wait 60 s and try again
>>> limiter.hit("browser-2")       # other clients are not affected
>>> clock[0] = 60.0                # the window slides: the first attempts have expired
>>> limiter.hit("browser-1")
>>> limiter.remaining("browser-1")
2
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable

from bleu_core.campaigns.model import CampaignError

__all__ = ["DEFAULT_MAX_ATTEMPTS", "DEFAULT_WINDOW_SECONDS", "AttemptLimiter", "TooManyAttempts"]

#: Attempts a client may make per window: enough for typos, far too few to guess a code
#: (31^6 ≈ 887 million codes).
DEFAULT_MAX_ATTEMPTS = 10
#: Length of the sliding window in seconds.
DEFAULT_WINDOW_SECONDS = 60.0


class TooManyAttempts(CampaignError):
    """A client made too many attempts; ``retry_after`` is the number of seconds to wait."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class AttemptLimiter:
    """At most ``max_attempts`` attempts per client in any sliding window of ``window_seconds``.

    ``clock`` returns seconds (default :func:`time.monotonic`); ``max_clients`` bounds memory.
    """

    def __init__(
        self,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        window_seconds: float = DEFAULT_WINDOW_SECONDS,
        *,
        max_clients: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
            raise CampaignError(f"max_attempts must be a whole number >= 1, got {max_attempts!r}")
        if not isinstance(window_seconds, (int, float)) or not (
            math.isfinite(window_seconds) and window_seconds > 0
        ):
            raise CampaignError(
                f"window_seconds must be a finite number > 0, got {window_seconds!r}"
            )
        if isinstance(max_clients, bool) or not isinstance(max_clients, int) or max_clients < 1:
            raise CampaignError(f"max_clients must be a whole number >= 1, got {max_clients!r}")
        self.max_attempts = max_attempts
        self.window_seconds = float(window_seconds)
        self.max_clients = max_clients
        self._clock = clock
        self._attempts: OrderedDict[Hashable, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, client: Hashable, now: float) -> deque[float]:
        """The client's attempts still inside the window (expired ones dropped); marks it recently seen."""
        times = self._attempts.get(client)
        if times is None:
            times = deque()
            self._attempts[client] = times
            while len(self._attempts) > self.max_clients:
                self._attempts.popitem(last=False)
        else:
            self._attempts.move_to_end(client)
        while times and times[0] <= now - self.window_seconds:
            times.popleft()
        return times

    def hit(self, client: Hashable) -> None:
        """Count one attempt by ``client``, or raise :class:`TooManyAttempts` (not counted) if it already
        made ``max_attempts`` in the window."""
        with self._lock:
            now = self._clock()
            times = self._recent(client, now)
            if len(times) >= self.max_attempts:
                wait = max(0.0, times[0] + self.window_seconds - now)
                raise TooManyAttempts(
                    f"too many attempts to join or resume ({self.max_attempts} in "
                    f"{self.window_seconds:g} s); wait {math.ceil(wait)} s and try again",
                    retry_after=wait,
                )
            times.append(now)

    def remaining(self, client: Hashable) -> int:
        """How many more attempts ``client`` may make now."""
        with self._lock:
            return self.max_attempts - len(self._recent(client, self._clock()))

    def reset(self, client: Hashable) -> None:
        """Forget ``client``'s attempts (e.g. after it joined or resumed successfully)."""
        with self._lock:
            self._attempts.pop(client, None)

    def __len__(self) -> int:
        """Number of clients tracked."""
        return len(self._attempts)
