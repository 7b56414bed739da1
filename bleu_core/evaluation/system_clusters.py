"""Systems ranked into significance clusters: by the human scores as WMT25 computes them, and by BLEU.

A WMT findings table sorts the systems by their mean human score and draws a rule between two systems
when the ones above are all significantly better than the ones below. WMT25's organisers compute it in
``humeval/08-compute_clusters.py`` of https://github.com/wmt-conference/wmt25-general-mt (commit
1b42381e); :func:`human_clusters` follows that script step by step:

1. each system's score is the mean of its rated items; systems sorted by it, best first;
2. system A is *significantly better* than B when the one-sided Wilcoxon signed-rank test
   (``scipy.stats.wilcoxon(a - b, alternative="greater")``) on the items both rated gives
   ``p < alpha / 2`` (the script's ``0.05/2``); with two passes over the items (WMT25's two waves), the
   differences pair every pass of A with every pass of B, as the script does;
3. each system gets a **rank range**: its ``rank_start`` moves up past every system above it until one is
   significantly better than it; its ``rank_end`` moves down past every system below it until it is
   significantly better than one;
4. a cluster ends after position ``i`` when every system above has ``rank_end <= i`` and every system
   below has ``rank_start > i`` (the script's ``does_cluster_end_here``).

:func:`bleu_clusters` applies steps 3-4 to BLEU, with the paired bootstrap's verdict
(:meth:`bleu_core.evaluation.bootstrap.BootstrapResult.paired`, the Significance page's and ``significance``'s
test) as "significantly better". The clusters a release ships (WMT21's ``humaneval/*/clusters.csv``) are
read by :mod:`bleu_core.study.formats.release_clusters` when the study loads.

>>> import numpy as np
>>> scores = np.array([[90.0, 80, 85, 95, 70, 88], [60, 50, 55, 65, 40, 58], [59, 52, 54, 64, 41, 57]])
>>> result = human_clusters(["A", "B", "C"], scores)
>>> [(r.system, r.rank_start, r.rank_end, r.cluster) for r in result.rows]
[('A', 1, 1, 1), ('B', 2, 3, 2), ('C', 2, 3, 2)]
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import StatsInputError

if TYPE_CHECKING:
    from .results import PairedTestResult

#: Where the human clusters' procedure comes from (shown with every result).
WMT25_SOURCE = "wmt-conference/wmt25-general-mt humeval/08-compute_clusters.py"


@dataclass(frozen=True)
class ClusterRow:
    """One system of a clustered ranking: its score, rank range and cluster (1 = best).

    ``n_items`` is the number of items the score averages (``None`` for BLEU, a corpus score);
    ``pvalue_below`` the test's p against the next system down (``None`` for the last one, or where the
    test gives no p-value, e.g. a release's own clusters).
    """

    system: str
    score: float
    rank_start: int
    rank_end: int
    cluster: int
    n_items: int | None = None
    pvalue_below: float | None = None


@dataclass(frozen=True)
class SystemClusters:
    """Systems sorted best first, with rank ranges and clusters, and how they were computed."""

    name: str
    method: str
    rows: tuple[ClusterRow, ...]
    notes: tuple[str, ...] = field(default=())

    def cluster_of(self) -> dict[str, int]:
        """``{system: cluster}``."""
        return {r.system: r.cluster for r in self.rows}

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "method": self.method,
            "rows": [asdict(r) for r in self.rows],
            "notes": list(self.notes),
        }


def rank_ranges(n: int, better: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """Rank range (1-based, inclusive) of each of ``n`` systems sorted best first, where
    ``better(i, j)`` (``i < j``) says that system ``i`` is significantly better than system ``j``."""
    ranges = []
    for a in range(n):
        start = a + 1
        for b in range(a - 1, -1, -1):  # upwards, nearest first
            if better(b, a):
                break
            start -= 1
        end = a + 1
        for b in range(a + 1, n):  # downwards, nearest first
            if better(a, b):
                break
            end += 1
        ranges.append((start, end))
    return ranges


def cluster_numbers(ranges: Sequence[tuple[int, int]]) -> list[int]:
    """Cluster of each position (1 = best): a cluster ends after position ``i`` when every range above
    ends by ``i`` and every range below starts after ``i``."""
    clusters, current = [], 1
    for i in range(1, len(ranges) + 1):
        clusters.append(current)
        above, below = ranges[:i], ranges[i:]
        if all(end <= i for _, end in above) and all(start > i for start, _ in below):
            current += 1
    return clusters


def wilcoxon_pvalue(a: np.ndarray, b: np.ndarray) -> tuple[float, int]:
    """One-sided Wilcoxon signed-rank p-value of "``a`` is greater than ``b``" on the items both rated,
    and the number of such items. ``a`` and ``b`` are ``passes × items`` (one row per pass); every pass
    of ``a`` is paired with every pass of ``b``. No item rated by both, or no difference: p = 1."""
    from scipy.stats import wilcoxon

    diffs = np.concatenate([x - y for x in a for y in b])
    diffs = diffs[~np.isnan(diffs)]
    n_items = int((~np.isnan(a).all(axis=0) & ~np.isnan(b).all(axis=0)).sum())
    if diffs.size == 0 or not diffs.any():
        return 1.0, n_items
    with warnings.catch_warnings():  # few items: scipy notes its normal approximation
        warnings.simplefilter("ignore")
        p = float(wilcoxon(diffs, alternative="greater").pvalue)
    return (1.0 if math.isnan(p) else p), n_items


def human_clusters(
    systems: Sequence[str],
    scores: np.ndarray,
    *,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    name: str = "human",
) -> SystemClusters:
    """WMT25's human clusters (module docstring) of ``systems``.

    Args:
        systems: names, one per row of ``scores``.
        scores: ``systems × items`` human scores (NaN where unrated), or ``passes × systems × items``
            for items rated in several full passes.
        higher_is_better: ``False`` for error scores such as MQM (the tests then read "lower").
        alpha: the script's 0.05; a difference is significant at ``p < alpha / 2``.
    """
    cube = np.asarray(scores, dtype=float)
    cube = cube[None] if cube.ndim == 2 else cube
    if cube.ndim != 3 or cube.shape[1] != len(systems):
        raise StatsInputError(
            f"human scores must be systems × items: {len(systems)} systems, shape {np.shape(scores)}"
        )
    if not 0.0 < alpha < 1.0:
        raise StatsInputError(f"alpha must be between 0 and 1, got {alpha}")
    oriented = cube if higher_is_better else -cube
    rated = ~np.isnan(cube).all(axis=(0, 2))
    dropped = [s for s, r in zip(systems, rated, strict=True) if not r]
    index = [k for k in range(len(systems)) if rated[k]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        means = {k: float(np.nanmean(cube[:, k])) for k in index}
    order = sorted(index, key=lambda k: -means[k] if higher_is_better else means[k])
    tests: dict[tuple[int, int], tuple[float, int]] = {}

    def test(i: int, j: int) -> tuple[float, int]:
        if (i, j) not in tests:
            tests[i, j] = wilcoxon_pvalue(oriented[:, order[i]], oriented[:, order[j]])
        return tests[i, j]

    ranges = rank_ranges(len(order), lambda i, j: test(i, j)[0] < alpha / 2)
    clusters = cluster_numbers(ranges)
    rows = []
    for pos, k in enumerate(order):
        below = test(pos, pos + 1)[0] if pos + 1 < len(order) else None
        n_items = int((~np.isnan(cube[:, k]).all(axis=0)).sum())
        start, end = ranges[pos]
        rows.append(ClusterRow(systems[k], means[k], start, end, clusters[pos], n_items, below))
    passes = f", {cube.shape[0]} passes paired crosswise" if cube.shape[0] > 1 else ""
    method = (
        f"one-sided Wilcoxon signed-rank on the items both systems rated, p < {alpha}/2{passes} "
        f"({WMT25_SOURCE})"
    )
    notes = (f"not ranked (no rated item): {', '.join(dropped)}",) if dropped else ()
    return SystemClusters(name, method, tuple(rows), notes)


def bleu_clusters(paired: PairedTestResult, name: str = "BLEU") -> SystemClusters:
    """Clusters of the systems of a paired bootstrap test of every pair (``boot.paired(alpha=...)``):
    sorted by their observed score, "significantly better" = the test's verdict ``>``."""
    scores = dict(zip(paired.systems, paired.scores, strict=True))
    order = sorted(paired.systems, key=lambda s: -scores[s])
    verdicts: dict[tuple[str, str], str] = {}
    pvalues: dict[frozenset[str], float] = {}
    for c in paired.comparisons:
        verdicts[c.system, c.baseline] = c.verdict
        verdicts[c.baseline, c.system] = c.flipped().verdict
        pvalues[frozenset((c.system, c.baseline))] = c.pvalue

    def better(i: int, j: int) -> bool:
        verdict = verdicts.get((order[i], order[j]))
        if verdict is None:
            raise StatsInputError(
                f"BLEU clusters need every pair tested; {order[i]} vs {order[j]} is missing "
                "(a paired test against one baseline only)"
            )
        return verdict == ">"

    ranges = rank_ranges(len(order), better)
    clusters = cluster_numbers(ranges)
    rows = []
    for pos, system in enumerate(order):
        below = pvalues[frozenset((system, order[pos + 1]))] if pos + 1 < len(order) else None
        start, end = ranges[pos]
        rows.append(ClusterRow(system, scores[system], start, end, clusters[pos], None, below))
    level = f"{paired.confidence_level:.0%}"
    method = (
        f"{paired.method}: {level} interval of the difference excludes 0 "
        f"({paired.n_resamples} resamples, seed {paired.seed}); ranges and clusters as WMT25's script"
    )
    return SystemClusters(name, method, tuple(rows))
