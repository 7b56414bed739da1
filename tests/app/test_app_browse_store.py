"""Explore's browser at scale (ui.explore.browse): the table and its view are built once per
settings and filters, hold no output texts (the shown rows get theirs), and list the same rows in the same
order as the plain :func:`ui.explore.frames.browse_frame`."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.study.demo import load_demo
from ui.app import shared_cache
from ui.app.context import STATISTICS_ORDER, Scores, truncate_order
from ui.explore import browse
from ui.explore.frames import browse_frame, segment_frame


@pytest.fixture(scope="module")
def scores() -> Scores:
    study = load_demo("ted-en-de")
    refs = tuple(study.references)
    options = BleuOptions()
    stats = shared_cache.system_statistics(
        "test:browse", study, refs, "13a", False, STATISTICS_ORDER
    )
    array = truncate_order(stats.array, STATISTICS_ORDER, options.statistics_order)
    return Scores(
        study=study,
        key="test:browse",
        options=options,
        signature="",
        references=refs,
        systems=tuple(study.systems),
        stats=array,
        corpus=bleu_from_stats(array.sum(axis=1), options),
        store_key=("test:browse", refs, options),
    )


FILTERS = [
    {},
    {"systems": ["SYS-A"], "sort": "position", "descending": False},
    {"bleu_range": (10.0, 60.0), "sort": "hyp_len"},
    {"search": "the"},
    {"docs": ["first"], "sort": "BLEU", "descending": False},
]


@pytest.mark.parametrize("filters", FILTERS)
def test_stored_view_lists_the_same_rows_as_the_plain_browser(scores, filters):
    criterion = next(iter(scores.study.criteria), None)
    systems = filters.get("systems", [])
    if systems:
        systems = [list(scores.study.systems)[1]]
    docs = [scores.study.doc_ids()[0]] if filters.get("docs") else []
    args = {
        "systems": systems,
        "docs": docs,
        "bleu_range": filters.get("bleu_range", (0.0, 100.0)),
        "search": filters.get("search", ""),
        "sort": filters.get("sort", "BLEU"),
        "descending": filters.get("descending", True),
    }
    table = browse.segment_table(scores, criterion)
    view = browse.browse_view(scores, table, criterion=criterion, **args)
    human = scores.study.segment_scores(criterion) if criterion else None
    plain = browse_frame(
        scores.study,
        segment_frame(
            scores.study,
            scores.systems,
            scores.sentence,  # segment BLEU: sacrebleu's sentence_bleu (effective order)
            human,
            missing=browse.missing(scores),
        ),
        references=scores.references,
        **args,
    )
    assert "output" not in view.columns
    assert len(view) and view.index.tolist() == plain.index.tolist()
    shown = browse.shown_rows(scores, view, 0, 25)
    pd.testing.assert_frame_equal(shown, plain.iloc[:25][shown.columns.tolist()])
    # built once: the same objects on the next run
    assert browse.segment_table(scores, criterion) is table
    assert browse.browse_view(scores, table, criterion=criterion, **args) is view


def test_other_settings_build_another_table(scores):
    other = replace(scores, options=BleuOptions(smooth="floor"), store_key=scores.store_key[:2])
    other = replace(other, store_key=(*other.store_key, other.options))
    assert browse.segment_table(other, None) is not browse.segment_table(scores, None)
    assert browse.segment_table(other, None)["BLEU"].tolist() != (
        browse.segment_table(scores, None)["BLEU"].tolist()
    )
