"""Explore's browser at scale: the table of every translation and its filtered, sorted view, built once.

The browser has one row per (system, segment): 500,000 rows on a study of 50 systems × 10,000 segments.
Building that table (sentence BLEU, lengths, human scores, their disagreement, each output's text) and
sorting it takes 1-2 s, too long for every run of the page. Here both are stored in
:data:`ui.app.shared_cache.SCORES` (shared by all sessions, evicted by size), keyed on exactly what they
depend on: the table on the settings that score the sentences (study, references, BLEU options) and the human
criterion; the view on those and the browser's filters and sort. A re-run after a settings change seen
before, or after a click that changes neither (picking a segment, turning a page), is a look-up. The
output texts are not in them (500,000 strings copied into a column cost more time and memory than the
rest): the 25 rows on screen get theirs (:func:`shown_rows`); a search reads the texts directly.

The stored frames are shared: callers read them (filter, sort, slice into new frames), never assign into
them. Sorting by the error-span agreement columns (:mod:`ui.explore.span_view`) is not stored: those
columns depend on the raters chosen in the session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ui.app import cache, shared_cache
from ui.app.segment_bleu import missing_translations
from ui.explore import agreement
from ui.explore.frames import browse_frame, segment_frame, with_outputs


def missing(scores: Any) -> np.ndarray:
    """(systems × segments) True where the study has no translation (``scores``: ``ui.app.context.Scores``;
    depends on the study's texts only)."""
    return shared_cache.stored_scores(
        ("missing", scores.key, tuple(scores.systems)),
        lambda: missing_translations(scores.study.systems, scores.systems),
    )


def segment_table(scores: Any, criterion: str | None) -> pd.DataFrame:
    """:func:`ui.explore.frames.segment_frame` of every translation under the sidebar's settings and the
    human ``criterion`` (None: no human columns). No output texts: the page adds them to the rows it
    shows (:func:`shown_rows`)."""
    study = scores.study

    def build() -> pd.DataFrame:
        human = cache.segment_scores(scores.key, study, criterion) if criterion else None
        frame = segment_frame(
            study,
            scores.systems,
            scores.sentence,
            human,
            higher_is_better=study.criteria[criterion].higher_is_better if criterion else True,
            missing=missing(scores),
        )
        return frame

    if not scores.store_key:
        return build()
    return shared_cache.stored_scores(("segment table", *scores.store_key, criterion), build)


def browse_view(
    scores: Any,
    frame: pd.DataFrame,
    *,
    criterion: str | None,
    systems: Sequence[str],
    docs: Sequence[str],
    bleu_range: tuple[float, float],
    search: str,
    sort: str,
    descending: bool,
) -> pd.DataFrame:
    """The rows of ``frame`` (:func:`segment_table`, with any agreement columns) the browser lists, in its
    order (:func:`ui.explore.frames.browse_frame`; no output texts)."""

    def build() -> pd.DataFrame:
        return browse_frame(
            scores.study,
            frame,
            references=scores.references,
            systems=systems,
            docs=docs,
            bleu_range=bleu_range,
            search=search,
            sort=sort,
            descending=descending,
            outputs=False,
        )

    if sort in agreement.BROWSE_SORTS or not scores.store_key:
        return build()
    key = (
        "browse view",
        *scores.store_key,
        criterion,
        tuple(systems),
        tuple(docs),
        tuple(bleu_range),
        search,
        sort,
        bool(descending),
    )
    return shared_cache.stored_scores(key, build)


def shown_rows(scores: Any, view: pd.DataFrame, start: int, stop: int) -> pd.DataFrame:
    """Rows ``start:stop`` of the browser's ``view`` with their output texts (one page of the table)."""
    return with_outputs(scores.study, view.iloc[start:stop])
