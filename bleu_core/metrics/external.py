"""chrF and TER, computed by sacrebleu (we call the library; we do not reimplement the metrics).

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
class ExternalScores:
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
) -> ExternalScores:
    from bleu_core.statistics import check_corpus

    check_corpus(hypotheses, references)
    stats = metric._extract_corpus_statistics(list(hypotheses), [list(s) for s in references])
    segment = np.array(
        [metric._compute_score_from_stats(row).score for row in stats], dtype=np.float64
    )
    corpus = float(metric._aggregate_and_compute(stats).score)
    return ExternalScores(name, corpus, segment, str(metric.get_signature()), higher)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = 0,
    beta: int = CHRF.BETA,
    lowercase: bool = False,
) -> ExternalScores:
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
) -> ExternalScores:
    """TER of a corpus and of every segment (sacrebleu's defaults: case-insensitive, no normalisation)."""
    metric = TER(normalized=normalized, no_punct=no_punct, case_sensitive=case_sensitive)
    return _score(metric, "TER", hypotheses, references, False)
