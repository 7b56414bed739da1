"""Scores → pandas DataFrames for the analysis pages (Corpus, BLEU vs human, Export).

``bleu_core`` hands out numpy arrays and dataclasses; the app shows and exports tables. Every conversion
is a small pure function of its inputs, easy to test without Streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from bleu_core.engine.score import BleuArrays

if TYPE_CHECKING:
    from bleu_core.study.model import Study


def corpus_frame(
    systems: Sequence[str],
    corpus: BleuArrays,
    *,
    human_systems: frozenset[str] = frozenset(),
    human_scores: Mapping[str, Mapping[str, float]] | None = None,
) -> pd.DataFrame:
    """One row per system: BLEU (0-100), precisions p1..pN (%), BP, length ratio, lengths, human scores.

    ``human_scores`` maps a column name (e.g. ``"mqm"``) to ``{system: score}``. Rows are sorted by BLEU,
    best first.
    """
    precisions = np.atleast_2d(np.asarray(corpus.precisions))
    data: dict[str, object] = {
        "system": list(systems),
        "human": [name in human_systems for name in systems],
        "BLEU": np.asarray(corpus.score, dtype=float),
    }
    for n in range(precisions.shape[-1]):
        data[f"p{n + 1}"] = 100.0 * precisions[:, n]
    data["BP"] = np.asarray(corpus.bp, dtype=float)
    data["ratio"] = np.asarray(corpus.ratio, dtype=float)
    data["hyp_len"] = np.asarray(corpus.hyp_len, dtype=float).astype(int)
    ref_len = np.asarray(corpus.ref_len, dtype=float)  # whole tokens, except the "average" policy
    data["ref_len"] = ref_len.astype(int) if np.all(ref_len == np.round(ref_len)) else ref_len
    for column, scores in (human_scores or {}).items():
        data[column] = [scores.get(name, math.nan) for name in systems]
    frame = pd.DataFrame(data)
    return frame.sort_values("BLEU", ascending=False, kind="stable").reset_index(drop=True)


#: The Corpus page's column of WMT24's ESA figure, beside the plain mean (the ``esa`` column).
WMT_ESA_COLUMN = "esa (WMT: mean of domain means)"


def wmt_esa_column(study: Study) -> dict[str, dict[str, float]]:
    """``{WMT_ESA_COLUMN: {system: figure}}``: WMT24's ESA figure (the mean over domains of the per-domain
    means, :func:`bleu_core.study.formats.esa_scores.esa_system_scores`, as ``study`` prints it) for a
    study with ESA ratings; ``{}`` without. The ``esa`` column beside it is the plain mean."""
    if "esa" not in study.criteria:
        return {}
    from bleu_core.study.formats.esa_scores import esa_system_scores

    return {WMT_ESA_COLUMN: {s.system: s.wmt for s in esa_system_scores(study)}}


def normalised_frame(
    series: Mapping[str, Mapping[str, float]], order: Sequence[str]
) -> pd.DataFrame:
    """Scores linearly normalised by their range across systems (the paper's Figure 7), long form.

    ``series`` maps a series name (``"BLEU"``, ``"mqm: group A"``…) to ``{system: score}``; each series is
    mapped to [0, 1] by (x - min) / (max - min) over the systems in ``order``. ``position`` is the
    system's place in ``order`` (1 = first), which the chart sorts by.

    >>> normalised_frame({"BLEU": {"a": 10, "b": 30, "c": 20}}, ["a", "b", "c"])["normalised"].tolist()
    [0.0, 1.0, 0.5]
    """
    rows = []
    for name, scores in series.items():
        values = np.array([scores.get(s, math.nan) for s in order], dtype=float)
        finite = values[np.isfinite(values)]
        low, high = (finite.min(), finite.max()) if finite.size else (math.nan, math.nan)
        span = high - low
        for position, (system, value) in enumerate(zip(order, values, strict=True), start=1):
            norm = (value - low) / span if span and np.isfinite(value) else math.nan
            rows.append(
                {
                    "system": system,
                    "series": name,
                    "score": value,
                    "normalised": norm,
                    "position": position,
                }
            )
    return pd.DataFrame(rows, columns=["system", "series", "score", "normalised", "position"])


def binned_counts(
    x: np.ndarray, y: np.ndarray, *, bins: int = 20, x_range: tuple[float, float] | None = None
) -> pd.DataFrame:
    """A 2-D histogram of (x, y) pairs for a density chart: bin edges and the count in each cell.

    Thousands of segment-level points draw slowly and hide each other; counts per cell show where the
    mass is. Cells without points are left out.

    >>> binned_counts(np.array([0.0, 0.1, 10.0]), np.array([1.0, 1.0, 2.0]), bins=2)["count"].tolist()
    [2, 1]
    """
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(xa) & np.isfinite(ya)
    xa, ya = xa[keep], ya[keep]
    if xa.size == 0:
        return pd.DataFrame(columns=["x0", "x1", "y0", "y1", "count"])
    x_lo, x_hi = x_range if x_range is not None else (float(xa.min()), float(xa.max()))
    y_lo, y_hi = float(ya.min()), float(ya.max())
    x_edges = np.linspace(x_lo, x_hi if x_hi > x_lo else x_lo + 1.0, bins + 1)
    y_edges = np.linspace(y_lo, y_hi if y_hi > y_lo else y_lo + 1.0, bins + 1)
    counts, _, _ = np.histogram2d(xa, ya, bins=[x_edges, y_edges])
    ix, iy = np.nonzero(counts)
    return pd.DataFrame(
        {
            "x0": x_edges[ix],
            "x1": x_edges[ix + 1],
            "y0": y_edges[iy],
            "y1": y_edges[iy + 1],
            "count": counts[ix, iy].astype(int),
        }
    )


def system_points(
    systems: Sequence[str],
    bleu: Mapping[str, float],
    human: Mapping[str, float],
    human_systems: frozenset[str],
) -> pd.DataFrame:
    """One row per system with both a BLEU and a human score: system, BLEU, human score, human (bool)."""
    frame = pd.DataFrame(
        {
            "system": list(systems),
            "BLEU": [bleu.get(s, math.nan) for s in systems],
            "human score": [human.get(s, math.nan) for s in systems],
            "human": [s in human_systems for s in systems],
        }
    )
    return frame.dropna(subset=["BLEU", "human score"]).reset_index(drop=True)


def fit_row(series: str, fit: Any, interval: Any = None) -> dict[str, Any]:
    """One row of the system-level fits table: the line through the points and, when given, the r's
    interval (a :class:`bleu_core.maths.correlation.CorrelationResult`; NaN without one, never None)."""
    ci = getattr(interval, "confidence_interval", None) or (math.nan, math.nan)
    names = ("r", "CI low", "CI high", "R2", "p", "n", "slope", "intercept")
    values = (fit.r, *ci, fit.r2, fit.pvalue, fit.n, fit.slope, fit.intercept)
    return {"series": series, **dict(zip(names, values, strict=True))}


def fit_line(slope: float, intercept: float, x0: float, x1: float) -> pd.DataFrame:
    """Two points of the line y = slope·x + intercept (empty when the fit is undefined).

    >>> fit_line(0.5, 1.0, 0.0, 10.0).to_dict("list")
    {'x': [0.0, 10.0], 'y': [1.0, 6.0]}
    """
    if not (math.isfinite(slope) and math.isfinite(intercept)):
        return pd.DataFrame(columns=["x", "y"])
    return pd.DataFrame({"x": [x0, x1], "y": [intercept + slope * x0, intercept + slope * x1]})
