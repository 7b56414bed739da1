"""Study-level DataFrames every room uses: the ratings in long form, rater groups, one human score per
system, and records → DataFrame (pandas lives only in ``ui``, at the UI edge)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd

from bleu_core.study import Study


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
    """One human score per system for ``criterion``, from all raters or only from rater ``group``.

    Without a group this is :meth:`Study.system_scores`. With a group: the mean of the group's
    system-level ratings where present, else the mean over segments of the mean over the group's raters
    (the same aggregation as :meth:`Study.system_scores`). ``nan`` for systems the group did not rate.
    """
    if group is None:
        return study.system_scores(criterion)
    frame = ratings_frame(study)
    frame = frame[(frame["criterion"] == criterion) & (frame["group"] == group)]
    result = {name: math.nan for name in study.systems}
    system_level = frame[frame["segment_id"].isna()]
    for name, scores in system_level.groupby("system")["score"]:
        result[str(name)] = float(scores.mean())
    seg = frame[frame["segment_id"].notna()]
    per_segment = seg.groupby(["system", "segment_id"])["score"].mean()
    for name, scores in per_segment.groupby(level="system"):
        if name not in set(system_level["system"]):
            result[str(name)] = float(scores.mean())
    return result


def records_frame(rows: Sequence[Mapping[str, object]]) -> pd.DataFrame:
    """A table from a list of row dicts (keys are the columns, in first-row order)."""
    return pd.DataFrame(list(rows))
