"""Two metrics' correlations with the human scores compared (the Correlation page): Williams' test at
system and segment level and the permutation test at system level (:func:`bleu_core.evaluation.compare_correlations`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from bleu_core.errors import BleuStudyError
from bleu_core.evaluation import compare_correlations


def metric_tests_frame(
    first: tuple[str, Any, Any],
    other: tuple[str, Any, Any],
    human_sys: Any,
    human_seg: Any,
    *,
    n_resamples: int,
    seed: int,
) -> pd.DataFrame:
    """One row per level × test; ``first`` and ``other`` are ``(name, system scores, segment scores)``.

    A test that cannot run (too few systems, no segment scores) gives a row with its reason in ``note``.
    """
    (a_name, a_sys, a_seg), (b_name, b_sys, b_seg) = first, other
    rows = []
    for level, a, b, h, test in (
        ("system", a_sys, b_sys, human_sys, "williams"),
        ("system", a_sys, b_sys, human_sys, "permutation"),
        ("segment", a_seg, b_seg, human_seg, "williams"),
    ):
        try:
            res = compare_correlations(
                a, b, h, test=test, alternative="two-sided", n_resamples=n_resamples, seed=seed
            )
        except BleuStudyError as err:
            rows.append({"level": level, "test": test, "note": str(err)})
            continue
        rows.append(
            {
                "level": level,
                "test": test,
                f"r {a_name}": res.r1,
                f"r {b_name}": res.r2,
                "r between": res.r12,
                "statistic": res.statistic,
                "p (two-sided)": res.pvalue,
                "n": res.n,
                "note": "",
            }
        )
    return pd.DataFrame(rows)
