"""Strict JSON for every ``--format json`` of the command line: an undefined number is ``null``.

Python's :func:`json.dumps` writes ``float("nan")`` as ``NaN`` and infinities as ``Infinity``:
JavaScript, ``jq`` and most JSON readers reject both (they are not JSON, RFC 8259 §6). Every command
(``score``, ``study``, ``meta``, ``significance``, ``spans``) prints through :func:`dumps`, which
replaces each non-finite float (Python's or NumPy's) by ``null``, turns NumPy scalars and arrays into
plain numbers and lists, and then lets :mod:`json` refuse anything non-finite left (``allow_nan=False``).

>>> import numpy as np
>>> dumps({"r": float("nan"), "ci": (np.float64(0.5), float("inf")), "n": np.int64(3)})
'{"r": null, "ci": [0.5, null], "n": 3}'
"""

from __future__ import annotations

import json
import math
from typing import Any


def strict(value: Any) -> Any:
    """``value`` with every non-finite float replaced by ``None`` (recursively, through dicts,
    lists and tuples) and NumPy scalars and arrays made plain Python numbers and lists.

    >>> strict([1.0, float("-inf"), {"x": float("nan")}])
    [1.0, None, {'x': None}]
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    tolist = getattr(value, "tolist", None)  # NumPy scalars and arrays
    if callable(tolist) and type(value).__module__ == "numpy":
        return strict(tolist())
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """:func:`json.dumps` of :func:`strict` ``(value)``, refusing NaN and infinities
    (``allow_nan=False``); keyword arguments (``indent``, ``ensure_ascii``) are passed on."""
    return json.dumps(strict(value), allow_nan=False, **kwargs)
