"""Which translation the class preferred, against BLEU's order: the BLEU paper's §4 pairwise comparison, live.

In a contrastive lesson (protocol ``cesa``, :mod:`bleu_core.campaigns.contrastive`) every student scores two or
three translations of the same source sentence side by side. Each student's two scores of systems *A* and *B*
on one sentence form one **paired judgment**: it prefers *A* (A scored higher), *B*, or neither (equal scores).
BLEU has a preference on the same sentence too: the system with the higher sentence BLEU (a tie when equal).

For each pair of systems :func:`pairwise_preferences` counts

* the students' paired judgments preferring *A*, preferring *B*, and the ties, and their shares;
* BLEU's order of the pair over the whole test set (corpus BLEU) and on each sentence (sentence BLEU);
* the **agreement rate**: among the paired judgments where both the student and sentence BLEU prefer one of
  the two, the share where they prefer the same one (ties on either side are counted apart, never as
  agreement or disagreement).

Per sentence (:class:`SentencePreference`) it says which system the class preferred (more judgments for it
than for the other) and which one BLEU preferred. The rates pool every pair (``overall_agreement``).

Golden example (hand-computed). Two students, one sentence, systems a, b, c; sentence BLEU a 30, b 20, c 20::

    ana: a 80, b 60, c 60        bo: a 50, b 70, c 70

* (a, b): ana prefers a, bo prefers b; BLEU prefers a → 1 agreement, 1 disagreement, rate 1/2.
* (a, c): the same → rate 1/2.
* (b, c): both students tie, BLEU ties → no judgment counts: rate undefined (nan).

>>> judgments = [("ana", "s1", "a", 80), ("ana", "s1", "b", 60), ("ana", "s1", "c", 60),
...              ("bo", "s1", "a", 50), ("bo", "s1", "b", 70), ("bo", "s1", "c", 70)]
>>> result = pairwise_preferences(judgments, {("s1", "a"): 30.0, ("s1", "b"): 20.0, ("s1", "c"): 20.0},
...                               ("a", "b", "c"), corpus_bleu={"a": 25.0, "b": 21.0, "c": 22.0})
>>> [(p.system_a, p.system_b, p.prefer_a, p.prefer_b, p.ties, p.agreement) for p in result.pairs]
[('a', 'b', 1, 1, 0, 0.5), ('a', 'c', 1, 1, 0, 0.5), ('b', 'c', 0, 0, 2, nan)]
>>> result.overall_agreement, result.pairs[2].corpus_preference
(0.5, 'c')
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bleu_core.campaigns.model import CampaignError

__all__ = [
    "PairPreference",
    "PairwiseComparison",
    "SentencePreference",
    "pairwise_preferences",
    "preferred",
]

#: One student's score of one system on one sentence: ``(student, segment id, system, score)``.
Judgment = tuple[str, str, str, float]


def preferred(a: str, b: str, score_a: float, score_b: float) -> str | None:
    """The system of the higher score, ``None`` when they are equal (or one is not a number).

    >>> preferred("a", "b", 70, 60), preferred("a", "b", 60, 70), preferred("a", "b", 5, 5)
    ('a', 'b', None)
    """
    if not (math.isfinite(score_a) and math.isfinite(score_b)) or score_a == score_b:
        return None
    return a if score_a > score_b else b


def _rate(agree: int, disagree: int) -> float:
    return agree / (agree + disagree) if agree + disagree else math.nan


@dataclass(frozen=True)
class SentencePreference:
    """One pair of systems on one sentence: the students' paired judgments and BLEU's preference."""

    segment_id: str
    system_a: str
    system_b: str
    prefer_a: int
    prefer_b: int
    ties: int
    bleu_a: float  # sentence BLEU of A (0-100)
    bleu_b: float
    agree: int  # judgments preferring the system sentence BLEU prefers
    disagree: int  # judgments preferring the other one (BLEU not tied)

    @property
    def n(self) -> int:
        """Paired judgments of this pair on this sentence."""
        return self.prefer_a + self.prefer_b + self.ties

    @property
    def class_preference(self) -> str | None:
        """The system more students preferred (``None`` on a tie or with no judgment)."""
        return preferred(self.system_a, self.system_b, self.prefer_a, self.prefer_b)

    @property
    def bleu_preference(self) -> str | None:
        """The system of the higher sentence BLEU (``None`` when equal)."""
        return preferred(self.system_a, self.system_b, self.bleu_a, self.bleu_b)

    @property
    def agreement(self) -> float:
        """Share of the judgments with a preference, BLEU's not tied, that prefer BLEU's system."""
        return _rate(self.agree, self.disagree)


@dataclass(frozen=True)
class PairPreference:
    """One pair of systems over all sentences: the class's shares against BLEU's order."""

    system_a: str
    system_b: str
    prefer_a: int
    prefer_b: int
    ties: int
    agree: int
    disagree: int
    bleu_ties: int  # judgments on sentences where sentence BLEU ties the two systems
    corpus_a: float  # corpus BLEU of A over the whole test set (nan when not given)
    corpus_b: float

    @property
    def n(self) -> int:
        """Paired judgments of this pair (every student, every sentence)."""
        return self.prefer_a + self.prefer_b + self.ties

    @property
    def share_a(self) -> float:
        """Share of the paired judgments preferring A (ties in the denominator); nan with none."""
        return self.prefer_a / self.n if self.n else math.nan

    @property
    def share_b(self) -> float:
        return self.prefer_b / self.n if self.n else math.nan

    @property
    def class_preference(self) -> str | None:
        """The system more paired judgments preferred (``None`` on a tie)."""
        return preferred(self.system_a, self.system_b, self.prefer_a, self.prefer_b)

    @property
    def corpus_preference(self) -> str | None:
        """The system of the higher corpus BLEU (BLEU's order of the two), ``None`` when unknown or equal."""
        return preferred(self.system_a, self.system_b, self.corpus_a, self.corpus_b)

    @property
    def agreement(self) -> float:
        """Share of the judgments with a preference (sentence BLEU not tied) that agree with sentence BLEU."""
        return _rate(self.agree, self.disagree)


@dataclass(frozen=True)
class PairwiseComparison:
    """Every pair of systems (in the order of the systems given) and every (sentence, pair)."""

    pairs: tuple[PairPreference, ...]
    sentences: tuple[SentencePreference, ...]

    @property
    def n_judgments(self) -> int:
        return sum(p.n for p in self.pairs)

    @property
    def overall_agreement(self) -> float:
        """The agreement rate pooled over every pair (each counted judgment weighs the same)."""
        return _rate(sum(p.agree for p in self.pairs), sum(p.disagree for p in self.pairs))


def _scores_by_sentence(
    judgments: Iterable[Judgment], systems: Sequence[str]
) -> dict[str, dict[str, dict[str, float]]]:
    """segment → student → system → score; a second score of the same (student, segment, system) is refused."""
    known = set(systems)
    table: dict[str, dict[str, dict[str, float]]] = {}
    for student, segment, system, score in judgments:
        if system not in known:
            continue  # a system outside the comparison (e.g. an attention check's)
        mine = table.setdefault(segment, {}).setdefault(student, {})
        if system in mine:
            raise CampaignError(
                f"student {student!r} scored system {system!r} on segment {segment!r} twice; "
                "give one score per student, segment and system"
            )
        mine[system] = float(score)
    return table


def _sentence(
    segment: str,
    a: str,
    b: str,
    students: Mapping[str, Mapping[str, float]],
    bleu: tuple[float, float],
) -> SentencePreference | None:
    counts = {a: 0, b: 0, None: 0}
    agree = disagree = 0
    bleu_choice = preferred(a, b, *bleu)
    for scores in students.values():
        if a not in scores or b not in scores:
            continue  # not a paired judgment
        choice = preferred(a, b, scores[a], scores[b])
        counts[choice] += 1
        if choice is not None and bleu_choice is not None:
            agree += choice == bleu_choice
            disagree += choice != bleu_choice
    if not sum(counts.values()):
        return None
    return SentencePreference(
        segment, a, b, counts[a], counts[b], counts[None], *bleu, agree, disagree
    )


def pairwise_preferences(
    judgments: Iterable[Judgment],
    sentence_bleu: Mapping[tuple[str, str], float],
    systems: Sequence[str],
    *,
    corpus_bleu: Mapping[str, float] | None = None,
) -> PairwiseComparison:
    """The class's paired judgments against BLEU's preference (see the module docstring).

    *judgments* are ``(student, segment id, system, score)``; *sentence_bleu* maps ``(segment id, system)`` to
    that translation's sentence BLEU; *systems* orders the pairs (``(systems[0], systems[1])``, ...);
    *corpus_bleu* (optional) gives BLEU's order over the whole test set. A sentence whose BLEU is missing for
    one of the two systems is left out of that pair (it cannot be compared with BLEU). A student scoring the
    same system twice on one sentence raises :class:`~bleu_core.campaigns.model.CampaignError`.
    """
    if len(set(systems)) != len(systems):
        raise CampaignError("a system is listed twice; list each system once")
    table = _scores_by_sentence(judgments, systems)
    corpus = corpus_bleu or {}
    sentences: list[SentencePreference] = []
    pairs: list[PairPreference] = []
    for a, b in itertools.combinations(systems, 2):
        rows = []
        for segment in sorted(table):
            if (segment, a) not in sentence_bleu or (segment, b) not in sentence_bleu:
                continue
            bleu = (float(sentence_bleu[segment, a]), float(sentence_bleu[segment, b]))
            row = _sentence(segment, a, b, table[segment], bleu)
            if row is not None:
                rows.append(row)
        sentences.extend(rows)
        pairs.append(
            PairPreference(
                a,
                b,
                sum(r.prefer_a for r in rows),
                sum(r.prefer_b for r in rows),
                sum(r.ties for r in rows),
                sum(r.agree for r in rows),
                sum(r.disagree for r in rows),
                sum(r.n for r in rows if r.bleu_preference is None),
                float(corpus.get(a, math.nan)),
                float(corpus.get(b, math.nan)),
            )
        )
    return PairwiseComparison(tuple(pairs), tuple(sentences))
