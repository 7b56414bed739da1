"""The objects of a human rating campaign: what is rated, by whom, on which scale.

A *campaign* reproduces the human evaluation of the BLEU paper (Papineni et al. 2002, §4): a fixed list of
(source segment, translation) *items*, shown to every *judge* in the same shuffled order, each rated on one or more
*criteria* from 1 (very bad) to 5 (very good). Judges belong to *groups* (the paper had a monolingual and a
bilingual group); what a judge sees besides the translation (the source, a reference, both or neither) is a
property of the campaign ("monolingual judges see only the translation").

These are plain frozen dataclasses; :mod:`bleu_core.campaigns.storage` keeps them in a database.

>>> crit = RatingCriterion.paper("fluency")
>>> crit.low, crit.high, crit.label(1), crit.label(5)
(1, 5, 'very bad', 'very good')
>>> crit.validate_score(6)
Traceback (most recent call last):
...
bleu_core.campaigns.model.CampaignError: criterion 'fluency': score 6 is outside the scale 1-5; give a whole number from 1 to 5
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bleu_core.errors import BleuStudyError

#: What a judge sees next to the translation. ``"neither"`` is the paper's monolingual setting.
DISPLAY_MODES: tuple[str, ...] = ("source", "reference", "both", "neither")

#: The paper's end points ("from 1 (very bad) to 5 (very good)", §4). The middle labels are ours: the paper only
#: names the two ends.
PAPER_LABELS: tuple[str, ...] = ("very bad", "bad", "fair", "good", "very good")

#: Questions for the default criteria. Fluency follows the paper's monolingual group, who judged "based only on
#: the translations' readability and fluency"; adequacy asks the bilingual question.
DEFAULT_QUESTIONS: dict[str, str] = {
    "adequacy": "How much of the meaning of the original is expressed in the translation?",
    "fluency": "How readable and fluent is the translation?",
}

#: Longest judge name, group name, campaign name and criterion name accepted.
MAX_NAME_LENGTH = 80


class CampaignError(BleuStudyError):
    """A campaign request that cannot be carried out (unknown code, bad score, closed campaign...)."""


class AccessDenied(CampaignError):
    """A wrong organiser key or judge token. The message never says which part was wrong."""


class AlreadySaved(CampaignError):
    """A save of an item the judge has already saved and moved past (a second tap on "Save and next"):
    ignored, the stored rating is unchanged."""


def check_name(value: object, what: str) -> str:
    """Validate a person-given name (judge, group, campaign, criterion) and return it stripped.

    Names are stored verbatim (quotes, ``<script>``, SQL fragments included); only empty, over-long or
    multi-line names are refused.

    >>> check_name("  Ana  ", "judge name")
    'Ana'
    >>> check_name("", "judge name")
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.CampaignError: judge name is empty; type a name
    """
    if not isinstance(value, str):
        raise CampaignError(f"{what} must be text, got {type(value).__name__}")
    text = value.strip()
    if not text:
        raise CampaignError(f"{what} is empty; type a name")
    if len(text) > MAX_NAME_LENGTH:
        raise CampaignError(
            f"{what} is {len(text)} characters long; use at most {MAX_NAME_LENGTH} characters"
        )
    if any(ch in text for ch in "\r\n\x00"):
        raise CampaignError(f"{what} contains a line break or NUL character; use a single line")
    return text


@dataclass(frozen=True)
class RatingCriterion:
    """One question judges answer with a whole number on a labelled scale ``low .. low+len(labels)-1``.

    >>> RatingCriterion("adequacy", "Meaning kept?", ("bad", "ok", "good")).high
    3
    """

    name: str
    question: str = ""
    labels: tuple[str, ...] = PAPER_LABELS
    low: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", check_name(self.name, "criterion name"))
        object.__setattr__(self, "labels", tuple(str(label) for label in self.labels))
        if len(self.labels) < 2:
            raise CampaignError(
                f"criterion {self.name!r} has {len(self.labels)} scale label(s); give at least 2"
            )
        if isinstance(self.low, bool) or not isinstance(self.low, int):
            raise CampaignError(f"criterion {self.name!r}: the lowest score must be a whole number")

    @classmethod
    def paper(cls, name: str, question: str | None = None) -> RatingCriterion:
        """The paper's 1 (very bad) .. 5 (very good) scale with a default question for *name*."""
        return cls(name, question if question is not None else DEFAULT_QUESTIONS.get(name, ""))

    @property
    def high(self) -> int:
        """The highest score on the scale."""
        return self.low + len(self.labels) - 1

    @property
    def scores(self) -> tuple[int, ...]:
        """Every allowed score, lowest first."""
        return tuple(range(self.low, self.high + 1))

    def label(self, score: int) -> str:
        """The label of *score* (``'very bad'`` for 1 on the paper's scale)."""
        return self.labels[self.validate_score(score) - self.low]

    def validate_score(self, score: object) -> int:
        """Return *score* as an int if it is a whole number on this scale, else raise :class:`CampaignError`."""
        if isinstance(score, bool) or not isinstance(score, int | float) or score != int(score):
            raise CampaignError(
                f"criterion {self.name!r}: score {score!r} is not a whole number; "
                f"give a whole number from {self.low} to {self.high}"
            )
        value = int(score)
        if not self.low <= value <= self.high:
            raise CampaignError(
                f"criterion {self.name!r}: score {value} is outside the scale {self.low}-{self.high}; "
                f"give a whole number from {self.low} to {self.high}"
            )
        return value

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "question": self.question,
            "labels": list(self.labels),
            "low": self.low,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RatingCriterion:
        return cls(data["name"], data.get("question", ""), tuple(data["labels"]), int(data["low"]))


@dataclass(frozen=True)
class Item:
    """One (segment, system) pair to rate, at ``position`` (0-based) in the campaign's fixed order.

    ``source`` and ``reference`` are stored with the item so judges can rate without the study being loaded;
    :meth:`visible` drops what the campaign's display mode hides.
    """

    position: int
    segment_id: str
    system: str
    translation: str
    source: str | None = None
    reference: str | None = None
    kind: str = "test"
    qc: dict[str, Any] | None = None

    def visible(self, display: str) -> Item:
        """The item as a judge sees it under *display* (one of :data:`DISPLAY_MODES`): an attention check
        looks like any other item, and no expected answer is shown before the judge answers.

        >>> it = Item(0, "s1", "A", "the cat", source="le chat", reference="the cat")
        >>> it.visible("neither").source is None, it.visible("neither").reference is None
        (True, True)
        >>> it.visible("source").source
        'le chat'
        """
        if display not in DISPLAY_MODES:
            raise CampaignError(
                f"display {display!r} is unknown; use one of {', '.join(DISPLAY_MODES)}"
            )
        show_source = display in ("source", "both")
        show_reference = display in ("reference", "both")
        return Item(
            self.position,
            self.segment_id,
            self.system,
            self.translation,
            self.source if show_source else None,
            self.reference if show_reference else None,
            "tutorial" if self.kind == "tutorial" else "test",
        )


@dataclass(frozen=True)
class Campaign:
    """A rating campaign as stored. ``code`` is what judges type to join; ``seed`` fixed the sample and order."""

    code: str
    name: str
    study_name: str
    systems: tuple[str, ...]
    segment_ids: tuple[str, ...]
    criteria: tuple[RatingCriterion, ...]
    display: str
    groups: tuple[str, ...]
    seed: int
    n_items: int
    created_at: datetime
    is_open: bool = True
    reference_stream: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    protocol: str = "adequacy-fluency"
    quality_control: dict[str, Any] = field(default_factory=dict)

    def criterion(self, name: str) -> RatingCriterion:
        """The criterion called *name*; :class:`CampaignError` naming the valid ones otherwise."""
        for crit in self.criteria:
            if crit.name == name:
                return crit
        names = ", ".join(repr(c.name) for c in self.criteria)
        raise CampaignError(f"campaign {self.code}: no criterion {name!r}; use one of {names}")

    @property
    def criterion_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.criteria)


@dataclass(frozen=True)
class Judge:
    """A judge of one campaign. The secret token is never part of this object (only its hash is stored)."""

    id: int
    campaign_code: str
    name: str
    group: str
    created_at: datetime
    cursor: int = 0


@dataclass(frozen=True)
class JudgeAccess:
    """What :meth:`CampaignStore.join` returns: the judge and the token that lets them resume later.

    Show the token to the judge once ("your resume code"); it is not stored in clear anywhere.
    """

    judge: Judge
    token: str


@dataclass(frozen=True)
class StoredRating:
    """One stored rating (one judge, one item, one criterion) with the item's segment and system."""

    campaign_code: str
    judge: str
    group: str
    position: int
    segment_id: str
    system: str
    criterion: str
    score: int
    created_at: datetime
    updated_at: datetime
    n_changes: int = 0
    kind: str = "test"


@dataclass(frozen=True)
class JudgeProgress:
    """How far one judge has got: items fully rated, skipped (and not rated since), of ``n_items``."""

    judge: str
    group: str
    n_rated: int
    n_skipped: int
    n_items: int
    cursor: int
    last_activity: datetime | None

    @property
    def fraction(self) -> float:
        """Share of items fully rated (0-1)."""
        return self.n_rated / self.n_items if self.n_items else 0.0
