"""What ``meta --pairs`` adds per language pair beside the rankings: document level and human clusters.

For each pair the same numbers single-pair ``meta PATH --pair xx-yy`` and ``significance`` give, from the
same functions, on the systems the pair's ranking task scores (its machine systems, every system with
``--include-human``):

* the **document-level correlation** of BLEU with the pair's criterion (Pearson r and Kendall tau-b over
  (system, document) pairs, :func:`bleu_core.evaluation.document_level.document_correlations`);
* the **human significance clusters** of that criterion as WMT25 computes them
  (:func:`bleu_core.evaluation.cluster_report.study_human_clusters`), and the clusters the release ships when
  it ships them (:func:`bleu_core.evaluation.cluster_report.release_clusters_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cluster_report import format_clusters, release_clusters_of, study_human_clusters
from .document_level import document_correlations
from .system_clusters import SystemClusters

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.maths.correlation import CorrelationResult
    from bleu_core.study.model import Study


@dataclass(frozen=True)
class PairExtras:
    """One pair's document-level correlations (BLEU against ``criterion``) and clusters."""

    pair: str
    criterion: str
    systems: tuple[str, ...]
    documents: tuple[CorrelationResult, ...]
    clusters: tuple[SystemClusters, ...]

    def to_dict(self) -> dict[str, Any]:
        """As single-pair ``meta --format json`` writes a correlation (``metric``, ``criterion``, then
        the result's fields) and ``significance --format json`` a clustering."""
        return {
            "pair": self.pair,
            "criterion": self.criterion,
            "systems": list(self.systems),
            "document_correlations": [
                {"metric": "BLEU", "criterion": self.criterion, **r.to_dict()}
                for r in self.documents
            ],
            "clusters": [c.to_dict() for c in self.clusters],
        }


def pair_extras(
    pair: str,
    study: Study,
    options: BleuOptions,
    criterion: str,
    systems: Sequence[str],
    alpha: float = 0.05,
) -> PairExtras:
    """Document-level correlation and clusters of one pair (module docstring), on ``systems``."""
    from .study_meta import study_statistics

    names = list(systems)
    stats = study_statistics(study, options, names, list(study.references))
    documents = document_correlations(study, stats, options, criterion, names)
    clusters = [study_human_clusters(study, criterion, names, alpha)]
    shipped = release_clusters_of(study)
    clusters += [shipped] if shipped is not None else []
    return PairExtras(pair, criterion, tuple(names), tuple(documents), tuple(clusters))


def _fmt(value: float | None) -> str:
    return "n/a" if value is None or value != value else f"{value:.4f}"


def format_extras(extras: Sequence[PairExtras]) -> str:
    """Per pair: the document-level correlations (as single-pair ``meta``'s rows) and the clusters."""
    blocks = []
    for e in extras:
        lines = [f"{e.pair} · BLEU against {e.criterion}, document level"]
        if not e.documents:
            lines.append("  no segment names a document: no document level")
        for r in e.documents:
            lines.append(
                f"  {r.method:<8} r {_fmt(r.statistic)}  p {_fmt(r.pvalue)}  n {r.n}  ({r.note})"
            )
        blocks.append("\n".join([*lines, "", format_clusters(e.clusters)]))
    return "\n\n".join(blocks)
