"""The app's side of the resource limits: resample boxes capped and checked, upload limits stated.

The limits themselves live in :mod:`bleu_core.limits` (shared with the command line); here they are put on the
widgets and into the help texts, so a reader of the app knows them before hitting one:

* every "Resamples" / "Trials" box has ``max_value = MAX_RESAMPLES`` and its value goes through
  :func:`bleu_core.limits.check_resamples` (:func:`resamples_input`); every page that reads the session's
  seed and resample count (set on the Significance or Export page) reads both through
  :func:`session_resampling`, the cap checked there;
* uploads: at most :data:`UPLOAD_MAX_MB` per file (the browser refuses larger files, the loader checks again)
  and lines of at most :data:`bleu_core.limits.MAX_LINE_CHARS` characters (:data:`UPLOAD_LIMITS`).

>>> "100,000" in RESAMPLES_HELP and "200 MB" in UPLOAD_LIMITS and "1,000,000 characters" in UPLOAD_LIMITS
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from bleu_core.errors import OptionError
from bleu_core.limits import MAX_LINE_CHARS, MAX_RESAMPLES, check_resamples, max_bytes_from_mb
from ui.app import state as K
from ui.app.markup import md_escape

#: Largest uploaded file, in MB (the loaders' default cap, and Streamlit's default upload limit).
UPLOAD_MAX_MB = 200
#: The same in bytes, for :func:`bleu_core.study.loading.load_files`.
UPLOAD_MAX_BYTES = max_bytes_from_mb(UPLOAD_MAX_MB)

#: The limits of an upload, as told to the reader.
UPLOAD_LIMITS = (
    f"Limits: {UPLOAD_MAX_MB} MB per file, {MAX_LINE_CHARS:,} characters per line "
    "(one segment per line)."
)

#: Added to the help of every resamples / trials box.
RESAMPLES_HELP = (
    f"At most {MAX_RESAMPLES:,}, so that one request cannot tie up the server "
    "(the literature uses 1,000-2,000)."
)


def resamples_input(
    label: str, *, key: str, min_value: int, step: int = 100, help: str = "", where: Any = None
) -> int:
    """A number box for resamples or trials, capped at :data:`~bleu_core.limits.MAX_RESAMPLES` (the cap is
    stated in its help), and its value checked by :func:`~bleu_core.limits.check_resamples`.

    A value kept in the session above the cap (set before the cap existed) is brought down to it first:
    Streamlit would refuse to draw the box otherwise.
    """
    value = st.session_state.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > MAX_RESAMPLES:
        st.session_state[key] = MAX_RESAMPLES
    box = (where or st).number_input(
        label,
        min_value=min_value,
        max_value=MAX_RESAMPLES,
        step=step,
        key=key,
        help=f"{help} {RESAMPLES_HELP}".strip(),
    )
    return check_resamples(box, name=label)


def resampling_settings(state: Mapping[str, Any]) -> tuple[int, int]:
    """``(seed, resamples)`` as ``state`` holds them (the session's defaults where it holds none), the
    resample count checked by :func:`~bleu_core.limits.check_resamples` (an
    :class:`~bleu_core.errors.OptionError` above :data:`~bleu_core.limits.MAX_RESAMPLES`).

    >>> resampling_settings({}), resampling_settings({K.SEED: 7, K.N_RESAMPLES: 200.0})
    ((12345, 1000), (7, 200))
    """
    seed = int(state.get(K.SEED, K.DEFAULTS[K.SEED]))
    n_resamples = state.get(K.N_RESAMPLES, K.DEFAULTS[K.N_RESAMPLES])
    return seed, check_resamples(n_resamples, name="Resamples")


def session_resampling() -> tuple[int, int]:
    """The session's seed and resample count (set on the Significance or Export page), the one way a page
    reads them: a resample count out of range stops the page with the limit stated."""
    try:
        return resampling_settings(st.session_state)
    except OptionError as err:
        st.error(f"{md_escape(str(err))}. Change it on the Export page.")
        st.stop()
        raise  # pragma: no cover - st.stop() ends the run
