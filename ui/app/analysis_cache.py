"""Cached adapters of the analysis pages (Metrics, Significance, Correlation), and their on-demand switches.

Same convention as :mod:`ui.app.cache`: inputs are hashable, the study (and other unhashable inputs) are passed
with a leading underscore next to a short hashable key that identifies them, nothing inside calls ``st.*``.

* metric scores are cached per **scoring group**: each metric alone, except the nine Babych & Hartley
  weighted metrics, which share one n-gram counting pass and are cached together. Ticking one more metric
  scores only that metric; the Correlation page reuses what the Metrics page scored.
* BLEU is not scored again: it comes from the statistics every page shares (:func:`shared_bleu_scores`).
* slow metrics (TER, NIST, PER, chrF) are scored in the shared background thread
  (:mod:`ui.app.background`), with progress, while the page draws the others.

Sections that take seconds on a study of the TED demo's size are computed when the user switches them on
(:data:`ON_DEMAND`); their toggles' session-state keys live here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from bleu_core.engine.options import BleuOptions
from bleu_core.metrics.registry import (
    MetricScores,
    bleu_scores_from_statistics,
    get_metric,
    metric_inputs_key,
    score_study,
)
from bleu_core.study import Study
from ui.app import shared_cache
from ui.app import state as K
from ui.app.background import Job, metric_job, ter_job
from ui.app.metric_tables import attached_metric_scores, is_attached

PAGE_DEFAULT_METRICS: tuple[str, ...] = ("BLEU", "chrF", "NIST", "PER")
"""Metrics page: the metrics ticked at first (the quick ones; the weighted and TER are a tick away)."""

ON_DEMAND: dict[str, tuple[str, ...]] = {
    "metrics": (K.MET_BABYCH_ON,),
    "significance": (K.SIG_AR_ON,),
}
"""Per page, the session keys of the toggles that switch on its on-demand sections."""

AR_ON_DEMAND_WORK = 2e9
"""Significance: approximate randomisation is run on demand above this many pairs × trials × segments (the
TED demo: 78 × 10,000 × 529 = 4e8, always run; WMT21 zh-en: 253 × 10,000 × 1,948 = 5e9, a minute)."""


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
    study_key: str,
    _study: Study,
    group: str,
    inputs_key: tuple[object, ...],
    _tokenize: str,
    _lowercase: bool,
) -> dict[str, MetricScores]:
    """Scores of every metric of one scoring group (see :func:`scoring_group`), cached on ``inputs_key``:
    the settings the group depends on (:func:`bleu_core.metrics.registry.metric_inputs_key`), so a
    tokenizer change does not re-score chrF."""
    return score_study(_study, _group_members(group), tokenize=_tokenize, lowercase=_lowercase)


BACKGROUND_FAMILIES: tuple[str, ...] = ("nist", "per", "chrf", "chrf++")
"""Metrics that read the whole study again (seconds on a WMT release, up to a minute on 50 × 10k):
on a server, a page that does not wait (``pending``) has them scored in the shared background thread, like
TER, and draws the other metrics meanwhile. Under AppTest they are scored in the run (deterministic tests)."""


def _under_app_test() -> bool:
    from streamlit import config

    return bool(config.get_option("global.appTest"))


def score_keys(study: Study, metrics: Sequence[str], options: BleuOptions) -> dict[str, object]:
    """Per metric, what its scores depend on: BLEU every option (the sidebar's sentence BLEU), a registry
    metric its :func:`inputs_key`, an attached metric nothing (the study key carries its digest)."""
    out: dict[str, object] = {}
    for metric in metrics:
        if metric == "BLEU":
            out[metric] = repr(options)
        elif is_attached(study, metric):
            out[metric] = metric
        else:
            out[metric] = inputs_key(metric, options.tokenize, options.lowercase)
    return out


def inputs_key(metric: str, tokenize: str, lowercase: bool) -> tuple[object, ...]:
    """The settings ``metric`` depends on (its cache key next to the study's).

    >>> inputs_key("chrF", "13a", False) == inputs_key("chrF", "intl", False)
    True
    >>> inputs_key("NIST", "13a", False) == inputs_key("NIST", "intl", False)
    False
    """
    return metric_inputs_key(metric, tokenize=tokenize, lowercase=lowercase)


def metric_scores(
    study_key: str,
    study: Study,
    metrics: Sequence[str],
    tokenize: str,
    lowercase: bool,
    *,
    pending: list[Job] | None = None,
) -> dict[str, MetricScores]:
    """``{metric: MetricScores}`` for ``metrics`` (registry names or the study's attached metrics, see
    :mod:`ui.app.metric_tables`), each group scored once and cached.

    TER is scored once per (study, options) in a background job shared by all sessions
    (:func:`ui.app.background.ter_job`). With a ``pending`` list the call does not wait for it: an
    unfinished TER is left out of the result and its job appended to ``pending`` (show it with
    :func:`ui.app.background.show_pending`); without one, the call waits for the job."""
    out: dict[str, MetricScores] = {}
    for metric in metrics:
        if is_attached(study, metric):  # attached scores (COMET...): the key carries their digest
            out[metric] = attached_scores(study_key, study, metric)
            continue
        name = get_metric(metric).name
        if (
            name == "BLEU"
        ):  # from the statistics every page shares: counted once, often ahead of time
            shared = shared_bleu_scores(study_key, study, tokenize, lowercase)
            if shared is not None:
                out[metric] = shared
                continue
        key = inputs_key(name, tokenize, lowercase)
        family = get_metric(name).family
        job = None
        if family == "ter":
            job = ter_job(study_key, study, key, lowercase)
        elif family in BACKGROUND_FAMILIES and pending is not None and not _under_app_test():
            job = metric_job(study_key, study, name, key, tokenize, lowercase)
        if job is not None:
            if job.future.done() or pending is None:
                out[metric] = job.future.result()
            else:
                pending.append(job)
            continue
        group = scoring_group(name)
        with st.spinner(f"Scoring every system with {group}…"):
            out[metric] = group_scores(study_key, study, group, key, tokenize, lowercase)[name]
    return out


def shared_bleu_scores(
    study_key: str, study: Study, tokenize: str, lowercase: bool
) -> MetricScores | None:
    """The registry's BLEU (default options but the tokenizer and case) from the statistics the pages
    share (:func:`ui.app.shared_cache.system_statistics`, the sidebar's own entry, cut to order 4), not
    a second count of the whole study (on WMT21, seconds per tokenizer change on the Metrics page).
    ``None`` when a segment has no reference text (the registry then scores the usable segments alone)."""
    references = tuple(study.references)
    from ui.app.context import STATISTICS_ORDER, truncate_order

    order = BleuOptions().max_order
    stored = max(order, STATISTICS_ORDER)  # the order the pages count at (and cut): the same entry

    def build() -> MetricScores | None:
        streams = [study.references[name] for name in references]
        if not all(any(text is not None for text in seg) for seg in zip(*streams, strict=True)):
            return None  # checked once per study and settings, not on every page run
        counted = shared_cache.system_statistics(
            study_key, study, references, tokenize, lowercase, stored
        )
        present = np.array(
            [[text is not None for text in study.systems[name]] for name in counted.systems],
            dtype=bool,
        ).reshape(len(counted.systems), study.n_segments)
        return bleu_scores_from_statistics(
            counted.systems,
            truncate_order(counted.array, stored, order),
            present,
            tokenize=tokenize,
            lowercase=lowercase,
        )

    return shared_cache.stored_scores(
        ("registry BLEU", study_key, references, tokenize, lowercase), build
    )


@st.cache_data(max_entries=32, show_spinner=False)
def attached_scores(study_key: str, _study: Study, label: str) -> MetricScores:
    """An attached metric's scores (:func:`ui.app.metric_tables.attached_metric_scores`); the study key
    includes the digest of the attached scores (:func:`~ui.app.metric_tables.study_key_with_metric_scores`)."""
    return attached_metric_scores(_study, label)
