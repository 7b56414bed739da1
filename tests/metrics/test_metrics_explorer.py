"""The parameter explorer: every ticked combination, its signature, difference and segment correlation."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu

from bleu_core.engine.bleu import corpus_bleu
from bleu_core.engine.options import BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.engine.statistics import compute_statistics
from bleu_core.errors import BleuOptionError
from bleu_core.metrics.explorer import MAX_COMBINATIONS, ExplorerGrid, explore

HYPS = [
    "The cat sat on the mat.",
    "He read the book because he was interested in world history.",
    "It is raining today, he said.",
    "A small dog barked.",
    "The weather is nice.",
]
REFS1 = [
    "The cat sat on the red mat.",
    "He was interested in world history because he read the book.",
    "It rains today, he said.",
    "The little dog barked loudly.",
    "The weather is lovely today.",
]
REFS2 = [
    "A cat sat.",
    "Because he was interested in history, he read the book.",
    "Today it is raining, he said.",
    "A small dog was barking.",
    "It is nice weather.",
]


def test_rows_equal_engine_scores_for_each_combination() -> None:
    grid = ExplorerGrid(
        tokenize=("13a", "none"),
        lowercase=(False, True),
        smooth=("exp", "floor"),
        ref_length=("closest", "shortest"),
        n_refs=(1, 2),
    )
    assert grid.size == 32
    result = explore(HYPS, [REFS1, REFS2], grid)
    assert len(result.rows) == 32
    assert result.default_score == pytest.approx(sacrebleu.corpus_bleu(HYPS, [REFS1, REFS2]).score)
    for row in result.rows:
        expected = corpus_bleu(HYPS, [REFS1, REFS2][: row.n_refs], row.options)
        assert row.score == pytest.approx(expected.score, abs=1e-9), row.changed
        assert row.signature == expected.signature
        assert row.difference == pytest.approx(row.score - result.default_score)
    default_rows = [r for r in result.rows if not r.changed]
    assert len(default_rows) == 1 and default_rows[0].difference == 0.0
    one_ref = [r for r in result.rows if r.n_refs == 1 and r.options == BleuOptions()][0]
    assert one_ref.changed == ("references: 2 → 1",)


def test_best_variant_is_the_one_humans_agree_with() -> None:
    # human scores = sentence BLEU with floor smoothing: that variant must correlate perfectly and win
    stats = compute_statistics(HYPS, [REFS1, REFS2])
    human = np.asarray(
        bleu_from_stats(stats.array, BleuOptions(smooth="floor", effective_order=True)).score
    )
    human[2] = np.nan  # an unrated segment is skipped
    grid = ExplorerGrid(smooth=("exp", "floor", "none", "add-k"), effective_order=(True,))
    result = explore(HYPS, [REFS1, REFS2], grid, human=human, best_by="pearson")
    assert result.best is not None and result.best.options.smooth == "floor"
    assert result.best.pearson == pytest.approx(1.0)
    assert result.best.n_rated == 4
    assert sorted(r.pearson for r in result.rows)[-2] < 0.999  # the others are not perfect
    # an error-count criterion (lower is better): the same variant wins with the sign flipped
    flipped = explore(
        HYPS, [REFS1, REFS2], grid, human=-human, higher_is_better=False, best_by="pearson"
    )
    assert flipped.best is not None and flipped.best.options.smooth == "floor"
    assert flipped.best.pearson == pytest.approx(-1.0)
    by_kendall = explore(HYPS, [REFS1, REFS2], grid, human=human)
    assert by_kendall.best is not None and by_kendall.best.kendall == pytest.approx(1.0)


def test_constant_scores_give_nan_correlation() -> None:
    result = explore(HYPS, [REFS1], ExplorerGrid(), human=np.ones(5))
    assert math.isnan(result.rows[0].pearson)
    assert result.best is None


def test_validation_messages() -> None:
    with pytest.raises(BleuOptionError, match="tick at least one value for smooth"):
        explore(HYPS, [REFS1], ExplorerGrid(smooth=()))
    with pytest.raises(BleuOptionError, match="number of references must be from 1 to 1"):
        explore(HYPS, [REFS1], ExplorerGrid(n_refs=(2,)))
    big = ExplorerGrid(max_order=tuple(range(1, 10)), smooth=("exp", "none", "floor", "add-k") * 60)
    with pytest.raises(
        BleuOptionError,
        match=f"combinations ticked; the explorer scores at most {MAX_COMBINATIONS}",
    ):
        explore(HYPS, [REFS1], big)
    with pytest.raises(BleuOptionError, match="3 human scores for 5 segments"):
        explore(HYPS, [REFS1], ExplorerGrid(), human=[1.0, 2.0, 3.0])
    with pytest.raises(BleuOptionError, match="best_by must be 'kendall' or 'pearson'"):
        explore(HYPS, [REFS1], ExplorerGrid(), best_by="spearman")
    with pytest.raises(BleuOptionError, match="unknown smoothing 'laplace'"):
        explore(HYPS, [REFS1], ExplorerGrid(smooth=("laplace",)))
