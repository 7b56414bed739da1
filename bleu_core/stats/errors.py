"""The error the statistics raise on input they cannot use.

>>> raise StatsInputError("need at least 2 systems, got 1")
Traceback (most recent call last):
...
bleu_core.stats.errors.StatsInputError: need at least 2 systems, got 1
"""

from __future__ import annotations

from ..errors import BleuStudyError


class StatsInputError(BleuStudyError):
    """Input a statistical procedure cannot use (too few systems, segments, ratings; mismatched shapes...).

    The message says what is wrong and how to fix it.
    """
