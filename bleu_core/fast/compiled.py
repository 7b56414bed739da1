"""Whether the compiled kernels run: they do whenever they were built, for every input size.

Two loops of the engine are too fine-grained for numpy: numbering the words of a big text
(:mod:`bleu_core.fast.word_index`) and counting clipped n-gram matches segment by segment
(:mod:`bleu_core.fast.clipping`). Both have a kernel written in C (``bleu_core/fast/_kernels.c``, compiled
**ahead of time** when the package is installed, by ``setup.py``; :mod:`bleu_core.fast.native` wraps it) and a
pure numpy/Python path that gives identical results; the tests run both on the same input.

Loading the extension is an ordinary import (well under a millisecond), so there is no size threshold and no
warm-up: the compiled path is taken whenever

* the extension was built (a machine without a C compiler installs without it: bleu_core then says so once,
  in one line on standard error, and runs the pure paths), and
* ``BLEU_STUDY_PURE`` is not set (``1`` forces the pure path everywhere; ``BLEU_STUDY_NO_NUMBA``, its name from
  the days of the numba kernels, still works).

This module imports nothing of :mod:`bleu_core.fast` (the kernels' users import it, never the reverse).

>>> use_compiled(10, force=False)
False
>>> use_compiled(10) == available()
True
"""

from __future__ import annotations

import importlib
import os
import sys
from functools import cache
from types import ModuleType

#: Environment variables that switch the compiled kernels off (any value but empty or ``0``).
SWITCHES = ("BLEU_STUDY_PURE", "BLEU_STUDY_NO_NUMBA")

NOTICE = (
    "bleu-study: compiled kernels not built (no C compiler at install?); using the pure numpy/Python path "
    "(same results, slower)"
)


def disabled() -> bool:
    """True when ``BLEU_STUDY_PURE`` (or its old name ``BLEU_STUDY_NO_NUMBA``) switches the kernels off."""
    return any(os.environ.get(name, "") not in ("", "0") for name in SWITCHES)


@cache
def extension() -> ModuleType | None:
    """The compiled extension module, or ``None`` (after a one-line notice) when it was not built."""
    try:
        return importlib.import_module(f"{__package__}._kernels")
    except ImportError:
        print(NOTICE, file=sys.stderr)
        return None


def available() -> bool:
    """True when the extension is built and not switched off."""
    return not disabled() and extension() is not None


def use_compiled(work: int = 0, force: bool | None = None) -> bool:
    """Whether to run a compiled kernel (``force`` = ``True``/``False`` decides outright, for tests).

    ``work`` (characters, words or token positions) no longer matters: the kernels cost nothing to load. It is
    kept so that callers still say how big the job is.
    """
    if force is not None:
        return force
    return available()


def loaded() -> bool:
    """True when the extension is loaded in this process."""
    return "bleu_core.fast._kernels" in sys.modules


def prepare(work: int = 0) -> bool:
    """True when the compiled path will be taken (kept for callers of the numba era; nothing to load)."""
    return use_compiled(work)


def load_all() -> None:
    """Load the extension now (a fraction of a millisecond; the app's warm-up still calls it)."""
    if not disabled():
        extension()
