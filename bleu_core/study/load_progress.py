"""Progress of opening a study, for a caller that shows it (the app's progress bar on a 50 × 10k study).

Loading a large study takes seconds: reading every text file, parsing hundreds of thousands of ratings,
checking the whole study, looking for the usual mistakes. :func:`bleu_core.study.load_study` takes a
``progress(done, total, message)`` callback and reports those stages through :func:`report`, which the
loaders call where the work is, without a ``progress`` argument threaded through every function: the
callback is held in a :class:`contextvars.ContextVar` for the duration of the call (each thread, e.g. each
app session, has its own). ``done`` never goes backwards and ends at ``total``.

>>> seen = []
>>> with reporting(lambda done, total, message: seen.append((done, message))):
...     report("reading files", 1, 4)
...     report("reading ratings", 2, 4)
...     report("reading files", 4, 4)          # a later call of an earlier stage does not move back
...     finish()
>>> [d for d, _ in seen], seen[1][1]
([62, 375, 375, 1000], 'Opening the study: reading ratings (2 of 4)')
>>> report("reading files", 1, 2)             # no callback: nothing happens
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Progress = Callable[[int, int, str], None]

#: The stages in the order a load goes through them (a loader may skip some).
LOAD_STAGES = (
    "reading files",
    "reading ratings",
    "checking the study",
    "looking for usual mistakes",
)
_TOTAL = 1000

_current: ContextVar[tuple[Progress, list[int]] | None] = ContextVar(
    "bleu_study_load_progress", default=None
)


@contextmanager
def reporting(progress: Progress | None) -> Iterator[None]:
    """Send :func:`report` calls made inside the block to ``progress`` (``None``: keep the outer one)."""
    if progress is None:
        yield
        return
    token = _current.set((progress, [0]))
    try:
        yield
    finally:
        _current.reset(token)


def report(stage: str, done: int = 0, total: int = 1) -> None:
    """Say that ``stage`` (one of :data:`LOAD_STAGES`) has done ``done`` of ``total`` units."""
    current = _current.get()
    if current is None:
        return
    progress, reached = current
    k = LOAD_STAGES.index(stage)
    part = min(max(done / total, 0.0), 1.0) if total > 0 else 1.0
    value = max(reached[0], int(_TOTAL * (k + part) / len(LOAD_STAGES)))
    reached[0] = value
    detail = f" ({done:,} of {total:,})" if total > 1 else ""
    progress(value, _TOTAL, f"Opening the study: {stage}{detail}")


def finish() -> None:
    """The load is complete: the bar at its end."""
    current = _current.get()
    if current is not None:
        current[1][0] = _TOTAL
        current[0](_TOTAL, _TOTAL, "Opening the study: done")
