"""Significance page: which metric is resampled, and its cached bootstrap, blocks and randomisation.

Any metric with segment-level statistics can be tested (:mod:`bleu_core.evaluation.metric_statistics`): BLEU
from the sidebar's n-gram statistics, chrF, chrF++, TER, NIST and PER computed here, and attached metrics
(COMET...) with segment scores, whose corpus score is the mean of their segment scores. Attached metrics
with system-level scores only are listed as not testable, with the reason.

Cache keys follow what a result depends on, and nothing else:

* the bootstrap is computed once for **every** system of the study on (study, metric and its settings,
  resamples, seed). The significance level only changes which percentiles are read, and leaving out the
  human translations only drops rows (every system is scored on the same resampled test sets), so
  neither re-runs it: :meth:`~bleu_core.evaluation.BootstrapResult.with_confidence` and
  :meth:`~bleu_core.evaluation.BootstrapResult.subset` re-read it;
* approximate randomisation is keyed without the significance level (its verdicts are re-read with
  :func:`bleu_core.evaluation.randomization.at_alpha`);
* chrF, TER... keep their results when the BLEU tokenizer changes (their key is the metric's own inputs).

Nothing here calls ``st.*`` except the cache decorators.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import streamlit as st

from bleu_core.evaluation import approximate_randomization, block_bleu, bootstrap
from bleu_core.evaluation.bootstrap import BootstrapResult, bleu_scorer
from bleu_core.evaluation.metric_statistics import (
    MetricStatistics,
    additive_metric,
    mean_of_segments,
)
from bleu_core.evaluation.randomization import at_alpha
from bleu_core.evaluation.results import PairedTestResult
from ui.app.analysis_cache import attached_scores, inputs_key, metric_scores
from ui.app.metric_tables import attached_labels, metric_choices

if TYPE_CHECKING:
    from bleu_core.study.model import Study

COMPUTED: tuple[str, ...] = ("BLEU", "chrF", "chrF++", "TER", "NIST", "PER")
"""The metrics computed here that the page offers (BLEU from the sidebar's statistics)."""

SYSTEM_ONLY = "system-level scores only: the tests resample segments, and it has no segment scores"
"""Why an attached metric without segment scores is not testable."""


def metric_menu(study: Study) -> tuple[list[str], dict[str, str]]:
    """(the metrics that can be tested, ``{metric: why not}`` for those that cannot)."""
    labels = attached_labels(study)
    testable, untestable = [], {}
    for label in metric_choices(study, COMPUTED):
        name = labels.get(label)
        if name is not None and study.metric_scores[name].segment is None:
            untestable[label] = SYSTEM_ONLY
        else:
            testable.append(label)
    return testable, untestable


def metric_key(scores: Any, metric: str) -> str:
    """What ``metric``'s statistics depend on besides the study (whose key carries attached scores)."""
    if metric == "BLEU":
        return repr(("BLEU", scores.options, scores.references))
    if metric in attached_labels(scores.study):
        return repr(("attached", metric))
    return repr(inputs_key(metric, scores.options.tokenize, scores.options.lowercase))


def metric_statistics(scores: Any, metric: str, pending: list) -> MetricStatistics | None:
    """``metric``'s per-segment statistics for every system (``None`` while TER is being scored: its job
    is appended to ``pending``). Raises ``StatsInputError`` for an attached metric that cannot be
    resampled (a system without any segment score)."""
    study = scores.study
    if metric == "BLEU":
        rule = "corpus BLEU from the summed n-gram statistics"
        return additive_metric(
            "BLEU", scores.systems, scores.stats, bleu_scorer(scores.options), corpus_rule=rule
        )
    if metric in attached_labels(study):
        given = attached_scores(scores.key, study, metric)
        rows = dict(zip(given.names, given.segment, strict=True))
        return mean_of_segments(metric, rows, higher_is_better=given.higher_is_better)
    found = metric_scores(
        scores.key, study, (metric,), scores.options.tokenize, scores.options.lowercase,
        pending=pending,
    )  # fmt: skip
    if metric not in found:
        return None
    other = found[metric]
    return additive_metric(
        metric,
        other.names,
        other.stats,
        other.from_stats,
        higher_is_better=other.higher_is_better,
        corpus_rule=f"corpus {metric} from summed per-segment statistics (as sacrebleu)",
    )


@st.cache_data(max_entries=16, show_spinner=False)
def all_systems_bootstrap(
    study_key: str, key: str, systems: tuple[str, ...], _stats: MetricStatistics, n: int, seed: int
) -> BootstrapResult:
    """The bootstrap of every system (95 % intervals; see the module for what re-reads it)."""
    return bootstrap(_stats.subset(systems), n_resamples=n, seed=seed, score=_stats.score)


def bootstrap_of(
    scores: Any,
    key: str,
    stats: MetricStatistics,
    names: list[str],
    n: int,
    alpha: float,
    seed: int,
) -> BootstrapResult:
    """The bootstrap of ``names`` at level ``1 − alpha`` (cached for every system, re-read here)."""
    every = all_systems_bootstrap(scores.key, key, tuple(stats.systems), stats, n, seed)
    return every.with_confidence(1 - alpha).subset(names)


@st.cache_data(max_entries=16, show_spinner=False)
def blocks_of(
    study_key: str,
    key: str,
    names: tuple[str, ...],
    _stats: MetricStatistics,
    n_blocks: int,
    block_size: int | None,
) -> Any:
    """:func:`bleu_core.evaluation.block_bleu` of ``names`` with the metric's score (errors are raised)."""
    return block_bleu(
        _stats.subset(names), n_blocks=n_blocks, block_size=block_size, score=_stats.score
    )


@st.cache_data(max_entries=8, show_spinner=False)
def _randomization(
    study_key: str,
    key: str,
    names: tuple[str, ...],
    _stats: MetricStatistics,
    trials: int,
    seed: int,
) -> PairedTestResult:
    return approximate_randomization(
        _stats.subset(names), n_trials=trials, seed=seed, score=_stats.score
    )


def randomization_of(
    scores: Any,
    key: str,
    stats: MetricStatistics,
    names: list[str],
    trials: int,
    seed: int,
    alpha: float,
) -> PairedTestResult:
    """Approximate randomisation of every pair of ``names`` (cached without ``alpha``)."""
    result = _randomization(scores.key, key, tuple(names), stats, trials, seed)
    return at_alpha(result, alpha)
