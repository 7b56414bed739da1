"""The one set of systems a ranking of metrics is computed on, and how to say it.

Ranking metrics compares each metric's agreement with the humans; the comparison is only fair when every
metric is judged on the **same systems**. Metrics computed here score every system, but attached metrics
(COMET, the organisers' BLEU...) often lack the human translations or a late submission; ranking each
metric on the systems it happens to have would put numbers from 10 systems beside numbers from 9 in
one table. :func:`common_systems` therefore takes the systems the user asked for (human translations in
or out) and keeps those that **every** metric scores, saying which were left out and why;
:meth:`SystemSet.describe` is the line shown above the table and printed by ``meta``.

>>> s = common_systems({"BLEU": {"A": 30.0, "B": 28.0, "H": 20.0}, "COMET": {"A": 0.8, "B": 0.7}},
...                    ["A", "B", "H"], human=["H"])
>>> s.systems, s.left_out
(('A', 'B'), (('H', 'no COMET score'),))
>>> s.describe()
'2 systems (human translations out): A, B; left out: H (no COMET score)'
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SystemSet:
    """The systems every metric of a ranking is computed on.

    Attributes:
        systems: the systems kept, in the order asked for.
        left_out: ``(system, reason)`` for every asked-for system that is not kept.
        human_included: whether a human translation is among ``systems`` (``None``: there are none
            among the candidates); one asked for but without every metric's score is ``left_out``.
    """

    systems: tuple[str, ...]
    left_out: tuple[tuple[str, str], ...] = ()
    human_included: bool | None = None

    def describe(self, label: Any = str) -> str:
        """One line naming the set: how many, human translations in or out, which, which left out.

        ``label`` turns a system name into its shown label (``HUMAN-B (ref-B)`` for a reference)."""
        humans = (
            ""
            if self.human_included is None
            else f" (human translations {'in' if self.human_included else 'out'})"
        )
        head = (
            f"{len(self.systems)} system{'' if len(self.systems) == 1 else 's'}{humans}: "
            + ", ".join(label(s) for s in self.systems)
        )
        if not self.left_out:
            return head
        return head + "; left out: " + ", ".join(f"{label(s)} ({why})" for s, why in self.left_out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "systems": list(self.systems),
            "left_out": [{"system": s, "reason": why} for s, why in self.left_out],
            "human_included": self.human_included,
        }


def _scored(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def common_systems(
    scores: Mapping[str, Mapping[str, float]],
    candidates: Sequence[str],
    *,
    human: Collection[str] = (),
    include_human: bool = True,
) -> SystemSet:
    """The candidates every metric of ``scores`` (``{metric: {system: system score}}``) scores.

    Args:
        scores: each metric's system-level scores (a missing key or NaN = no score for that system).
        candidates: the systems asked for, in order.
        human: which of them are human translations; with ``include_human=False`` they are left out
            first ("human translation").
    """
    kept, left = [], []
    for system in candidates:
        if system in human and not include_human:
            left.append((system, "human translation"))
            continue
        missing = [m for m, by_system in scores.items() if not _scored(by_system.get(system))]
        if missing:
            left.append((system, f"no {', '.join(missing)} score"))
        else:
            kept.append(system)
    has_human = bool(set(human) & set(candidates))
    # "in" only when a human translation is kept: the words agree with the signature's humans: field
    kept_human = bool(set(human) & set(kept))
    return SystemSet(tuple(kept), tuple(left), kept_human if has_human else None)
