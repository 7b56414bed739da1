"""What the class-mode benchmarks share: the TED lesson they rate, percentiles, the machine's load, the
storage-level projector loop, the check that every rating is stored once, and their section of
``RESULTS-class.md``.

``bench_class.py`` loads the storage layer (student processes calling :class:`bleu_core.campaigns.JudgeSession`
directly); ``bench_esa_class.py`` loads a running app server over its websocket, as phones do.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_core import corpus_bleu  # noqa: E402
from bleu_core.campaigns import CampaignStore  # noqa: E402
from bleu_core.campaigns.class_spans import esa_lesson  # noqa: E402
from bleu_core.campaigns.lesson import class_snapshot, lesson_plan  # noqa: E402
from bleu_core.study.demo import load_demo  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS-class.md"


def ted_lesson(n_segments: int, protocol: str, seed: int = 1):
    """The class-mode lesson of the bundled TED en-de study (five systems over the BLEU range, as the
    "Start a class" button makes it); ``protocol`` ``"esa"`` makes it an ESA lesson with the experts' spans."""
    ted = load_demo("ted-en-de")
    refs = [ted.references[r] for r in ted.references]
    results = {s: corpus_bleu(ted.systems[s], refs) for s in ted.systems}
    bleu = {s: r.score for s, r in results.items()}
    signature = str(next(iter(results.values())).signature)
    plan = lesson_plan(ted, bleu, seed=seed, n_segments=n_segments, bleu_signature=signature)
    return esa_lesson(plan, ted) if protocol == "esa" else plan


def pct(values: list[float], q: float) -> float:
    """The *q* quantile of *values*: the value at rank ``floor(q·n)`` of the sorted list (no interpolation).

    >>> pct([5.0, 1.0, 3.0, 2.0, 4.0], 0.5), pct([5.0, 1.0, 3.0, 2.0, 4.0], 0.95)
    (3.0, 5.0)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(what: str, values: list[float], target: str, unit: str = "ms") -> str:
    """One table row: median, p95 and max of *values* (already in *unit*), and the target.

    >>> row("one submit", [10.0, 20.0, 30.0], "p95 ≤ 1 s")
    '| one submit (3) | 20.0 ms | 30.0 ms | 30.0 ms | p95 ≤ 1 s |'
    >>> row("none", [], "-")
    '| none (0) | – | – | – | - |'
    """
    if not values:
        return f"| {what} (0) | – | – | – | {target} |"
    return (
        f"| {what} ({len(values)}) | {statistics.median(values):.1f} {unit} | {pct(values, 0.95):.1f} {unit} "
        f"| {max(values):.1f} {unit} | {target} |"
    )


def load_text() -> str:
    """The machine's load averages (1, 5, 15 min), as ``uptime`` prints them."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def machine_text() -> str:
    return f"{platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} cores"


def storage_dashboard(db: str, code: str, key: str, every_s: float, stop, out, spans: bool) -> None:
    """What the projector's fragment reads and computes every *every_s* seconds, timed (ms) into *out*:
    ratings, progress, (ESA) the spans, and :func:`class_snapshot` with 200 bootstrap draws. ``scipy.stats``
    (r's p-value, seconds to import) is imported first and timed apart, as the app's server imports it once
    at start (``ui/app/warmup.py``), not on a projector refresh."""
    start = time.perf_counter()
    import scipy.stats  # noqa: F401

    import_ms = (time.perf_counter() - start) * 1000
    store = CampaignStore(db)
    campaign = store.get_campaign(code)
    times = []
    while not stop.is_set():
        start = time.perf_counter()
        ratings = store.ratings(code, key)
        progress = store.progress(code, key)
        if spans:
            store.spans(code, key)
        class_snapshot(campaign, ratings, len(progress), n_resamples=200, seed=campaign.seed)
        times.append((time.perf_counter() - start) * 1000)
        stop.wait(every_s)
    out.put((import_ms, times))
    store.close()


def rating_check(expected: Mapping[tuple, int], stored: Iterable) -> dict[str, int]:
    """Compare the scores submitted (``(judge, position, criterion) -> score``) with the stored ratings:
    how many were lost, stored with another score, or stored more than once.

    >>> from types import SimpleNamespace as R
    >>> rating_check({("a", 0, "esa"): 5, ("a", 1, "esa"): 7},
    ...              [R(judge="a", position=0, criterion="esa", score=5)] * 2)
    {'submitted': 2, 'stored': 2, 'lost': 1, 'wrong': 0, 'duplicated': 1}
    """
    counts = Counter((r.judge, r.position, r.criterion) for r in stored)
    scores = {(r.judge, r.position, r.criterion): r.score for r in stored}
    return {
        "submitted": len(expected),
        "stored": sum(counts.values()),
        "lost": len(set(expected) - set(scores)),
        "wrong": sum(1 for k, v in expected.items() if k in scores and scores[k] != v),
        "duplicated": sum(n - 1 for n in counts.values()),
    }


def write_section(name: str, text: str, path: Path = RESULTS) -> None:
    """Put *text* between ``<!-- begin NAME -->`` and ``<!-- end NAME -->`` in *path* (appended the first
    time); what is outside the markers (the readings written by hand) stays."""
    begin, end = f"<!-- begin {name} -->", f"<!-- end {name} -->"
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{begin}\n{text.rstrip()}\n{end}"
    if begin in old and end in old:
        new = old[: old.index(begin)] + block + old[old.index(end) + len(end) :]
    else:
        new = (old.rstrip() + "\n\n" if old.strip() else "") + block + "\n"
    path.write_text(new, encoding="utf-8")
