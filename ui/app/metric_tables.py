"""Attached metrics (COMET, BLEURT... scored elsewhere, attached to the study) as metrics like BLEU.

The analysis pages score metrics through :class:`bleu_core.metrics.registry.MetricScores` (additive
per-segment statistics: system scores, segment scores, and system scores on resampled test sets). An
attached metric gets the same shape here (:func:`attached_metric_scores`), so the Metrics, Correlation,
BLEU vs human and Metric ranking pages take it wherever they take a registry metric:

* per segment, the statistics are ``(score, 1, offset / S)`` where the system has a segment score and
  ``(0, 0, offset / S)`` elsewhere; a resampled system score is the mean of its resampled segment scores
  plus ``offset``, the given system-level score minus the mean of all its segment scores (0 when no
  system-level score was given). So ``observed()`` is exactly the given system score, and resampling
  varies it as the segment scores vary.
* a metric with system-level scores only has no segment scores (NaN) and a constant system score
  under resampling (``(0, 1/S, score/S)`` per segment).

An attached metric whose name is also a registry metric is listed as ``"NAME (attached)"``, as
:func:`bleu_core.metrics.study_scores.study_metric_scores` does.

>>> from bleu_core.study.model import Segment, Study
>>> from bleu_core.study.metric_scores import attach_metric_scores, parse_metric_scores
>>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["a", "b"]}, {"A": ["a", "b"], "B": ["a", "c"]})
>>> seg = parse_metric_scores("A\\t0.9\\nB\\t0.1\\nA\\t0.7\\nB\\t0.5\\n", "COMET.seg.score", study)
>>> study = attach_metric_scores(study, seg)
>>> attached_labels(study)
{'COMET': 'COMET'}
>>> m = attached_metric_scores(study, "COMET")
>>> m.observed().round(2).tolist(), m.resampled(np.array([[2, 0], [0, 2]])).round(2).tolist()
([0.8, 0.3], [[0.9, 0.1], [0.7, 0.5]])
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from bleu_core.metrics.registry import METRICS, MetricScores
from bleu_core.metrics.study_scores import MetricTable

if TYPE_CHECKING:
    from bleu_core.study.model import Study

METRIC_SCORES_KEY_MARK = "|metric-scores:"
"""What separates a study's key from the digest of its attached metric scores."""


def metric_scores_digest(study: Study) -> str:
    """A short sha256 of the study's attached metric scores ('' when it has none): part of the key of
    every cache that depends on them."""
    items = getattr(study, "metric_scores", None) or {}
    if not items:
        return ""
    from bleu_core.study.metric_scores import metric_scores_to_dict

    text = json.dumps(metric_scores_to_dict(items), sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def study_key_with_metric_scores(study_key: str, digest: str) -> str:
    """The study's key with its metric scores' digest (an earlier digest replaced).

    >>> study_key_with_metric_scores("demo:ted|metric-scores:abc", "def")
    'demo:ted|metric-scores:def'
    """
    base = study_key.split(METRIC_SCORES_KEY_MARK)[0]
    return f"{base}{METRIC_SCORES_KEY_MARK}{digest}" if digest else base


def attached_labels(study: Study) -> dict[str, str]:
    """``{label: attached metric name}``: the name, or ``"NAME (attached)"`` when it is a registry name."""
    items = getattr(study, "metric_scores", None) or {}
    return {(f"{n} (attached)" if n in METRICS else n): n for n in items}


def metric_choices(study: Study, computed: Sequence[str] = tuple(METRICS)) -> list[str]:
    """The metrics a picker offers: ``computed`` (registry names), then the study's attached metrics."""
    return [*computed, *attached_labels(study)]


def is_attached(study: Study, label: str) -> bool:
    """Whether ``label`` names an attached metric of ``study``."""
    return label in attached_labels(study)


def has_segment_scores(study: Study, label: str) -> bool:
    """Whether a metric has segment scores (every registry metric does; an attached one when given)."""
    labels = attached_labels(study)
    if label not in labels:
        return True
    return study.metric_scores[labels[label]].segment is not None


def attached_metric_scores(study: Study, label: str) -> MetricScores:
    """An attached metric as :class:`MetricScores` over all of ``study``'s systems (see the module)."""
    item = study.metric_scores[attached_labels(study)[label]]
    names = tuple(study.systems)
    n = study.n_segments
    given = item.system_scores(study)
    system = np.array([given[s] for s in names], dtype=np.float64)
    segment = item.segment_array(names)
    stats = np.zeros((len(names), n, 3))
    if segment is None:
        segment = np.full((len(names), n), np.nan)
        stats[:, :, 1] = 1.0 / n
        stats[:, :, 2] = (system / n)[:, None]
    else:
        valid = ~np.isnan(segment)
        stats[:, :, 0] = np.where(valid, segment, 0.0)
        stats[:, :, 1] = valid
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = stats[:, :, 0].sum(axis=1) / stats[:, :, 1].sum(axis=1)
        offset = np.where(np.isnan(system) | np.isnan(mean), 0.0, system - mean)
        stats[:, :, 2] = (offset / n)[:, None]
    direction = "higher is better" if item.higher_is_better else "lower is better"
    levels = ", ".join(item.levels)
    return MetricScores(
        label,
        names,
        stats,
        _attached_from_stats,
        segment,
        item.higher_is_better,
        f"scores loaded from {item.source or 'a file'} ({levels}; {direction})",
        () if item.segment is not None else ("system-level scores only: no segment scores",),
    )


def _attached_from_stats(sums: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums[..., 0] / sums[..., 1] + sums[..., 2]


def metric_table(
    label: str, scores: MetricScores, systems: Sequence[str], kind: str
) -> MetricTable:
    """One metric's :class:`MetricTable` (what :mod:`bleu_core.evaluation.clusters` ranks) for ``systems``."""
    index = [scores.names.index(s) for s in systems]
    segment = scores.segment[index]
    no_segments = bool(np.isnan(segment).all()) and kind == "attached"
    return MetricTable(
        label,
        tuple(systems),
        np.asarray(scores.observed(), dtype=np.float64)[index],
        None if no_segments else np.asarray(segment, dtype=np.float64),
        scores.higher_is_better,
        kind,
        scores.description,
        "",
        scores,
    )
