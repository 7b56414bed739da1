"""When a human ceiling should not be read as an upper bound: it falls below the chance line, or it rests
on few items.

The human ceiling (:mod:`bleu_core.evaluation.ceiling`) is one rater against another on the items two raters
happened to rate, often a small part of what the metrics are scored on: on WMT24 en-ja acc*_eq's ceiling
rests on 90 segments where the metrics use 634. A value computed on so few items is noisy, and it can even
fall below what a random metric reaches on the full data. :func:`ceiling_flags` says both in words, with
the thresholds stated; :func:`ceiling_line` is the one line every surface prints (``meta``, the Metric
ranking page, the findings CSV of the Export).

>>> ceiling = {"statistic": 0.443, "confidence_interval": [0.40, 0.49], "n_items": 363, "n_systems": 12,
...            "n_segments": 90, "statistic_name": "acc-eq", "note": "one rater against another"}
>>> chance = {"random": 0.455, "random_range": [0.449, 0.462]}
>>> ceiling_flags(ceiling, chance)
['below the chance line (a random metric: 0.455 [0.449, 0.462])', 'rests on few segments (90 < 100)']
>>> ceiling_line(ceiling, chance)
'0.443 [0.400, 0.490] (n = 363 items, 90 segments, 12 systems; one rater against another; flagged: below the chance line (a random metric: 0.455 [0.449, 0.462]); rests on few segments (90 < 100))'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .chance import SYSTEM_LEVEL

#: A ceiling on fewer (system, segment) items than this is flagged "rests on few items".
FEW_ITEMS = 200
#: A ceiling on fewer segments than this is flagged "rests on few segments" (for a statistic that compares
#: systems within a segment: the segments with 2+ such systems).
FEW_SEGMENTS = 100
#: A system-level ceiling on fewer systems than this is flagged "rests on few systems".
FEW_SYSTEMS = 5

FLAG_RULE = (
    f"a human ceiling is flagged when it falls below the chance line (a random metric's mean) or rests on "
    f"fewer than {FEW_ITEMS} items, {FEW_SEGMENTS} segments or (system level) {FEW_SYSTEMS} systems"
)


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


def chance_of(chance: Mapping[str, Any] | None, metric: str = "BLEU") -> Mapping[str, Any] | None:
    """The chance line a ceiling is read against: ``metric``'s of a ranking's per-metric chance lines
    (``extra["chance"]``), else the first one; ``None`` without any."""
    if not chance:
        return None
    return chance.get(metric) or next(iter(chance.values()))


def ceiling_flags(ceiling: Mapping[str, Any], chance: Mapping[str, Any] | None = None) -> list[str]:
    """Why the ceiling (a :class:`~bleu_core.evaluation.ceiling.HumanCeiling` as a dict) should be read with
    care: below the chance line (``chance``: a chance line as a dict, ``random`` its mean), or on few
    items, segments or systems (:data:`FEW_ITEMS`, :data:`FEW_SEGMENTS`, :data:`FEW_SYSTEMS`)."""
    value = _number(ceiling.get("statistic"))
    if math.isnan(value):
        return []
    flags = []
    random = _number(chance.get("random")) if chance else math.nan
    if not math.isnan(random) and value < random:
        low, high = (chance or {}).get("random_range") or (None, None)
        span = "" if low is None or high is None else f" [{low:.3f}, {high:.3f}]"
        flags.append(f"below the chance line (a random metric: {random:.3f}{span})")
    items, segments = int(ceiling.get("n_items") or 0), int(ceiling.get("n_segments") or 0)
    systems = int(ceiling.get("n_systems") or 0)
    if items < FEW_ITEMS:
        flags.append(f"rests on few items ({items} < {FEW_ITEMS})")
    if segments and segments < FEW_SEGMENTS:
        flags.append(f"rests on few segments ({segments} < {FEW_SEGMENTS})")
    if ceiling.get("statistic_name") in SYSTEM_LEVEL and systems < FEW_SYSTEMS:
        flags.append(f"rests on few systems ({systems} < {FEW_SYSTEMS})")
    return flags


def ceiling_line(ceiling: Mapping[str, Any], chance: Mapping[str, Any] | None = None) -> str:
    """The ceiling with its interval, its n and its flags in one line (``n/a`` and why when there is
    none)."""
    value = _number(ceiling.get("statistic"))
    if math.isnan(value):
        return f"n/a ({ceiling.get('note', '')})"
    ci = ceiling.get("confidence_interval")
    shown = f"{value:.3f}" + ("" if not ci else f" [{ci[0]:.3f}, {ci[1]:.3f}]")
    n = f"n = {int(ceiling.get('n_items') or 0)} items"
    if ceiling.get("n_segments"):
        n += f", {int(ceiling['n_segments'])} segments"
    n += f", {int(ceiling.get('n_systems') or 0)} systems"
    flags = ceiling_flags(ceiling, chance)
    said = f"; flagged: {'; '.join(flags)}" if flags else ""
    note = ceiling.get("note", "")
    return f"{shown} ({n}{'; ' + note if note else ''}{said})"
