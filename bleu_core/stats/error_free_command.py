"""``meta``'s error-free detection section (WMT26 subtask 3): every metric as a detector, text/JSON/LaTeX.

:func:`error_free_summary` scores the computed metrics (``--metrics``, default sentence BLEU and chrF) and
every attached metric with segment scores, on the systems ``meta`` evaluates, and runs
:func:`bleu_core.stats.error_free.error_free_detection` (definitions there); the study needs ESA or MQM
ratings (otherwise there is no section).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bleu_core.stats.error_free import error_free_detection, gold_criterion
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
    gold, rows, notes = error_free_detection(study, tables, systems)
    humans = sorted(set(systems) & study.human_systems)
    return {
        "definition": "WMT26 subtask 3: is a translation error-free? A metric's segment score "
        "ranks the translations; AP = sum of (R_k - R_k-1) P_k over its thresholds",
        "rule": gold.rule,
        "systems": list(systems),
        "human_translations": humans,
        "rows": [r.to_dict(points) for r in rows],
        "notes": notes,
    }


def _cell(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def error_free_text(summary: dict[str, Any]) -> str:
    """The text table of :func:`error_free_summary`.

    >>> row = {"metric": "BLEU", "group": "all", "average_precision": 0.25, "chance": 0.1,
    ...        "best_f1": 0.3, "best_threshold": 42.0, "n": 10, "n_error_free": 1}
    >>> print(error_free_text({"rule": "MQM score 0 (no error)", "systems": ["A"],
    ...                        "human_translations": [], "rows": [row], "notes": []}).splitlines()[-1])
    BLEU    all    0.250  0.100   0.300     42.000  10  1
    """
    head = ["metric", "group", "AP", "chance", "best F1", "threshold", "n", "error-free"]
    table = [head] + [
        [r["metric"], r["group"], _cell(r["average_precision"]), _cell(r["chance"]),
         _cell(r["best_f1"]), _cell(r["best_threshold"]), str(r["n"]), str(r["n_error_free"])]
        for r in summary["rows"]
    ]  # fmt: skip
    widths = [max(len(row[j]) for row in table) for j in range(len(head))]
    lines = [
        f"error-free detection (WMT26 subtask 3; error-free: {summary['rule']}) on "
        f"{len(summary['systems'])} systems (human translations "
        f"{'in: ' + ', '.join(summary['human_translations']) if summary['human_translations'] else 'out'}); "
        "AP: average precision; chance: the share of error-free translations; best F1 at the "
        "threshold 'score >= threshold'",
        *("  ".join(c.rjust(w) if j > 1 else c.ljust(w) for j, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
          for row in table),
    ]  # fmt: skip
    lines += [f"note: {n}" for n in summary["notes"]]
    return "\n".join(lines)


def error_free_latex(summary: dict[str, Any]) -> str:
    """The LaTeX table of :func:`error_free_summary` (booktabs)."""
    from bleu_core.latex import tex

    rule = tex(summary["rule"]).replace("≥", r"$\geq$")
    body = [
        f"{tex(r['metric'])} & {tex(r['group'])} & {_cell(r['average_precision'])} & "
        f"{_cell(r['chance'])} & {_cell(r['best_f1'])} & {_cell(r['best_threshold'], 2)} & {r['n']} \\\\"
        for r in summary["rows"]
    ]
    return "\n".join(
        [
            "\\begin{table}[t]",
            "\\centering",
            "\\begin{tabular}{llrrrrr}",
            "\\toprule",
            "Metric & Group & AP & Chance & Best F1 & Threshold & $n$ \\\\",
            "\\midrule",
            *body,
            "\\bottomrule",
            "\\end{tabular}",
            f"\\caption{{Metrics as error-free detectors (error-free: {rule}); "
            "chance: the share of error-free translations.}",
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
