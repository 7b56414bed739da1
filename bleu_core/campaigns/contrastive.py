"""Contrastive ESA (``cesa``): two or three translations of one source sentence rated side by side, as WMT26.

WMT26 rates with Pearmut's contrastive ESA: the annotator sees the source and every system's translation of it
together, marks the error spans of each translation and scores each 0-100. Pearmut 1.1.6
(``web/src/annotate.ts``) starts each slider unset (``❓/100``), names the score's band next to the number
(:data:`BANDS`: *very good* from 85, *good* from 65, *acceptable* from 45, *borderline* from 25, *not
acceptable* below) and calls a score below 85 with no error span marked an error ("Please highlight errors in the
translation."). Here that error refuses the Save (:func:`screen_refusal`).

Storage is ESA's: one item per (segment, system), one rating per (student, item) of criterion ``esa``, and the
spans in the span store. What makes it contrastive is the *layout*: :func:`contrastive_plan` puts the items of
one segment at consecutive positions, one **screen** per segment (the systems in a seeded order of their own on
each screen, so no system is always on top), and :func:`screen_positions` finds the screen of a position from
the number of systems. A screen is saved item by item after the whole screen passed :func:`screen_refusal`, so
a refused screen stores nothing.

The projector compares the class's paired judgments with BLEU's order
(:mod:`bleu_core.campaigns.pairwise_preference`); the sentence BLEU of every item travels in the lesson's
metadata (``metadata["sentence_bleu"]``, keyed ``"<segment>\\t<system>"``).

>>> band(85), band(84), band(24)
('very good', 'good', 'not acceptable')
>>> screen_refusal([("A", 70, []), ("B", None, [])])
'Translation A: you scored 70 but marked no error; below 85 WMT26 asks for the errors: mark them, or raise the score.'
>>> screen_positions(4, n_positions=9, per_screen=3)
(3, 4, 5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from bleu_core.campaigns.model import CampaignError, Item
from bleu_core.campaigns.planning import CampaignPlan, with_protocol
from bleu_core.campaigns.protocols import MarkedSpan
from bleu_core.campaigns.session import JudgeSession

__all__ = [
    "BANDS",
    "CESA",
    "MAX_PER_SCREEN",
    "SCORE_STEP",
    "SPANS_REQUIRED_BELOW",
    "band",
    "contrastive_plan",
    "screen_positions",
    "screen_refusal",
    "sentence_bleu_of",
    "submit_screen",
]

#: The protocol's name in a campaign.
CESA = "cesa"
#: WMT26's (Pearmut's) descriptor bands of the 0-100 score: (lowest score of the band, its name), best first.
BANDS: tuple[tuple[int, str], ...] = (
    (85, "very good"),
    (65, "good"),
    (45, "acceptable"),
    (25, "borderline"),
    (0, "not acceptable"),
)
#: Below this score a translation must have an error span marked (WMT26).
SPANS_REQUIRED_BELOW = 85
#: The slider's step (Pearmut's cESA slider moves in steps of 5).
SCORE_STEP = 5
#: A phone shows at most this many translations of one sentence.
MAX_PER_SCREEN = 3


def band(score: int) -> str:
    """The name of the WMT26 band of a 0-100 *score*."""
    for low, name in BANDS:
        if score >= low:
            return name
    raise CampaignError(f"score {score!r} is below 0; scores run from 0 to 100")


def screen_refusal(answers: Sequence[tuple[str, int | None, Sequence[MarkedSpan]]]) -> str | None:
    """Why a screen cannot be saved, or ``None`` when it can.

    *answers* are ``(label, score, spans)`` per translation on the screen (``score`` ``None``: the slider
    was never touched). Every translation needs a score, and a score below :data:`SPANS_REQUIRED_BELOW` needs
    at least one marked span. The first translation with a problem is named.

    >>> screen_refusal([("A", None, [])])
    'Translation A has no score yet: move its slider (to 100 if it is perfect).'
    >>> screen_refusal([("A", 90, []), ("B", 40, [MarkedSpan(0, 1, "major")])]) is None
    True
    """
    for label, score, spans in answers:
        if score is None:
            return (
                f"Translation {label} has no score yet: move its slider (to 100 if it is perfect)."
            )
        if score < SPANS_REQUIRED_BELOW and not spans:
            return (
                f"Translation {label}: you scored {score} but marked no error; below "
                f"{SPANS_REQUIRED_BELOW} WMT26 asks for the errors: mark them, or raise the score."
            )
    return None


def screen_positions(position: int, *, n_positions: int, per_screen: int) -> tuple[int, ...]:
    """The positions shown together with *position*: its screen of *per_screen* consecutive items."""
    if per_screen < 1:
        raise CampaignError(f"a screen shows at least 1 translation, not {per_screen}")
    if not 0 <= position < n_positions:
        raise CampaignError(f"position {position} does not exist; use 0 to {n_positions - 1}")
    first = position - position % per_screen
    return tuple(range(first, min(first + per_screen, n_positions)))


def _screens(
    items: Sequence[Item], systems: Sequence[str], segments: Sequence[str], seed: int
) -> tuple[Item, ...]:
    """The items one screen per segment, segments and each screen's systems in a seeded order."""
    by_key = {(it.segment_id, it.system): it for it in items}
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(3)[2])
    laid: list[Item] = []
    for s in rng.permutation(len(segments)):
        for k in rng.permutation(len(systems)):
            item = by_key[segments[int(s)], systems[int(k)]]
            laid.append(replace(item, position=len(laid)))
    return tuple(laid)


def contrastive_plan(
    plan: CampaignPlan, sentence_bleu: Mapping[tuple[str, str], float] | None = None
) -> CampaignPlan:
    """*plan* (e.g. a class lesson, :func:`~bleu_core.campaigns.lesson.lesson_plan`) as a contrastive ESA
    campaign: protocol ``cesa`` with ESA's criterion, its items laid out one screen per segment (seeded by
    the plan's seed), and *sentence_bleu* ``{(segment, system): BLEU 0-100}`` kept in the metadata for the
    projector. Two or three systems (:data:`MAX_PER_SCREEN`).

    >>> from bleu_core.campaigns.planning import plan_campaign
    >>> plan = plan_campaign(name="demo", study_name="toy", segment_ids=["s1", "s2"],
    ...     translations={"A": ["a1", "a2"], "B": ["b1", "b2"]}, sources=["x1", "x2"], references=None,
    ...     systems=["A", "B"], n_segments=2, seed=3, display="source")
    >>> cesa = contrastive_plan(plan, {("s1", "A"): 10.0})
    >>> segs = [it.segment_id for it in cesa.items]
    >>> cesa.protocol, segs[0] == segs[1] != segs[2] == segs[3], cesa.metadata["sentence_bleu"]
    ('cesa', True, {'s1\\tA': 10.0})
    """
    if not 2 <= len(plan.systems) <= MAX_PER_SCREEN:
        raise CampaignError(
            f"contrastive ESA shows 2 or {MAX_PER_SCREEN} translations of a sentence together, not "
            f"{len(plan.systems)}; choose 2 or {MAX_PER_SCREEN} systems"
        )
    if any(it.kind != "test" for it in plan.items):
        raise CampaignError(
            "contrastive ESA shows test items only (no tutorial or attention items): plan the "
            "campaign without quality control"
        )
    cesa = with_protocol(plan, CESA)
    items = _screens(cesa.items, cesa.systems, cesa.segment_ids, cesa.seed)
    keyed = {f"{seg}\t{system}": float(v) for (seg, system), v in (sentence_bleu or {}).items()}
    return replace(cesa, items=items, metadata={**cesa.metadata, "sentence_bleu": keyed})


def sentence_bleu_of(metadata: Mapping[str, object]) -> dict[tuple[str, str], float]:
    """The ``{(segment, system): sentence BLEU}`` a contrastive lesson carries (empty when it carries none).

    >>> sentence_bleu_of({"sentence_bleu": {"s1\\tA": 12.5}})
    {('s1', 'A'): 12.5}
    """
    raw = metadata.get("sentence_bleu")
    if not isinstance(raw, Mapping):
        return {}
    out: dict[tuple[str, str], float] = {}
    for key, value in raw.items():
        segment, _, system = str(key).partition("\t")
        out[segment, system] = float(value)
    return out


def submit_screen(
    session: JudgeSession,
    answers: Mapping[int, tuple[int | None, Sequence[MarkedSpan]]],
    *,
    at_cursor: bool = False,
) -> int:
    """Save a whole screen of a contrastive campaign: ``{position: (score, spans)}`` for every position of
    the screen. Refused (nothing stored, :class:`CampaignError` with :func:`screen_refusal`'s word) unless
    every translation has a score and every score below :data:`SPANS_REQUIRED_BELOW` has a span; the
    positions must be exactly one screen. With *at_cursor* (the Rate page) the screen must be the one the
    judge is on: a late second tap of Save raises :class:`~bleu_core.campaigns.model.AlreadySaved` and
    changes nothing. Returns the position after the screen (where the judge goes next).
    """
    if not answers:
        raise CampaignError("nothing to save: the screen has no translation")
    per_screen = len(session.campaign.systems)
    first = min(answers)
    screen = screen_positions(first, n_positions=session.n_items, per_screen=per_screen)
    if set(answers) != set(screen):
        raise CampaignError(
            f"positions {sorted(answers)} are not one screen; the screen of position {first} is "
            f"{list(screen)}"
        )
    labels = {pos: chr(ord("A") + k) for k, pos in enumerate(screen)}
    refusal = screen_refusal([(labels[p], answers[p][0], answers[p][1]) for p in screen])
    if refusal:
        raise CampaignError(refusal)
    criterion = session.campaign.criteria[0].name
    nxt = first
    for pos in screen:
        score, spans = answers[pos]
        assert score is not None
        nxt = session.submit(pos, {criterion: score}, list(spans), at_cursor=at_cursor)
    return nxt
