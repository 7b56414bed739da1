"""The sacrebleu oracle: chrF and TER computed by sacrebleu itself, to check ours against.

``bleu_core.metrics.chrf`` and ``bleu_core.metrics.ter`` compute these metrics from additive statistics of
their own; the tests compare them with what sacrebleu gives through the functions here (which call the
library and do not reimplement anything).

* **chrF** (Popović 2015): F-score (recall weighted ``beta = 2`` times as much as precision) of character
  n-grams, n = 1..6, averaged over orders; ``word_order=2`` gives chrF++. Higher is better, 0-100.
* **TER** (Snover et al. 2006): the number of edits (insertions, deletions, substitutions, and shifts of
  whole phrases) turning the hypothesis into the closest reference, divided by the average reference length.
  Lower is better; it can exceed 100.

sacrebleu reads each segment once into sufficient statistics (``_extract_corpus_statistics``); we keep those
per-segment statistics so segment scores (``_compute_score_from_stats``) and the corpus score
(``_aggregate_and_compute``) come from one pass. These are sacrebleu's own internal steps of
``sentence_score`` and ``corpus_score``; the tests check that the results equal the public methods'.

>>> round(corpus_chrf(["the cat sat"], [["the cat sat"]]).corpus, 2)
100.0
>>> round(corpus_ter(["a b c"], [["a b d"]]).corpus, 2)    # one substitution over 3 reference words
33.33
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sacrebleu.metrics import CHRF, TER


@dataclass(frozen=True)
class OracleScores:
    """A sacrebleu metric's corpus score, per-segment scores and signature (scores on sacrebleu's 0-100 scale)."""

    name: str
    corpus: float
    segment: np.ndarray
    signature: str
    higher_is_better: bool


def _score(
    metric: Any,
    name: str,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    higher: bool,
) -> OracleScores:
    from bleu_core.engine.statistics import check_corpus

    check_corpus(hypotheses, references)
    stats = metric._extract_corpus_statistics(list(hypotheses), [list(s) for s in references])
    segment = np.array(
        [metric._compute_score_from_stats(row).score for row in stats], dtype=np.float64
    )
    corpus = float(metric._aggregate_and_compute(stats).score)
    return OracleScores(name, corpus, segment, str(metric.get_signature()), higher)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = 0,
    beta: int = CHRF.BETA,
    lowercase: bool = False,
) -> OracleScores:
    """chrF (``word_order=2``: chrF++) of a corpus and of every segment; references are streams."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase)
    name = "chrF++" if word_order else "chrF"
    return _score(metric, name, hypotheses, references, True)


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    case_sensitive: bool = False,
) -> OracleScores:
    """TER of a corpus and of every segment (sacrebleu's defaults: case-insensitive, no normalisation)."""
    metric = TER(normalized=normalized, no_punct=no_punct, case_sensitive=case_sensitive)
    return _score(metric, "TER", hypotheses, references, False)


def chrf_from_sacrebleu_metric(stats: np.ndarray, metric: CHRF) -> np.ndarray:
    """:func:`bleu_core.metrics.chrf.chrf_from_stats` with the options of a sacrebleu ``CHRF`` object,
    to compare with ``metric._compute_score_from_stats`` row for row."""
    from bleu_core.metrics.chrf import ChrfOptions, chrf_from_stats

    options = ChrfOptions(
        char_order=metric.char_order,
        word_order=metric.word_order,
        beta=metric.beta,
        eps_smoothing=metric.eps_smoothing,
    )
    return chrf_from_stats(stats, options)
