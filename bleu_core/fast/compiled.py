"""When the compiled (numba) kernels run, and how they are loaded.

Two loops of the engine are too fine-grained for numpy: numbering the words of a big text
(:mod:`bleu_core.fast.word_index`) and counting clipped n-gram matches segment by segment
(:mod:`bleu_core.fast.clipping`). Both have a compiled kernel (`numba <https://numba.pydata.org>`_, a runtime
dependency) and a pure numpy/Python twin that gives identical results; the tests run both on the same input.

The compiled kernel is used when

* numba can be imported and ``BLEU_STUDY_NO_NUMBA`` is not set (``1`` forces the pure path everywhere), and
* the work is big enough to pay for loading the kernels (importing numba and reading the kernels from numba's
  on-disk cache takes about 1 s, once per process; the very first use after installation compiles them, about
  8 s), **or** the kernels are already loaded in this process (by an earlier big job, or by the app's
  background warm-up), in which case every input takes the compiled path.

:func:`bleu_core.fast.corpus.corpus_statistics` decides once for the whole corpus (:func:`prepare`), so that
its chunks, each smaller than :data:`MIN_WORK`, all follow.

>>> isinstance(use_compiled(10), bool)
True
>>> use_compiled(10, force=False)
False
"""

from __future__ import annotations

import os
import sys
from functools import cache

#: Below this much work (characters of text, words or token positions), a process that has not loaded the
#: kernels yet stays on the pure path: the pure path needs about 0.07 s per million characters more, so loading
#: (about 1 s) pays off from roughly 15-20 million characters (80k-100k segments with one reference) on.
MIN_WORK = 20_000_000


def disabled() -> bool:
    """True when ``BLEU_STUDY_NO_NUMBA`` (any value but empty or ``0``) switches the compiled kernels off."""
    return os.environ.get("BLEU_STUDY_NO_NUMBA", "") not in ("", "0")


@cache
def _importable() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover - numba is a dependency; kept for odd platforms
        return False
    return True


def available() -> bool:
    """True when numba can be imported and the kernels are not switched off."""
    return not disabled() and _importable()


def use_compiled(work: int, force: bool | None = None) -> bool:
    """Whether to run a compiled kernel on ``work`` units (``force`` = ``True``/``False`` decides outright)."""
    if force is not None:
        return force
    if disabled():
        return False
    return loaded() or (work >= MIN_WORK and _importable())


def loaded() -> bool:
    """True when the kernels are already loaded in this process."""
    return "bleu_core.fast.kernels" in sys.modules


def prepare(work: int) -> bool:
    """Load the kernels now if ``work`` calls for them; True when the compiled path will be taken."""
    if use_compiled(work):
        from . import kernels  # noqa: F401

        return True
    return False


def load_all() -> None:
    """Import numba and load (or compile) every kernel now; the app calls this in a background thread."""
    if not available():
        return
    from . import clipping, word_index

    word_index.warm_up()
    clipping.warm_up()
