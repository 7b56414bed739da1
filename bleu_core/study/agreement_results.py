"""The results of :func:`bleu_core.study.error_agreement.error_agreement`: one table per system and overall.

:class:`ErrorAgreement` holds a :class:`SystemAgreement` per system (its 2 × 2 table, one per severity and
per top-level category, and one row of counts per segment) with the settings used, and sums them over
systems; :meth:`ErrorAgreement.segment_ranking` lists the translations with the most rewarded errors or
penalised correct words. The definitions are in :mod:`bleu_core.study.error_agreement`, which re-exports
these names.

>>> import numpy as np
>>> one = SystemAgreement("A", AgreementCounts(1, 2, 0, 1), {}, {}, np.array([[1, 2, 0, 1]]), 1, 0)
>>> ErrorAgreement({"A": one}, ("s1",), ("ref",), 1, "13a", False).counts
AgreementCounts(matched_in_error=1, matched_clean=2, unmatched_in_error=0, unmatched_clean=1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bleu_core.errors import BleuOptionError
from bleu_core.study.agreement_counts import COUNT_NAMES, AgreementCounts

__all__ = ["ErrorAgreement", "SegmentRank", "SystemAgreement"]


@dataclass(frozen=True)
class SystemAgreement:
    """The agreement table of one system.

    ``by_severity`` / ``by_category`` hold one complete table per severity / top-level category, computed
    as if only spans of that severity / category existed (so their ``in_error`` cells do not add up to the
    overall table when one token is in spans of two kinds). ``segment_counts`` has one row per study
    segment and the four counts as columns (:data:`COUNT_NAMES` order), ``-1`` for items that were not
    annotated or have no translation.
    """

    system: str
    counts: AgreementCounts
    by_severity: dict[str, AgreementCounts]
    by_category: dict[str, AgreementCounts]
    segment_counts: np.ndarray = field(compare=False)
    annotated_segments: int
    source_spans: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (without the per-segment array)."""
        return {
            "system": self.system,
            **self.counts.to_dict(),
            "annotated_segments": self.annotated_segments,
            "source_side_spans": self.source_spans,
            "by_severity": {k: v.to_dict() for k, v in self.by_severity.items()},
            "by_category": {k: v.to_dict() for k, v in self.by_category.items()},
        }


@dataclass(frozen=True)
class SegmentRank:
    """One (system, segment) item in a ranking, with its table."""

    system: str
    segment_id: str
    value: int
    counts: AgreementCounts


@dataclass(frozen=True)
class ErrorAgreement:
    """:func:`error_agreement`'s result: a table per system and overall, with the settings used."""

    systems: dict[str, SystemAgreement]
    segment_ids: tuple[str, ...]
    references: tuple[str, ...]
    max_order: int
    tokenize: str
    lowercase: bool
    filters: dict[str, list[str | None] | None] = field(default_factory=dict)
    #: wall-clock seconds the computation took (not part of equality)
    seconds: float = field(default=0.0, compare=False)

    @property
    def counts(self) -> AgreementCounts:
        """The table summed over every system."""
        total = AgreementCounts()
        for agreement in self.systems.values():
            total = total + agreement.counts
        return total

    def _summed(self, attribute: str) -> dict[str, AgreementCounts]:
        total: dict[str, AgreementCounts] = {}
        for agreement in self.systems.values():
            for key, counts in getattr(agreement, attribute).items():
                total[key] = total.get(key, AgreementCounts()) + counts
        return total

    @property
    def by_severity(self) -> dict[str, AgreementCounts]:
        """Per-severity tables summed over systems."""
        return self._summed("by_severity")

    @property
    def by_category(self) -> dict[str, AgreementCounts]:
        """Per-top-level-category tables summed over systems."""
        return self._summed("by_category")

    def segment_ranking(
        self,
        by: str = "matched_in_error",
        *,
        systems: Iterable[str] | None = None,
        top: int | None = 20,
    ) -> list[SegmentRank]:
        """Annotated items sorted by one count, largest first (ties: system order, then segment order).

        ``by="matched_in_error"`` gives the "most rewarded errors", ``by="unmatched_clean"`` the "most
        penalised correct words".
        """
        if by not in COUNT_NAMES:
            raise BleuOptionError(f"unknown count {by!r}; choose one of: {', '.join(COUNT_NAMES)}")
        column = COUNT_NAMES.index(by)
        chosen = list(self.systems) if systems is None else list(systems)
        owners, segments, rows = [], [], []
        for s, name in enumerate(chosen):
            counts = self.systems[name].segment_counts
            annotated = np.flatnonzero(counts[:, 0] >= 0)
            owners.append(np.full(len(annotated), s))
            segments.append(annotated)
            rows.append(counts[annotated])
        if not rows:
            return []
        owner, segment, table = (
            np.concatenate(owners),
            np.concatenate(segments),
            np.concatenate(rows),
        )
        ranked = np.argsort(
            -table[:, column], kind="stable"
        )  # stable: system, then segment on ties
        if top is not None:
            ranked = ranked[:top]
        return [
            SegmentRank(
                chosen[owner[k]],
                self.segment_ids[segment[k]],
                int(table[k, column]),
                AgreementCounts(*map(int, table[k])),
            )
            for k in ranked.tolist()
        ]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready result (what ``python -m bleu_core spans --format json`` prints)."""
        return {
            "max_order": self.max_order,
            "tokenize": self.tokenize,
            "lowercase": self.lowercase,
            "references": list(self.references),
            "filters": self.filters,
            "overall": {
                **self.counts.to_dict(),
                "by_severity": {k: v.to_dict() for k, v in self.by_severity.items()},
                "by_category": {k: v.to_dict() for k, v in self.by_category.items()},
            },
            "systems": [agreement.to_dict() for agreement in self.systems.values()],
        }
