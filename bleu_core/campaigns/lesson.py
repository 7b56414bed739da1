"""Class mode: the BLEU paper's human evaluation (§4-5) run live in one lesson.

A teacher opens a study, makes a *lesson campaign* in one click and shows a join code on the projector; the
students rate a handful of translations on their phones, and the projector shows the class's own judgment
against BLEU as the ratings arrive (the paper's Figures 5-7, drawn from the live ratings).

Two pure pieces live here; the Campaigns page and the projector dashboard only draw them.

* :func:`lesson_plan` sizes a campaign for a lesson: a few systems spread over the BLEU range (one human
  translation among them when the study has one: the paper rated two humans next to three MT systems), a few
  short segments (easy to read on a phone), adequacy and fluency. The corpus BLEU of every chosen system over
  the *whole* study, its signature and the study's expert scores (e.g. MQM) travel in the campaign's
  metadata, so the dashboard needs no study to draw BLEU against the class.
* :func:`class_snapshot` sums the ratings so far: who joined, how many ratings, the mean score of each system
  per criterion, BLEU against those means (least-squares line and Pearson r, as in the paper's §5),
  Krippendorff's alpha with its bootstrap interval and how alpha moved as the ratings came in, and the class
  against the experts where the study has expert scores.

>>> choose_lesson_systems({"a": 10.0, "b": 20.0, "c": 30.0, "d": 40.0, "e": 50.0, "H": 35.0}, {"H"}, 3)
('H', 'a', 'e')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleu_core.campaigns.agreement import AlphaResult, krippendorff_alpha, reliability_data
from bleu_core.campaigns.model import Campaign, CampaignError, RatingCriterion, StoredRating
from bleu_core.campaigns.planning import CampaignPlan, plan_campaign
from bleu_core.maths.correlation import pearson_r
from bleu_core.maths.regression import linear_fit
from bleu_core.study.model import Study

__all__ = [
    "LESSON_SEGMENTS",
    "LESSON_SYSTEMS",
    "RATINGS_PER_SYSTEM",
    "READS",
    "STUDY_SOURCE",
    "ClassSnapshot",
    "LessonFit",
    "choose_lesson_systems",
    "class_snapshot",
    "is_lesson",
    "lesson_criteria",
    "lesson_display",
    "lesson_plan",
    "lesson_segments",
    "lesson_study_source",
    "seconds_per_item",
]

#: The paper rated 5 systems; 10 segments × 5 systems × 2 criteria is ~10 minutes of rating for a student.
LESSON_SYSTEMS = 5
LESSON_SEGMENTS = 10
#: Segments longer than this (words of the source, and of every chosen translation) are left out when enough
#: shorter ones remain: a phone shows ~35 words without scrolling.
LESSON_MAX_WORDS = 35
LESSON_MARK = "lesson"
#: The metadata key of where the lesson's study came from (:func:`lesson_plan`'s *study_source*).
STUDY_SOURCE = "study_source"


def choose_lesson_systems(
    system_bleu: Mapping[str, float], human_systems: set[str] | frozenset[str], n: int
) -> tuple[str, ...]:
    """*n* systems spread over the BLEU range: the best-scored human translation when there is one, then
    machine systems at evenly spaced BLEU ranks (the lowest and the highest always among them).

    Systems with a non-finite BLEU are skipped. Raises :class:`CampaignError` when fewer than two remain.
    """
    if n < 2:
        raise CampaignError(f"a lesson needs at least 2 systems, not {n}")
    scored = {s: float(b) for s, b in system_bleu.items() if math.isfinite(float(b))}
    humans = sorted((s for s in scored if s in human_systems), key=lambda s: -scored[s])
    machines = sorted((s for s in scored if s not in human_systems), key=lambda s: scored[s])
    if len(humans) + len(machines) < 2:
        raise CampaignError(
            "a lesson needs at least 2 systems with a BLEU score; the study has fewer"
        )
    chosen = humans[:1]
    k = min(n - len(chosen), len(machines))
    if k > 0:
        ranks = np.unique(np.round(np.linspace(0, len(machines) - 1, k)).astype(int))
        chosen += [machines[i] for i in ranks]
    return tuple(chosen)


#: The class's mean of a system settles once the system has about this many ratings of a criterion: a 1-5
#: rating has a standard deviation near 1, so the mean's standard error is then ~0.15, well below the spread of
#: systems from a weak MT system to a human translation (1-2 points), and r stops swinging.
RATINGS_PER_SYSTEM = 40
#: Fewer segments than this and the class's means follow a few sentences rather than the test set BLEU was
#: computed on; more than this is too long for a lesson.
MIN_LESSON_SEGMENTS = 10
MAX_LESSON_SEGMENTS = 30
#: What the class reads: the translations' language, the source language, or both.
READS = ("target", "source", "both")


def lesson_segments(n_students: int, ratings_per_system: int = RATINGS_PER_SYSTEM) -> int:
    """Segments per student so that every system gets *ratings_per_system* ratings from *n_students* (every
    student rates every system on every segment), within :data:`MIN_LESSON_SEGMENTS` ..
    :data:`MAX_LESSON_SEGMENTS`.

    >>> lesson_segments(20), lesson_segments(3), lesson_segments(1)
    (10, 14, 30)
    >>> lesson_segments(0)
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.CampaignError: a lesson needs at least 1 student, not 0
    """
    if n_students < 1:
        raise CampaignError(f"a lesson needs at least 1 student, not {n_students}")
    need = math.ceil(ratings_per_system / n_students)
    return max(MIN_LESSON_SEGMENTS, min(MAX_LESSON_SEGMENTS, need))


def lesson_display(reads: str, *, has_reference: bool, has_source: bool) -> str:
    """What the students see next to the translation, given what the class reads (:data:`READS`): a reference
    translation when they read the translations' language, the source when they read the source language,
    both when they read both (whatever the study has of these).

    >>> lesson_display("target", has_reference=True, has_source=True)
    'reference'
    >>> lesson_display("both", has_reference=True, has_source=True)
    'both'
    >>> lesson_display("source", has_reference=True, has_source=False)
    'reference'
    """
    if reads not in READS:
        raise CampaignError(
            f"what the class reads must be one of {', '.join(READS)}, not {reads!r}"
        )
    wants_source = reads in ("source", "both") and has_source
    wants_reference = (reads in ("target", "both") or not wants_source) and has_reference
    if wants_source and wants_reference:
        return "both"
    if wants_source:
        return "source"
    return "reference" if has_reference else ("source" if has_source else "neither")


#: The adequacy question for what the students see next to the translation.
ADEQUACY_QUESTIONS = {
    "reference": "How much of the meaning of the reference translation is expressed in this translation?",
    "source": "How much of the meaning of the source sentence is expressed in the translation?",
    "both": "How much of the meaning of the source sentence (see also the reference translation) is "
    "expressed in the translation?",
    "neither": "How much of what the sentence means to say does the translation express?",
}


def lesson_criteria(display: str) -> tuple[RatingCriterion, ...]:
    """Adequacy (its question worded for what the students see) and fluency, on the paper's 1-5 scale.

    >>> lesson_criteria("reference")[0].question
    'How much of the meaning of the reference translation is expressed in this translation?'
    """
    return (
        RatingCriterion.paper("adequacy", ADEQUACY_QUESTIONS[display]),
        RatingCriterion.paper("fluency"),
    )


def _short(text: str | None, max_words: int) -> bool:
    return text is not None and bool(text.strip()) and len(text.split()) <= max_words


def lesson_plan(
    study: Study,
    system_bleu: Mapping[str, float],
    *,
    seed: int,
    n_systems: int = LESSON_SYSTEMS,
    n_segments: int = LESSON_SEGMENTS,
    groups: Sequence[str] = ("class",),
    bleu_signature: str = "",
    max_words: int = LESSON_MAX_WORDS,
    name: str | None = None,
    reads: str = "target",
    study_source: str | None = None,
) -> CampaignPlan:
    """A campaign sized for one lesson over *study* (see the module docstring).

    ``system_bleu`` maps each system to its corpus BLEU (0-100) over the whole study under the settings the
    teacher uses (``bleu_signature`` names them); *reads* says what the class reads (:data:`READS`): the students
    see a reference translation in the translations' language, the source when they read the source language,
    or both (:func:`lesson_display`), and rate adequacy (asked about what they see) and fluency on the paper's
    five-point scale. *study_source* says where the study came from (the app's study key, e.g.
    ``demo:ted-zh-en``): the lesson keeps it (:data:`STUDY_SOURCE`), so a reload can open that study again.

    >>> from bleu_core.study.model import Segment
    >>> segs = tuple(Segment(str(i), source=f"quelle {i}") for i in range(12))
    >>> systems = {s: [f"{s} says {i}" for i in range(12)] for s in ("a", "b", "c")}
    >>> study = Study("toy", segs, {"ref": [f"says {i}" for i in range(12)]}, systems)
    >>> plan = lesson_plan(study, {"a": 10, "b": 20, "c": 30}, seed=1, n_segments=4)
    >>> plan.systems, len(plan.segment_ids), len(plan.items), plan.metadata["bleu"]["c"]
    (('a', 'b', 'c'), 4, 12, 30.0)
    """
    systems = choose_lesson_systems(
        {s: b for s, b in system_bleu.items() if s in study.systems},
        set(study.human_systems),
        n_systems,
    )
    sources = study.sources()
    has_source = any(s for s in sources)
    reference_stream = next(iter(study.references), None)
    reference = (
        study.references[reference_stream] if reference_stream else [None] * study.n_segments
    )
    display = lesson_display(reads, has_reference=bool(reference_stream), has_source=has_source)
    shown = sources if display == "source" else (reference if reference_stream else sources)
    keep = [
        i
        for i in range(study.n_segments)
        if _short(shown[i], max_words)
        and all(_short(study.systems[s][i], max_words) for s in systems)
    ]
    if len(keep) < n_segments:  # too few short segments: any segment every chosen system translated
        keep = [
            i
            for i in range(study.n_segments)
            if all((study.systems[s][i] or "").strip() for s in systems)
        ]
    ids = study.segment_ids
    experts: dict[str, dict[str, Any]] = {}
    for criterion_name, criterion in study.criteria.items():
        scores = study.system_scores(criterion_name)
        values = {s: float(scores[s]) for s in systems if math.isfinite(scores.get(s, math.nan))}
        if len(values) >= 2:
            experts[criterion_name] = {
                "scores": values,
                "higher_is_better": bool(criterion.higher_is_better),
            }
    return plan_campaign(
        name=name or f"Lesson: {study.name}",
        study_name=study.name,
        segment_ids=[ids[i] for i in keep],
        translations={s: [study.systems[s][i] for i in keep] for s in systems},
        sources=[sources[i] for i in keep] if has_source else None,
        references=[reference[i] for i in keep] if reference_stream else None,
        systems=systems,
        n_segments=min(n_segments, len(keep)),
        seed=seed,
        criteria=lesson_criteria(display),
        display=display,
        groups=tuple(groups) or ("class",),
        reference_stream=reference_stream,
        metadata={
            LESSON_MARK: True,
            "bleu": {s: float(system_bleu[s]) for s in systems},
            "bleu_signature": bleu_signature,
            "human_systems": [s for s in systems if s in study.human_systems],
            "experts": experts,
            "source_lang": study.source_lang,
            "target_lang": study.target_lang,
            STUDY_SOURCE: study_source,
        },
    )


#: A gap longer than this between two of a student's saves is a pause, not the time an item took.
MAX_ITEM_SECONDS = 300.0
#: Fewer timed items than this measure no pace.
MIN_TIMED_ITEMS = 5


def seconds_per_item(ratings: Sequence[StoredRating]) -> float | None:
    """The pace a class rated at: the median time between two consecutive saves of one student (each item's
    first save, all its criteria at once), pauses over :data:`MAX_ITEM_SECONDS` left out; None with fewer
    than :data:`MIN_TIMED_ITEMS` such gaps.

    >>> from datetime import datetime, timedelta, UTC
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> rs = [StoredRating("K7", "ana", "class", p, "1", "a", "esa", 50, t + timedelta(seconds=s), t)
    ...       for p, s in enumerate([0, 30, 55, 95, 120, 150, 900])]   # gaps 30 25 40 25 30, then a pause
    >>> seconds_per_item(rs)
    30.0
    >>> seconds_per_item(rs[:3]) is None
    True
    """
    first: dict[tuple[str, int], float] = {}
    for r in ratings:
        when = r.created_at.timestamp()
        key = (r.judge, r.position)
        first[key] = min(first.get(key, when), when)
    by_judge: dict[str, list[float]] = {}
    for (judge, _position), when in first.items():
        by_judge.setdefault(judge, []).append(when)
    gaps = [
        b - a
        for times in by_judge.values()
        for a, b in zip(sorted(times), sorted(times)[1:], strict=False)
        if 0 < b - a <= MAX_ITEM_SECONDS
    ]
    return float(np.median(gaps)) if len(gaps) >= MIN_TIMED_ITEMS else None


def is_lesson(campaign: Campaign) -> bool:
    """Whether *campaign* was made by class mode (its metadata carries BLEU for the dashboard)."""
    return bool(campaign.metadata.get(LESSON_MARK))


def lesson_study_source(campaign: Campaign) -> str | None:
    """Where the study of *campaign* came from, as stored by :func:`lesson_plan` (None when not stored)."""
    source = campaign.metadata.get(STUDY_SOURCE)
    return source if isinstance(source, str) and source else None


@dataclass(frozen=True)
class LessonFit:
    """BLEU (x) against the class's mean score (y) over the systems rated so far (paper §5, Figures 5-6)."""

    criterion: str
    systems: tuple[str, ...]
    bleu: tuple[float, ...]
    human: tuple[float, ...]
    statistic: float  # Pearson r (nan below 3 systems or with no spread)
    slope: float
    intercept: float

    @property
    def n(self) -> int:
        return len(self.systems)


@dataclass(frozen=True)
class ClassSnapshot:
    """The class's ratings so far, summed up for the projector."""

    n_joined: int
    n_ratings: int  # items rated (a student's adequacy and fluency of one item count once)
    n_expected: int  # items the joined students will rate
    system_means: dict[str, dict[str, float]]  # criterion → system → mean score
    fits: dict[str, LessonFit]
    alpha: dict[str, AlphaResult | None]  # criterion → alpha (None below two judges on an item)
    alpha_history: tuple[tuple[int, str, float], ...]  # (ratings so far, criterion, alpha)
    experts: dict[str, dict[str, float]]  # "class criterion vs expert criterion" → r, n

    @property
    def progress(self) -> float:
        """Ratings so far as a share of what the joined students will give (0-1)."""
        return min(1.0, self.n_ratings / self.n_expected) if self.n_expected else 0.0


def _alpha(ratings: Sequence[StoredRating], criterion: str, n_resamples: int, seed: int):
    data = reliability_data(ratings, criterion)
    if data.data.shape[0] < 2:
        return None
    try:
        return krippendorff_alpha(data.data, level="interval", n_resamples=n_resamples, seed=seed)
    except CampaignError:  # no unit rated twice yet
        return None


def class_snapshot(
    campaign: Campaign,
    ratings: Sequence[StoredRating],
    n_joined: int,
    *,
    n_resamples: int = 200,
    seed: int = 0,
    history_points: int = 8,
) -> ClassSnapshot:
    """Sum up *ratings* of a lesson campaign (see the module docstring).

    ``n_joined`` is the number of students who joined (some may not have rated yet); the bootstrap interval of
    alpha uses ``n_resamples`` draws with ``seed``. The alpha history recomputes alpha (without an interval)
    on the ratings in the order they arrived, at up to ``history_points`` evenly spaced counts.

    >>> from datetime import datetime, UTC
    >>> from bleu_core.campaigns.model import RatingCriterion
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> c = Campaign("K7", "lesson", "toy", ("a", "b", "c"), ("1",), (RatingCriterion("adequacy", "q"),),
    ...              "neither", ("class",), 1, 3, t, metadata={"lesson": True,
    ...              "bleu": {"a": 10.0, "b": 20.0, "c": 30.0}})
    >>> rs = [StoredRating("K7", j, "class", p, "1", s, "adequacy", v, t, t)
    ...       for j, scores in (("ana", (2, 3, 5)), ("bo", (1, 3, 4)))
    ...       for p, (s, v) in enumerate(zip("abc", scores))]
    >>> snap = class_snapshot(c, rs, 2, n_resamples=0)   # 2 students × 3 items, one criterion
    >>> snap.n_ratings, snap.progress, snap.system_means["adequacy"]
    (6, 1.0, {'a': 1.5, 'b': 3.0, 'c': 4.5})
    >>> round(snap.fits["adequacy"].statistic, 3), round(snap.fits["adequacy"].slope, 6)
    (1.0, 0.15)
    """
    bleu = {s: float(v) for s, v in campaign.metadata.get("bleu", {}).items()}
    criteria = campaign.criterion_names
    means: dict[str, dict[str, float]] = {}
    fits: dict[str, LessonFit] = {}
    for criterion in criteria:
        by_system: dict[str, list[int]] = {}
        for r in ratings:
            if r.criterion == criterion:
                by_system.setdefault(r.system, []).append(r.score)
        means[criterion] = {
            s: float(np.mean(by_system[s])) for s in campaign.systems if s in by_system
        }
        rated = [s for s in campaign.systems if s in means[criterion] and s in bleu]
        x = [bleu[s] for s in rated]
        y = [means[criterion][s] for s in rated]
        fit = linear_fit(x, y)  # the paper's §5 line; r needs 3 systems and some spread
        fits[criterion] = LessonFit(
            criterion, tuple(rated), tuple(x), tuple(y), fit.r, fit.slope, fit.intercept
        )
    alpha = {c: _alpha(ratings, c, n_resamples, seed) for c in criteria}
    ordered = sorted(ratings, key=lambda r: (r.updated_at, r.judge, r.position, r.criterion))
    history: list[tuple[int, str, float]] = []
    if ordered and history_points > 0:
        counts = np.unique(np.linspace(0, len(ordered), history_points + 1).astype(int)[1:])
        for count in counts:
            for criterion in criteria:
                result = _alpha(ordered[:count], criterion, 0, seed)
                if result is not None and math.isfinite(result.statistic):
                    history.append((int(count), criterion, float(result.statistic)))
    experts: dict[str, dict[str, float]] = {}
    for expert_name, info in campaign.metadata.get("experts", {}).items():
        expert = {s: float(v) for s, v in info.get("scores", {}).items()}
        for criterion in criteria:
            common = [s for s in campaign.systems if s in expert and s in means[criterion]]
            r_value = pearson_r([expert[s] for s in common], [means[criterion][s] for s in common])
            experts[f"{criterion} vs {expert_name}"] = {"r": r_value, "n": float(len(common))}
    return ClassSnapshot(
        n_joined=n_joined,
        n_ratings=len({(r.judge, r.position) for r in ratings}),
        n_expected=n_joined * campaign.n_items,
        system_means=means,
        fits=fits,
        alpha=alpha,
        alpha_history=tuple(history),
        experts=experts,
    )
