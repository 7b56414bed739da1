"""The join/resume attempt limiter: a sliding window per client, bounded memory, thread-safe."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core.campaigns.model import CampaignError
from bleu_core.campaigns.rate_limit import AttemptLimiter, TooManyAttempts
from bleu_core.errors import BleuStudyError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_eleventh_guess_in_a_minute_is_refused_with_the_wait() -> None:
    clock = Clock()
    limiter = AttemptLimiter(clock=clock)  # defaults: 10 per 60 s
    for _ in range(10):
        clock.now += 1
        limiter.hit("ip-1")
    with pytest.raises(TooManyAttempts, match=r"\(10 in 60 s\); wait 51 s and try again") as info:
        limiter.hit("ip-1")
    assert info.value.retry_after == pytest.approx(51.0)
    assert isinstance(info.value, CampaignError) and isinstance(info.value, BleuStudyError)
    clock.now += 51  # the first attempt leaves the window
    limiter.hit("ip-1")
    with pytest.raises(TooManyAttempts):
        limiter.hit("ip-1")


def test_refused_attempts_do_not_extend_the_wait_and_reset_forgets() -> None:
    clock = Clock()
    limiter = AttemptLimiter(2, 10, clock=clock)
    limiter.hit("a")
    limiter.hit("a")
    for _ in range(50):  # hammering while blocked is not counted
        with pytest.raises(TooManyAttempts):
            limiter.hit("a")
    clock.now += 10
    assert limiter.remaining("a") == 2
    limiter.hit("a")
    limiter.reset("a")
    assert limiter.remaining("a") == 2


def test_memory_is_bounded_by_forgetting_the_least_recent_clients() -> None:
    limiter = AttemptLimiter(1, 60, max_clients=3, clock=Clock())
    for client in "abcd":
        limiter.hit(client)
    assert len(limiter) == 3
    limiter.hit("a")  # "a" was forgotten first, so it may try again
    with pytest.raises(TooManyAttempts):
        limiter.hit("d")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"max_attempts": 0}, r"max_attempts must be a whole number >= 1, got 0"),
        ({"max_attempts": True}, r"max_attempts must be a whole number >= 1, got True"),
        ({"window_seconds": 0}, r"window_seconds must be a finite number > 0, got 0"),
        ({"window_seconds": float("inf")}, r"window_seconds must be a finite number > 0, got inf"),
        ({"max_clients": 0}, r"max_clients must be a whole number >= 1, got 0"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict, match: str) -> None:
    with pytest.raises(CampaignError, match=match):
        AttemptLimiter(**kwargs)


def test_threads_together_get_exactly_the_allowed_attempts() -> None:
    limiter = AttemptLimiter(25, 3600)
    allowed = []

    def guess() -> None:
        for _ in range(20):
            try:
                limiter.hit("shared")
                allowed.append(1)
            except TooManyAttempts:
                pass

    threads = [threading.Thread(target=guess) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(allowed) == 25


@given(
    st.lists(st.tuples(st.floats(0, 30, allow_nan=False), st.sampled_from("xyz")), max_size=60),
    st.integers(1, 5),
)
def test_agrees_with_the_definition_of_a_sliding_window(events, max_attempts) -> None:
    """Accepted iff fewer than max_attempts *accepted* attempts of that client in (now - window, now]."""
    clock = Clock()
    limiter = AttemptLimiter(max_attempts, 20, clock=clock)
    accepted: dict[str, list[float]] = {}
    for step, client in events:
        clock.now += step
        recent = [t for t in accepted.get(client, []) if t > clock.now - 20]
        expect_ok = len(recent) < max_attempts
        try:
            limiter.hit(client)
            ok = True
        except TooManyAttempts:
            ok = False
        assert ok == expect_ok
        if ok:
            accepted.setdefault(client, []).append(clock.now)
