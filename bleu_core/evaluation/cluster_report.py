"""Clusters and ranks of a study's systems: human (WMT25's Wilcoxon clusters), BLEU, the release's own.

What the Significance page, the BLEU vs human page and ``python -m bleu_core significance PATH`` show
beside BLEU's paired tests, computed once here:

* :func:`study_human_clusters`: every criterion's clusters (:func:`bleu_core.evaluation.system_clusters.
  human_clusters` on the study's per-item scores, the mean over an item's raters);
* :func:`study_clusters`: those, BLEU's clusters from the paired bootstrap of every pair, and the clusters
  the release ships (``study.metadata["release_clusters"]``, read when the study loads);
* :func:`rank_rows`: each system's BLEU rank against its human rank (1 = best; ties share the better rank),
  with a BLEU rank per single reference when several are given.

>>> rows = rank_rows(["A", "B", "C"], {"A": 30.0, "B": 20.0, "C": 25.0}, {"A": 80.0, "B": 70.0, "C": 60.0})
>>> [(r["system"], r["BLEU rank"], r["human rank"], r["rank difference"]) for r in rows]
[('A', 1, 1, 0), ('C', 2, 3, 1), ('B', 3, 2, -1)]
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .system_clusters import SystemClusters, bleu_clusters, human_clusters

if TYPE_CHECKING:
    from bleu_core.study.model import Study

    from .bootstrap import BootstrapResult


def ranks(
    values: Mapping[str, float], systems: Sequence[str], higher_is_better: bool = True
) -> dict[str, int | None]:
    """Rank of each system (1 = best; ties share the better rank; ``None`` without a score)."""
    scored = [s for s in systems if values.get(s) is not None and math.isfinite(values[s])]
    sign = -1.0 if higher_is_better else 1.0
    out: dict[str, int | None] = {s: None for s in systems}
    for s in scored:
        out[s] = 1 + sum(sign * values[t] < sign * values[s] for t in scored)
    return out


def rank_rows(
    systems: Sequence[str],
    bleu: Mapping[str, float],
    human: Mapping[str, float],
    *,
    human_higher_is_better: bool = True,
    by_reference: Mapping[str, Mapping[str, float]] | None = None,
) -> list[dict[str, Any]]:
    """One row per system with both scores, by BLEU rank: ``system``, ``BLEU``, ``BLEU rank``,
    ``human``, ``human rank``, ``rank difference`` (human rank − BLEU rank: > 0, BLEU ranks it higher than
    the raters do), and ``BLEU rank · REF`` per single reference of ``by_reference`` (``{ref: {system:
    BLEU}}``). Ranks are among the rows shown (systems with a BLEU and a human score)."""
    both = [s for s in systems if _finite(bleu.get(s)) and _finite(human.get(s))]
    bleu_rank = ranks(bleu, both)
    human_rank = ranks(human, both, human_higher_is_better)
    per_ref = {ref: ranks(scores, both) for ref, scores in (by_reference or {}).items()}
    rows = []
    for s in sorted(both, key=lambda s: (bleu_rank[s], s)):
        row: dict[str, Any] = {"system": s, "BLEU": float(bleu[s]), "BLEU rank": bleu_rank[s]}
        row |= {"human": float(human[s]), "human rank": human_rank[s]}
        row["rank difference"] = int(human_rank[s] or 0) - int(bleu_rank[s] or 0)
        row |= {f"BLEU rank · {ref}": r[s] for ref, r in per_ref.items()}
        rows.append(row)
    return rows


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


#: The rater groups of WMT25's two full passes over the items (:mod:`bleu_core.study.formats.genmt`).
PASSES = ("human1", "human2")


def pass_scores(study: Study, criterion: str, systems: Sequence[str]) -> np.ndarray | None:
    """``passes × systems × items`` scores when every segment-level rating of ``criterion`` belongs to one
    of WMT25's passes (:data:`PASSES`; a pass's repeats of an item: their mean), else ``None``."""
    ratings = [r for r in study.ratings if r.criterion == criterion and r.segment_id is not None]
    if not ratings or any(r.group not in PASSES for r in ratings):
        return None
    row = {name: i for i, name in enumerate(systems)}
    total = np.zeros((len(PASSES), len(systems), study.n_segments))
    count = np.zeros_like(total)
    for r in ratings:
        if r.system in row and r.segment_id is not None:
            cell = (PASSES.index(r.group), row[r.system], study.segment_index(r.segment_id))
            total[cell] += r.score
            count[cell] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / count, np.nan)


def study_human_clusters(
    study: Study, criterion: str, systems: Sequence[str], alpha: float = 0.05
) -> SystemClusters:
    """WMT25's human clusters of ``systems`` on ``criterion`` (items: the study's segments; an item's score
    the mean over its raters, or, where the ratings are WMT25's two passes, each pass on its own and the
    passes paired crosswise as the organisers' script does; systems without a rating listed in the
    notes)."""
    position = {name: i for i, name in enumerate(study.systems)}
    passes = pass_scores(study, criterion, systems)  # WMT25's two waves: paired crosswise
    scores = (
        study.segment_scores(criterion)[[position[s] for s in systems]]
        if passes is None
        else passes
    )
    crit = study.criteria[criterion]
    return human_clusters(
        list(systems), scores, higher_is_better=crit.higher_is_better, alpha=alpha, name=criterion
    )


def release_clusters_of(study: Study) -> SystemClusters | None:
    """The clusters the study's release ships (read when it loaded), or ``None``."""
    from bleu_core.study.formats.release_clusters import RELEASE_KEY  # a study's: not for -r/-i

    from .system_clusters import ClusterRow

    stored = study.metadata.get(RELEASE_KEY)
    if not stored:
        return None
    rows = tuple(ClusterRow(**row) for row in stored["rows"])  # as read_release_clusters keeps them
    return SystemClusters(stored["name"], stored["method"], rows, tuple(stored["notes"]))


def study_clusters(
    study: Study, systems: Sequence[str], boot: BootstrapResult | None, alpha: float = 0.05
) -> list[SystemClusters]:
    """BLEU's clusters (from ``boot``, the paired bootstrap of every pair of ``systems``), every
    criterion's human clusters, then the release's own clusters when it ships them."""
    out = [bleu_clusters(boot.paired(alpha=alpha))] if boot is not None else []
    out += [study_human_clusters(study, c, systems, alpha) for c in study.criteria]
    shipped = release_clusters_of(study)
    return out + ([shipped] if shipped is not None else [])


def format_clusters(results: Sequence[SystemClusters]) -> str:
    """Text tables: per result, the systems best first with score, rank range, cluster and items."""
    blocks = []
    for result in results:
        lines = [f"clusters · {result.name}: {result.method}"]
        lines.append(
            f"{'cluster':>7}  {'ranks':>7}  {'score':>9}  {'items':>6}  {'p (next)':>9}  system"
        )
        for r in result.rows:
            items = "" if r.n_items is None else str(r.n_items)
            p = "" if r.pvalue_below is None else f"{r.pvalue_below:.4g}"
            ranks_cell = f"{r.rank_start}-{r.rank_end}"
            lines.append(
                f"{r.cluster:>7}  {ranks_cell:>7}  {r.score:>9.4f}  {items:>6}  {p:>9}  {r.system}"
            )
        lines += [f"  {note}" for note in result.notes]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def significance_clusters(
    args: argparse.Namespace, boot: BootstrapResult, *, as_json: bool = False
) -> dict[str, Any]:
    """``significance PATH``'s clusters: printed (text), or ``{"clusters": [...]}`` for its JSON; nothing
    for ``-r``/``-i`` files (no human scores)."""
    study = getattr(args, "study", None)
    if study is None:
        return {}
    results = study_clusters(study, boot.systems, boot, args.alpha)
    if as_json:
        return {"clusters": [r.to_dict() for r in results]}
    print()
    print(format_clusters(results))
    return {}
