"""Cached adapters of the analysis pages (Metrics, Significance, Correlation), and their on-demand switches.

Same convention as :mod:`ui.app.cache`: inputs are hashable, the study (and other unhashable inputs) are passed
with a leading underscore next to a short hashable key that identifies them, nothing inside calls ``st.*``.

* metric scores are cached per **scoring group**: each metric alone, except the nine Babych & Hartley
  weighted metrics, which share one n-gram counting pass and are cached together. Ticking one more metric
  scores only that metric; the Correlation page reuses what the Metrics page scored.
* the bootstrap and the block experiment of the Significance page are cached on the statistics' key, the
  systems, the options and the resampling settings, so a re-run (another pair to inspect, another page and
  back) only redraws.

Sections that take seconds on a study of the TED demo's size are computed when the user switches them on
(:data:`ON_DEMAND`); their toggles' session-state keys live here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from bleu_core.metrics.registry import MetricScores, get_metric, score_study
from bleu_core.stats import block_bleu, bootstrap
from bleu_core.study import Study
from ui.app import state as K

PAGE_DEFAULT_METRICS: tuple[str, ...] = ("BLEU", "chrF", "NIST", "PER")
"""Metrics page: the metrics ticked at first (the quick ones; the weighted and TER are a tick away)."""

ON_DEMAND: dict[str, tuple[str, ...]] = {"metrics": (K.MET_BABYCH_ON,)}
"""Per page, the session keys of the toggles that switch on its on-demand sections."""


def scoring_group(metric: str) -> str:
    """The cache unit a metric is scored in: ``"weighted"`` for the Babych & Hartley family, else itself.

    >>> scoring_group("recall (tf.idf)"), scoring_group("chrF")
    ('weighted', 'chrF')
    """
    spec = get_metric(metric)
    return "weighted" if spec.family.startswith("weighted:") else spec.name


def _group_members(group: str) -> tuple[str, ...]:
    from bleu_core.metrics.registry import METRICS

    if group != "weighted":
        return (group,)
    return tuple(n for n, s in METRICS.items() if s.family.startswith("weighted:"))


@st.cache_data(max_entries=48, show_spinner=False)
def group_scores(
    study_key: str, _study: Study, group: str, tokenize: str, lowercase: bool
) -> dict[str, MetricScores]:
    """Scores of every metric of one scoring group (see :func:`scoring_group`)."""
    return score_study(_study, _group_members(group), tokenize=tokenize, lowercase=lowercase)


def metric_scores(
    study_key: str, study: Study, metrics: Sequence[str], tokenize: str, lowercase: bool
) -> dict[str, MetricScores]:
    """``{metric: MetricScores}`` for ``metrics`` (registry names), each group scored once and cached."""
    out: dict[str, MetricScores] = {}
    for metric in metrics:
        name = get_metric(metric).name
        group = scoring_group(name)
        with st.spinner(f"Scoring every system with {group}…"):
            out[metric] = group_scores(study_key, study, group, tokenize, lowercase)[name]
    return out


@st.cache_data(max_entries=16, show_spinner="Bootstrapping…")
def cached_bootstrap(
    stats_key: str,
    names: tuple[str, ...],
    _systems: dict[str, Any],
    _options: Any,
    options_key: str,
    n_resamples: int,
    confidence: float,
    seed: int,
) -> Any:
    """:func:`bleu_core.stats.bootstrap` of ``_systems`` (identified by ``stats_key`` and ``names``)."""
    return bootstrap(_systems, _options, n_resamples=n_resamples, confidence=confidence, seed=seed)


@st.cache_data(max_entries=16, show_spinner=False)
def cached_blocks(
    stats_key: str,
    names: tuple[str, ...],
    _systems: dict[str, Any],
    _options: Any,
    options_key: str,
    n_blocks: int,
    block_size: int | None,
) -> Any:
    """:func:`bleu_core.stats.block_bleu` (errors are raised, not cached)."""
    return block_bleu(_systems, _options, n_blocks=n_blocks, block_size=block_size)
