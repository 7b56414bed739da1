"""The Unicode classes of sacrebleu's ``intl`` tokenizer, one byte per code point, taken from ``regex`` itself.

sacrebleu's ``TokenizerV14International`` splits on punctuation (``\\p{P}``), symbols (``\\p{S}``) and looks at
numbers (``\\p{N}``) through the ``regex`` package, whose Unicode tables need not be those of Python's
``unicodedata`` (``regex`` ships its own, often a newer Unicode version). The compiled intl rules
(``rules_intl`` in ``_kernels.c``) look every code point up in :func:`intl_classes`: a ``uint8`` array of
``0x110000`` entries with bit :data:`P` for ``\\p{P}``, :data:`S` for ``\\p{S}`` and :data:`N` for ``\\p{N}``,
built by running those three classes of ``regex`` over a string of every code point (once per process, on first
use, a few tens of milliseconds). ``tests/engine/test_fast_tokenizers.py`` checks it against ``regex.match`` on
every code point.

>>> table = intl_classes()
>>> [int(table[ord(c)]) for c in "a.$5"] == [0, P, S, N]
True
"""

from __future__ import annotations

from functools import cache

import numpy as np

#: Bits of :func:`intl_classes` (the same values as ``INTL_P``, ``INTL_S``, ``INTL_N`` in ``_kernels.c``).
P, S, N = 1, 2, 4
#: The classes as ``regex`` spells them, with their bits.
CLASSES = ((P, r"\p{P}"), (S, r"\p{S}"), (N, r"\p{N}"))
#: Code points: U+0000 to U+10FFFF.
SIZE = 0x110000
_SURROGATES = slice(0xD800, 0xE000)


@cache
def intl_classes() -> np.ndarray:
    """The class bits of every code point (read-only ``uint8`` array of :data:`SIZE`), from ``regex``."""
    import regex

    code_points = np.arange(SIZE, dtype=np.uint32)
    # UTF-32 cannot hold the surrogates: they stand as U+0000 here and are classified one by one below.
    code_points[_SURROGATES] = 0
    every_character = code_points.tobytes().decode("utf-32-le")
    table = np.zeros(SIZE, np.uint8)
    for bit, pattern in CLASSES:
        for match in regex.finditer(pattern + "+", every_character):
            table[match.start() : match.end()] |= bit
    table[_SURROGATES] = 0
    for bit, pattern in CLASSES:
        compiled = regex.compile(pattern)
        for code in range(_SURROGATES.start, _SURROGATES.stop):
            if compiled.match(chr(code)):
                table[code] |= bit
    table.flags.writeable = False
    return table
