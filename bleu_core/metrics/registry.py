"""The registry of metrics: every metric's :class:`~bleu_core.metrics.base.MetricSpec`, and
:func:`score_study`, which scores every system of a study with them, at system and segment level.

Each metric declares itself beside its maths (:mod:`~bleu_core.metrics.bleu_metric`,
:mod:`~bleu_core.metrics.chrf`, :mod:`~bleu_core.metrics.ter`, :mod:`~bleu_core.metrics.nist`,
:mod:`~bleu_core.metrics.per`, :mod:`~bleu_core.metrics.weighted`); this module only lists them. Adding a
metric means writing its spec in its module and adding it to :data:`METRICS`. One :class:`MetricScores`
object gives the system scores (``observed()``), the segment scores (``segment``), and the system scores on
any resampled test set (``resampled(counts)``); it has the shape of the statistics helper's score sources,
so :func:`bleu_core.evaluation.meta.system_correlations` accepts it directly.

Conventions:

* **Systems**: all of the study's systems by default. Segments a system did not translate (``None``) have
  zero statistics (so they do not count in its corpus score) and a NaN segment score.
* **References**: multi-reference metrics use every reference stream, except that a system which *is* a
  reference stream (same name) is scored without its own stream. The Babych & Hartley weighted metrics are
  single-reference: they use the first usable stream (``single_reference`` chooses another), with weights from
  that stream and the study's documents.
* **Segment level**: sentence BLEU uses effective order (as sacrebleu's ``sentence_bleu``).

>>> [spec.name for spec in METRICS.values()][:6]
['BLEU', 'chrF', 'chrF++', 'TER', 'NIST', 'PER']
>>> get_metric("bleu").name
'BLEU'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bleu_core.errors import BleuOptionError
from bleu_core.metrics.base import MetricScores, MetricSpec, ScoringContext
from bleu_core.metrics.bleu_metric import BLEU, bleu_scores_from_statistics
from bleu_core.metrics.chrf import CHRF, CHRF_PLUS, ChrfOptions
from bleu_core.metrics.nist import NIST
from bleu_core.metrics.per import PER
from bleu_core.metrics.ter import TER
from bleu_core.metrics.weighted import WEIGHTED

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = [
    "DEFAULT_METRICS",
    "METRICS",
    "MetricScores",
    "MetricSpec",
    "bleu_scores_from_statistics",
    "chrf_options",
    "get_metric",
    "metric_inputs_key",
    "metric_names",
    "score_study",
]

METRICS: dict[str, MetricSpec] = {
    spec.name: spec for spec in (BLEU, CHRF, CHRF_PLUS, TER, NIST, PER, *WEIGHTED)
}
DEFAULT_METRICS: tuple[str, ...] = (
    "BLEU",
    "chrF",
    "TER",
    "NIST",
    "PER",
    "recall (tf.idf)",
    "recall (S-score)",
    "F (tf.idf)",
)


def metric_names() -> list[str]:
    """Every registered metric name."""
    return list(METRICS)


def get_metric(name: str) -> MetricSpec:
    """A metric by name (case-insensitive); the error lists the valid names."""
    for key, spec in METRICS.items():
        if key.lower() == name.lower():
            return spec
    raise BleuOptionError(f"unknown metric {name!r}; choose one of: {', '.join(METRICS)}")


def metric_inputs_key(
    metric: str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    single_reference: str | None = None,
) -> tuple[object, ...]:
    """The settings ``metric``'s scores depend on, and only those: a cache key to pair with the study's.

    chrF, chrF++ and TER never use the word tokenizer, so changing BLEU's tokenizer keeps their key (and
    their cached scores); only the Babych & Hartley metrics depend on ``single_reference``.

    >>> metric_inputs_key("chrF", tokenize="13a") == metric_inputs_key("chrF", tokenize="intl")
    True
    >>> metric_inputs_key("BLEU", tokenize="13a") == metric_inputs_key("BLEU", tokenize="intl")
    False
    """
    return get_metric(metric).inputs_key(
        tokenize=tokenize, lowercase=lowercase, single_reference=single_reference
    )


def chrf_options(metric: str, *, lowercase: bool = False) -> ChrfOptions:
    """The :class:`~bleu_core.metrics.chrf.ChrfOptions` the registry scores ``"chrF"``/``"chrF++"`` with.

    >>> chrf_options("chrF++").word_order
    2
    """
    family = get_metric(metric).family
    if family not in ("chrf", "chrf++"):
        raise BleuOptionError(f"{metric!r} is not a chrF metric")
    return ChrfOptions(word_order=2 if family == "chrf++" else 0, lowercase=lowercase)


def score_study(
    study: Study,
    metrics: Sequence[str] = DEFAULT_METRICS,
    *,
    systems: Sequence[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    single_reference: str | None = None,
    ter_cache_dir: Any = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, MetricScores]:
    """Score every system of ``study`` with each metric in ``metrics`` (registry names).

    ``tokenize``/``lowercase`` apply to the word-based metrics (BLEU, NIST, PER, weighted); chrF and TER use
    sacrebleu's own processing (``lowercase`` maps to their case options; ``tokenize`` does not affect them,
    see :func:`metric_inputs_key`). ``ter_cache_dir`` keeps TER's per-segment statistics on disk
    (:func:`bleu_core.metrics.ter.ter_statistics_table`); ``progress(done, total, message)`` is told how far
    TER, chrF (chunk by chunk), NIST (system by system) and PER (reference by reference) have got.
    """
    specs = [get_metric(m) for m in metrics]
    chosen = list(study.systems) if systems is None else list(systems)
    unknown = [s for s in chosen if s not in study.systems]
    if unknown:
        raise BleuOptionError(
            f"unknown system(s) {', '.join(map(repr, unknown))}; the study has: {', '.join(study.systems)}"
        )
    if not study.references:
        raise BleuOptionError(
            "the study has no reference translations: reference-based metrics need one"
        )
    ctx = ScoringContext(
        study, chosen, tokenize, lowercase, single_reference, ter_cache_dir=ter_cache_dir,
        progress=progress,
    )  # fmt: skip
    return {spec.name: spec.score(ctx) for spec in specs}
