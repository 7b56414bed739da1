"""The 2 × 2 table of tokens at the heart of BLEU vs MQM error spans: matched or not × in an error or not.

Each hypothesis token lands in one cell (the definitions are in :mod:`bleu_core.study.error_agreement`):

================  ==========================  ==============================
                  inside an error span        outside every span
================  ==========================  ==============================
BLEU matched      ``matched_in_error``        ``matched_clean``
                  (a *rewarded error*)
BLEU not matched  ``unmatched_in_error``      ``unmatched_clean``
                                              (a *penalised correct word*)
================  ==========================  ==============================

Two rates summarise it: the **rewarded error rate** (of the tokens in error, the share BLEU still credits) and
the **penalised clean rate** (of the clean tokens, the share BLEU does not credit). Tables add up cell by cell,
so a system's table is the sum of its segments' and the study's the sum of its systems'.

>>> AgreementCounts(1, 5, 1, 0) + AgreementCounts(0, 2, 3, 4)
AgreementCounts(matched_in_error=1, matched_clean=7, unmatched_in_error=4, unmatched_clean=4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["COUNT_NAMES", "AgreementCounts"]

#: The four cells of the table, in the order of :attr:`SystemAgreement.segment_counts` columns.
COUNT_NAMES: tuple[str, ...] = (
    "matched_in_error",
    "matched_clean",
    "unmatched_in_error",
    "unmatched_clean",
)


@dataclass(frozen=True)
class AgreementCounts:
    """The 2 × 2 table of tokens: BLEU matched or not × inside an error span or not.

    >>> c = AgreementCounts(3, 7, 5, 2)
    >>> c.tokens, c.in_error, round(c.rewarded_error_rate, 3), round(c.penalised_clean_rate, 3)
    (17, 8, 0.375, 0.222)
    """

    matched_in_error: int = 0
    matched_clean: int = 0
    unmatched_in_error: int = 0
    unmatched_clean: int = 0

    @property
    def tokens(self) -> int:
        """All tokens counted."""
        return (
            self.matched_in_error
            + self.matched_clean
            + self.unmatched_in_error
            + self.unmatched_clean
        )

    @property
    def in_error(self) -> int:
        """Tokens inside at least one span."""
        return self.matched_in_error + self.unmatched_in_error

    @property
    def clean(self) -> int:
        """Tokens outside every span."""
        return self.matched_clean + self.unmatched_clean

    @property
    def rewarded_error_rate(self) -> float:
        """Share of the tokens in error that BLEU matched (``nan`` without tokens in error)."""
        return self.matched_in_error / self.in_error if self.in_error else math.nan

    @property
    def penalised_clean_rate(self) -> float:
        """Share of the clean tokens that BLEU did not match (``nan`` without clean tokens)."""
        return self.unmatched_clean / self.clean if self.clean else math.nan

    def __add__(self, other: AgreementCounts) -> AgreementCounts:
        return AgreementCounts(
            *(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True))
        )

    def as_tuple(self) -> tuple[int, int, int, int]:
        """The four counts in :data:`COUNT_NAMES` order."""
        return (
            self.matched_in_error,
            self.matched_clean,
            self.unmatched_in_error,
            self.unmatched_clean,
        )

    def to_dict(self) -> dict[str, int]:
        """The four counts by name."""
        return dict(zip(COUNT_NAMES, self.as_tuple(), strict=True))
