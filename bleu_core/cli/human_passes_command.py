"""``meta``'s section on two human passes: the human ceiling of every statistic and the disagreements.

Where items have two raters (WMT25's ``human1``/``human2``, two annotators of a campaign), ``meta`` prints,
after the metrics, the same statistics with one rater against the other (the human ceiling, with the items
and systems it rests on: :func:`bleu_core.evaluation.human_passes.human_passes`) and the items whose raters differ
by more than 50 points, largest first (``--format json``: all of them under ``"human_passes"``).
"""

from __future__ import annotations

from typing import Any

from ..evaluation.human_passes import human_passes

__all__ = ["human_passes", "human_passes_text"]

SHOWN = 20
"""Disagreements listed in the text output (the JSON output has all)."""


def _cell(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def human_passes_text(passes: dict[str, dict[str, Any]]) -> str:
    """The text section for :func:`bleu_core.evaluation.human_passes.human_passes`'s result ("" when empty)."""
    lines: list[str] = []
    for criterion, found in passes.items():
        lines.append(
            f"\nhuman vs human ({criterion}: one rater against another; the human ceiling)"
        )
        rows = [["statistic", "value", "n", "items", "systems"]]
        for c in found["ceilings"]:
            counts = [str(c["n"]), str(c["n_items"]), str(c["n_systems"])]
            rows.append([c["statistic_name"], _cell(c["statistic"]), *counts])
        widths = [max(len(r[k]) for r in rows) for k in range(5)]
        lines += [
            "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows
        ]
        seeds = {c["seed"] for c in found["ceilings"]}
        lines.append(
            "n: what the statistic counts (systems, items, or segments for a correlation by item); "
            "items, systems: with two raters; pass 1 against pass 2 where the ratings name their "
            f"pass, else raters drawn with seed {', '.join(map(str, sorted(seeds)))}"
        )
        listed = found["disagreements"]
        lines.append(
            f"{len(listed)} item(s) whose raters differ by more than {found['threshold']:g} points"
            + (
                f" (the {SHOWN} largest below; --format json lists all)"
                if len(listed) > SHOWN
                else ""
            )
        )
        for d in listed[:SHOWN]:
            scores = ", ".join(f"{s['rater']} {s['score']:g}" for s in d["scores"])
            lines.append(f"  {d['system']}  {d['segment_id']}  gap {d['gap']:g}  ({scores})")
    return "\n".join(lines)
