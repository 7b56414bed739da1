"""Frames and charts of the Published tables page: a paper's system-level table in, pandas / altair out.

No ``st.*`` here, and no statistics either: every number comes from :mod:`bleu_core.evaluation.system_table`
(the code path of ``python -m bleu_core meta --system-scores TABLE.csv``); this module only lays the
results out. A scatter shows exactly the systems its correlation used: a system with ``NA`` on either
side is left out of that pair, as the correlation skips it.

>>> from bleu_core.evaluation.system_table import parse_system_table, table_correlations
>>> table = parse_system_table("system,ade,BLEU\\nA,1,2\\nB,2,3.5\\nC,3,3\\nD,NA,1", "t.csv")
>>> table_frame(table)["ade"].isna().tolist()
[False, False, False, True]
>>> pair_frame(table, "BLEU", "ade")["system"].tolist()   # D has no adequacy score
['A', 'B', 'C']
>>> fit_summary(table_correlations(table)[0].result)
'r = 0.655 · R² = 0.429 · p = 0.546 · n = 3'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import altair as alt
import pandas as pd

from ui.analysis.charts import regression_scatter
from ui.analysis.stats_frames import correlation_rows


def table_frame(table: Any) -> pd.DataFrame:
    """The parsed table as printed: a ``system`` column, then one column per metric or criterion (NA = NaN)."""
    frame = pd.DataFrame(table.values, columns=list(table.columns))
    frame.insert(0, "system", list(table.systems))
    return frame


def correlations_frame(rows: Iterable[Any]) -> pd.DataFrame:
    """One row per metric × criterion × method (:class:`bleu_core.evaluation.system_table.TableCorrelation`)."""
    rows = list(rows)
    base = correlation_rows([r.result for r in rows], "system")
    return pd.DataFrame(
        [
            {
                "metric": r.metric,
                "criterion": r.criterion,
                **{k: v for k, v in b.items() if k != "level"},
            }
            for r, b in zip(rows, base, strict=True)
        ]
    )


def r_matrix(frame: pd.DataFrame) -> pd.DataFrame:
    """The coefficients as a paper prints them: one row per metric, one column per criterion and method."""
    wide = frame.pivot_table(
        index="metric", columns=["criterion", "method"], values="r", sort=False, dropna=False
    )
    wide.columns = [f"{c} · {m}" for c, m in wide.columns]
    return wide.reset_index()


def pair_frame(table: Any, metric: str, criterion: str) -> pd.DataFrame:
    """``system``, ``x`` (metric), ``y`` (criterion) of the systems with both values (pairwise deletion)."""
    frame = pd.DataFrame(
        {"system": list(table.systems), "x": table.column(metric), "y": table.column(criterion)}
    ).dropna(subset=["x", "y"])
    return frame.assign(human=False).reset_index(drop=True)


def fit_summary(result: Any) -> str:
    """``r = … · R² = … · p = … · n = …`` of a Pearson result (or why r is undefined)."""
    r = result.statistic
    if r is None or math.isnan(r):
        return f"r undefined ({result.note or 'no variation'}) · n = {result.n}"
    p = "n/a" if result.pvalue is None else f"{result.pvalue:.3f}"
    return f"r = {r:.3f} · R² = {r * r:.3f} · p = {p} · n = {result.n}"


def published_scatter(
    table: Any, metric: str, criterion: str, pearson: Any, *, source: str = ""
) -> alt.LayerChart:
    """System-level scatter of ``criterion`` against ``metric`` with the least-squares line and r, R², p, n.

    ``pearson`` is the pair's :class:`bleu_core.evaluation.CorrelationResult` (method ``pearson``); ``source``
    (the file name) goes into the subtitle so an exported image says where its numbers come from.
    """
    subtitle = fit_summary(pearson) + (f" · {source}" if source else "")
    chart = regression_scatter(
        pair_frame(table, metric, criterion),
        x="x",
        y="y",
        title=f"{metric} vs {criterion}",
        subtitle=subtitle,
        x_title=metric,
        y_title=criterion,
    )
    return chart.configure_legend(
        disable=True
    )  # every point is a system: no human-translation legend
