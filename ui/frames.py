"""Study, statistics and scores → pandas DataFrames (pandas lives only here, at the UI edge).

``bleu_core`` hands out numpy arrays and dataclasses; the app shows and exports tables. Every conversion
is a small pure function of its inputs, easy to test without Streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from bleu_core.score import BleuArrays
from bleu_core.study import Study


def ratings_frame(study: Study) -> pd.DataFrame:
    """The study's ratings in long form: system, segment_id, rater, group, criterion, score."""
    columns = ["system", "segment_id", "rater", "group", "criterion", "score"]
    if not study.ratings:
        return pd.DataFrame(columns=columns)
    return pd.DataFrame(
        [(r.system, r.segment_id, r.rater, r.group, r.criterion, r.score) for r in study.ratings],
        columns=columns,
    )


def rater_groups(study: Study, criterion: str) -> list[str]:
    """Distinct rater groups that rated ``criterion`` (empty when no rating carries a group)."""
    return sorted(
        {r.group for r in study.ratings if r.criterion == criterion and r.group is not None}
    )


def system_human_scores(study: Study, criterion: str, group: str | None = None) -> dict[str, float]:
    """One human score per system for ``criterion``, from all raters or only from rater ``group``.

    Without a group this is :meth:`Study.system_scores`. With a group: the mean of the group's
    system-level ratings where present, else the mean over segments of the mean over the group's raters
    (the same aggregation as :meth:`Study.system_scores`). ``nan`` for systems the group did not rate.
    """
    if group is None:
        return study.system_scores(criterion)
    frame = ratings_frame(study)
    frame = frame[(frame["criterion"] == criterion) & (frame["group"] == group)]
    result = {name: math.nan for name in study.systems}
    system_level = frame[frame["segment_id"].isna()]
    for name, scores in system_level.groupby("system")["score"]:
        result[str(name)] = float(scores.mean())
    seg = frame[frame["segment_id"].notna()]
    per_segment = seg.groupby(["system", "segment_id"])["score"].mean()
    for name, scores in per_segment.groupby(level="system"):
        if name not in set(system_level["system"]):
            result[str(name)] = float(scores.mean())
    return result


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
    data["ref_len"] = np.asarray(corpus.ref_len, dtype=float)
    for column, scores in (human_scores or {}).items():
        data[column] = [scores.get(name, math.nan) for name in systems]
    frame = pd.DataFrame(data)
    return frame.sort_values("BLEU", ascending=False, kind="stable").reset_index(drop=True)


def segment_frame(
    study: Study,
    systems: Sequence[str],
    sentence: BleuArrays,
    human: np.ndarray | None = None,
    *,
    higher_is_better: bool = True,
) -> pd.DataFrame:
    """One row per (system, segment): ids, sentence BLEU (0-100), lengths, human score, disagreement.

    ``human`` is the (systems × segments) score matrix of one criterion (nan where unrated).
    ``disagreement`` is how far apart BLEU and the humans place a translation: the absolute difference
    of the two percentile ranks over all rated rows (0 = same place, 1 = opposite ends); nan where unrated.
    """
    n_sys, n_seg = len(systems), study.n_segments
    seg_ids = study.segment_ids
    docs = [s.doc_id for s in study.segments]
    score = np.asarray(sentence.score, dtype=float).reshape(n_sys, n_seg)
    frame = pd.DataFrame(
        {
            "system": np.repeat(np.asarray(systems, dtype=object), n_seg),
            "segment": np.tile(np.asarray(seg_ids, dtype=object), n_sys),
            "position": np.tile(np.arange(n_seg), n_sys),
            "doc": np.tile(np.asarray(docs, dtype=object), n_sys),
            "BLEU": score.ravel(),
            "hyp_len": np.asarray(sentence.hyp_len, dtype=float).reshape(-1).astype(int),
            "ref_len": np.asarray(sentence.ref_len, dtype=float).reshape(-1),
        }
    )
    if human is not None:
        values = np.asarray(human, dtype=float).reshape(-1)
        frame["human"] = values
        rated = ~np.isnan(values)
        bleu_rank = frame.loc[rated, "BLEU"].rank(pct=True)
        human_rank = frame.loc[rated, "human"].rank(pct=True, ascending=higher_is_better)
        frame["disagreement"] = np.nan
        frame.loc[rated, "disagreement"] = (bleu_rank - human_rank).abs()
    return frame


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


def ngram_frame(matches, order: int, reference_names: Sequence[str]) -> pd.DataFrame:
    """The hypothesis n-grams of one order: n-gram, count, count in each reference, clip, matched, status."""
    from .html import ngram_rows

    rows = ngram_rows(matches, order)
    records = []
    for row in rows:
        record = {"n-gram": row.text, "in hypothesis": row.count}
        for k, name in enumerate(reference_names):
            record[f"in {name}"] = row.ref_counts[k] if k < len(row.ref_counts) else 0
        record["max ref count (clip)"] = row.clip
        record["counted"] = min(row.count, row.clip)
        records.append(record)
    return pd.DataFrame(records)


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


def records_frame(rows: Sequence[Mapping[str, object]]) -> pd.DataFrame:
    """A table from a list of row dicts (keys are the columns, in first-row order)."""
    return pd.DataFrame(list(rows))


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


def fit_line(slope: float, intercept: float, x0: float, x1: float) -> pd.DataFrame:
    """Two points of the line y = slope·x + intercept (empty when the fit is undefined).

    >>> fit_line(0.5, 1.0, 0.0, 10.0).to_dict("list")
    {'x': [0.0, 10.0], 'y': [1.0, 6.0]}
    """
    if not (math.isfinite(slope) and math.isfinite(intercept)):
        return pd.DataFrame(columns=["x", "y"])
    return pd.DataFrame({"x": [x0, x1], "y": [intercept + slope * x0, intercept + slope * x1]})


def tokens_frame(token_lists: Mapping[str, Sequence[str]]) -> pd.DataFrame:
    """Each text's token count and tokens (for the Learn page)."""
    return pd.DataFrame(
        {
            "text": list(token_lists),
            "tokens": [len(t) for t in token_lists.values()],
            "token list": [" · ".join(t) for t in token_lists.values()],
        }
    )


def precisions_frame(orders: Sequence[object], weights: Sequence[float]) -> pd.DataFrame:
    """Per order n: matches/total, the paper's p_n, the p_n used after smoothing, the weight.

    ``orders`` are :class:`ui.teach.OrderStep` (``n``, ``matches``, ``total``, ``precision``, ``fraction``).
    """
    return pd.DataFrame(
        {
            "order": [s.n for s in orders],
            "matches/total": [s.fraction for s in orders],
            "p_n (paper)": [s.matches / s.total if s.total else math.nan for s in orders],
            "p_n used (after smoothing)": [s.precision for s in orders],
            "weight w_n": list(weights),
        }
    )


def corpus_vs_sentence_frame(
    systems: Sequence[str], corpus: BleuArrays, sentence: BleuArrays
) -> pd.DataFrame:
    """Corpus BLEU beside the mean of sentence BLEUs per system, best corpus BLEU first."""
    frame = pd.DataFrame(
        {
            "system": list(systems),
            "corpus BLEU": np.asarray(corpus.score, dtype=float),
            "mean sentence BLEU": np.asarray(sentence.score, dtype=float).mean(axis=1),
        }
    )
    return frame.sort_values("corpus BLEU", ascending=False).reset_index(drop=True)


def browse_frame(
    study: Study,
    frame: pd.DataFrame,
    *,
    references: Sequence[str],
    systems: Sequence[str] = (),
    docs: Sequence[str] = (),
    bleu_range: tuple[float, float] = (0.0, 100.0),
    search: str = "",
    sort: str = "BLEU",
    descending: bool = True,
) -> pd.DataFrame:
    """The Explore page's browser: :func:`segment_frame` rows with the system output, filtered and sorted.

    ``search`` matches (case-insensitively) the system output, the source or any used reference of the
    segment, or is the segment id. The BLEU range is open-ended at 0 and 100 (a perfect match can score 100 plus a rounding
    error). Rows without a value in the sort column go last.
    """
    texts = study.systems
    frame = frame.assign(  # .tolist(): iterating pandas' string columns is 4× slower
        output=[
            texts[s][p] or ""
            for s, p in zip(frame["system"].tolist(), frame["position"].tolist(), strict=True)
        ]
    )
    low, high = bleu_range
    mask = frame["BLEU"].between(low if low > 0 else -1.0, high if high < 100 else 101.0)
    if systems:
        mask &= frame["system"].isin(list(systems))
    if docs:
        mask &= frame["doc"].isin(list(docs))
    needle = search.strip().lower()
    if needle:
        segment_hit = [
            needle
            in " ".join(
                t or "" for t in [seg.source, *(study.references[r][i] for r in references)]
            ).lower()
            for i, seg in enumerate(study.segments)
        ]
        in_output = frame["output"].str.lower().str.contains(needle, regex=False)
        is_segment = frame["segment"].astype(str).str.lower() == needle
        mask &= in_output | is_segment | frame["position"].map(segment_hit.__getitem__)
    return frame[mask].sort_values(
        sort, ascending=not descending, na_position="last", kind="stable"
    )
