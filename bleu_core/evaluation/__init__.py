"""How sure are we? Variance, significance and correlation statistics for BLEU.

Everything here works on per-segment sufficient statistics (:mod:`bleu_core.engine.statistics`): the test
set is tokenised once, and blocks, bootstrap resamples and randomisation trials are weightings of the
segments' rows, scored by one vectorised call of :func:`bleu_core.engine.score.bleu_from_stats`.

* :mod:`~bleu_core.evaluation.blocks` — BLEU on blocks of consecutive segments, paired t (paper §3, Table 2)
* :mod:`~bleu_core.evaluation.bootstrap` — bootstrap intervals and the paired bootstrap (Zhang & Vogel 2004)
* :mod:`~bleu_core.evaluation.randomization` — paired approximate randomisation (sacrebleu ``--paired-ar``)
* :mod:`~bleu_core.evaluation.judges` — same-judge pairwise comparisons of human scores (paper §4)
* :mod:`~bleu_core.evaluation.correlation`, :mod:`~bleu_core.evaluation.meta`, :mod:`~bleu_core.evaluation.compare` —
  correlations with human scores, bootstrap intervals, Williams and permutation tests; ``linear_fit``, the
  least-squares line of the paper's §5 (both defined below the subpackages, in :mod:`bleu_core.maths.correlation` and
  :mod:`bleu_core.maths.regression`, so that metrics, campaigns and the study use the same ones)
* :mod:`~bleu_core.evaluation.references` — BLEU and rankings under reference subsets (paper §3)
* :mod:`~bleu_core.evaluation.system_table` — correlations of published system-level tables

Every random procedure takes an explicit ``seed`` (default 12345, as sacrebleu) and reports it.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

# Loaded now: these modules are light, and their names are also names of functions in them (importing the
# module ``bleu_core.evaluation.bootstrap`` later must not replace the function ``bootstrap`` here).
from .bootstrap import BootstrapResult, SystemInterval, bootstrap, paired_bootstrap
from .correlation import (
    CorrelationResult,
    LinearFit,
    correlation,
    kendall_wmt,
    linear_fit,
    segment_correlation,
)

if TYPE_CHECKING:
    from .blocks import BlockResult, NeighbourTest, block_bleu
    from .compare import CorrelationComparison, compare_correlations, williams_test
    from .errors import StatsInputError
    from .judges import JudgeResult, judge_comparisons
    from .meta import BleuSource, SegmentMeanSource, segment_correlations, system_correlations
    from .randomization import approximate_randomization
    from .references import random_reference_per_document, reference_subsets
    from .results import PairedComparison, PairedTestResult
    from .study_meta import MetaResult, meta_evaluate
    from .system_table import read_system_table, table_correlations

# The names above are loaded on first use (PEP 562): ``import bleu_core.evaluation.bootstrap`` on a command line
# does not import every statistic (scipy, the study package...) through this ``__init__``.
_HOME = {
    "BleuSource": "meta",
    "BlockResult": "blocks",
    "CorrelationComparison": "compare",
    "JudgeResult": "judges",
    "MetaResult": "study_meta",
    "NeighbourTest": "blocks",
    "PairedComparison": "results",
    "PairedTestResult": "results",
    "SegmentMeanSource": "meta",
    "StatsInputError": "errors",
    "approximate_randomization": "randomization",
    "block_bleu": "blocks",
    "compare_correlations": "compare",
    "judge_comparisons": "judges",
    "meta_evaluate": "study_meta",
    "random_reference_per_document": "references",
    "read_system_table": "system_table",
    "reference_subsets": "references",
    "segment_correlations": "meta",
    "system_correlations": "meta",
    "table_correlations": "system_table",
    "williams_test": "compare",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])


__all__ = [
    "BleuSource",
    "BlockResult",
    "BootstrapResult",
    "CorrelationComparison",
    "CorrelationResult",
    "JudgeResult",
    "LinearFit",
    "MetaResult",
    "NeighbourTest",
    "PairedComparison",
    "PairedTestResult",
    "SegmentMeanSource",
    "StatsInputError",
    "SystemInterval",
    "approximate_randomization",
    "block_bleu",
    "bootstrap",
    "compare_correlations",
    "correlation",
    "judge_comparisons",
    "kendall_wmt",
    "linear_fit",
    "meta_evaluate",
    "paired_bootstrap",
    "random_reference_per_document",
    "read_system_table",
    "reference_subsets",
    "segment_correlation",
    "segment_correlations",
    "system_correlations",
    "table_correlations",
    "williams_test",
]
