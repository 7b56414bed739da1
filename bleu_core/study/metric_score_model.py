"""The scores of one metric computed elsewhere (COMET, BLEURT...), as attached to a study, and its direction.

:class:`AttachedMetricScores` holds a metric's scores at the levels given (``sys``, ``doc``, ``seg``,
:data:`LEVELS`). Whether higher scores are better is read from the metric's name
(:func:`higher_is_better`): the names of :data:`LOWER_IS_BETTER` (error rates such as TER) and the ones a
user adds are lower-better, matched on the name's first word so that ``TER-refA`` is TER.

>>> higher_is_better("COMET-20-refA"), higher_is_better("TER-refA"), higher_is_better("MyErr", ["myerr"])
(True, False, False)
>>> m = AttachedMetricScores("M", system={"A": 0.5}, segment={"A": (0.4, None)})
>>> m.levels, m.segment_array(["A", "B"]).tolist()
(('sys', 'seg'), [[0.4, nan], [nan, nan]])
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = ["LEVELS", "LOWER_IS_BETTER", "AttachedMetricScores", "higher_is_better"]

LEVELS = ("sys", "doc", "seg")
#: Metric base names (lower case) whose scores are better when lower; everything else is higher-better.
LOWER_IS_BETTER = frozenset({"ter", "wer", "per", "character", "eed", "cder", "hter"})


@dataclass(frozen=True)
class AttachedMetricScores:
    """One attached metric's scores for a study.

    ``system`` maps a system to its system-level score; ``segment`` a system to one score per
    segment of the study (``None`` where the system has no translation); ``document`` a system to
    one score per document (in :meth:`~bleu_core.study.model.Study.doc_ids` order). Any of the
    three may be ``None`` (level not given). ``source`` names the file(s) the scores came from.
    """

    name: str
    higher_is_better: bool = True
    system: dict[str, float] | None = None
    segment: dict[str, tuple[float | None, ...]] | None = None
    document: dict[str, tuple[float | None, ...]] | None = None
    source: str = ""

    @property
    def levels(self) -> tuple[str, ...]:
        """The levels present, among ``sys``, ``doc``, ``seg``."""
        have = {"sys": self.system, "doc": self.document, "seg": self.segment}
        return tuple(level for level in LEVELS if have[level] is not None)

    def segment_array(self, systems: Sequence[str]) -> np.ndarray | None:
        """Segment scores as a ``systems × segments`` array (NaN where missing), or ``None``."""
        if self.segment is None:
            return None
        n = len(next(iter(self.segment.values()), ()))
        out = np.full((len(systems), n), np.nan)
        for k, name in enumerate(systems):
            row = self.segment.get(name)
            if row is not None:
                out[k] = [math.nan if v is None else v for v in row]
        return out

    def system_scores(self, study: Study) -> dict[str, float]:
        """Score per system of ``study``: the system-level score when given, else the mean of its
        segment scores (NaN when neither exists)."""
        out = {}
        for name in study.systems:
            if self.system is not None and name in self.system:
                out[name] = self.system[name]
            elif self.segment is not None and name in self.segment:
                values = [v for v in self.segment[name] if v is not None]
                out[name] = math.fsum(values) / len(values) if values else math.nan
            else:
                out[name] = math.nan
        return out

    def subset(self, systems: Iterable[str], n_segments: int, n_docs: int) -> AttachedMetricScores:
        """Only ``systems`` and the first ``n_segments`` segments (see ``Study.subset``)."""
        chosen = set(systems)

        def cut(d: dict[str, Any] | None, n: int) -> dict[str, Any] | None:
            return None if d is None else {k: v[:n] for k, v in d.items() if k in chosen}

        system = (
            None if self.system is None else {k: v for k, v in self.system.items() if k in chosen}
        )
        return replace(
            self,
            system=system,
            segment=cut(self.segment, n_segments),
            document=cut(self.document, n_docs),
        )


def _base_name(name: str) -> str:
    """The metric's first word, lower case: ``TER-refA`` -> ``ter``."""
    return re.split(r"[-_ ]", name.strip().lower(), maxsplit=1)[0]


def higher_is_better(name: str, lower_is_better: Iterable[str] = ()) -> bool:
    """Whether metric ``name`` scores better when higher: not when its name, or its first word, is
    one of ``lower_is_better`` (any case) or its first word one of :data:`LOWER_IS_BETTER`."""
    lower = {n.lower() for n in lower_is_better}
    return not (name.lower() in lower or _base_name(name) in (LOWER_IS_BETTER | lower))
