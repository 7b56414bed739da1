"""Two human opinions of the same items as the human ceiling of every number ``meta`` and the pages report.

Where items have two raters (WMT25's passes ``human1``/``human2``, two annotators of a Pearmut or bleu-study
campaign, WMT24's second opinions), :func:`human_passes` gives, per criterion:

* ``ceilings``: every statistic of the rankings (pairwise accuracy, Pearson, Spearman, Kendall, SPA,
  acc\\*_eq, tau_eq, WMT's tau-like) with one rater against the other
  (:func:`bleu_core.evaluation.ceiling.human_ceilings`), then the segment-level correlations ``meta`` and the
  Correlation page report (Pearson and Kendall over all items, and by item); every row has its ``n``
  (systems for a system-level statistic, items, or the segments an item-grouped correlation averages);
* ``disagreements``: the items whose raters differ by more than 50 points
  (:func:`bleu_core.evaluation.ceiling.disagreements`).

The rater split is :func:`bleu_core.evaluation.ceiling.rater_split` (pass 1 against pass 2 where the ratings
name their pass, else two raters drawn with the seed), so every number here rests on the same items.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..maths.resampling import DEFAULT_SEED
from .ceiling import (
    DISAGREEMENT_POINTS,
    disagreements,
    human_ceilings,
    rater_split,
    two_rater_criteria,
)
from .chance import SYSTEM_LEVEL
from .correlation import segment_correlation

if TYPE_CHECKING:
    from bleu_core.study.model import Study

SEGMENT_ROWS = (("pearson", "none"), ("kendall", "none"), ("pearson", "item"), ("kendall", "item"))
"""The segment-level correlations of ``meta``'s table that have a human-vs-human counterpart here."""


def segment_ceilings(
    study: Study, criterion: str, *, seed: int | None = DEFAULT_SEED
) -> list[dict[str, Any]]:
    """The segment-level correlations of one rater against the other (:data:`SEGMENT_ROWS`), as
    :meth:`~bleu_core.evaluation.ceiling.HumanCeiling.to_dict` rows; ``note`` says what ``n`` counts."""
    names = study.machine_systems
    first, second, used = rater_split(study, criterion, names, seed=seed)
    sign = 1.0 if study.criteria[criterion].higher_is_better else -1.0
    both = ~(np.isnan(first) | np.isnan(second))
    rows = []
    for method, grouping in SEGMENT_ROWS:
        result = segment_correlation(sign * second, sign * first, method, grouping=grouping)
        value = None if math.isnan(result.statistic) else float(result.statistic)
        counted = "items" if grouping == "none" else "segments with a defined correlation"
        rows.append(
            {
                "statistic_name": f"{method} (segment, {grouping})",
                "statistic": value,
                "available": value is not None,
                "source": "raters",
                "n_items": int(both.sum()),
                "n_systems": int(both.any(axis=1).sum()),
                "n": result.n,
                "seed": used,
                "note": f"n = {result.n} {counted}" + (f"; {result.note}" if result.note else ""),
            }
        )
    return rows


def _with_n(row: dict[str, Any]) -> dict[str, Any]:
    """A ceiling row with ``n``, what its statistic counts: systems (system level) or items."""
    system = row["statistic_name"] in SYSTEM_LEVEL
    return {**row, "n": row["n_systems"] if system else row["n_items"]}


def human_passes(
    study: Study, *, seed: int | None = DEFAULT_SEED, threshold: float = DISAGREEMENT_POINTS
) -> dict[str, dict[str, Any]]:
    """Per criterion with two raters on some items: the human ceiling of every statistic and
    segment-level correlation, and the disagreements over ``threshold`` points (JSON-ready; ``{}``
    when no item has two raters)."""
    return {
        name: {
            "ceilings": [_with_n(c.to_dict()) for c in human_ceilings(study, name, seed=seed)]
            + segment_ceilings(study, name, seed=seed),
            "threshold": threshold,
            "disagreements": [d.to_dict() for d in disagreements(study, name, threshold=threshold)],
        }
        for name in two_rater_criteria(study)
    }
