"""The Correlation page's table of BLEU against one criterion, its chart and its notes.

Every row is one correlation (system level: corpus BLEU against the human system scores; segment level:
sentence BLEU against the human segment scores) with its bootstrap interval and, beside it, its chance
line (:mod:`ui.analysis.correlation_lines`): what a random and a constant metric get for that same
correlation. The chart draws each interval with the random metric's mean as a tick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from ui.analysis.correlation_lines import tick_subtitle, with_chance, with_random_ticks
from ui.analysis.stats_charts import interval_chart
from ui.analysis.stats_frames import correlation_rows
from ui.app.segment_bleu import segment_note

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions


def correlation_frame(
    system: Sequence[Any],
    segment: Sequence[Any],
    system_lines: Sequence[Any] | None,
    segment_lines: Sequence[Any] | None,
) -> pd.DataFrame:
    """One row per correlation (:func:`ui.analysis.stats_frames.correlation_rows`) with its chance
    line's columns after the interval (empty where ``*_lines`` is None: still being computed)."""
    return pd.DataFrame(
        with_chance(correlation_rows(system, "system"), system_lines)
        + with_chance(correlation_rows(segment, "segment"), segment_lines)
    )


def correlation_chart(frame: pd.DataFrame, *, criterion: str, run_note: str, seed: int) -> Any:
    """The rows with an interval as points and 95 % bootstrap intervals, the random metric a tick."""
    rows = frame.dropna(subset=["CI low"]).assign(label=lambda f: f["level"] + " · " + f["method"])
    rows = rows.rename(columns={"r": "value", "CI low": "low", "CI high": "high"})
    chart = interval_chart(
        rows,
        x_title="correlation",
        title=f"BLEU vs {criterion}: 95 % bootstrap intervals",
        subtitle=f"{run_note}; {tick_subtitle(seed)}",
        zero_line=True,
    )
    return with_random_ticks(chart, rows)


def correlation_notes(options: BleuOptions, rule: str, fixed: bool) -> str:
    """What the segment-level rows mean (``rule``: the tau-like's threshold in words), and where the
    human system scores come from (``fixed``: the study's official ones)."""
    return (
        segment_note(options)
        + " 'by item' averages, over segments, the correlation across the systems' translations of "
        "that segment (a segment with two systems counts, ±1, as in mt-metrics-eval); kendall-wmt is "
        "WMT's tau-like (DARR): over pairs of translations of one segment whose human scores differ by at "
        f"least the threshold ({rule}), (concordant − discordant) / pairs."
        + (
            " The human system scores are the study's official system-level scores; their "
            "interval resamples the segments around them (BLEU and the human scores alike)."
            if fixed
            else ""
        )
    )
