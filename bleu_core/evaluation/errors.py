"""The error the statistics raise on input they cannot use: :class:`~bleu_core.errors.StatsInputError`.

It is defined in :mod:`bleu_core.errors` (the correlation and the fit of :mod:`bleu_core.maths.correlation` and
:mod:`bleu_core.maths.regression`, which every subpackage uses, raise it too) and importable from here.

>>> raise StatsInputError("need at least 2 systems, got 1")
Traceback (most recent call last):
...
bleu_core.errors.StatsInputError: need at least 2 systems, got 1
"""

from __future__ import annotations

from ..errors import StatsInputError

__all__ = ["StatsInputError"]
