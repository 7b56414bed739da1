"""Did each judge pass the quality control? Tutorial answers against their expected answers, attention checks
against the original items, and a pass rate per judge (:mod:`bleu_core.campaigns.qc_items` makes the items).

A **tutorial** is passed when every expected span was marked (a marked span overlapping it, any severity; an
expected ``[missing]`` by a ``[missing]`` mark), no major error was marked where none was expected, and each
score is in its expected range. What was missed is said in words, for the judge's feedback.

An **attention check** is passed when the judge marked a span overlapping the swapped phrase, or scored the
damaged copy clearly lower than the original on the first criterion (by :data:`SLIDER_MARGIN` on a 0-100
scale, by 1 on a short scale). It is *pending* until the judge has rated both.

A judge **fails** when they answered at least one check and passed fewer than the campaign's pass rate
(``quality_control["pass_rate"]``, default two thirds). A failed judge's ratings are left out of the analyses
unless the organiser keeps them (:meth:`~bleu_core.campaigns.storage.CampaignStore.keep_judge`).

>>> from bleu_core.campaigns.model import Item
>>> from bleu_core.campaigns.protocols import MarkedSpan, protocol_criteria
>>> crits = protocol_criteria("esa")
>>> item = Item(0, "s1", "A", "the cat sat", kind="tutorial",
...             qc={"expected_spans": [MarkedSpan(4, 7, "major").to_dict()], "scores": {"esa": [0, 66]}})
>>> check_outcome(item, crits, {"esa": 90}, [], {}).missed
("you did not mark 'cat' (major)", 'your esa score 90 is outside the expected 0-66')
>>> check_outcome(item, crits, {"esa": 40}, [MarkedSpan(4, 7, "minor")], {}).passed
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bleu_core.campaigns.model import Item, RatingCriterion
from bleu_core.campaigns.protocols import MarkedSpan, is_slider

#: How much lower a damaged copy must be scored than its original on a 0-100 scale.
SLIDER_MARGIN = 10
#: Share of the answered checks a judge must pass not to be flagged.
DEFAULT_PASS_RATE = 2 / 3


@dataclass(frozen=True)
class CheckOutcome:
    """One quality-control item as one judge answered it; ``passed`` is ``None`` while pending."""

    position: int
    kind: str
    passed: bool | None
    missed: tuple[str, ...] = ()
    explanation: str = ""


@dataclass(frozen=True)
class JudgeQuality:
    """One judge's quality control: checks answered and passed, the pass rate, flagged or kept."""

    judge: str
    group: str
    n_answered: int
    n_passed: int
    n_pending: int
    failed: bool
    kept: bool
    outcomes: tuple[CheckOutcome, ...] = ()

    @property
    def pass_rate(self) -> float | None:
        """Share of the answered checks passed (``None`` before the first answer)."""
        return self.n_passed / self.n_answered if self.n_answered else None

    @property
    def excluded(self) -> bool:
        """True when the judge's ratings are left out of the analyses."""
        return self.failed and not self.kept


def _overlaps(span: MarkedSpan, start: int, end: int) -> bool:
    return (
        not span.missing
        and span.start is not None
        and span.end is not None
        and (span.start < end and start < span.end)
    )


def _tutorial(
    item: Item,
    criteria: Sequence[RatingCriterion],
    scores: Mapping[str, int],
    spans: Sequence[MarkedSpan],
) -> CheckOutcome:
    qc = item.qc or {}
    expected = [MarkedSpan.from_dict(d) for d in qc.get("expected_spans", [])]
    missed = []
    for exp in expected:
        if exp.missing:
            if not any(s.missing for s in spans):
                missed.append("you did not mark the [missing] omission")
        elif not any(_overlaps(s, exp.start or 0, exp.end or 0) for s in spans):
            missed.append(
                f"you did not mark {item.translation[exp.start : exp.end]!r} ({exp.severity})"
            )
    for s in spans:
        if s.severity == "major" and not s.missing:
            if not any(_overlaps(s, e.start or 0, e.end or 0) for e in expected if not e.missing):
                missed.append(
                    f"you marked {item.translation[s.start : s.end]!r} as a major error, "
                    "but it is correct"
                )
    for crit in criteria:
        low, high = qc.get("scores", {}).get(crit.name, (crit.low, crit.high))
        score = scores.get(crit.name)
        if score is not None and not low <= score <= high:
            missed.append(f"your {crit.name} score {score} is outside the expected {low}-{high}")
    return CheckOutcome(
        item.position, "tutorial", not missed, tuple(missed), str(qc.get("explanation", ""))
    )


def _attention(
    item: Item,
    criterion: RatingCriterion,
    scores: Mapping[str, int],
    spans: Sequence[MarkedSpan],
    original: Mapping[str, int],
) -> CheckOutcome:
    qc = item.qc or {}
    phrase = str(qc.get("phrase", ""))
    explanation = f"'{phrase}' was swapped in from another sentence."
    if any(_overlaps(s, int(qc["start"]), int(qc["end"])) for s in spans):
        return CheckOutcome(item.position, "attention", True, (), explanation)
    damaged, before = scores.get(criterion.name), original.get(criterion.name)
    if damaged is None or before is None:
        return CheckOutcome(item.position, "attention", None, (), explanation)
    margin = SLIDER_MARGIN if is_slider(criterion) else 1
    if damaged <= before - margin:
        return CheckOutcome(item.position, "attention", True, (), explanation)
    missed = (
        f"the damaged copy got {criterion.name} {damaged}, the original {before}; "
        f"'{phrase}' was not marked",
    )
    return CheckOutcome(item.position, "attention", False, missed, explanation)


def check_outcome(
    item: Item,
    criteria: Sequence[RatingCriterion],
    scores: Mapping[str, int],
    spans: Sequence[MarkedSpan],
    original_scores: Mapping[str, int],
) -> CheckOutcome:
    """How one judge answered quality-control *item* (``scores`` and ``spans`` theirs for it;
    ``original_scores`` theirs for the original of an attention check)."""
    if item.kind == "tutorial":
        if not scores:
            return CheckOutcome(item.position, "tutorial", None)
        return _tutorial(item, criteria, scores, spans)
    return _attention(item, criteria[0], scores, spans, original_scores)


def judge_quality(
    judge: str,
    group: str,
    items: Sequence[Item],
    criteria: Sequence[RatingCriterion],
    scores: Mapping[int, Mapping[str, int]],
    spans: Mapping[int, Sequence[MarkedSpan]],
    *,
    kept: bool = False,
    pass_rate: float = DEFAULT_PASS_RATE,
) -> JudgeQuality:
    """One judge's :class:`JudgeQuality` from their ``{position: {criterion: score}}`` and
    ``{position: spans}`` over the campaign's *items*."""
    outcomes = []
    for item in items:
        if item.kind not in ("tutorial", "attention"):
            continue
        original = scores.get(int((item.qc or {}).get("original", -1)), {})
        outcomes.append(
            check_outcome(
                item,
                criteria,
                scores.get(item.position, {}),
                spans.get(item.position, ()),
                original,
            )
        )
    answered = [o for o in outcomes if o.passed is not None]
    passed = sum(1 for o in answered if o.passed)
    failed = bool(answered) and passed < pass_rate * len(answered) - 1e-9
    return JudgeQuality(
        judge,
        group,
        len(answered),
        passed,
        len(outcomes) - len(answered),
        failed,
        kept,
        tuple(outcomes),
    )
