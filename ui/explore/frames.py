"""DataFrames of the Explore and Learn pages: one row per segment, n-gram counts, the browse table,
the walkthrough's tokens and precisions (pure functions of their inputs, testable without Streamlit)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bleu_core.engine.score import BleuArrays
from bleu_core.study import Study


def segment_frame(
    study: Study,
    systems: Sequence[str],
    sentence: BleuArrays,
    human: np.ndarray | None = None,
    *,
    higher_is_better: bool = True,
    missing: np.ndarray | None = None,
) -> pd.DataFrame:
    """One row per (system, segment): ids, sentence BLEU (0-100), lengths, human score, disagreement.

    ``missing`` (systems × segments, bool) marks translations the study does not have (the release lacks
    that system's output): their ``missing`` column is True and their BLEU NaN (not scored).
    ``human`` is the (systems × segments) score matrix of one criterion (nan where unrated).
    ``disagreement`` is how far apart BLEU and the humans place a translation: the absolute difference
    of the two percentile ranks over all rated rows (0 = same place, 1 = opposite ends); nan where unrated.
    """
    n_sys, n_seg = len(systems), study.n_segments
    seg_ids = study.segment_ids
    docs = [s.doc_id for s in study.segments]
    score = np.array(np.asarray(sentence.score, dtype=float).reshape(n_sys, n_seg))
    absent = (
        np.zeros((n_sys, n_seg), dtype=bool)
        if missing is None
        else np.asarray(missing, dtype=bool).reshape(n_sys, n_seg)
    )
    score[absent] = np.nan
    frame = pd.DataFrame(
        {
            "system": np.repeat(np.asarray(systems, dtype=object), n_seg),
            "segment": np.tile(np.asarray(seg_ids, dtype=object), n_sys),
            "position": np.tile(np.arange(n_seg), n_sys),
            "doc": np.tile(np.asarray(docs, dtype=object), n_sys),
            "BLEU": score.ravel(),
            "hyp_len": np.asarray(sentence.hyp_len, dtype=float).reshape(-1).astype(int),
            "ref_len": np.asarray(sentence.ref_len, dtype=float).reshape(-1),
            "missing": absent.ravel(),
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


def ngram_frame(matches, order: int, reference_names: Sequence[str]) -> pd.DataFrame:
    """The hypothesis n-grams of one order: n-gram, count, count in each reference, clip, matched, status."""
    from ui.explore.highlight import ngram_rows

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

    ``orders`` are :class:`ui.explore.teach.OrderStep` (``n``, ``matches``, ``total``, ``precision``, ``fraction``).
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
    """Corpus BLEU beside the mean of sentence BLEUs per system, best corpus BLEU first, on the 0-1 scale
    of Learn BLEU's steps 1-6 (the column names say so)."""
    frame = pd.DataFrame(
        {
            "system": list(systems),
            "corpus BLEU (0-1)": np.asarray(corpus.bleu, dtype=float),
            "mean sentence BLEU (0-1)": np.asarray(sentence.bleu, dtype=float).mean(axis=1),
        }
    )
    return frame.sort_values("corpus BLEU (0-1)", ascending=False).reset_index(drop=True)


NOT_IN_RELEASE_ROW = "— not in the release —"
"""The browse table's output cell of a translation the study does not have."""


def with_outputs(study: Study, frame: pd.DataFrame) -> pd.DataFrame:
    """:func:`segment_frame` rows (any of them: the page adds them to the rows it shows) with an ``output``
    column: each system output, or :data:`NOT_IN_RELEASE_ROW`."""
    return frame.assign(output=_outputs(study, frame))


def _outputs(study: Study, frame: pd.DataFrame) -> list[str]:
    texts = study.systems
    return [  # .tolist(): iterating pandas' string columns is 4× slower
        NOT_IN_RELEASE_ROW if texts[s][p] is None else texts[s][p]
        for s, p in zip(frame["system"].tolist(), frame["position"].tolist(), strict=True)
    ]


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
    outputs: bool = True,
) -> pd.DataFrame:
    """The Explore page's browser: :func:`segment_frame` rows with the system output, filtered and sorted.

    ``search`` matches (case-insensitively) the system output, the source or any used reference of the
    segment, or is the segment id. The BLEU range is open-ended at 0 and 100 (a perfect match can score
    100 plus a rounding error); translations not in the release (no BLEU) are listed only under the full
    range, their ``output`` saying so. Rows without a value in the sort column go last.

    ``outputs=False`` leaves the ``output`` column out (the texts are still searched): a table of 500,000
    translations spends most of its time and memory on that column, of which a page shows 25 rows
    (:func:`with_outputs` of those).
    """
    low, high = bleu_range
    mask = frame["BLEU"].between(low if low > 0 else -1.0, high if high < 100 else 101.0)
    if "missing" in frame.columns and (low, high) == (0.0, 100.0):
        mask |= frame["missing"]
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
        texts = frame["output"] if "output" in frame.columns else _outputs(study, frame)
        in_output = (
            pd.Series(texts, index=frame.index).str.lower().str.contains(needle, regex=False)
        )
        is_segment = frame["segment"].astype(str).str.lower() == needle
        mask &= in_output | is_segment | frame["position"].map(segment_hit.__getitem__)
    view = frame[mask]
    if outputs and "output" not in view.columns:
        view = with_outputs(study, view)
    return view.sort_values(sort, ascending=not descending, na_position="last", kind="stable")


def system_entries(
    scores: Any,
    segment: int,
    systems: Sequence[str],
    matches: Mapping[str, Any],
    human_scores: Mapping[str, np.ndarray],
    missing: np.ndarray,
) -> list[dict[str, Any]]:
    """The rows of Explore's all-systems table for one segment (best sentence BLEU first, translations
    not in the release last): the entries :func:`ui.explore.highlight.comparison_table` takes.

    ``scores`` is :class:`ui.app.context.Scores`; ``missing`` the (systems × segments) mask of
    translations the study does not have.
    """
    n, order = scores.options.statistics_order, scores.options.max_order
    entries = []
    for name in systems:
        s = scores.system_index(name)
        row = scores.stats[s, segment]
        entries.append(
            {
                "system": name,
                "human": name in scores.study.human_systems,
                "matches": matches[name],
                "bleu": float(scores.sentence.score[s, segment]),
                "missing": bool(missing[s, segment]),
                "counts": [(row[4 + k], row[4 + n + k]) for k in range(order)],
                "bp": float(scores.sentence.bp[s, segment]),
                "scores": {c: float(h[s, segment]) for c, h in human_scores.items()},
            }
        )
    entries.sort(key=lambda e: (e["missing"], -e["bleu"]))
    return entries
