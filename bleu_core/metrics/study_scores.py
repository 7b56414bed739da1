"""Every metric of a study, computed here or loaded from a file, in one shape.

:func:`study_metric_scores` returns, for a study, ``{metric name: MetricTable}``: the system scores
and (where they exist) the segment scores of BLEU, chrF, TER, NIST... computed by
:mod:`bleu_core.metrics.registry`, and of every metric attached to the study
(:mod:`bleu_core.study.metric_scores`: COMET, BLEURT... scored elsewhere). Pages and statistics
then treat every metric alike.

>>> from bleu_core.study.demo import load_demo
>>> study = load_demo("ted-en-de").subset(["Nemo", "UEdin", "Online-W"], 20)
>>> tables = study_metric_scores(study, ["BLEU", "TER"])
>>> list(tables), tables["TER"].higher_is_better, tables["BLEU"].segment.shape
(['BLEU', 'TER'], False, (3, 20))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.errors import BleuOptionError

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = ["COMPUTED_DEFAULT", "MetricTable", "study_metric_scores"]

#: The metrics computed here by default (registry names).
COMPUTED_DEFAULT: tuple[str, ...] = ("BLEU", "chrF", "TER", "NIST")


@dataclass(frozen=True, eq=False)
class MetricTable:
    """One metric's scores for the chosen systems of a study.

    ``system`` is ``(K,)`` (NaN where a system has no score), ``segment`` is ``(K, S)`` (NaN where
    missing) or ``None`` when only system-level scores exist. ``kind`` is ``computed`` (scored here;
    ``scores`` then holds the registry's :class:`~bleu_core.metrics.base.MetricScores`, which can
    rescore resampled test sets) or ``attached`` (loaded from ``source``).
    """

    name: str
    systems: tuple[str, ...]
    system: np.ndarray
    segment: np.ndarray | None
    higher_is_better: bool
    kind: str
    description: str = ""
    source: str = ""
    scores: Any = None

    def oriented_system(self) -> np.ndarray:
        """System scores with lower-is-better metrics negated (higher is always better)."""
        return self.system if self.higher_is_better else -self.system

    def oriented_segment(self) -> np.ndarray | None:
        """Segment scores, negated for lower-is-better metrics."""
        if self.segment is None:
            return None
        return self.segment if self.higher_is_better else -self.segment

    def system_scores(self) -> dict[str, float]:
        """``{system: score}``."""
        return dict(zip(self.systems, self.system.tolist(), strict=True))


def study_metric_scores(
    study: Study,
    metrics: Sequence[str] | None = COMPUTED_DEFAULT,
    *,
    systems: Sequence[str] | None = None,
    attached: bool | Sequence[str] = True,
    tokenize: str = "13a",
    lowercase: bool = False,
    ter_cache_dir: Any = None,
    progress: Any = None,
) -> dict[str, MetricTable]:
    """System (and segment) scores of every metric: computed ``metrics`` first, then attached ones.

    Args:
        study: the study.
        metrics: registry names to compute here (``None`` or empty: none).
        systems: systems to score (default: all of the study's, in study order).
        attached: ``True`` for every metric in ``study.metric_scores`` (scored elsewhere and attached
            to the study), ``False`` for none, or the names to include. An attached metric whose name
            is also a computed one is listed as ``"NAME (attached)"``.
        tokenize, lowercase: for the word-based computed metrics (see ``score_study``).
        ter_cache_dir, progress: TER's disk cache and progress callback (see ``score_study``).
    """
    from bleu_core.metrics.registry import score_study

    names = list(study.systems) if systems is None else list(systems)
    unknown = [s for s in names if s not in study.systems]
    if unknown:
        raise BleuOptionError(
            f"unknown system(s) {', '.join(map(repr, unknown))}; the study has: {', '.join(study.systems)}"
        )
    out: dict[str, MetricTable] = {}
    if metrics:
        computed = score_study(
            study,
            metrics,
            systems=names,
            tokenize=tokenize,
            lowercase=lowercase,
            ter_cache_dir=ter_cache_dir,
            progress=progress,
        )
        for name, scores in computed.items():
            out[name] = MetricTable(
                name,
                tuple(names),
                np.asarray(scores.observed(), dtype=np.float64),
                np.asarray(scores.segment, dtype=np.float64),
                scores.higher_is_better,
                "computed",
                scores.description,
                "",
                scores,
            )
    given = dict(getattr(study, "metric_scores", {}) or {})
    for name in _chosen_attached(given, attached):
        item = given[name]
        sys_scores = item.system_scores(study)
        label = f"{name} (attached)" if name in out else name
        out[label] = MetricTable(
            label,
            tuple(names),
            np.array([sys_scores[s] for s in names], dtype=np.float64),
            item.segment_array(names),
            item.higher_is_better,
            "attached",
            f"scores loaded from {item.source}" if item.source else "attached scores",
            item.source,
        )
    return out


def _chosen_attached(given: dict[str, Any], attached: bool | Sequence[str]) -> list[str]:
    """The names of the attached metrics to include (see :func:`study_metric_scores`)."""
    if attached is True:
        return list(given)
    if attached is False:
        return []
    chosen = list(attached)
    missing = [n for n in chosen if n not in given]
    if missing:
        raise BleuOptionError(
            f"no attached metric {', '.join(map(repr, missing))}; the study has: "
            f"{', '.join(given) or 'none (load them with --metric-scores)'}"
        )
    return chosen
