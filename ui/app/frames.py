"""Study-level DataFrames every room uses: the ratings in long form, rater groups, one human score per
system, and records → DataFrame (pandas lives only in ``ui``, at the UI edge)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from bleu_core.study import Study
from bleu_core.study.ratings import group_system_scores


def ratings_frame(study: Study) -> pd.DataFrame:
    """The study's ratings in long form: system, segment_id, rater, group, criterion, score."""
    columns = ["system", "segment_id", "rater", "group", "criterion", "score"]
    if not study.ratings:
        return pd.DataFrame(columns=columns)
    return pd.DataFrame(
        [(r.system, r.segment_id, r.rater, r.group, r.criterion, r.score) for r in study.ratings],
        columns=columns,
    )


def rater_groups(study: Study, criterion: str) -> list[str]:
    """Distinct rater groups that rated ``criterion`` (empty when no rating carries a group)."""
    return sorted(
        {r.group for r in study.ratings if r.criterion == criterion and r.group is not None}
    )


def system_human_scores(study: Study, criterion: str, group: str | None = None) -> dict[str, float]:
    """One human score per system for ``criterion``, from all raters (:meth:`Study.system_scores`) or only
    from rater ``group`` (:func:`bleu_core.study.ratings.group_system_scores`, the same aggregation);
    ``nan`` for systems the group did not rate."""
    if group is None:
        return study.system_scores(criterion)
    return group_system_scores(study, criterion, group)


def records_frame(rows: Sequence[Mapping[str, object]]) -> pd.DataFrame:
    """A table from a list of row dicts (keys are the columns, in first-row order)."""
    return pd.DataFrame(list(rows))
