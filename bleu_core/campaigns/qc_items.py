"""Quality-control items mixed into a campaign, as WMT's campaigns do: tutorials and attention checks.

*Tutorial items* come first. Each has an expected answer (in the item's ``qc``): a reference translation
rated as it is (no major error, a high score), or a reference with a phrase swapped in from another segment
(that phrase a major error, a low score). After answering, the judge sees what they missed
(:func:`bleu_core.campaigns.quality.check_outcome`). Without references, the tutorials are damaged system
translations and only the swapped phrase is expected.

*Attention checks* are test items damaged on purpose, as Appraise's ``BAD`` items: a phrase of the
translation replaced by a phrase of another segment's translation (:func:`damage`), shown some items after
the original and looking like any other item. A judge who reads passes it by marking the swapped phrase or by
scoring the damaged copy lower than the original.

Everything is drawn with the campaign's seed, so the same plan always gets the same checks.

>>> import random
>>> damage("the cat sat on the mat", "a dog ran far away", random.Random(1))
Damage(text='the away sat on the mat', start=4, end=8, phrase='away')
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from bleu_core.campaigns.model import CampaignError, Item
from bleu_core.campaigns.planning import CampaignPlan
from bleu_core.campaigns.protocols import MarkedSpan
from bleu_core.campaigns.quality import DEFAULT_PASS_RATE

_WORD = re.compile(r"\S+")
#: Fewest items between an original and its attention check.
MIN_GAP = 2


@dataclass(frozen=True)
class Damage:
    """A translation with a phrase swapped in: the new ``text``, where the phrase is in it, the phrase."""

    text: str
    start: int
    end: int
    phrase: str


def damage(text: str, donor: str, rng: random.Random) -> Damage | None:
    """*text* with a stretch of its words replaced by as many words of *donor* (a quarter of the words,
    1 to 4), or ``None`` when either text has no words or the swap would change nothing."""
    words = [m.span() for m in _WORD.finditer(text)]
    donor_words = [m.span() for m in _WORD.finditer(donor)]
    if not words or not donor_words:
        return None
    k = max(1, min(4, len(words) // 4, len(donor_words)))
    i = rng.randrange(len(words) - k + 1)
    j = rng.randrange(len(donor_words) - k + 1)
    phrase = donor[donor_words[j][0] : donor_words[j + k - 1][1]]
    start, end = words[i][0], words[i + k - 1][1]
    if text[start:end] == phrase:
        return None
    return Damage(text[:start] + phrase + text[end:], start, start + len(phrase), phrase)


def _donor(items: list[Item], segment_id: str, rng: random.Random) -> str | None:
    others = [it.translation for it in items if it.segment_id != segment_id]
    return rng.choice(others) if others else None


def _score_ranges(criteria: tuple[Any, ...], good: bool) -> dict[str, list[int]]:
    """Expected scores: the top third of each scale for a correct text, the lower two thirds (up to the
    ESA anchor 66 on 0-100) for a damaged one."""
    ranges = {}
    for crit in criteria:
        width = crit.high - crit.low
        cut = crit.low + round(width * 0.66)
        ranges[crit.name] = [cut, crit.high] if good else [crit.low, cut]
    return ranges


def _tutorial(plan: CampaignPlan, base: Item, k: int, rng: random.Random) -> Item | None:
    """Tutorial *k*: the reference of *base* as it is (even *k*) or damaged (odd *k*, or no reference)."""
    donor = _donor(list(plan.items), base.segment_id, rng)
    text = base.reference or base.translation
    clean = bool(base.reference) and k % 2 == 0
    if clean:
        qc: dict[str, Any] = {"expected_spans": [], "scores": _score_ranges(plan.criteria, True)}
        qc["explanation"] = "This is a human reference translation: it has no major error."
        return replace(base, kind="tutorial", translation=text, qc=qc)
    hit = damage(text, donor, rng) if donor else None
    if hit is None:
        return None
    span = MarkedSpan(hit.start, hit.end, "major").to_dict()
    qc = {
        "expected_spans": [span],
        "scores": _score_ranges(plan.criteria, False) if base.reference else {},
        "explanation": f"'{hit.phrase}' was taken from another sentence: a major error.",
    }
    return replace(base, kind="tutorial", translation=hit.text, qc=qc)


def _attention_slots(n_test: int, n_checks: int, rng: random.Random) -> list[tuple[int, int]]:
    """``(original index, insert after index)`` pairs among *n_test* test items, at least :data:`MIN_GAP`
    items apart (fewer pairs when the campaign is too short)."""
    candidates = list(range(max(0, n_test - MIN_GAP)))
    originals = sorted(rng.sample(candidates, min(n_checks, len(candidates))))
    return [(i, rng.randrange(i + MIN_GAP, n_test + 1) - 1) for i in originals]


def add_quality_control(
    plan: CampaignPlan,
    *,
    tutorials: int = 2,
    attention: int = 2,
    pass_rate: float = DEFAULT_PASS_RATE,
) -> CampaignPlan:
    """*plan* with *tutorials* tutorial items first and *attention* attention checks mixed in (seeded with
    the plan's seed); positions are renumbered 0, 1, 2, ... and ``quality_control`` records the settings."""
    if any(it.kind != "test" for it in plan.items):
        raise CampaignError("this plan has quality-control items already; add them once")
    for what, n in (("tutorial items", tutorials), ("attention checks", attention)):
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 20:
            raise CampaignError(f"{what}: give a whole number from 0 to 20, not {n!r}")
    if not 0 <= pass_rate <= 1:
        raise CampaignError(f"pass rate {pass_rate!r} is not between 0 and 1")
    rng = random.Random(f"quality-control:{plan.seed}")
    tests = list(plan.items)
    bases = rng.sample(tests, min(tutorials, len(tests)))
    made = [_tutorial(plan, base, k, rng) for k, base in enumerate(bases)]
    ordered: list[Item] = [t for t in made if t is not None]
    offset = len(ordered)
    checks: dict[int, list[Item]] = {}
    for original, after in _attention_slots(len(tests), attention, rng):
        base = tests[original]
        donor = _donor(tests, base.segment_id, rng)
        hit = damage(base.translation, donor, rng) if donor else None
        if hit is not None:
            marks = {"original": original, "start": hit.start, "end": hit.end, "phrase": hit.phrase}
            checks.setdefault(after, []).append(
                replace(base, kind="attention", translation=hit.text, qc=marks)
            )
    index_of: dict[int, int] = {}
    for i, item in enumerate(tests):
        index_of[i] = len(ordered)
        ordered.append(item)
        ordered.extend(checks.get(i, []))
    final = []
    for pos, item in enumerate(ordered):
        qc = item.qc
        if item.kind == "attention" and qc is not None:
            qc = {**qc, "original": index_of[qc["original"]]}
        final.append(replace(item, position=pos, qc=qc))
    settings: dict[str, float] = {
        "tutorials": offset,
        "attention": len(final) - offset - len(tests),
    }
    settings["pass_rate"] = pass_rate
    return replace(plan, items=tuple(final), quality_control=settings)
