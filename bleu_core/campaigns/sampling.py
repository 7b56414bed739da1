"""Which segments a campaign rates, and the one fixed order in which every judge sees them.

The BLEU paper (§4) drew a random subset of source sentences, paired each with each system's translation and
"randomly ordered [the pairs] to disperse the five translations of each source sentence. All judges used this same
webpage and saw the sentence pairs in the same order." This module does both steps from an explicit integer seed.

The order is built in *rounds*: every round shows each sampled segment once, each time with a different system
(systems are assigned to rounds by an independent random permutation per segment). The segments are split once, at
random, into a first half ``A`` and a second half ``B``; every round lists a fresh shuffle of ``A`` followed by a
fresh shuffle of ``B``. So two translations of the same source are always at least ``S // 2 + 1`` positions apart
(``S`` = number of segments): a segment of ``A`` is followed, before its next appearance, by all of ``B`` and the
rest of its own half, and likewise for ``B``.

>>> order = dispersed_order(["s1", "s2", "s3", "s4"], ["A", "B"], seed=7)
>>> len(order), sorted(order) == sorted((s, y) for s in ["s1", "s2", "s3", "s4"] for y in ["A", "B"])
(8, True)
>>> min_same_source_gap(order) >= 4 // 2 + 1
True
>>> order == dispersed_order(["s1", "s2", "s3", "s4"], ["A", "B"], seed=7)   # same seed, same order
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleu_core.campaigns.model import CampaignError


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise CampaignError(f"seed {seed!r} must be a whole number >= 0 (e.g. 12345)")
    return int(seed)


def _check_unique(values: Sequence[str], what: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise CampaignError(f"{what} {value!r} is listed twice; list each {what} once")
        seen.add(value)


def sample_segments(segment_ids: Sequence[str], n: int, *, seed: int) -> tuple[str, ...]:
    """Draw *n* of *segment_ids* without replacement, reproducibly from *seed*; kept in corpus order.

    >>> sample_segments(["a", "b", "c", "d", "e"], 3, seed=1) == sample_segments(["a", "b", "c", "d", "e"], 3, seed=1)
    True
    >>> sample_segments(["a", "b"], 5, seed=1)
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.CampaignError: asked for 5 segments but only 2 can be rated; ask for at most 2
    """
    seed = _check_seed(seed)
    _check_unique(segment_ids, "segment")
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise CampaignError(f"number of segments {n!r} must be a whole number >= 1")
    if n > len(segment_ids):
        raise CampaignError(
            f"asked for {n} segments but only {len(segment_ids)} can be rated; ask for at most {len(segment_ids)}"
        )
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(2)[0])
    chosen = np.sort(rng.choice(len(segment_ids), size=int(n), replace=False))
    return tuple(segment_ids[int(i)] for i in chosen)


def dispersed_order(
    segment_ids: Sequence[str], systems: Sequence[str], *, seed: int
) -> tuple[tuple[str, str], ...]:
    """Every (segment, system) pair once, in a seeded order that disperses translations of the same source.

    Guarantee (see the module docstring): two items of the same segment are at least ``len(segment_ids) // 2 + 1``
    positions apart. The same arguments always give the same order.
    """
    seed = _check_seed(seed)
    if not segment_ids:
        raise CampaignError("no segments to order; sample at least 1 segment")
    if not systems:
        raise CampaignError("no systems to order; choose at least 1 system")
    _check_unique(segment_ids, "segment")
    _check_unique(systems, "system")
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(2)[1])
    n_seg, n_sys = len(segment_ids), len(systems)
    # system_of[s, r]: the system shown with segment s in round r (a random permutation per segment)
    system_of = np.argsort(rng.random((n_seg, n_sys)), axis=1)
    halves = rng.permutation(n_seg)
    first, second = halves[: n_seg // 2], halves[n_seg // 2 :]
    order: list[tuple[str, str]] = []
    for r in range(n_sys):
        for s in (*rng.permutation(first), *rng.permutation(second)):
            order.append((segment_ids[int(s)], systems[int(system_of[s, r])]))
    return tuple(order)


def min_same_source_gap(order: Sequence[tuple[str, str]]) -> int | None:
    """Smallest distance between two items of the same segment (``None`` if no segment appears twice).

    >>> min_same_source_gap([("s1", "A"), ("s2", "A"), ("s1", "B")])
    2
    """
    last: dict[str, int] = {}
    best: int | None = None
    for pos, (segment, _system) in enumerate(order):
        if segment in last:
            gap = pos - last[segment]
            best = gap if best is None else min(best, gap)
        last[segment] = pos
    return best
