"""Errors raised by bleu-study.

Every error is a :class:`ValueError` subclass carrying a message meant for a person: it names the file, line and
column when they are known, says what is wrong and how to fix it. The command line prints the message (no
traceback) and exits with code 2; the app shows it in an error box.

>>> err = InputError("3 lines, expected 5", file="hyp.txt", line=3)
>>> str(err)
'hyp.txt, line 3: 3 lines, expected 5'
"""

from __future__ import annotations


class BleuStudyError(ValueError):
    """Base class of every error bleu-study raises on bad input or bad options."""


class BleuOptionError(BleuStudyError):
    """An invalid BLEU option (unknown tokenizer or smoothing, bad weights, order out of range...)."""


class OptionError(BleuStudyError):
    """An option value out of range (a resample count, a size cap...); the message states the allowed range."""


class WrongTypeError(BleuStudyError, TypeError):
    """An argument of the wrong Python type (``load_study(123)``, a number where a text belongs).

    Both a :class:`BleuStudyError` (so the command line and the app report it cleanly) and a
    :class:`TypeError` (so ``except TypeError`` works as Python programmers expect).

    >>> isinstance(WrongTypeError("x"), TypeError), isinstance(WrongTypeError("x"), ValueError)
    (True, True)
    """


class InputError(BleuStudyError):
    """Bad input data. Carries the location (file, 1-based line, column) when known."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: str | int | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        super().__init__(self._format())

    def _format(self) -> str:
        where = []
        if self.file is not None:
            where.append(str(self.file))
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.message}" if where else self.message


class StudyError(InputError):
    """A study (references, systems, ratings) that cannot be loaded or is inconsistent."""


class StatsInputError(BleuStudyError):
    """Input a statistical procedure cannot use (too few systems, segments, ratings; mismatched shapes...).

    The message says what is wrong and how to fix it. It lives here, beside the other errors, because the
    correlation and the linear fit every subpackage shares (:mod:`bleu_core.maths.correlation`,
    :mod:`bleu_core.maths.regression`) raise it as well as :mod:`bleu_core.evaluation`.

    >>> raise StatsInputError("need at least 2 systems, got 1")
    Traceback (most recent call last):
    ...
    bleu_core.errors.StatsInputError: need at least 2 systems, got 1
    """
