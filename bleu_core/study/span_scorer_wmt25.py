"""WMT25's span-level scorer: predicted error spans against gold spans, as the organisers score them.

WMT25's shared task on automated translation evaluation (subtask 2, error spans) scores a submission with
the organisers' ``scripts/scoring/task2/scoring_esa.py`` (repository ``wmt-conference/wmt25-mteval``).
This module is an independent implementation of its definition, beside bleu-study's own span scores
(:mod:`bleu_core.study.span_scores`: exact, overlapping and character matches of its own making):

* **characters of the hypothesis**: every span ``[start, end)`` (end exclusive, Python string offsets,
  i.e. code points, as ``len`` and slicing count them) adds one to each of its characters, in one of two
  counts per character: **major** (``major`` and ``critical``) or **minor**. Spans marked ``missing``
  (omissions, no offsets) and spans of severity ``undecided`` count nowhere. Overlapping spans of one side
  add up (a character under two major spans counts 2). Offsets are cut as slicing cuts them (an end past
  the text stops at its end).
* **credit per character**: ``min(gold major, predicted major) + min(gold minor, predicted minor)`` (full
  credit for the same severity) plus **0.5** × ``min(gold left over, predicted left over)`` (half credit for
  the other severity), where "left over" is the part of each side's major and minor counts not matched
  in full.
* **precision** = credit / predicted count (**1 when nothing is predicted**), **recall** = credit / gold
  count (**1 when the gold has no error**), F1 = 2PR/(P+R) (0 when P + R = 0).
* **pooling**: the counts of every translation of one language pair (all systems together) are summed,
  then divided: P/R/F **per pair**; the task's headline numbers are the plain **means over pairs** of P, of
  R and of F1 (F1's mean, not the F1 of the means). Only rows of the set ``official`` are scored, and only
  the pairs both sides have. Here also per system (its translations of a pair pooled; a system in several
  pairs: the mean over its pairs).

The organisers' script writes the mean precision under the name ``avg_rec`` and the mean recall under
``avg_prec``; bleu-study reports them under their right names and says so where they are compared.

A worked example: a 10-character hypothesis; the rater marked characters 0-4 major, BLEU predicts 2-6 minor.

>>> gold = [Wmt25Span(0, 4, "major")]
>>> pred = [Wmt25Span(2, 6, "minor")]
>>> item_counts(10, gold, pred)                      # characters 2, 3: half credit each
Wmt25Counts(credit=1.0, gold=4.0, predicted=4.0, items=1)
>>> item_counts(10, gold, pred).prf()                # P = 1/4, R = 1/4
Wmt25PRF(precision=0.25, recall=0.25, f1=0.25)
>>> item_counts(10, [], []).prf()                    # nothing marked, nothing predicted
Wmt25PRF(precision=1.0, recall=1.0, f1=1.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "MAJOR_SEVERITIES",
    "MINOR_SEVERITIES",
    "OFFICIAL_SET",
    "PARTIAL_CREDIT",
    "SKIPPED_SEVERITIES",
    "Wmt25Counts",
    "Wmt25Item",
    "Wmt25PRF",
    "Wmt25Result",
    "Wmt25Span",
    "item_counts",
    "score_items",
    "severity_counts",
]

MAJOR_SEVERITIES = frozenset({"major", "critical"})
"""Severities counted as major (critical counts as major)."""
MINOR_SEVERITIES = frozenset({"minor"})
SKIPPED_SEVERITIES = frozenset({"undecided"})
"""Severities the organisers' script skips (counted on neither side)."""
PARTIAL_CREDIT = 0.5
"""Credit for a character marked on both sides with different severities."""
OFFICIAL_SET = "official"
"""The ``set_id`` the leaderboard scores (other rows are left out)."""


@dataclass(frozen=True)
class Wmt25Span:
    """One span of the task's TSV: ``start``/``end`` character offsets into the hypothesis (``end``
    exclusive), both ``None`` for a ``missing`` span; ``severity`` lower case (``major``, ``minor``,
    ``critical``, ``undecided``)."""

    start: int | None
    end: int | None
    severity: str

    @property
    def missing(self) -> bool:
        return self.start is None or self.end is None


class Wmt25PRF(NamedTuple):
    """Precision, recall and F1 of WMT25's scorer (always numbers: 1 when nothing is predicted / marked)."""

    precision: float
    recall: float
    f1: float


def _prf(credit: float, gold: float, predicted: float) -> Wmt25PRF:
    p = credit / predicted if predicted else 1.0
    r = credit / gold if gold else 1.0
    return Wmt25PRF(p, r, 2 * p * r / (p + r) if p + r else 0.0)


@dataclass(frozen=True)
class Wmt25Counts:
    """The additive counts behind P/R/F: ``credit`` (full + partial), ``gold`` and ``predicted``
    character counts, ``items`` translations."""

    credit: float = 0.0
    gold: float = 0.0
    predicted: float = 0.0
    items: int = 0

    def __add__(self, other: Wmt25Counts) -> Wmt25Counts:
        return Wmt25Counts(
            self.credit + other.credit,
            self.gold + other.gold,
            self.predicted + other.predicted,
            self.items + other.items,
        )

    def prf(self) -> Wmt25PRF:
        return _prf(self.credit, self.gold, self.predicted)


def severity_counts(spans: Iterable[Wmt25Span], length: int) -> tuple[np.ndarray, np.ndarray]:
    """Per character of a ``length``-character hypothesis, how many major and how many minor spans
    cover it (``missing`` and ``undecided`` spans skipped; offsets cut as slicing cuts them).

    >>> major, minor = severity_counts([Wmt25Span(0, 2, "critical"), Wmt25Span(1, 3, "major"),
    ...                                 Wmt25Span(None, None, "minor")], 4)
    >>> major.tolist(), minor.tolist()
    ([1.0, 2.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0])
    """
    major = np.zeros(length)
    minor = np.zeros(length)
    for span in spans:
        if span.missing or span.severity in SKIPPED_SEVERITIES:
            continue
        if span.severity in MAJOR_SEVERITIES:
            major[span.start : span.end] += 1
        elif span.severity in MINOR_SEVERITIES:
            minor[span.start : span.end] += 1
        else:
            raise ValueError(
                f"unknown severity {span.severity!r}; the task's severities are major, minor, "
                "critical and undecided"
            )
    return major, minor


def item_counts(
    length: int, gold: Iterable[Wmt25Span], predicted: Iterable[Wmt25Span]
) -> Wmt25Counts:
    """The counts of one translation of ``length`` characters (see the module docstring)."""
    gold_major, gold_minor = severity_counts(gold, length)
    pred_major, pred_minor = severity_counts(predicted, length)
    full_major = np.minimum(gold_major, pred_major)
    full_minor = np.minimum(gold_minor, pred_minor)
    gold_left = (gold_major - full_major) + (gold_minor - full_minor)
    pred_left = (pred_major - full_major) + (pred_minor - full_minor)
    credit = (
        float(full_major.sum())
        + float(full_minor.sum())
        + PARTIAL_CREDIT * float(np.minimum(gold_left, pred_left).sum())
    )
    return Wmt25Counts(
        credit,
        float(gold_major.sum() + gold_minor.sum()),
        float(pred_major.sum() + pred_minor.sum()),
        1,
    )


@dataclass(frozen=True)
class Wmt25Item:
    """One scored translation: its language ``pair`` (``en-ja``), ``system``, the hypothesis length in
    characters, and both sides' spans."""

    pair: str
    system: str
    length: int
    gold: tuple[Wmt25Span, ...]
    predicted: tuple[Wmt25Span, ...]


def _mean(rows: Sequence[Wmt25PRF]) -> Wmt25PRF:
    if not rows:
        return Wmt25PRF(float("nan"), float("nan"), float("nan"))
    return Wmt25PRF(*(float(np.mean([r[k] for r in rows])) for k in range(3)))


@dataclass(frozen=True)
class Wmt25Result:
    """WMT25's span scores: per pair (pooled over all its translations), per pair and system, and the
    means over pairs (``average``: the task's headline; per system: the mean over its pairs)."""

    pairs: dict[str, Wmt25Counts]
    systems: dict[str, dict[str, Wmt25Counts]]
    predictor: str = "BLEU"
    notes: tuple[str, ...] = field(default=())

    @property
    def average(self) -> Wmt25PRF:
        """The means over pairs of P, R and F1 (the organisers print the mean P as ``avg_rec``)."""
        return _mean([c.prf() for c in self.pairs.values()])

    def system_average(self, system: str) -> Wmt25PRF:
        return _mean([by[system].prf() for by in self.systems.values() if system in by])

    def system_names(self) -> list[str]:
        return list(dict.fromkeys(name for by in self.systems.values() for name in by))

    def to_dict(self) -> dict[str, Any]:
        def block(prf: Wmt25PRF) -> dict[str, float | None]:
            return {k: (None if v != v else v) for k, v in prf._asdict().items()}

        def counts(c: Wmt25Counts) -> dict[str, Any]:
            return {**block(c.prf()), "credit": c.credit, "gold_characters": c.gold,
                    "predicted_characters": c.predicted, "items": c.items}  # fmt: skip

        return {
            "definition": "WMT25 subtask 2 (scoring_esa.py): character level, partial credit "
            f"{PARTIAL_CREDIT}, missing skipped, per pair pooled, then the mean over pairs",
            "predictor": self.predictor,
            "label_note": "the organisers' script prints the mean precision as avg_rec and the mean "
            "recall as avg_prec; here each is under its right name",
            "average": block(self.average),
            "pairs": {pair: counts(c) for pair, c in self.pairs.items()},
            "systems": {
                name: {
                    "average": block(self.system_average(name)),
                    "pairs": {p: counts(by[name]) for p, by in self.systems.items() if name in by},
                }
                for name in self.system_names()
            },
            "notes": list(self.notes),
        }


def score_items(
    items: Iterable[Wmt25Item], *, predictor: str = "BLEU", notes: Sequence[str] = ()
) -> Wmt25Result:
    """Score ``items`` as WMT25 does: per pair (pooled), per pair and system, averaged over pairs.

    >>> a = Wmt25Item("en-de", "A", 4, (Wmt25Span(0, 4, "major"),), (Wmt25Span(0, 4, "major"),))
    >>> b = Wmt25Item("en-de", "B", 4, (), (Wmt25Span(0, 2, "minor"),))
    >>> c = Wmt25Item("en-ja", "A", 3, (Wmt25Span(0, 3, "minor"),), ())
    >>> result = score_items([a, b, c])
    >>> result.pairs["en-de"].prf()                  # pooled: credit 4 of 6 predicted, of 4 marked
    Wmt25PRF(precision=0.6666666666666666, recall=1.0, f1=0.8)
    >>> result.average                               # en-ja: P 1 (nothing predicted), R 0, F 0
    Wmt25PRF(precision=0.8333333333333333, recall=0.5, f1=0.4)
    """
    pairs: dict[str, Wmt25Counts] = {}
    systems: dict[str, dict[str, Wmt25Counts]] = {}
    for item in items:
        counts = item_counts(item.length, item.gold, item.predicted)
        pairs[item.pair] = pairs.get(item.pair, Wmt25Counts()) + counts
        by = systems.setdefault(item.pair, {})
        by[item.system] = by.get(item.system, Wmt25Counts()) + counts
    return Wmt25Result(pairs, systems, predictor, tuple(notes))
