"""``meta``'s error-free detection section (WMT26 subtask 3): every metric as a detector, text/JSON/LaTeX.

:func:`error_free_summary` scores the computed metrics (``--metrics``, default sentence BLEU and chrF) and
every attached metric with segment scores, on the systems ``meta`` evaluates, and runs
:func:`bleu_core.evaluation.error_free.error_free_detection` (definitions there) on each of their system sets
(:func:`bleu_core.evaluation.error_free.error_free_by_system_set`: with human translations among them, without
and with them, one after the other in the table); the study needs ESA or MQM ratings (otherwise there is
no section).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bleu_core.evaluation.error_free import error_free_by_system_set, gold_criterion, set_label
from bleu_core.study.model import Study

if TYPE_CHECKING:
    from bleu_core.metrics.study_scores import MetricTable

__all__ = [
    "error_free_for_meta",
    "error_free_latex",
    "error_free_summary",
    "error_free_text",
    "has_error_free_gold",
    "print_error_free",
]


def has_error_free_gold(study: Study) -> bool:
    """Whether the study has the ratings error-free detection needs (ESA or MQM)."""
    return gold_criterion(study) is not None


def error_free_summary(
    study: Study,
    systems: Sequence[str],
    *,
    metrics: Sequence[str] = ("BLEU", "chrF"),
    tokenize: str = "13a",
    lowercase: bool = False,
    points: bool = True,
    tables: Mapping[str, MetricTable] | None = None,
) -> dict[str, Any]:
    """The section as JSON-ready data: the rule, the systems, per metric and group its curve summary
    (``points``: with the curve's points). ``tables``: the metrics' scores on ``systems`` when the
    caller has computed them (``meta``'s rankings): then ``metrics``, ``tokenize`` and ``lowercase``
    are not used."""
    from bleu_core.metrics.study_scores import study_metric_scores

    if tables is None:
        tables = study_metric_scores(study, list(metrics), systems=list(systems), tokenize=tokenize,
                                     lowercase=lowercase)  # fmt: skip
    gold, by_set, notes = error_free_by_system_set(study, tables, systems)
    humans = sorted(set(systems) & study.human_systems)
    place = {(r.metric, r.group): k for k, r in enumerate(by_set[-1][1])}
    rows = sorted(  # each metric and group: its system sets one after the other (a stable sort)
        ((set_label(found), r) for found, found_rows in by_set for r in found_rows),
        key=lambda pair: place.get((pair[1].metric, pair[1].group), len(place)),
    )
    return {
        "definition": "WMT26 subtask 3: is a translation error-free? A metric's segment score "
        "ranks the translations; AP = sum of (R_k - R_k-1) P_k over its thresholds",
        "rule": gold.rule,
        "systems": list(systems),
        "human_translations": humans,
        "system_sets": [{"label": set_label(found), **found.to_dict()} for found, _ in by_set],
        "rows": [{"system_set": label, **r.to_dict(points)} for label, r in rows],
        "notes": notes,
    }


def _cell(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _sets_line(summary: dict[str, Any]) -> str:
    """Which systems each set holds (the header's second part)."""
    sets = summary.get("system_sets") or []
    return (
        "; ".join(f"{s['label']}: {', '.join(s['systems'])}" for s in sets)
        or f"{len(summary['systems'])} systems: {', '.join(summary['systems'])}"
    )


def error_free_text(summary: dict[str, Any]) -> str:
    """The text table of :func:`error_free_summary`: per metric and group, each system set's row.

    >>> row = {"metric": "BLEU", "group": "all", "system_set": "1 system", "average_precision": 0.25,
    ...        "chance": 0.1, "best_f1": 0.3, "best_threshold": 42.0, "n": 10, "n_error_free": 1}
    >>> print(error_free_text({"rule": "MQM score 0 (no error)", "systems": ["A"],
    ...                        "human_translations": [], "rows": [row], "notes": []}).splitlines()[-1])
    BLEU    all    1 system    0.250  0.100   0.300     42.000  10  1
    """
    head = ["metric", "group", "systems", "AP", "chance", "best F1", "threshold", "n", "error-free"]
    table = [head] + [
        [r["metric"], r["group"], r.get("system_set", ""), _cell(r["average_precision"]),
         _cell(r["chance"]), _cell(r["best_f1"]), _cell(r["best_threshold"]), str(r["n"]),
         str(r["n_error_free"])]
        for r in summary["rows"]
    ]  # fmt: skip
    widths = [max(len(row[j]) for row in table) for j in range(len(head))]
    lines = [
        f"error-free detection (WMT26 subtask 3; error-free: {summary['rule']}) per system set "
        f"({_sets_line(summary)}); AP: average precision; chance: the share of error-free "
        "translations; best F1 at the threshold 'score >= threshold'",
        *("  ".join(c.rjust(w) if j > 2 else c.ljust(w) for j, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
          for row in table),
    ]  # fmt: skip
    lines += [f"note: {n}" for n in summary["notes"]]
    return "\n".join(lines)


def error_free_latex(summary: dict[str, Any]) -> str:
    """The LaTeX table of :func:`error_free_summary` (booktabs), a row per metric, group and system
    set."""
    from bleu_core.latex import tex

    rule = tex(summary["rule"]).replace("≥", r"$\geq$")
    body = [
        f"{tex(r['metric'])} & {tex(r['group'])} & {tex(r.get('system_set', ''))} & "
        f"{_cell(r['average_precision'])} & {_cell(r['chance'])} & {_cell(r['best_f1'])} & "
        f"{_cell(r['best_threshold'], 2)} & {r['n']} \\\\"
        for r in summary["rows"]
    ]
    return "\n".join(
        [
            "\\begin{table}[t]",
            "\\centering",
            "\\begin{tabular}{lllrrrrr}",
            "\\toprule",
            "Metric & Group & Systems & AP & Chance & Best F1 & Threshold & $n$ \\\\",
            "\\midrule",
            *body,
            "\\bottomrule",
            "\\end{tabular}",
            f"\\caption{{Metrics as error-free detectors (error-free: {rule}) per system set "
            f"({tex(_sets_line(summary))}); chance: the share of error-free translations.}}",
            "\\end{table}",
        ]
    )


def error_free_for_meta(
    study: Study, systems: Sequence[str], tables: Mapping[str, MetricTable]
) -> dict[str, Any] | None:
    """``meta``'s section on the systems it evaluated, from the metric scores its rankings use
    (``tables``: ``--metrics`` and the attached ones, computed once), or ``None`` for a study without
    ESA or MQM ratings."""
    if not has_error_free_gold(study):
        return None
    return error_free_summary(study, systems, tables=tables)


def print_error_free(summary: dict[str, Any] | None, *, latex: bool = False) -> None:
    """Print ``meta``'s section (nothing for ``None``): the text table after a blank line, or LaTeX."""
    if summary is not None:
        print(error_free_latex(summary) if latex else "\n" + error_free_text(summary))
