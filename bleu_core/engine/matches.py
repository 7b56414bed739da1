"""Match provenance: which hypothesis n-grams matched, which were clipped away, and where they came from.

The paper's key idea is *clipping*: a candidate word is credited at most as many times as it appears in any single
reference ("the the the the the the the" gets 2/7, not 7/7). This module explains a segment's score n-gram by
n-gram, as pure data for the app to render.

Within one n-gram type, the first ``clip`` occurrences from left to right are ``matched``; later occurrences are
``clipped`` (they appear in a reference, but the reference's count is used up); n-grams that no reference holds are
``unmatched``.

>>> m = match_provenance("the the the the the the the.", ["The cat is on the mat.", "There is a cat on the mat."],
...                      max_order=1, tokenize="paper")
>>> [o.status for o in m.occurrences]
['matched', 'matched', 'clipped', 'clipped', 'clipped', 'clipped', 'clipped']
>>> m.occurrences[0].ref_counts, m.occurrences[0].clip
((2, 1), 2)
>>> m.counts(1)
(2, 7)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..tokenize.tokenizers import get_tokenizer
from .statistics import segment_row

Status = Literal["matched", "clipped", "unmatched"]


@dataclass(frozen=True)
class NgramOccurrence:
    """One occurrence of an n-gram in the hypothesis.

    ``start``/``end`` are hypothesis token indices (``end`` exclusive). ``ref_counts[k]`` is how often reference k
    holds the n-gram; ``clip`` is the maximum of those (the most the n-gram can be credited); ``hyp_count`` how often
    the hypothesis holds it; ``index`` which occurrence of its type this is (0-based, left to right).
    """

    order: int
    start: int
    end: int
    ngram: tuple[str, ...]
    status: Status
    ref_counts: tuple[int, ...]
    clip: int
    hyp_count: int
    index: int

    @property
    def references_holding(self) -> tuple[int, ...]:
        """0-based indices of the references that contain this n-gram."""
        return tuple(k for k, c in enumerate(self.ref_counts) if c > 0)


@dataclass(frozen=True)
class SegmentMatches:
    """Every hypothesis n-gram occurrence of one segment, with the tokens it refers to."""

    hypothesis_tokens: tuple[str, ...]
    reference_tokens: tuple[tuple[str, ...], ...]
    max_order: int
    occurrences: tuple[NgramOccurrence, ...]

    def of_order(self, n: int) -> tuple[NgramOccurrence, ...]:
        return tuple(o for o in self.occurrences if o.order == n)

    def counts(self, n: int) -> tuple[int, int]:
        """(clipped matches, total n-grams) for order n — the numerator and denominator of p_n."""
        occ = self.of_order(n)
        return sum(o.status == "matched" for o in occ), len(occ)

    def token_status(self, n: int) -> tuple[Status, ...]:
        """A status per hypothesis token for order n: matched if any matched n-gram covers it, else clipped if a
        clipped one covers it, else unmatched."""
        rank = {"unmatched": 0, "clipped": 1, "matched": 2}
        best: list[Status] = ["unmatched"] * len(self.hypothesis_tokens)
        for o in self.of_order(n):
            for i in range(o.start, o.end):
                if rank[o.status] > rank[best[i]]:
                    best[i] = o.status
        return tuple(best)

    def statistics_row(self) -> list[float]:
        """The segment's sufficient-statistics row (same as :func:`bleu_core.engine.statistics.segment_row`)."""
        return segment_row(self.hypothesis_tokens, self.reference_tokens, self.max_order)


def match_provenance(
    hypothesis: str,
    references: Sequence[str],
    *,
    max_order: int = 4,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> SegmentMatches:
    """Explain one segment: every hypothesis n-gram occurrence with its status and reference counts."""
    if isinstance(references, str):
        references = [references]
    tokenizer = get_tokenizer(tokenize, lowercase)
    hyp = tuple(tokenizer(hypothesis))
    refs = tuple(tuple(tokenizer(r)) for r in references if r is not None)
    ref_counters = []
    for ref in refs:
        c: Counter[tuple[str, ...]] = Counter()
        for n in range(1, max_order + 1):
            for i in range(len(ref) - n + 1):
                c[ref[i : i + n]] += 1
        ref_counters.append(c)
    occurrences: list[NgramOccurrence] = []
    for n in range(1, max_order + 1):
        grams = [hyp[i : i + n] for i in range(len(hyp) - n + 1)]
        hyp_counts = Counter(grams)
        seen: defaultdict[tuple[str, ...], int] = defaultdict(int)
        for i, g in enumerate(grams):
            ref_counts = tuple(c.get(g, 0) for c in ref_counters)
            clip = max(ref_counts, default=0)
            index = seen[g]
            seen[g] += 1
            status: Status = (
                "unmatched" if clip == 0 else ("matched" if index < clip else "clipped")
            )
            occurrences.append(
                NgramOccurrence(n, i, i + n, g, status, ref_counts, clip, hyp_counts[g], index)
            )
    return SegmentMatches(hyp, refs, max_order, tuple(occurrences))
