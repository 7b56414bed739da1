"""What judges are asked, per campaign: a *protocol*, and the error spans of ESA.

``adequacy-fluency``
    The BLEU paper's §4: adequacy and fluency, each 1 (very bad) .. 5 (very good).
``esa``
    Error Span Annotation (Kocmi et al., 2024; WMT24 and WMT25): the judge marks the erroneous stretches of
    the translation as *minor* or *major* (and an omission with a ``[missing]`` mark), then scores the whole
    translation 0-100 on a slider whose anchors are those of the ESA guidelines (0 / 33 / 66 / 100).
``da``
    Direct Assessment (Graham et al., 2013; WMT 2017-2022): one 0-100 slider, no spans.
``cesa``
    Contrastive ESA (WMT26, rated with Pearmut): two or three translations of the same source side by side,
    each marked and scored as in ESA, the 0-100 score read in WMT26's bands; see
    :mod:`bleu_core.campaigns.contrastive`.

A 0-100 slider is a :class:`~bleu_core.campaigns.model.RatingCriterion` with 101 labels: the anchors' texts at
0, 33, 66 and 100, the number elsewhere.

>>> [c.name for c in protocol_criteria("esa")], protocol_criteria("esa")[0].label(66)
(['esa'], 'most meaning preserved and few grammar mistakes')
>>> check_spans([MarkedSpan(4, 7, "major"), MarkedSpan(None, None, "minor", missing=True)], "the cat sat")
(MarkedSpan(start=4, end=7, severity='major', missing=False), MarkedSpan(start=None, end=None, severity='minor', missing=True))
>>> check_spans([MarkedSpan(4, 20, "major")], "the cat sat")
Traceback (most recent call last):
...
bleu_core.campaigns.model.CampaignError: span 4-20 lies outside the translation, which has 11 characters; mark characters 0 to 11
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bleu_core.campaigns.model import CampaignError, RatingCriterion

#: The protocols a campaign can use, the default first.
PROTOCOLS: tuple[str, ...] = ("adequacy-fluency", "esa", "da", "cesa")
#: The protocols class mode offers.
CLASS_PROTOCOLS: tuple[str, ...] = ("esa", "adequacy-fluency", "cesa")
#: The protocols whose judges mark error spans.
SPAN_PROTOCOLS: frozenset[str] = frozenset({"esa", "cesa"})
#: How each protocol is named to people.
PROTOCOL_TITLES: dict[str, str] = {
    "adequacy-fluency": "Adequacy + fluency (1-5, the BLEU paper)",
    "esa": "ESA: error spans + 0-100 score (WMT24+)",
    "da": "DA: 0-100 slider (WMT 2017-2022)",
    "cesa": "Contrastive ESA: 2-3 translations side by side, spans + 0-100 (WMT26)",
}
#: The slider anchors of the ESA guidelines (Kocmi et al., 2024, "Error Span Annotation", Figure 1).
SLIDER_ANCHORS: dict[int, str] = {
    0: "no meaning preserved",
    33: "some meaning preserved",
    66: "most meaning preserved and few grammar mistakes",
    100: "perfect meaning and grammar",
}
ESA_QUESTION = (
    "Mark every error in the translation (minor or major; [missing] for something left out), "
    "then score the translation from 0 to 100."
)
DA_QUESTION = "How well does the translation express the meaning of the original, from 0 to 100?"
#: Severities of a marked span, mildest first.
SEVERITIES: tuple[str, ...] = ("minor", "major")


def check_protocol(protocol: object) -> str:
    """*protocol* if it is one of :data:`PROTOCOLS`, else :class:`CampaignError` naming them."""
    if protocol not in PROTOCOLS:
        raise CampaignError(f"protocol {protocol!r} is unknown; use one of {', '.join(PROTOCOLS)}")
    return str(protocol)


def slider_criterion(name: str, question: str) -> RatingCriterion:
    """A 0-100 criterion labelled with :data:`SLIDER_ANCHORS`."""
    labels = tuple(SLIDER_ANCHORS.get(i, str(i)) for i in range(101))
    return RatingCriterion(name, question, labels, low=0)


def is_slider(criterion: RatingCriterion) -> bool:
    """True for a 0-100 criterion (drawn as a slider rather than as buttons)."""
    return criterion.low == 0 and criterion.high == 100


def protocol_criteria(protocol: str) -> tuple[RatingCriterion, ...]:
    """The criteria judges answer under *protocol*."""
    protocol = check_protocol(protocol)
    if protocol in SPAN_PROTOCOLS:  # contrastive ESA scores each translation as ESA does
        return (slider_criterion("esa", ESA_QUESTION),)
    if protocol == "da":
        return (slider_criterion("da", DA_QUESTION),)
    return (RatingCriterion.paper("adequacy"), RatingCriterion.paper("fluency"))


@dataclass(frozen=True)
class MarkedSpan:
    """One error a judge marked: characters ``start`` .. ``end`` (end exclusive) of the translation, or an
    omission (``missing``: no characters, ``start`` and ``end`` are ``None``)."""

    start: int | None
    end: int | None
    severity: str
    missing: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "severity": self.severity,
            "missing": self.missing,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MarkedSpan:
        return cls(data.get("start"), data.get("end"), data["severity"], bool(data.get("missing")))


def _check_span(span: object, text: str) -> MarkedSpan:
    if not isinstance(span, MarkedSpan):
        raise CampaignError(f"a span must be a MarkedSpan, got {type(span).__name__}")
    if span.severity not in SEVERITIES:
        raise CampaignError(
            f"span severity {span.severity!r} is unknown; use one of {', '.join(SEVERITIES)}"
        )
    if span.missing:
        return MarkedSpan(None, None, span.severity, True)
    start, end = span.start, span.end
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
        raise CampaignError(
            f"span {start!r}-{end!r}: offsets must be whole numbers (characters of the translation)"
        )
    assert isinstance(start, int) and isinstance(end, int)
    if not 0 <= start < end <= len(text):
        raise CampaignError(
            f"span {start}-{end} lies outside the translation, which has {len(text)} characters; "
            f"mark characters 0 to {len(text)}"
        )
    return span


def check_spans(spans: Sequence[MarkedSpan], text: str) -> tuple[MarkedSpan, ...]:
    """The spans, checked against the translation *text* and sorted (omissions last); overlapping spans
    are refused (change the severity of one span instead of marking it twice)."""
    if isinstance(spans, str | bytes) or not isinstance(spans, Sequence):
        raise CampaignError("spans must be a list of marked spans (an empty list: no error)")
    checked = [_check_span(s, text) for s in spans]
    placed = sorted((s for s in checked if not s.missing), key=lambda s: (s.start, s.end))
    for left, right in zip(placed, placed[1:], strict=False):
        assert left.end is not None and right.start is not None
        if right.start < left.end:
            raise CampaignError(
                f"spans {left.start}-{left.end} and {right.start}-{right.end} overlap; "
                "remove one or change its severity"
            )
    return tuple(placed) + tuple(s for s in checked if s.missing)


def score_span_check(score: int | None, spans: Sequence[MarkedSpan]) -> str | None:
    """A gentle question when an ESA score and the spans disagree (``None`` when they agree).

    >>> score_span_check(95, [MarkedSpan(0, 3, "major")])
    'You marked a major error but scored 95: is the translation really almost perfect?'
    >>> score_span_check(20, []) is not None, score_span_check(80, []) is None
    (True, True)
    """
    if score is None:
        return None
    majors = sum(1 for s in spans if s.severity == "major")
    if majors and score > 66:
        return (
            f"You marked {'a major error' if majors == 1 else f'{majors} major errors'} but scored "
            f"{score}: is the translation really almost perfect?"
        )
    if not spans and score < 34:
        return (
            f"You scored {score} but marked no error: mark what is wrong, or raise the score "
            "if nothing is."
        )
    return None


@dataclass(frozen=True)
class StoredSpan:
    """One stored span with its judge, group and item (segment, system, kind)."""

    campaign_code: str
    judge: str
    group: str
    position: int
    segment_id: str
    system: str
    span: MarkedSpan
    kind: str = "test"
