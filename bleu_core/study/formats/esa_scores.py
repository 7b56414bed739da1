"""Every rated translation's ESA score as WMT24's findings report it: the mean over domains of the
per-domain means (re-exported by :mod:`bleu_core.study.formats.esa`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bleu_core.study.model import Rating, Study

__all__ = ["EsaSystemScore", "esa_system_scores"]


@dataclass(frozen=True)
class EsaSystemScore:
    """One translation's ESA: the mean of its ratings and WMT24's figure, per domain too.

    ``mean`` is the mean of every kept rating; ``wmt`` the figure WMT24's findings report: the mean over
    domains of the per-domain means (each domain weighs the same, however many segments it has);
    ``domains`` the per-domain means. ``reference`` is True for a reference stream of the study (its
    ratings are kept aside in ``metadata["reference_ratings"]``).
    """

    system: str
    human: bool
    reference: bool
    n: int
    mean: float
    wmt: float
    domains: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "system": self.system,
            "human": self.human,
            "reference": self.reference,
            "n": self.n,
            "mean": self.mean,
            "wmt": self.wmt,
            "domains": dict(self.domains),
        }


def esa_system_scores(study: Study, criterion: str = "esa") -> list[EsaSystemScore]:
    """Every rated translation's ESA (references included), best first by ``wmt``.

    Segments without a domain count in a domain named ``"-"``.

    >>> from bleu_core.study.model import Segment
    >>> from bleu_core.study.ratings import KNOWN_CRITERIA
    >>> study = Study("toy", (Segment("1", domain="news"), Segment("2", domain="news"),
    ...     Segment("3", domain="speech")), {"ref-A": ["a", "b", "c"]}, {"s": ["a", "b", "c"]},
    ...     criteria={"esa": KNOWN_CRITERIA["esa"]}, ratings=(Rating("s", "1", "r", None, "esa", 90.0),
    ...     Rating("s", "2", "r", None, "esa", 70.0), Rating("s", "3", "r", None, "esa", 50.0)))
    >>> [(s.system, s.mean, s.wmt, s.domains) for s in esa_system_scores(study)]
    [('s', 70.0, 65.0, {'news': 80.0, 'speech': 50.0})]
    """
    domain = {segment.id: segment.domain or "-" for segment in study.segments}
    kept = [Rating(*row) for row in study.metadata.get("reference_ratings") or []]
    by_system: dict[str, dict[str, list[float]]] = {}
    for rating in [*study.ratings, *kept]:
        if rating.criterion == criterion and rating.segment_id is not None:
            cells = by_system.setdefault(rating.system, {})
            cells.setdefault(domain[rating.segment_id], []).append(rating.score)
    result = []
    for system, cells in by_system.items():
        means = {name: math.fsum(v) / len(v) for name, v in sorted(cells.items())}
        scores = [s for v in cells.values() for s in v]
        result.append(
            EsaSystemScore(
                system,
                system in study.human_systems or system in study.references,
                system in study.references,
                len(scores),
                math.fsum(scores) / len(scores),
                math.fsum(means.values()) / len(means),
                means,
            )
        )
    return sorted(result, key=lambda s: -s.wmt)
