"""``significance``'s text for one paired test: every pair with its p, interval and verdict, the rule the
verdict follows, and the verdict matrix.

For the paired bootstrap the verdict is its percentile interval's and the p that interval's own
(:data:`bleu_core.evaluation.results.VERDICT_RULE`, printed under the table); sacrebleu's ``--paired-bs``
p-value is its own column, ``p (sacrebleu)``. A p of 0 (no resampled difference crossed 0) prints as
``< 1/M``, what ``M`` resamples can resolve.

>>> from bleu_core.evaluation.results import PairedComparison, PairedTestResult
>>> c = PairedComparison("B", "A", 1.5, 0.0, (0.5, 2.5), ">", sacrebleu_pvalue=0.0099)
>>> t = PairedTestResult("paired-bootstrap", ("A", "B"), (20.0, 21.5), (c,), 100, 3, 0.05, 0.95)
>>> print(paired_test_text(t).splitlines()[2])
B       A         +1.50       < 0.01  (0.50, 2.50)      >        0.0099
"""

from __future__ import annotations

import math

from .results import VERDICT_RULE, PairedTestResult


def _number(value: float | None, digits: int = 4) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    return f"{value:.{digits}f}"


def _columns(rows: list[list[str]]) -> str:
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )


def paired_test_text(t: PairedTestResult) -> str:
    """The text block of one paired test (``significance --format text``)."""
    boot = t.method == "paired-bootstrap"
    unit = "resamples" if boot else "trials"
    lines = [f"{t.method}: {t.n_resamples} {unit}, seed {t.seed}, alpha {t.alpha}"]
    rows = [["system", "baseline", "difference", "p", "CI of difference", "verdict"]]
    rows[0] += ["p (sacrebleu)"] if boot else []
    for c in t.comparisons:
        ci = c.confidence_interval
        p = f"< {1 / t.n_resamples:.2g}" if boot and c.pvalue == 0 else _number(c.pvalue)
        rows.append(
            [c.system, c.baseline, f"{c.statistic:+.2f}", p]
            + ["" if ci is None else f"({_number(ci[0], 2)}, {_number(ci[1], 2)})", c.verdict]
            + ([_number(c.sacrebleu_pvalue)] if boot else [])
        )
    lines.append(_columns(rows))
    if boot:  # one rule for the verdict, its interval and its p
        lines.append(VERDICT_RULE.format(level=f"{1 - t.alpha:.0%}", alpha=t.alpha))
    lines += ["", "row vs column: > row significantly better, < worse, ~ no significant difference"]
    matrix = [[s, *(v or "·" for v in row)] for s, row in zip(t.systems, t.matrix(), strict=True)]
    lines.append(_columns([["", *t.systems], *matrix]))
    return "\n".join(lines)
