"""Resource limits: how long a line, how many resamples, how large a file — checked before any heavy work.

A shared server must not be tied up by one input. The limits below are stated in every message that enforces
them, so a user knows what to change:

* :data:`MAX_LINE_CHARS` — one segment per line, and no real sentence is a million characters long; a longer
  line is almost always a file that lost its line breaks (or a denial of service), and tokenising it costs
  gigabytes. Checked on the decoded text, before tokenising (:func:`check_text`).
* :data:`MAX_RESAMPLES` — bootstrap resamples, permutations and randomisation trials. 100,000 is 50-100 times
  what the literature uses (Koehn 2004: 1,000; Zhang & Vogel 2004: 1,000-2,000) (:func:`check_resamples`).
* ``--max-mb`` must be a finite positive number of megabytes (:func:`parse_max_mb`).
* NUL bytes never belong in a text or a table cell; they are an error naming the file and line.

These are pure functions; the command line uses them as argparse ``type=`` converters and the app can call
them on its input boxes.

>>> check_resamples(1000)
1000
>>> check_resamples(0)
Traceback (most recent call last):
  ...
bleu_core.errors.OptionError: resamples must be a whole number from 1 to 100,000, got 0
>>> parse_max_mb("50")
50.0
>>> check_text("fine\\nline\\n", "hyp.txt")
>>> check_text("a\\nb\\x00c\\n", "hyp.txt")
Traceback (most recent call last):
  ...
bleu_core.errors.InputError: hyp.txt, line 2, column 2: NUL byte (\\x00) in the text; ...
"""

from __future__ import annotations

import argparse
import math
import numbers

from bleu_core.errors import InputError, OptionError

__all__ = [
    "MAX_LINE_CHARS",
    "MAX_RESAMPLES",
    "check_resamples",
    "check_text",
    "max_bytes_from_mb",
    "parse_fraction",
    "parse_max_mb",
    "parse_resamples",
]

#: Longest accepted line (one segment, or one table row) in characters: 1,000,000 (about 1 MB).
MAX_LINE_CHARS = 1_000_000

#: Most bootstrap resamples / permutations / randomisation trials one request may ask for.
MAX_RESAMPLES = 100_000


def check_resamples(value: object, *, name: str = "resamples", minimum: int = 1) -> int:
    """``value`` as an int when it is a whole number from ``minimum`` to :data:`MAX_RESAMPLES`.

    Raises :class:`~bleu_core.errors.OptionError` stating the allowed range otherwise (booleans,
    floats with a fraction, ``nan`` and numbers out of range included). The app's "Resamples" box and the
    command line's ``--n-resamples`` / ``--n-trials`` both go through it.

    >>> check_resamples(2.0), check_resamples(100_000)
    (2, 100000)
    >>> check_resamples(10**9, name="--n-resamples")
    Traceback (most recent call last):
      ...
    bleu_core.errors.OptionError: --n-resamples must be a whole number from 1 to 100,000, got 1000000000
    """
    allowed = f"{name} must be a whole number from {minimum:,} to {MAX_RESAMPLES:,}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise OptionError(f"{allowed}, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or not number.is_integer():
        raise OptionError(f"{allowed}, got {value!r}")
    count = value if isinstance(value, int) else int(number)
    if not minimum <= count <= MAX_RESAMPLES:
        raise OptionError(f"{allowed}, got {count}")
    return count


def parse_resamples(text: str) -> int:
    """argparse ``type=`` for ``--n-resamples`` / ``--n-trials``: plain ASCII digits, 1 to :data:`MAX_RESAMPLES`.

    >>> parse_resamples("500")
    500
    >>> parse_resamples("0")
    Traceback (most recent call last):
      ...
    argparse.ArgumentTypeError: must be a whole number from 1 to 100,000, got 0
    """
    stripped = text.strip()
    digits = stripped.removeprefix("+")
    if not (digits.isascii() and digits.isdigit()):  # [+]?[0-9]+ (isdigit alone takes "²" and "٣")
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 1 to {MAX_RESAMPLES:,}, got {text!r}"
        )
    try:
        return check_resamples(int(stripped), name="")
    except OptionError as exc:
        raise argparse.ArgumentTypeError(str(exc).lstrip()) from None


def parse_max_mb(text: str) -> float:
    """argparse ``type=`` for ``--max-mb``: a finite number of megabytes above 0.

    ``nan``, ``inf``, ``0`` and negative numbers are rejected as option errors (never a file error).

    >>> parse_max_mb("0.5")
    0.5
    >>> parse_max_mb("inf")
    Traceback (most recent call last):
      ...
    argparse.ArgumentTypeError: must be a finite number of megabytes above 0 (e.g. 200), got 'inf'
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0 or value > 1e9:
        raise argparse.ArgumentTypeError(
            f"must be a finite number of megabytes above 0 (e.g. 200), got {text!r}"
        )
    return value


def parse_fraction(text: str) -> float:
    """argparse ``type=`` for ``--alpha`` / ``--confidence``: a number strictly between 0 and 1.

    >>> parse_fraction("0.05")
    0.05
    >>> parse_fraction("2")
    Traceback (most recent call last):
      ...
    argparse.ArgumentTypeError: must be a number strictly between 0 and 1 (e.g. 0.05 or 0.95), got '2'
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:  # also false for nan
        raise argparse.ArgumentTypeError(
            f"must be a number strictly between 0 and 1 (e.g. 0.05 or 0.95), got {text!r}"
        )
    return value


def max_bytes_from_mb(megabytes: float) -> int:
    """The byte cap for a ``--max-mb`` value (MB = 1024 x 1024 bytes), at least 1.

    >>> max_bytes_from_mb(1.5)
    1572864
    """
    if isinstance(megabytes, bool) or not isinstance(megabytes, numbers.Real):
        raise OptionError(f"max_mb must be a number of megabytes, got {megabytes!r}")
    if not math.isfinite(megabytes) or megabytes <= 0:
        raise OptionError(f"max_mb must be a finite number of megabytes above 0, got {megabytes!r}")
    return max(1, int(megabytes * 1024 * 1024))


def _line_of(text: str, position: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, position) + 1
    return text.count("\n", 0, position) + 1, position - line_start + 1


def check_text(text: str, file: str, *, max_line_chars: int | None = None) -> None:
    """Raise :class:`~bleu_core.errors.InputError` for a NUL character or a line over the length limit.

    ``text`` is a decoded text file (one segment per line, or a table). The message names the file, the
    line, and the limit (:data:`MAX_LINE_CHARS` unless ``max_line_chars`` is given). Runs in C-speed passes
    over the text, so a 200 MB file costs well under a second.

    >>> check_text("ok\\n" + "x" * 11, "big.txt", max_line_chars=10)
    Traceback (most recent call last):
      ...
    bleu_core.errors.InputError: big.txt, line 2: line is 11 characters long, over the limit of 10 characters per line; ...
    """
    limit = MAX_LINE_CHARS if max_line_chars is None else max_line_chars
    nul = text.find("\x00")
    if nul >= 0:
        line, column = _line_of(text, nul)
        raise InputError(
            "NUL byte (\\x00) in the text; text files and table cells must not contain NUL "
            "characters — is this a binary file, or UTF-16 saved by mistake? Save it as UTF-8 text",
            file=file,
            line=line,
            column=column,
        )
    if len(text) <= limit:
        return
    lengths = [len(line) for line in text.split("\n")]
    longest = max(lengths)
    if longest > limit:
        number = next(i for i, n in enumerate(lengths, start=1) if n > limit)
        raise InputError(
            f"line is {lengths[number - 1]:,} characters long, over the limit of {limit:,} "
            "characters per line; a segment is one sentence per line — did the file lose its line "
            "breaks (e.g. old Mac CR-only line ends)? Split it into one segment per line",
            file=file,
            line=number,
        )
