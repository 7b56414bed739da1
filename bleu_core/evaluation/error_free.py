"""Any metric as an error-free detector (WMT26's subtask 3): precision/recall, average precision, best F1.

WMT26 asks a metric a yes/no question per translation: **is it free of errors?** The gold answer comes from
the raters (:func:`error_free_labels`):

* **ESA** (criterion ``esa``): error-free when the ESA score is at least :data:`ESA_ERROR_FREE` (85; the
  mean over raters when several rated it) **and** no rater marked an error span (any span, ``[missing]``
  included);
* **MQM** (criterion ``mqm``, minus the weighted error count): error-free when the score is 0 (no rater
  marked an error that counts).

A metric answers with its segment score: the higher, the surer it is that the translation is error-free
(scores of lower-is-better metrics are negated first). Every threshold t ("error-free when score ≥ t")
gives a precision and a recall of the error-free class; :func:`pr_curve` walks every distinct score from
the highest down:

* **average precision** (AP) = Σ (Rₖ − Rₖ₋₁) · Pₖ over the thresholds (R₀ = 0): the area under the
  step-wise PR curve, scikit-learn's ``average_precision_score`` definition (tied scores form one step);
* the **best-F1 threshold**: the threshold of highest F1 = 2PR/(P+R) (the highest such threshold when
  several tie);
* the **chance line**: the share of error-free translations, the precision (and AP) of a detector that
  knows nothing.

Every result is reported over all the translations asked for and per domain, and **per system set**
(:func:`error_free_by_system_set`): with human translations among the systems, once without them
(machine translations only) and once with them, side by side (the sets of
:func:`bleu_core.evaluation.system_sets.common_systems`, human translations out and in).

>>> curve = pr_curve(np.array([0.9, 0.8, 0.8, 0.1]), np.array([1, 0, 1, 0]))
>>> curve.precision.tolist(), curve.recall.tolist()            # thresholds 0.9, 0.8, 0.1
([1.0, 0.6666666666666666, 0.5], [0.5, 1.0, 1.0])
>>> round(curve.average_precision, 6), curve.chance             # 0.5·1 + 0.5·2/3
(0.833333, 0.5)
>>> float(curve.best_threshold), round(curve.best_f1, 3)
(0.8, 0.8)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import numpy as np

from bleu_core.evaluation.errors import StatsInputError
from bleu_core.evaluation.system_sets import SystemSet, common_systems
from bleu_core.study.model import Study

__all__ = [
    "ESA_ERROR_FREE",
    "DetectorRow",
    "ErrorFreeLabels",
    "PRCurve",
    "SegmentTable",
    "error_free_by_system_set",
    "error_free_detection",
    "error_free_labels",
    "fixed_threshold",
    "gold_criterion",
    "pr_curve",
]

ESA_ERROR_FREE = 85.0
"""WMT26's ESA threshold: a translation with ESA ≥ 85 and no error span is error-free."""


class SegmentTable(Protocol):
    """A metric's scores as :class:`bleu_core.metrics.study_scores.MetricTable` holds them."""

    @property
    def systems(self) -> tuple[str, ...]: ...

    def oriented_segment(self) -> np.ndarray | None: ...


@dataclass(frozen=True)
class ErrorFreeLabels:
    """Per system and segment (rows in ``systems`` order): 1.0 error-free, 0.0 not, NaN unrated."""

    systems: tuple[str, ...]
    labels: np.ndarray
    rule: str


def gold_criterion(study: Study) -> str | None:
    """The criterion that says which translations are error-free: ``esa``, else ``mqm``, else a
    class's or campaign's ESA (``esa (CODE)``); ``None`` when the study has none of them.

    >>> from bleu_core.study.model import Criterion
    >>> gold_criterion(Study("x", (), {}, {}, criteria={"esa (K7)": Criterion("esa (K7)")}))
    'esa (K7)'
    """
    for name in ("esa", "mqm"):
        if name in study.criteria:
            return name
    return next((c for c in study.criteria if c.startswith(("esa (", "mqm ("))), None)


def error_free_labels(
    study: Study, systems: Sequence[str], criterion: str | None = None
) -> ErrorFreeLabels:
    """The raters' answer for every translation of ``systems`` (see the module docstring), from
    ``criterion`` (default :func:`gold_criterion`; a name starting ``esa`` follows the ESA rule, ``mqm``
    the MQM rule)."""
    rows = [list(study.systems).index(name) for name in systems]
    criterion = criterion or gold_criterion(study)
    if criterion is not None and criterion.startswith("esa"):
        scores = study.segment_scores(criterion)[rows]
        marked = np.zeros_like(scores, dtype=bool)
        where = {name: k for k, name in enumerate(systems)}
        for span in study.error_spans:
            k = where.get(span.system)
            if k is not None:
                marked[k, study.segment_index(span.segment_id)] = True
        labels = np.where(np.isnan(scores), np.nan, ((scores >= ESA_ERROR_FREE) & ~marked) * 1.0)
        rule = f"ESA ≥ {ESA_ERROR_FREE:g} and no error span"
    elif criterion is not None and criterion.startswith("mqm"):
        scores = study.segment_scores(criterion)[rows]
        labels = np.where(np.isnan(scores), np.nan, (scores == 0) * 1.0)
        rule = "MQM score 0 (no error)"
    else:
        raise StatsInputError(
            "error-free detection needs ESA or MQM ratings (criterion esa or mqm); this study has: "
            + (", ".join(study.criteria) or "none")
        )
    return ErrorFreeLabels(tuple(systems), labels, rule)


@dataclass(frozen=True)
class PRCurve:
    """A detector's precision/recall curve over its distinct thresholds (highest first) and summaries;
    every summary is NaN when no translation is error-free."""

    thresholds: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    average_precision: float
    best_f1: float
    best_threshold: float
    chance: float
    n: int
    n_error_free: int

    def to_dict(self, points: bool = True) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return None if x != x else float(x)

        out: dict[str, Any] = {
            "average_precision": num(self.average_precision),
            "best_f1": num(self.best_f1),
            "best_threshold": num(self.best_threshold),
            "chance": num(self.chance),
            "n": self.n,
            "n_error_free": self.n_error_free,
        }
        if points:
            out["curve"] = {
                "threshold": self.thresholds.tolist(),
                "precision": self.precision.tolist(),
                "recall": self.recall.tolist(),
            }
        return out


def pr_curve(scores: np.ndarray, labels: np.ndarray) -> PRCurve:
    """The PR curve of ``scores`` (higher: error-free) against 0/1 ``labels`` (no NaN)."""
    scores = np.asarray(scores, dtype=float)
    labels = np.asarray(labels, dtype=float)
    if scores.shape != labels.shape or scores.ndim != 1:
        raise StatsInputError("scores and labels must be two 1-D arrays of the same length")
    n, positives = len(labels), int(labels.sum())
    nan = float("nan")
    if n == 0:
        empty = np.array([])
        return PRCurve(empty, empty, empty, nan, nan, nan, nan, 0, 0)
    order = np.argsort(-scores, kind="stable")
    ranked, hits = scores[order], labels[order]
    true_pos = np.cumsum(hits)
    last = np.r_[np.flatnonzero(np.diff(ranked) != 0), n - 1]  # the end of each run of tied scores
    tp = true_pos[last]
    precision = tp / (last + 1)
    chance = positives / n
    if positives == 0:
        return PRCurve(
            ranked[last], precision, np.full(len(last), nan), nan, nan, nan, chance, n, 0
        )
    recall = tp / positives
    ap = float(np.sum(np.diff(np.r_[0.0, recall]) * precision))
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    best = int(np.argmax(f1))
    return PRCurve(
        ranked[last],
        precision,
        recall,
        ap,
        float(f1[best]),
        float(ranked[last][best]),
        chance,
        n,
        positives,
    )


@dataclass(frozen=True)
class DetectorRow:
    """One metric's curve on one group of translations (``all``, or a domain)."""

    metric: str
    group: str
    curve: PRCurve

    def to_dict(self, points: bool = True) -> dict[str, Any]:
        return {"metric": self.metric, "group": self.group, **self.curve.to_dict(points)}


def _groups(study: Study, n: int) -> list[tuple[str, np.ndarray]]:
    """``all`` and, for a study with domains, each domain: its segments as a boolean mask."""
    out = [("all", np.ones(n, dtype=bool))]
    domains = [seg.domain for seg in study.segments]
    for name in dict.fromkeys(d for d in domains if d):
        out.append((f"domain {name}", np.array([d == name for d in domains])))
    return out if len(out) > 2 else out[:1]


def error_free_detection(
    study: Study, tables: Mapping[str, SegmentTable], systems: Sequence[str]
) -> tuple[ErrorFreeLabels, list[DetectorRow], list[str]]:
    """Every metric of ``tables`` with segment scores as an error-free detector on the rated
    translations of ``systems``, over all of them and per domain; notes say which metrics have no
    segment scores."""
    gold = error_free_labels(study, systems)
    rows: list[DetectorRow] = []
    notes: list[str] = []
    groups = _groups(study, gold.labels.shape[1])
    for name, table in tables.items():
        segment = table.oriented_segment()
        if segment is None:
            notes.append(f"{name}: no segment scores, not a detector")
            continue
        keep = [table.systems.index(s) for s in systems]
        scores = segment[keep]
        for group, mask in groups:
            cells = ~np.isnan(gold.labels) & ~np.isnan(scores) & mask[None, :]
            rows.append(DetectorRow(name, group, pr_curve(scores[cells], gold.labels[cells])))
    return gold, rows, notes


def detection_system_sets(study: Study, systems: Sequence[str]) -> list[SystemSet]:
    """The system sets of ``systems`` a detection is reported on: machine translations only (human
    translations out), then every one of ``systems`` (human translations in) when ``systems`` holds a
    human translation; else ``systems`` alone.

    >>> study = Study("x", (), {}, {"A": [], "B": [], "H": []}, human_systems=frozenset({"H"}))
    >>> [s.systems for s in detection_system_sets(study, ["A", "B", "H"])]
    [('A', 'B'), ('A', 'B', 'H')]
    """
    humans = study.human_systems
    kept = common_systems({}, systems, human=humans, include_human=True)
    if kept.human_included is not True:  # no human translation among them: one set
        # the study's human translations were not asked for: "out", as meta's rankings say it
        return [replace(kept, human_included=False if humans else None)]
    return [common_systems({}, systems, human=humans, include_human=False), kept]


def set_label(found: SystemSet) -> str:
    """A short name of a system set: how many systems, human translations in or out."""
    count = f"{len(found.systems)} system{'' if len(found.systems) == 1 else 's'}"
    if found.human_included is None:
        return count
    return f"{count}, human translations {'in' if found.human_included else 'out'}"


def error_free_by_system_set(
    study: Study, tables: Mapping[str, SegmentTable], systems: Sequence[str]
) -> tuple[ErrorFreeLabels, list[tuple[SystemSet, list[DetectorRow]]], list[str]]:
    """:func:`error_free_detection` on each set of :func:`detection_system_sets` (the gold labels of
    every one of ``systems``; the notes once)."""
    gold, _, notes = error_free_detection(study, {}, systems)
    out = []
    for found in detection_system_sets(study, systems):
        _, rows, notes = error_free_detection(study, tables, found.systems)
        out.append((found, rows))
    return gold, out, notes


def fixed_threshold(
    scores: np.ndarray, labels: np.ndarray, threshold: float
) -> tuple[float, float, int]:
    """Precision and recall of "error-free when score ≥ ``threshold``" (NaN pairs left out) and how many
    translations it marks; precision is NaN when it marks none, recall NaN when none is error-free.

    >>> fixed_threshold(np.array([100.0, 100.0, 40.0, np.nan]), np.array([1, 0, 1, 1]), 100.0)
    (0.5, 0.5, 2)
    """
    keep = ~np.isnan(scores) & ~np.isnan(labels)
    marked = scores[keep] >= threshold
    truth = labels[keep] == 1
    hits = int((marked & truth).sum())
    n_marked, n_true = int(marked.sum()), int(truth.sum())
    nan = float("nan")
    return (hits / n_marked if n_marked else nan, hits / n_true if n_true else nan, n_marked)
