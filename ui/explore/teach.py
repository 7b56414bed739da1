"""The Learn page's walk-through of BLEU for one candidate, every number taken from :mod:`bleu_core`.

:func:`walkthrough` explains a sentence score step by step: tokens, n-grams with counts and clipping,
modified precisions, their weighted geometric mean, the brevity penalty, the final BLEU. The counts come
from :func:`bleu_core.engine.matches.match_provenance`, the scores from :func:`bleu_core.engine.score.bleu_from_stats`,
so the page shows what the engine computes, not a second implementation.

>>> w = walkthrough("of the", ["It is a guide to action that ensures that the military will forever heed "
...     "Party commands.", "It is the guiding principle which guarantees the military forces always being "
...     "under the command of the Party.", "It is the practical guide for the army always to heed the "
...     "directions of the party."], BleuOptions(tokenize="paper", smooth="none"))
>>> [step.fraction for step in w.orders[:2]]            # the paper, Example 3: 2/2 and 1/1
['2/2', '1/1']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.engine.brevity_penalty import brevity_penalty_of
from bleu_core.engine.matches import SegmentMatches, match_provenance
from bleu_core.engine.options import SMOOTHING_NAMES, BleuOptions
from bleu_core.engine.score import bleu_from_stats
from bleu_core.study import Study
from ui.explore.highlight import NgramRow, ngram_rows


@dataclass(frozen=True)
class OrderStep:
    """Order n: the candidate's n-gram types with counts, clipped matches, total, modified precision."""

    n: int
    rows: list[NgramRow]
    matches: int
    total: int
    precision: float
    """Precision used in the score (after smoothing); ``matches / total`` is the paper's p_n."""

    @property
    def fraction(self) -> str:
        return f"{self.matches}/{self.total}"


@dataclass(frozen=True)
class Walkthrough:
    """Every intermediate number of a sentence BLEU."""

    matches: SegmentMatches
    orders: list[OrderStep]
    weights: tuple[float, ...]
    hyp_len: int
    ref_lens: list[int]
    ref_len: float
    bp: float
    geometric_mean: float
    bleu: float
    options: BleuOptions


def walkthrough(candidate: str, references: Sequence[str], options: BleuOptions) -> Walkthrough:
    """Explain the sentence BLEU of ``candidate`` against ``references`` under ``options``."""
    matches = match_provenance(
        candidate,
        list(references),
        max_order=options.statistics_order,
        tokenize=options.tokenize,
        lowercase=options.lowercase,
    )
    scored = bleu_from_stats(np.asarray(matches.statistics_row(), dtype=float), options)
    precisions = np.atleast_1d(np.asarray(scored.precisions, dtype=float))
    orders = []
    for n in range(1, options.max_order + 1):
        m, t = matches.counts(n)
        orders.append(OrderStep(n, ngram_rows(matches, n), m, t, float(precisions[n - 1])))
    bp = float(scored.bp)
    return Walkthrough(
        matches=matches,
        orders=orders,
        weights=options.weight_vector,
        hyp_len=int(scored.hyp_len),
        ref_lens=[len(r) for r in matches.reference_tokens],
        ref_len=float(scored.ref_len),
        bp=bp,
        geometric_mean=float(scored.geometric_mean),
        bleu=float(scored.bleu),
        options=options,
    )


SMOOTHED_ABOVE_ONE = (
    "A smoothed precision can exceed 1: Chen & Cherry's methods 5 and 7 (`chen-cherry-5`, `-7`) replace "
    "p_n by the average of three neighbours, (p_(n-1) + p_n + p_(n+1)) / 3, and for n = 1 the missing "
    "p_0 is taken as p_1 + 1 (as in NLTK). So p_1 becomes (1 + 2·p_1 + p_2) / 3, which is above 1 when "
    "p_1 and p_2 are high. It is an artefact of the smoothing, not more matches than n-grams."
)
"""Why a precision "after smoothing" can be above 1 (the Learn page, steps 3 and 6)."""


def smoothing_rows(
    candidate: str, references: Sequence[str], options: BleuOptions
) -> list[dict[str, object]]:
    """Sentence BLEU of ``candidate`` under every smoothing method (each with its default value)."""
    rows = []
    for method in SMOOTHING_NAMES:
        w = walkthrough(candidate, references, options.with_(smooth=method, smooth_value=None))
        rows.append(
            {
                "smoothing": method,
                "sentence BLEU": w.bleu,
                "precisions used": ", ".join(f"{o.precision:.3g}" for o in w.orders),
            }
        )
    return rows


@dataclass(frozen=True)
class Example:
    """One worked example: candidates and references, each ``(name, text)``."""

    title: str
    candidates: list[tuple[str, str]]
    references: list[tuple[str, str]]


def examples_from_study(study: Study) -> list[Example]:
    """One :class:`Example` per segment: the systems with text there are candidates.

    A segment's id (and its source, when given) makes the title, e.g. the paper-examples demo's
    "Example 2".
    """
    result = []
    for i, segment in enumerate(study.segments):
        candidates = [(name, texts[i]) for name, texts in study.systems.items() if texts[i]]
        references = [(name, texts[i]) for name, texts in study.references.items() if texts[i]]
        if candidates and references:
            title = segment.id if not segment.doc_id else f"{segment.doc_id} · {segment.id}"
            result.append(Example(title, candidates, references))
    return result


def bp_formula(hyp_len: int, ref_len: float) -> str:
    r"""The brevity penalty as LaTeX with the numbers filled in.

    >>> bp_formula(2, 16)
    '\\mathrm{BP} = e^{1 - r/c} = e^{1 - 16/2} = 0.000912'
    >>> bp_formula(18, 16)
    '\\mathrm{BP} = 1 \\quad (c = 18 > r = 16)'
    """
    if hyp_len > ref_len:
        return rf"\mathrm{{BP}} = 1 \quad (c = {hyp_len} > r = {ref_len:g})"
    if hyp_len == 0:
        return r"\mathrm{BP} = 0 \quad (c = 0)"
    value = brevity_penalty_of(hyp_len, ref_len)
    return rf"\mathrm{{BP}} = e^{{1 - r/c}} = e^{{1 - {ref_len:g}/{hyp_len}}} = {value:.3g}"
