r"""Text set in LaTeX: one escaper for every LaTeX table bleu-study writes (the Metric ranking table,
the multi-pair table, the app's table downloads).

LaTeX's ten special characters are ``\ { } ~ ^ _ & % # $``: each becomes the command or escaped form that
prints it, so a metric, system or criterion name such as ``acc*_eq (50%)`` or ``C:\runs~1`` is printed as
written instead of breaking the document.
"""

from __future__ import annotations

__all__ = ["tex"]

_SPECIALS = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def tex(text: object) -> str:
    r"""``text`` with LaTeX's special characters escaped.

    >>> tex("acc*_eq & 50% ~ {x}")
    'acc*\\_eq \\& 50\\% \\textasciitilde{} \\{x\\}'
    >>> print(tex(r"a\b^2 #1 $3"))
    a\textbackslash{}b\textasciicircum{}2 \#1 \$3
    """
    return "".join(_SPECIALS.get(ch, ch) for ch in str(text))
