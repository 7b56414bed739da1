"""Campaign results as pandas DataFrames for the organiser's tables (pure: no ``st.*``).

Column names are what the Campaigns page shows; :mod:`ui.campaigns.views` adds the number formats.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from bleu_core.campaigns import CriterionAgreement, JudgeProgress

#: Time format of the "last activity" column (UTC).
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def progress_frame(progress: Sequence[JudgeProgress]) -> pd.DataFrame:
    """One row per judge: group, items rated / skipped / in all, share done (0-1) and last activity (UTC)."""
    return pd.DataFrame(
        {
            "judge": [p.judge for p in progress],
            "group": [p.group for p in progress],
            "rated": [p.n_rated for p in progress],
            "skipped": [p.n_skipped for p in progress],
            "items": [p.n_items for p in progress],
            "done": [p.fraction for p in progress],
            "last activity (UTC)": [
                p.last_activity.strftime(TIME_FORMAT) if p.last_activity else "" for p in progress
            ],
        }
    )


def _interval(low: float, high: float) -> str:
    return "—" if np.isnan(low) else f"{low:.3f} – {high:.3f}"


def agreement_frame(report: Sequence[CriterionAgreement]) -> pd.DataFrame:
    """One row per criterion: alpha (interval, ordinal) with 95% intervals as text, mean pairwise Pearson r,
    items rated by at least two judges, and the number of judges."""
    rows = []
    for crit in report:
        row: dict[str, object] = {"criterion": crit.criterion}
        for level, res in crit.alphas.items():
            row[f"alpha ({level})"] = res.statistic
            row[f"{level} 95% CI"] = _interval(*res.confidence_interval)
        row["mean pairwise r"] = crit.pairwise.statistic
        row["items rated by ≥ 2"] = crit.n_units
        row["judges"] = len(crit.raters)
        rows.append(row)
    return pd.DataFrame(rows)


def calibration_frame(report: Sequence[CriterionAgreement]) -> pd.DataFrame:
    """One row per (criterion, judge): group, items rated, mean, sd, offset against the others, shared items."""
    return pd.DataFrame(
        [
            {
                "criterion": crit.criterion,
                "judge": cal.rater,
                "group": crit.group_of(cal.rater),
                "items": cal.n,
                "mean": cal.mean,
                "sd": cal.std,
                "offset vs others": cal.offset,
                "shared items": cal.n_shared,
            }
            for crit in report
            for cal in crit.calibration
        ]
    )


def pairwise_frames(report: Sequence[CriterionAgreement]) -> dict[str, pd.DataFrame]:
    """Criterion name → judges × judges correlation matrix (1 on the diagonal, nan where undefined)."""
    return {
        crit.criterion: pd.DataFrame(
            crit.pairwise.matrix, index=list(crit.raters), columns=list(crit.raters)
        )
        for crit in report
    }
