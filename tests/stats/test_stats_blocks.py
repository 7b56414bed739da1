"""Block BLEU and neighbour t-tests (paper §3, Table 2) — checked against sacrebleu and scipy.stats."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from bleu_core.evaluation import StatsInputError, block_bleu
from bleu_core.evaluation.blocks import block_layout, block_sizes

# The synthetic corpus of the ``corpus`` fixture (tests/stats/conftest.py).
CORPUS = {
    "n_segments": 510,
    "noise": (0.5, 0.2, 0.35),
    "seed": 2,
    "vocab_size": 150,
    "lengths": (5, 18),
    "names": "S{k}",
    "first": 1,
}


def test_block_scores_are_sacrebleu_on_each_block(corpus):
    # sacrebleu 2.6 corpus_bleu (defaults) of each block's 25 lines equals our block BLEU.
    refs, systems, stats = corpus
    res = block_bleu(stats)  # the paper's 20 blocks of 25
    assert (res.n_blocks, res.block_size, res.leftover) == (20, 25, 10)
    for k, name in enumerate(res.systems):
        for b in (0, 7, 19):
            lo, hi = b * 25, (b + 1) * 25
            expected = sacrebleu.corpus_bleu(systems[name][lo:hi], [refs[lo:hi]]).score
            assert res.scores[k, b] == pytest.approx(expected, abs=1e-9)


def test_order_mean_std_and_t_match_scipy(corpus):
    _, _, stats = corpus
    res = block_bleu(stats)
    assert res.systems == ("S1", "S3", "S2")  # most noise = lowest BLEU first, as in Table 2
    assert np.all(np.diff(res.mean) > 0)
    assert res.std == pytest.approx(np.std(res.scores, axis=1, ddof=1))
    for pos, t in enumerate(res.tests, start=1):
        ref = sps.ttest_rel(res.scores[pos], res.scores[pos - 1], alternative="greater")
        assert t.statistic == pytest.approx(ref.statistic)
        assert t.pvalue == pytest.approx(ref.pvalue)
        assert t.df == 19
        assert t.neighbour == res.systems[pos - 1]
        low, high = t.confidence_interval
        assert low < t.mean_difference < high
    table = res.table()
    assert table[0] == ["", "S1", "S3", "S2"] and table[3][1] == "—"
    assert table[1][1] == f"{res.mean[0] / 100:.3f}"


def test_leftover_segments_are_warned(corpus):
    _, _, stats = corpus
    res = block_bleu(stats)
    assert res.warnings and "10 of 510 segments" in res.warnings[0]
    whole = block_bleu(stats, n_blocks=10, block_size=None)
    assert whole.block_size == 51 and whole.leftover == 0 and whole.warnings == ()


def test_two_sided_alternative(corpus):
    _, _, stats = corpus
    one = block_bleu(stats, alternative="greater")
    two = block_bleu(stats, alternative="two-sided")
    for a, b in zip(one.tests, two.tests, strict=True):
        assert a.statistic == pytest.approx(b.statistic)
        if a.statistic > 0:
            assert b.pvalue == pytest.approx(2 * a.pvalue)


def test_layout_errors_are_explained(corpus):
    _, _, stats = corpus
    with pytest.raises(
        StatsInputError, match="30 blocks of 25 segments need 750 segments but the test set has 510"
    ):
        block_bleu(stats, n_blocks=30)
    with pytest.raises(StatsInputError, match="number of blocks must be a whole number >= 2"):
        block_bleu(stats, n_blocks=1)
    with pytest.raises(StatsInputError, match="unknown alternative 'bigger'"):
        block_bleu(stats, alternative="bigger")
    with pytest.raises(
        StatsInputError, match="5 blocks need at least 5 segments but the test set has 3"
    ):
        block_layout(3, 5, None)


def test_to_dict_is_complete(corpus):
    _, _, stats = corpus
    d = block_bleu(stats, n_blocks=5, block_size=None).to_dict()
    assert d["n_blocks"] == 5 and len(d["systems"][0]["blocks"]) == 5 and len(d["tests"]) == 2


def test_whole_test_set_uses_every_segment_in_blocks_differing_by_one(corpus):
    # 510 segments in 20 blocks: 10 blocks of 26 and 10 of 25, nothing left over.
    refs, systems, stats = corpus
    res = block_bleu(stats, n_blocks=20, block_size=None)
    assert res.leftover == 0 and res.warnings == ()
    assert sum(res.block_sizes) == 510 and set(res.block_sizes) == {25, 26}
    assert res.layout == "20 blocks of 25-26 segments"
    # each block is sacrebleu's corpus BLEU of its own lines (the last block ends at the last segment)
    starts = np.cumsum((0, *res.block_sizes))
    for k, name in enumerate(res.systems):
        for b in (0, 9, 10, 19):
            lo, hi = int(starts[b]), int(starts[b + 1])
            expected = sacrebleu.corpus_bleu(systems[name][lo:hi], [refs[lo:hi]]).score
            assert res.scores[k, b] == pytest.approx(expected, abs=1e-9)
    assert int(starts[-1]) == 510


@given(n=st.integers(2, 5000), b=st.integers(2, 200))
def test_spread_blocks_cover_every_segment(n, b):
    if b > n:
        with pytest.raises(StatsInputError, match="blocks need at least"):
            block_sizes(n, b, None)
        return
    sizes = block_sizes(n, b, None)
    assert len(sizes) == b and sum(sizes) == n and max(sizes) - min(sizes) <= 1
