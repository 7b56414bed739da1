"""The organiser's agreement report: for every criterion of a campaign, how much the judges agree and how liberal
each judge is.

One :class:`CriterionAgreement` per criterion bundles what :mod:`bleu_core.campaigns.agreement` measures on the
same reliability data (judges × items): Krippendorff's alpha at the ``interval`` and ``ordinal`` levels (each with
a bootstrap confidence interval over items), the judges' pairwise Pearson correlations, and each judge's
calibration (mean, spread and offset against the others; the paper noticed some judges are more liberal, §4).
Restricting to one rater *group* reproduces the paper's separate monolingual and bilingual panels.

>>> from datetime import datetime, UTC
>>> from bleu_core.campaigns.model import RatingCriterion
>>> t = datetime(2024, 1, 1, tzinfo=UTC)
>>> crit = RatingCriterion.paper("fluency")
>>> ratings = [StoredRating("C", judge, "mono", pos, f"s{pos}", "A", "fluency", score + shift, t, t)
...            for judge, shift in [("ana", 0), ("bo", 1)] for pos, score in enumerate([1, 2, 3, 4])]
>>> [report] = agreement_report([crit], ratings, n_resamples=0, seed=5)
>>> report.criterion, report.raters, report.n_units, round(report.pairwise.statistic, 3)
('fluency', ('ana', 'bo'), 4, 1.0)
>>> [(c.rater, c.offset) for c in report.calibration]    # bo scores one point higher than ana throughout
[('ana', -1.0), ('bo', 1.0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bleu_core.campaigns.agreement import (
    AlphaResult,
    JudgeCalibration,
    PairwiseAgreement,
    judge_calibration,
    krippendorff_alpha,
    pairwise_correlation,
    reliability_data,
)
from bleu_core.campaigns.model import RatingCriterion, StoredRating

#: Levels of measurement the report gives alpha at: scores are numbers (interval) and ranks (ordinal).
REPORT_LEVELS: tuple[str, ...] = ("interval", "ordinal")


@dataclass(frozen=True)
class CriterionAgreement:
    """Agreement and calibration of the judges on one criterion.

    ``alphas`` maps each level of :data:`REPORT_LEVELS` to its :class:`AlphaResult` (the bootstrap seed and
    number of resamples are in each result); ``groups[i]`` is the group of ``raters[i]``.
    """

    criterion: str
    raters: tuple[str, ...]
    groups: tuple[str, ...]
    alphas: dict[str, AlphaResult]
    pairwise: PairwiseAgreement
    calibration: tuple[JudgeCalibration, ...]

    @property
    def n_units(self) -> int:
        """Items rated by at least two judges (the only ones that carry agreement)."""
        return next(iter(self.alphas.values())).n_units

    def group_of(self, rater: str) -> str:
        """The rater group *rater* belongs to."""
        return self.groups[self.raters.index(rater)]


def agreement_report(
    criteria: Sequence[RatingCriterion],
    ratings: Sequence[StoredRating],
    *,
    group: str | None = None,
    n_resamples: int = 1000,
    seed: int | None = 0,
) -> tuple[CriterionAgreement, ...]:
    """One :class:`CriterionAgreement` per criterion that has ratings (from *group* only, if given).

    Criteria nobody rated (in that group) are left out, so an empty tuple means "no ratings yet". The bootstrap
    of every alpha uses *n_resamples* draws from *seed*.
    """
    out = []
    for crit in criteria:
        rd = reliability_data(ratings, crit.name, group=group)
        if rd.data.size == 0:
            continue
        alphas = {
            level: krippendorff_alpha(rd.data, level=level, n_resamples=n_resamples, seed=seed)
            for level in REPORT_LEVELS
        }
        out.append(
            CriterionAgreement(
                criterion=crit.name,
                raters=rd.raters,
                groups=rd.groups,
                alphas=alphas,
                pairwise=pairwise_correlation(rd.data, rd.raters, method="pearson"),
                calibration=judge_calibration(rd.data, rd.raters),
            )
        )
    return tuple(out)
