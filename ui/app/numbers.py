"""Numbers formatted for reading, the same way on every page.

* p-values: two significant digits, scientific below 0.001, and ``< 1e-300`` for what underflows
  (:func:`format_p`); a p-value column of a table gets :func:`p_column` (text, so no ``0.000000…``);
* intervals with their point estimate: ``0.912 [0.85, 0.95]`` (:func:`format_ci`);
* nothing printed as ``None`` or ``nan``: an empty cell is ``—`` (:func:`blank`, :func:`tidy_frame`);
* counts with the right plural: ``1 system``, ``2 systems`` (:func:`plural`);
* BLEU on the 0-100 scale on screen; the 0-1 scale only where a paper prints it, and then said so
  (:func:`bleu_unit`).

>>> format_p(1.27e-47), format_p(0.0), format_p(0.0312), format_p(None)
('1.3e-47', '< 1e-300', '0.031', '—')
>>> format_ci(0.9123, 0.85, 0.951)
'0.912 [0.850, 0.951]'
>>> plural(1, "system"), plural(3, "system"), plural(2, "reference stream")
('1 system', '3 systems', '2 reference streams')
"""

from __future__ import annotations

import math
from typing import Any

DASH = "—"
"""What an empty cell shows."""

P_FLOOR = 1e-300
"""p-values below this (and exactly 0: the float underflowed) are shown as ``< 1e-300``."""


def _missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return math.isnan(float(value))
    except (TypeError, ValueError):
        return False


def format_p(p: Any) -> str:
    """A p-value for reading: ``0.031``, ``0.0012``, ``1.3e-47``, ``< 1e-300`` (``—`` when missing).

    >>> format_p(0.5), format_p(0.00123), format_p(3e-301), format_p(float("nan"))
    ('0.5', '0.0012', '< 1e-300', '—')
    """
    if _missing(p):
        return DASH
    p = float(p)
    if p < P_FLOOR:
        return "< 1e-300"
    if p >= 0.001:
        return f"{p:.2g}"
    mantissa, exponent = f"{p:.1e}".split("e")
    return f"{mantissa}e-{int(exponent[1:])}" if exponent.startswith("-") else f"{p:.1e}"


def format_number(value: Any, digits: int = 3) -> str:
    """``value`` with ``digits`` decimals, or ``—`` when missing.

    >>> format_number(0.12345), format_number(None), format_number(12.5, 1)
    ('0.123', '—', '12.5')
    """
    return DASH if _missing(value) else f"{float(value):.{digits}f}"


def format_ci(value: Any, low: Any, high: Any, digits: int = 3) -> str:
    """Point estimate with its interval: ``0.912 [0.850, 0.951]`` (``—`` parts when missing).

    >>> format_ci(25.1, None, None, 1)
    '25.1'
    """
    point = format_number(value, digits)
    if _missing(low) or _missing(high):
        return point
    return f"{point} [{format_number(low, digits)}, {format_number(high, digits)}]"


def plural(n: int, noun: str, plural_form: str | None = None) -> str:
    """``1 system``, ``0 systems``, ``2 analyses`` (with ``plural_form``).

    >>> plural(1, "analysis", "analyses"), plural(2, "analysis", "analyses")
    ('1 analysis', '2 analyses')
    """
    if n == 1:
        return f"1 {noun}"
    return f"{n} {plural_form or noun + 's'}"


def blank(value: Any) -> Any:
    """``value``, or ``—`` where it is None/NaN (for text cells)."""
    return DASH if _missing(value) else value


def bleu_unit(paper_scale: bool = False) -> str:
    """The label of a BLEU scale: ``BLEU (0-100)`` on screen, ``BLEU (0-1, as in the paper)``."""
    return "BLEU (0-1, as in the paper)" if paper_scale else "BLEU (0-100)"


def p_column(frame: Any, columns: Any = None) -> Any:
    """A copy of a pandas DataFrame with its p-value columns as text (:func:`format_p`).

    ``columns`` defaults to every column whose name starts with ``p`` followed by nothing, a space or
    ``(`` (``p``, ``p (one-sided)``, ``p (two-sided)``).

    >>> import pandas as pd
    >>> p_column(pd.DataFrame({"r": [0.5], "p": [1.27e-47]}))["p"].tolist()
    ['1.3e-47']
    """
    out = frame.copy()
    names = columns if columns is not None else [c for c in out.columns if _is_p_name(str(c))]
    for name in names:
        out[name] = [format_p(v) for v in out[name].tolist()]
    return out


def _is_p_name(name: str) -> bool:
    return name == "p" or name.startswith("p ") or name.startswith("p(")


def tidy_frame(frame: Any) -> Any:
    """A copy of a DataFrame for the screen: p-value columns as text, ``None`` in text columns as ``—``.

    Numeric columns keep NaN (Streamlit shows an empty cell there, never ``None``).

    >>> import pandas as pd
    >>> t = tidy_frame(pd.DataFrame({"note": [None, "x"], "p": [0.0, 0.2], "r": [None, 0.1]}))
    >>> t["note"].tolist(), t["p"].tolist(), t["r"].isna().tolist()
    (['—', 'x'], ['< 1e-300', '0.2'], [True, False])
    """
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    out = p_column(frame)
    for name in out.columns:
        if not is_numeric_dtype(out[name]) or is_bool_dtype(out[name]):
            values = out[name].tolist()
            numbers = [v for v in values if not _missing(v)]
            if numbers and all(
                isinstance(v, float | int) and not isinstance(v, bool) for v in numbers
            ):
                out[name] = [math.nan if _missing(v) else float(v) for v in values]
            else:
                out[name] = [blank(v) for v in values]
    return out


def interval_note(result: Any) -> str:
    """A correlation's interval and how it was made, e.g. ``95% CI [0.134, 0.534] · bootstrap: …``
    (:func:`bleu_core.evaluation.meta.interval_method`; the same words as ``meta`` prints)."""
    from bleu_core.evaluation.meta import interval_method

    ci = result.confidence_interval
    if ci is None:
        return f"No interval: {interval_method(result)}."
    level = f"{result.confidence_level:.0%}" if result.confidence_level else ""
    shown = format_ci(result.statistic, ci[0], ci[1])
    return f"r = {shown} ({level} CI) · {interval_method(result)}"
