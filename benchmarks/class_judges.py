"""Students rating an ESA lesson on their phones, played by :class:`streamlit_client.StreamlitClient` sessions.

Each student is one websocket session of the running app server, as one phone is. A student opens the join
link's address (``/rate?campaign=CODE``), types a name and presses "Start rating", then, item after item, does
what the ESA screen asks (``ui/campaigns/esa_marking.py``): taps the first word of the translation and/or
``[missing]`` (``st.pills``), presses "Minor error" or "Major error", moves the slider, and presses "Save and
next". Each of those is one rerun of the Rate page, as in the browser. The page counts a score only once the
slider has moved (a slider left where it started gives none), so a student whose score is where the slider
stands moves it one step away and back, as on a phone (:func:`slider_moves`). The time of a submit is from sending
"Save and next" to the server's run that draws the next item ("Item n+1 of N") having arrived in full.

Pace: one rating every ``pace`` seconds (uniform between the two bounds, per student and item, from a
``random.Random`` seeded with the run's seed and the student's number), the steps spread over that time;
students arrive over the first ``join_window_s`` seconds; a student starts an item only when it can finish
before the run's end. The sessions of one process share one asyncio loop (:func:`client_process`).
"""

from __future__ import annotations

import asyncio
import random
import time
import traceback
from dataclasses import asdict, dataclass, field

from streamlit_client import Run, StreamlitClient, widget_value

MISSING_LABEL = "[missing]"


@dataclass
class Submitted:
    """One "Save and next" as the student's phone saw it (times: ``time.time()`` when sent, seconds taken)."""

    judge: str
    position: int
    score: int
    severity: str | None
    first_word: bool
    missing: bool
    sent_at: float
    seconds: float
    next_shown: bool


@dataclass
class JudgeReport:
    judge: str
    submitted: list[Submitted] = field(default_factory=list)
    step_seconds: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Pace:
    """How fast the class works: seconds between ratings (bounds), arrival window, run end (``time.time()``)."""

    low_s: float
    high_s: float
    join_window_s: float
    end_at: float


def judge_name(k: int) -> str:
    """The name student *k* types.

    >>> judge_name(7)
    'student 007'
    """
    return f"student {k:03d}"


def item_position(run: Run) -> int | None:
    """The 0-based position of the item on screen, from its heading ``Item n of N`` (None: no item).

    >>> from streamlit_client import Element
    >>> from streamlit.proto.Heading_pb2 import Heading
    >>> item_position(Run({(0, 6): Element("heading", Heading(body="Item 3 of 20"))}))
    2
    """
    for text in run.texts("heading"):
        if text.startswith("Item ") and " of " in text:
            return int(text.split()[1]) - 1
    return None


def widget_id(run: Run, kind: str, suffix: str) -> str:
    """The id the server gave the *kind* widget whose key ends with *suffix*; raises when it is not drawn."""
    element = run.find(kind, lambda e: e.proto.id.endswith(suffix))
    if element is None:
        raise LookupError(f"no {kind} ending {suffix!r} on the page")
    return element.proto.id


def slider_moves(at: float, score: int) -> list[int]:
    """The values a student sets, one rerun each, to bring a slider standing at *at* to *score*: the score,
    or, when the slider already stands there, a neighbouring value first (the page counts only a move).

    >>> slider_moves(50.0, 73), slider_moves(50.0, 50), slider_moves(100.0, 100)
    ([73], [51, 50], [99, 100])
    """
    if score != at:
        return [score]
    return [score + 1 if score < 100 else score - 1, score]


def slider_value(run: Run, pos: int) -> float:
    """Where the slider of item *pos* stands in *run* (the value the server set, else its default)."""
    element = run.find("slider", lambda e: e.proto.id.endswith(f"rate_slider_{pos}"))
    if element is None:
        raise LookupError(f"no slider ending 'rate_slider_{pos}' on the page")
    values = element.proto.value if element.proto.set_value else element.proto.default
    return float(values[0])


async def join(client: StreamlitClient, code: str, name: str) -> Run:
    """Open the join link and start rating under *name*."""
    run = await client.open("rate", f"campaign={code}")
    name_box = run.find("text_input", lambda e: e.label == "Your name")
    start = run.find("button", lambda e: e.label == "Start rating")
    if name_box is None or start is None:
        raise LookupError("the join form is not on the page")
    return await client.rerun(
        [widget_value(name_box.proto.id, name), widget_value(start.proto.id, True, trigger=True)]
    )


async def mark(
    client: StreamlitClient, run: Run, rng: random.Random, pos: int, report: JudgeReport
):
    """Tap the first word and/or [missing] (60 % / 20 % of items), then one severity; returns the run and
    what was marked ``(severity, first_word, missing)``."""
    first_word, missing = rng.random() < 0.6, rng.random() < 0.2
    if not (first_word or missing):
        return run, (None, False, False)
    severity = rng.choice(["minor", "major"])
    pills = run.find("button_group", lambda e: f"rate_words_{pos}_" in e.proto.id)
    if pills is None:
        raise LookupError("no word picker on the page")
    labels = list(pills.proto.raw_values) or [o.content for o in pills.proto.options]
    chosen = ([labels[0]] if first_word else []) + ([MISSING_LABEL] if missing else [])
    run = await timed(client, report, [widget_value(pills.proto.id, chosen)])
    await asyncio.sleep(rng.uniform(1.0, 3.0))
    button = widget_id(run, "button", f"rate_mark_{severity}_{pos}")
    run = await timed(client, report, [widget_value(button, True, trigger=True)])
    return run, (severity, first_word, missing)


async def timed(client: StreamlitClient, report: JudgeReport, states) -> Run:
    run = await client.rerun(states)
    report.step_seconds.append(run.seconds)
    return run


async def rate_one(client: StreamlitClient, run: Run, rng: random.Random, pace: Pace, report):
    """One item: marks, slider, save; returns the run after the save (None: no time left for an item)."""
    pos = item_position(run)
    interval = rng.uniform(pace.low_s, pace.high_s)
    if pos is None or time.time() + interval > pace.end_at:
        return None
    await asyncio.sleep(interval * 0.4)
    run, (severity, first_word, missing) = await mark(client, run, rng, pos, report)
    await asyncio.sleep(interval * 0.3)
    score = rng.randint(0, 100)
    for value in slider_moves(slider_value(run, pos), score):
        run = await timed(
            client, report, [widget_value(widget_id(run, "slider", f"rate_slider_{pos}"), [value])]
        )
    left = interval * 0.3 - (run.seconds if run.seconds < interval * 0.3 else 0)
    await asyncio.sleep(max(0.0, left))
    save = widget_id(run, "button", f"rate_save_{pos}")
    sent_at = time.time()
    run = await client.rerun([widget_value(save, True, trigger=True)])
    after = item_position(run)
    report.submitted.append(
        Submitted(
            report.judge,
            pos,
            score,
            severity,
            first_word,
            missing,
            sent_at,
            run.seconds,
            next_shown=after == pos + 1 or (after is None and not run.find("slider")),
        )
    )
    return run


async def student(base_url: str, code: str, k: int, seed: int, pace: Pace) -> JudgeReport:
    """Student *k*: arrive, join, rate until the time is up (see the module docstring)."""
    rng = random.Random(seed * 100_003 + k)
    report = JudgeReport(judge_name(k))
    await asyncio.sleep(rng.uniform(0, pace.join_window_s))
    client = StreamlitClient(base_url)
    try:
        run = await join(client, code, report.judge)
        report.step_seconds.append(run.seconds)
        while run is not None:
            run = await rate_one(client, run, rng, pace, report)
    except Exception as err:  # a lost connection or a page that did not draw what a phone expects
        report.errors.append(
            f"{type(err).__name__}: {err} | {traceback.format_exc(limit=2)[-300:]}"
        )
    finally:
        await client.close()
    return report


def client_process(
    base_url: str, code: str, students: list[int], seed: int, pace: Pace, out
) -> None:
    """One client process: its *students* as concurrent sessions on one asyncio loop; puts their reports
    and the CPU seconds this process used on *out*."""

    async def everyone() -> list[JudgeReport]:
        return await asyncio.gather(*(student(base_url, code, k, seed, pace) for k in students))

    reports = asyncio.run(everyone())
    out.put(([asdict(r) for r in reports], time.process_time()))
