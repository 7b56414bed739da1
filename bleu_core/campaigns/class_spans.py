"""What a class's error spans say next to BLEU: per word, how many students marked it and whether BLEU
matched it; the token-level agreement table of BLEU and the class; how much students' spans overlap.

A token is **in error for the class** when at least half of the students who rated the item marked a span
overlapping it (a majority; ties count as marked). With that, the 2 × 2 table of
:mod:`bleu_core.study.error_agreement` (rewarded errors, penalised correct words) is computed exactly as for
expert MQM spans, with :func:`bleu_core.study.segment_tokens.token_records`.

**The class against the experts**: where the study has expert error spans (MQM or ESA) for a rated item,
:func:`expert_spans` keeps them with the campaign, and :func:`class_vs_experts` counts the item's tokens
marked by both, by the class only, by the experts only, and by neither.

**Span overlap** between two students on one item is the Jaccard index of the characters they marked (both
marked nothing: 1, they agree there is no error); the class's overlap is the mean over every pair of students
who rated the same item, over all items. ``[missing]`` marks cover no character and are left out of it.

>>> from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
>>> spans = [StoredSpan("K", "ana", "g", 0, "1", "A", MarkedSpan(8, 11, "major")),
...          StoredSpan("K", "bo", "g", 0, "1", "A", MarkedSpan(8, 11, "minor"))]
>>> marks = item_marks("the cat sat", ["the cat sat down"], spans, ["ana", "bo", "cy"])
>>> [(t.text, t.status, t.n_marked) for t in marks.tokens]
[('the', 'matched', 0), ('cat', 'matched', 0), ('sat', 'matched', 2)]
>>> marks.counts()
AgreementCounts(matched_in_error=1, matched_clean=2, unmatched_in_error=0, unmatched_clean=0)
>>> round(span_overlap(spans, ["ana", "bo", "cy"]), 3)   # ana-bo 1, ana-cy 0, bo-cy 0
0.333
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.campaigns.planning import CampaignPlan, with_protocol
from bleu_core.campaigns.protocols import StoredSpan
from bleu_core.study.agreement_counts import AgreementCounts
from bleu_core.study.segment_tokens import token_records

if TYPE_CHECKING:
    from bleu_core.study.model import Study


@dataclass(frozen=True)
class MarkedToken:
    """One token of the translation: its text and offsets, BLEU's status, how many students marked it."""

    text: str
    start: int
    end: int
    status: str
    n_marked: int


@dataclass(frozen=True)
class ItemMarks:
    """The tokens of one item with the class's marks; ``n_students`` rated it."""

    tokens: tuple[MarkedToken, ...]
    n_students: int
    n_missing: int

    def in_error(self, token: MarkedToken) -> bool:
        """At least half of the students who rated the item marked *token*."""
        return self.n_students > 0 and 2 * token.n_marked >= self.n_students and token.n_marked > 0

    def counts(self) -> AgreementCounts:
        """The 2 × 2 table of BLEU's matches against the class's majority marks."""
        cells = [0, 0, 0, 0]
        for token in self.tokens:
            matched = token.status == "matched"
            cells[(0 if matched else 2) + (0 if self.in_error(token) else 1)] += 1
        return AgreementCounts(*cells)


def item_marks(
    translation: str,
    references: Sequence[str],
    spans: Sequence[StoredSpan],
    students: Sequence[str],
    *,
    max_order: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> ItemMarks:
    """The tokens of *translation* with BLEU's status against *references* and the number of *students* (those
    who rated the item) whose spans (of this item) overlap each token."""
    seg = token_records(
        translation, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase
    )
    who = set(students)
    tokens = []
    for t in seg.tokens:
        marked = {
            s.judge
            for s in spans
            if s.judge in who
            and not s.span.missing
            and (s.span.start or 0) < t.end
            and t.start < (s.span.end or 0)
        }
        tokens.append(MarkedToken(t.text, t.start, t.end, t.status, len(marked)))
    missing = len({s.judge for s in spans if s.judge in who and s.span.missing})
    return ItemMarks(tuple(tokens), len(who), missing)


def span_overlap(spans: Sequence[StoredSpan], students: Sequence[str]) -> float:
    """Mean pairwise Jaccard index of the characters *students* marked on one item (``nan`` with fewer than
    two students).

    One row of 0/1 per student over the item's characters: a matrix product counts every pair's common
    characters at once (a class of 100 has 4,950 pairs per item). Each Jaccard index is the same division
    of two whole numbers as with sets, and ``math.fsum`` adds them exactly, in any order."""
    names = sorted(set(students))
    if len(names) < 2:
        return math.nan
    row_of = {name: i for i, name in enumerate(names)}
    ends = [s.span.end or 0 for s in spans if s.judge in row_of and not s.span.missing]
    marked = np.zeros((len(names), max(ends, default=0) + 1))
    for s in spans:
        if s.judge in row_of and not s.span.missing:
            marked[row_of[s.judge], s.span.start or 0 : s.span.end or 0] = 1.0
    common = marked @ marked.T  # whole numbers, exact in float64
    sizes = marked.sum(axis=1)
    upper = np.triu_indices(len(names), k=1)
    union = (sizes[:, None] + sizes[None, :] - common)[upper]
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(union == 0, 1.0, common[upper] / union)
    return math.fsum(values.tolist()) / len(values)


def class_span_overlap(spans: Sequence[StoredSpan], raters: Mapping[int, Sequence[str]]) -> float:
    """:func:`span_overlap` averaged over every pair of students on every item (*raters*: who rated each
    position), ``nan`` when no item has two students."""
    by_item: dict[int, list[StoredSpan]] = {}
    for s in spans:
        by_item.setdefault(s.position, []).append(s)
    total, pairs = 0.0, 0
    for position, students in raters.items():
        n = len(students) * (len(students) - 1) // 2
        if n:
            total += span_overlap(by_item.get(position, []), students) * n
            pairs += n
    return total / pairs if pairs else math.nan


def esa_lesson(plan: CampaignPlan, study: Study) -> CampaignPlan:
    """A class-mode lesson *plan* made an ESA campaign, carrying the study's expert spans of its items
    (``metadata["expert_spans"]``, see :func:`expert_spans`) for the projector."""
    esa = with_protocol(plan, "esa")
    return replace(esa, metadata={**esa.metadata, "expert_spans": expert_spans(study, esa)})


def expert_spans(study: Study, plan: Any) -> dict[str, list[list[int]]]:
    """The target-side expert spans of every (system, segment) item of *plan* in *study*, keyed
    ``"<system>\t<segment>"``, as ``[start, end]`` pairs (items without spans left out)."""
    wanted = {(it.system, it.segment_id) for it in plan.items}
    out: dict[str, list[list[int]]] = {}
    for span in study.error_spans:
        if (
            span.side == "target"
            and (span.system, span.segment_id) in wanted
            and span.end > span.start
        ):
            out.setdefault(f"{span.system}\t{span.segment_id}", []).append([span.start, span.end])
    return out


@dataclass(frozen=True)
class ExpertAgreement:
    """Tokens of the rated items marked by both the class (majority) and the experts, by one only, or none."""

    both: int = 0
    class_only: int = 0
    experts_only: int = 0
    neither: int = 0

    def __add__(self, other: ExpertAgreement) -> ExpertAgreement:
        return ExpertAgreement(
            self.both + other.both,
            self.class_only + other.class_only,
            self.experts_only + other.experts_only,
            self.neither + other.neither,
        )


def class_vs_experts(marks: ItemMarks, experts: Sequence[Sequence[int]]) -> ExpertAgreement:
    """How the class's majority marks of one item meet the experts' spans (``[start, end]`` pairs), token by
    token.

    >>> from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
    >>> spans = [StoredSpan("K", "ana", "g", 0, "1", "A", MarkedSpan(4, 7, "major"))]
    >>> marks = item_marks("the cat sat", ["the dog sat"], spans, ["ana"])
    >>> class_vs_experts(marks, [[4, 11]])
    ExpertAgreement(both=1, class_only=0, experts_only=1, neither=1)
    """
    cells = [0, 0, 0, 0]
    for token in marks.tokens:
        expert = any(start < token.end and token.start < end for start, end in experts)
        cells[(0 if marks.in_error(token) else 2) + (0 if expert else 1)] += 1
    both, class_only, experts_only, neither = cells[0], cells[1], cells[2], cells[3]
    return ExpertAgreement(both, class_only, experts_only, neither)
