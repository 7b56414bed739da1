"""Progress while counting statistics: ``compute_statistics`` / ``compute_system_statistics``
call ``progress(done, total, message)``; ``done`` never decreases, the last call is ``done == total``, and the
statistics are the same as without a callback."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from bleu_core.engine.statistics import compute_statistics, compute_system_statistics
from bleu_core.fast import corpus

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", ",", "."]


def corpus_of(n_segments: int, seed: int = 0) -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(seed)

    def line() -> str:
        return " ".join(rng.choice(WORDS, size=int(rng.integers(0, 12))))

    return [line() for _ in range(n_segments)], [[line() for _ in range(n_segments)]]


def assert_well_formed(calls: list[tuple[int, int, str]], total: int) -> None:
    assert calls, "progress was never called"
    done = [d for d, _, _ in calls]
    assert done == sorted(done), f"progress went backwards: {done}"
    assert {t for _, t, _ in calls} == {total}
    assert done[0] == 0 and done[-1] == total
    assert all(isinstance(m, str) and m.startswith("Counting n-grams") for _, _, m in calls)


def test_progress_of_one_corpus_reports_each_chunk_and_changes_nothing(monkeypatch):
    hyps, refs = corpus_of(600)
    plain = compute_statistics(hyps, refs, max_order=4)
    # ~ 40 token positions a chunk: the 600 segments are counted in 64-segment chunks (the fast path's minimum)
    monkeypatch.setattr(corpus, "CHUNK_POSITIONS", 40)
    calls: list[tuple[int, int, str]] = []
    stats = compute_statistics(hyps, refs, max_order=4, progress=lambda *c: calls.append(c))
    np.testing.assert_array_equal(stats.array, plain.array)
    assert_well_formed(calls, 600)
    inside = [d for d, _, _ in calls if 0 < d < 600]
    assert len(inside) >= 5, calls  # one report per chunk started, not only the two ends
    assert calls[-1] == (600, 600, "Counting n-grams: segment 600 of 600")


def test_progress_of_systems_counts_whole_systems(monkeypatch):
    hyps, refs = corpus_of(200, seed=1)
    systems = {f"sys-{k}": hyps[k:] + hyps[:k] for k in range(6)}
    plain = compute_system_statistics(systems, refs, max_order=3)
    monkeypatch.setattr(corpus, "CHUNK_POSITIONS", 40)
    calls: list[tuple[int, int, str]] = []
    counted = compute_system_statistics(
        systems, refs, max_order=3, progress=lambda *c: calls.append(c)
    )
    for name in systems:
        np.testing.assert_array_equal(counted[name].array, plain[name].array)
    assert_well_formed(calls, 6)
    assert len(calls) == len({d for d, _, _ in calls}), "a report repeats the one before"
    assert calls[0] == (0, 6, "Counting n-grams: system 1 of 6")
    assert any(m == "Counting n-grams: system 4 of 6" for _, _, m in calls), calls
    assert calls[-1] == (6, 6, "Counting n-grams: 6 systems done")


def test_small_corpus_reports_start_and_end():
    calls: list[tuple[int, int, str]] = []
    compute_system_statistics({"A": ["a b"]}, [["a b"]], progress=lambda *c: calls.append(c))
    assert calls == [
        (0, 1, "Counting n-grams: system 1 of 1"),
        (1, 1, "Counting n-grams: 1 system done"),
    ]


def test_a_failing_callback_stops_counting():
    """The callback runs in the counting thread: what it raises reaches the caller (a page stopping)."""

    class Stop(Exception):
        pass

    def stop(done: int, total: int, message: str) -> None:
        raise Stop(message)

    with pytest.raises(Stop, match="system 1 of 2"):
        compute_system_statistics({"A": ["x"], "B": ["y"]}, [["x"]], progress=stop)


@settings(max_examples=25, deadline=None)
@given(
    n_segments=hst.integers(1, 300),
    n_systems=hst.integers(1, 5),
    positions=hst.integers(1, 2000),
    seed=hst.integers(0, 1000),
)
def test_progress_is_monotone_and_ends_at_total(n_segments, n_systems, positions, seed):
    hyps, refs = corpus_of(n_segments, seed)
    systems = {f"s{k}": hyps[k:] + hyps[:k] for k in range(n_systems)}
    calls: list[tuple[int, int, str]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(corpus, "CHUNK_POSITIONS", positions)
        counted = compute_system_statistics(
            systems, refs, max_order=2, progress=lambda *c: calls.append(c)
        )
    assert_well_formed(calls, n_systems)
    plain = compute_system_statistics(systems, refs, max_order=2)
    for name in systems:
        np.testing.assert_array_equal(counted[name].array, plain[name].array)
