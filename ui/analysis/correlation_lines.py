"""The chance line beside every correlation the Correlation and Metrics pages show.

A correlation alone says little: is r = 0.3 between sentence BLEU and MQM a lot? Beside each row the pages
show what two baselines get for *that same correlation*, as ``bleu-study meta`` prints them, computed by
:func:`bleu_core.evaluation.correlation_chance.correlation_chance` (one implementation for every surface):

* the **random metric**: the metric's own scores permuted, from the page's seed, within the grouping the
  row uses (among the systems at system level, among all scored translations, or among each segment's
  translations); its mean over the permutations (``random metric``) and the middle 95 % (``random low``,
  ``random high``). A coefficient near the random line says as little as shuffled scores;
* the **constant metric**: every translation the same score. A correlation is undefined for it (NaN,
  shown empty); WMT's tau-like counts its every pair discordant: -1.

This module turns those lines into table columns, a caption in plain words and a tick on a chart; the
pages' cached functions compute them (:mod:`ui.analysis.correlation_cache`, :mod:`ui.metrics.charts`).

>>> import numpy as np
>>> from bleu_core.maths.correlation import CorrelationResult
>>> res = CorrelationResult("pearson", 0.9, 0.01, 6, level="system")
>>> (line,) = chance_lines([res], [1.0, 2, 3, 4, 5, 6], [1.0, 2, 3, 5, 4, 6], seed=1)
>>> numbers = line_numbers(line)
>>> abs(numbers["random metric"]) < 0.1, numbers["constant metric"] != numbers["constant metric"]
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from bleu_core.evaluation.chance import ChanceLine
from bleu_core.evaluation.correlation_chance import PERMUTATIONS, correlation_chance

CHANCE_COLUMNS = ("random metric", "random low", "random high", "constant metric")
"""The chance line's columns, as the Metric ranking page names them."""

RANDOM_TICK = "#b22222"
"""The random metric's tick (the Metric ranking page's red); its meaning is said in every subtitle."""


def chance_lines(
    results: Iterable[Any],
    metric: Any,
    human: Any,
    *,
    seed: int,
    rule: Any = None,
    select: Any = None,
) -> tuple[ChanceLine | None, ...]:
    """The chance line of each correlation in ``results`` of ``metric`` against ``human`` (one level:
    ``(K,)`` system scores, or ``systems × segments``): :func:`correlation_chance` with ``seed`` and, for
    WMT's tau-like, its ``rule`` and selecting scores. None where the correlation is undefined."""
    return tuple(
        correlation_chance(r, metric, human, seed=seed, rule=rule, select=select) for r in results
    )


def line_numbers(line: ChanceLine | None) -> dict[str, float]:
    """A chance line as the four :data:`CHANCE_COLUMNS` (NaN where there is none).

    >>> line_numbers(None)["random metric"]
    nan
    """
    if line is None:
        return dict.fromkeys(CHANCE_COLUMNS, math.nan)
    low, high = line.random_range
    return dict(zip(CHANCE_COLUMNS, (line.random, low, high, line.constant), strict=True))


def with_chance(
    rows: Sequence[dict[str, Any]], lines: Sequence[ChanceLine | None] | None
) -> list[dict[str, Any]]:
    """``rows`` (one per correlation) with its chance line's columns added after ``CI high`` (empty
    when ``lines`` is None: not computed yet)."""
    out = []
    for k, row in enumerate(rows):
        numbers = line_numbers(None if lines is None else lines[k])
        keys = list(row)
        at = keys.index("CI high") + 1 if "CI high" in keys else len(keys)
        out.append({**{c: row[c] for c in keys[:at]}, **numbers, **{c: row[c] for c in keys[at:]}})
    return out


def chance_said(lines: Iterable[ChanceLine | None], metric: str = "BLEU") -> str:
    """The chance columns in plain words, with the permutations and the seed they were drawn with.

    >>> line = ChanceLine("pearson", 0.0, (-0.5, 0.5), math.nan, 1000, 7, "systems")
    >>> print(chance_said([line, None]))  # doctest: +ELLIPSIS
    Chance line: a random metric is BLEU's own scores shuffled (1000 permutations within systems, seed 7): ...
    """
    drawn = [line for line in lines if line is not None]
    if not drawn:
        return ""
    how = [f"{x.n_permutations} permutations within {x.grouping}" for x in drawn]
    return chance_words(how, drawn[0].seed, f"{metric}'s own scores")


def chance_words(how: Iterable[str], seed: int, scores: str) -> str:
    """:func:`chance_said` from its parts: how each line was drawn (``1000 permutations within
    systems``; repeats said once), the seed, whose ``scores`` were shuffled."""
    return (
        f"Chance line: a random metric is {scores} shuffled "
        f"({'; '.join(dict.fromkeys(how))}, seed {seed}): `random metric` is its mean, `random low`–"
        "`random high` the middle 95 % of the permutations. A coefficient near the random line says as "
        "little as shuffled scores; one above `random high` is more than chance. A constant metric "
        "gives every translation the same score: a correlation is undefined for it (empty), WMT's "
        "tau-like counts its every pair discordant (-1)."
    )


def tick_subtitle(seed: int) -> str:
    """How a chart's random-metric tick was drawn, for its subtitle."""
    return (
        f"red tick: a random metric (the metric's scores shuffled; {PERMUTATIONS['system']} "
        f"permutations at system level, {PERMUTATIONS['segment']} at segment level, seed {seed})"
    )


def random_ticks(frame: pd.DataFrame, y: Any, *, x: str = "random metric", **encode: Any) -> Any:
    """The random metric's mean of each row of ``frame`` as a labelled tick (``y``: the chart's own
    row encoding; ``encode``: its other shared channels, e.g. ``yOffset``)."""
    import altair as alt

    return (
        alt.Chart(frame.dropna(subset=[x]))
        .mark_tick(thickness=2, size=16, color=RANDOM_TICK)
        .encode(
            x=f"{x}:Q",
            y=y,
            tooltip=[
                alt.Tooltip(f"{x}:Q", format=".3f", title="random metric"),
                alt.Tooltip("random low:Q", format=".3f"),
                alt.Tooltip("random high:Q", format=".3f"),
            ],
            **encode,
        )
    )


def with_random_ticks(chart: Any, frame: pd.DataFrame) -> Any:
    """An :func:`ui.analysis.stats_charts.interval_chart` of ``frame`` (rows by ``label``) with each
    row's random metric drawn as a tick."""
    import altair as alt

    order = list(frame["label"])
    ticks = random_ticks(frame, alt.Y("label:N", sort=order, title=None))
    return alt.layer(*chart.layer, ticks).properties(title=chart.title, height=chart.height)
