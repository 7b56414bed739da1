"""SPA's PERM-BOTH null draws for all pairs of metrics at once (bleu_core.evaluation.spa_nulls) against the
definition: each hybrid built, summed under the 1000 sign flips in float64 and counted pair by pair.

The oracle below is the plain reading of the global view's null (multi_pair's docstring): masks
``rng.random((n, K, S)) < 0.5`` from ``default_rng(seed)``, hybrids ``where(w, za, zb)`` and ``where(w, zb, za)``
of the z-scored metrics, SPA of each against MTME's human p-values (pce.py, 1000 flips, seed 4).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.evaluation.pairwise import batched_pairwise_pvalues, sign_matrix
from bleu_core.evaluation.spa_nulls import _pair_counts_numpy, pair_counts, spa_null_draws, zscore
from bleu_core.fast.compiled import available


def oracle(a: np.ndarray, b: np.ndarray, h: np.ndarray, n: int, seed: int) -> np.ndarray:
    k, s = h.shape
    signs32 = sign_matrix(1000, s, 4)
    ph = batched_pairwise_pvalues(h[None], signs32)[0]
    signs = signs32.astype(np.float64)
    za, zb = zscore(a), zscore(b)
    w = np.random.default_rng(seed).random((n, k, s)) < 0.5
    iu, ju = np.triu_indices(k, k=1)

    def spa(hybrid: np.ndarray) -> float:
        partial = signs @ hybrid.T  # P × K
        totals = hybrid.sum(axis=1)
        p = ((partial[:, iu] - partial[:, ju]) >= (totals[iu] - totals[ju])).mean(axis=0)
        return 1.0 - float(np.abs(p - ph).mean())

    return np.array([spa(np.where(m, za, zb)) - spa(np.where(m, zb, za)) for m in w])


def task(seed: int, k: int = 5, s: int = 40):
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(k, s)) + np.arange(k)[:, None]
    scores = {
        "good": human + 0.3 * rng.normal(size=(k, s)),
        "fair": human + rng.normal(size=(k, s)),
        "poor": rng.normal(size=(k, s)),
    }
    return human, scores


@pytest.mark.parametrize("force", [None, False])
def test_every_pair_matches_the_hybrids_built_one_by_one(force):
    human, scores = task(1)
    pairs = [("good", "fair"), ("good", "poor"), ("fair", "poor"), ("poor", "good")]
    got = spa_null_draws(scores, human, pairs, 23, seed=7, force=force)
    for a, b in pairs:
        np.testing.assert_allclose(
            got[(a, b)], oracle(scores[a], scores[b], human, 23, 7), atol=1e-12
        )


def test_draws_do_not_depend_on_the_batch_size(monkeypatch):
    import bleu_core.evaluation.spa_nulls as module

    human, scores = task(2)
    pairs = [("good", "poor")]
    whole = spa_null_draws(scores, human, pairs, 17, seed=3)
    monkeypatch.setattr(module, "BATCH_SUMS", 1)  # one resample a batch
    np.testing.assert_array_equal(
        spa_null_draws(scores, human, pairs, 17, seed=3)[pairs[0]], whole[pairs[0]]
    )


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(2, 6),
    st.integers(1, 9),
    st.integers(0, 2**32 - 1),
)
def test_compiled_counts_equal_numpy_counts_ties_included(r, k, p, seed):
    if not available():
        pytest.skip("the compiled kernels are not built")
    rng = np.random.default_rng(seed)
    partial = rng.integers(-3, 4, size=(r, k, p)).astype(
        np.float64
    )  # small integers: many exact ties
    observed = rng.integers(-3, 4, size=(r, k * (k - 1) // 2)).astype(np.float64)
    np.testing.assert_array_equal(
        pair_counts(partial, observed), _pair_counts_numpy(partial, observed)
    )


def test_counts_by_hand():
    partial = np.array([[[3.0, 1.0, 2.0], [1.0, 1.0, 1.0], [0.0, 5.0, 2.0]]])
    # differences per flip: (0,1) 2, 0, 1 against 1; (0,2) 3, -4, 0 against 0; (1,2) 1, -4, -1 against -1
    observed = np.array([[1.0, 0.0, -1.0]])
    assert _pair_counts_numpy(partial, observed).tolist() == [[2, 2, 2]]
    assert pair_counts(partial, observed).tolist() == [[2, 2, 2]]


def test_the_kernel_refuses_mismatched_shapes():
    if not available():
        pytest.skip("the compiled kernels are not built")
    from bleu_core.fast.compiled import extension

    kernels = extension()
    with pytest.raises(ValueError, match="one observed value and one count per pair of systems"):
        kernels.pair_counts(np.zeros(6), np.zeros(2), np.zeros(3, np.int64), 2)
    with pytest.raises(ValueError, match="partial must hold R x K x P sums"):
        kernels.pair_counts(np.zeros(5), np.zeros(2), np.zeros(2, np.int64), 2)
