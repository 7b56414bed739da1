"""How sure are we? Variance, significance and correlation statistics for BLEU.

Everything here works on per-segment sufficient statistics (:mod:`bleu_core.statistics`): the test
set is tokenised once, and blocks, bootstrap resamples and randomisation trials are weightings of the
segments' rows, scored by one vectorised call of :func:`bleu_core.score.bleu_from_stats`.

* :mod:`~bleu_core.stats.blocks` — BLEU on blocks of consecutive segments, paired t (paper §3, Table 2)
* :mod:`~bleu_core.stats.bootstrap` — bootstrap intervals and the paired bootstrap (Zhang & Vogel 2004)
* :mod:`~bleu_core.stats.randomization` — paired approximate randomisation (sacrebleu ``--paired-ar``)
* :mod:`~bleu_core.stats.judges` — same-judge pairwise comparisons of human scores (paper §4)
* :mod:`~bleu_core.stats.correlation`, :mod:`~bleu_core.stats.meta`, :mod:`~bleu_core.stats.compare` —
  correlations with human scores, bootstrap intervals, Williams and permutation tests
* :mod:`~bleu_core.stats.references` — BLEU and rankings under reference subsets (paper §3)
* :mod:`~bleu_core.stats.system_table` — correlations of published system-level tables

Every random procedure takes an explicit ``seed`` (default 12345, as sacrebleu) and reports it.
"""

from .blocks import BlockResult, NeighbourTest, block_bleu
from .bootstrap import BootstrapResult, SystemInterval, bootstrap, paired_bootstrap
from .compare import CorrelationComparison, compare_correlations, williams_test
from .correlation import CorrelationResult, correlation, kendall_wmt, segment_correlation
from .errors import StatsInputError
from .judges import JudgeResult, judge_comparisons
from .meta import BleuSource, SegmentMeanSource, segment_correlations, system_correlations
from .randomization import approximate_randomization
from .references import random_reference_per_document, reference_subsets
from .results import PairedComparison, PairedTestResult
from .study_meta import MetaResult, meta_evaluate
from .system_table import read_system_table, table_correlations

__all__ = [
    "BleuSource",
    "BlockResult",
    "BootstrapResult",
    "CorrelationComparison",
    "CorrelationResult",
    "JudgeResult",
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
