"""Python faces of the C kernels (``bleu_core/fast/_kernels.c``): array allocation, table growth, dtypes.

numpy is imported by the functions that need it, not by this module: :mod:`bleu_core.tokenize.line_tokenizers` loads it
for :func:`rules_13a` alone, and ``bleu-study score``'s fast path (:mod:`bleu_core.fast.file_bleu`) runs
without numpy.

The C functions take numpy arrays through the buffer protocol and write into arrays given to them; these
wrappers allocate those arrays, make the inputs C-contiguous with the right dtype, and grow the word table when
the kernel stops because it is full. Read :mod:`bleu_core.fast.word_index` and :mod:`bleu_core.fast.clipping`
for what the kernels compute and for their pure paths; callers reach this module only when
:func:`bleu_core.fast.compiled.use_compiled` says so.

>>> import numpy as np
>>> from bleu_core.fast.compiled import available
>>> not available() or count(np.array([1, 2, 1, 1, 2]), np.array([[0], [3]]), np.array([[3], [2]]), 2,
...                          key_base=3, direct=True).tolist() == [[2.0, 1.0]]
True
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from .compiled import extension

if TYPE_CHECKING:
    import numpy as np


def _c() -> ModuleType:
    module = extension()
    if module is None:  # pragma: no cover - callers check use_compiled first
        raise RuntimeError("the compiled kernels are not built: use the pure path")
    return module


def _int64(a: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.ascontiguousarray(a, dtype=np.int64)


def index_words(
    buf: np.ndarray,
    kind: np.ndarray,
    slots: np.ndarray,
    meta: np.ndarray,
    arena: np.ndarray,
    used: int,
    n_distinct: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Word ids of every word of ``buf`` (UTF-8 bytes), adding new words to the table; returns
    ``(word_ids, slots, meta, arena, used, n_distinct)`` (the table's arrays perhaps reallocated)."""
    import numpy as np

    c = _c()
    n = int(buf.shape[0])
    # At most one word per two bytes; pages of the array that are never written are never allocated.
    word_ids = np.empty(n // 2 + 1, np.int64)
    i = k = 0
    while True:
        i, k, used, n_distinct, arena_needed = c.scan(
            buf, kind, i, word_ids, k, slots, meta, arena, used, n_distinct
        )
        if i >= n:
            break
        if 2 * (n_distinct + 1) > slots.shape[0]:  # keep the load factor under 1/2
            slots = np.zeros(2 * slots.shape[0], np.uint64)
            c.rehash(meta, arena, n_distinct, slots)
        if n_distinct == meta.shape[0]:
            bigger_meta = np.empty((2 * meta.shape[0], 2), np.int64)
            bigger_meta[:n_distinct] = meta[:n_distinct]
            meta = bigger_meta
        if arena_needed > arena.shape[0]:
            bigger = np.empty(max(2 * arena.shape[0], arena_needed), np.uint8)
            bigger[:used] = arena[:used]
            arena = bigger
    return word_ids[:k].copy(), slots, meta, arena, used, n_distinct


def expand(
    word_ids: np.ndarray,
    word_flat: np.ndarray,
    word_start: np.ndarray,
    word_len: np.ndarray,
    n_lines: int,
) -> tuple[np.ndarray, np.ndarray, int]:
    """``(ids, lengths, last_line)``: the token ids of the words one after the other, the tokens per line,
    and the index of the last line reached (``-1`` when there are more separators than lines)."""
    import numpy as np

    word_ids, word_flat = _int64(word_ids), _int64(word_flat)
    word_start, word_len = _int64(word_start), _int64(word_len)
    c = _c()
    ids = np.empty(c.gathered_sum(word_ids, word_len), np.int64)  # sum(word_len[word_ids])
    lengths = np.zeros(max(int(n_lines), 1), np.int64)
    line = c.expand(word_ids, word_flat, word_start, word_len, ids, lengths)
    return ids, lengths[: int(n_lines)], int(line)


def count_bytes(data: bytes, values: bytes) -> list[int]:
    """How often each byte of ``values`` occurs in ``data`` (the pure path is ``bytes.count``,
    :func:`bleu_core.fast.word_index.count_bytes`)."""
    import numpy as np

    out = np.zeros(len(values), np.int64)
    _c().count_bytes(data, values, out)
    return out.tolist()


def count(
    ids: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    max_order: int,
    *,
    key_base: int,
    direct: bool,
) -> np.ndarray:
    """Clipped matches per segment and order, shape ``(segments, max_order)``; ``starts``/``lengths`` are
    ``(sources, segments)`` (source 0: the hypotheses), every id below ``key_base``."""
    import numpy as np

    starts, lengths = _int64(starts), _int64(lengths)
    n_sources, n_segments = starts.shape
    out = np.zeros((n_segments, int(max_order)), np.float64)
    if n_segments:
        _c().count(
            _int64(ids), starts, lengths, n_sources, int(max_order), int(key_base), direct, out
        )
    return out


def chrf_matches(
    units: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    n_hyp_sides: int,
    n_ref_sides: int,
    max_order: int,
    skip: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """chrF's clipped n-gram matches ``(K, R, S, max_order)``: for every segment, hypothesis side ``k`` and
    reference side ``r``, the sum over distinct n-grams of ``min(count in hypothesis, count in reference)``;
    and the length of every document once the units ``skip`` marks are left out.

    ``units`` (code points or word ids, below ``2**32``) hold every document; ``starts``/``lengths`` are
    ``(K + R) × S`` (hypothesis sides first): document ``(side, segment)`` is
    ``units[start : start + length]``. A unit ``u`` with ``u < len(skip)`` and ``skip[u]`` (booleans, say
    whitespace) is removed from every document before n-grams are taken. The numpy path is
    ``bleu_core.metrics.chrf._match_counts``.

    >>> import numpy as np
    >>> from bleu_core.fast.compiled import available
    >>> units = np.array([ord(c) for c in "ab ab" + "ab"], dtype=np.uint32)
    >>> space = np.array([c == " " for c in map(chr, range(33))])
    >>> if available():
    ...     matches, kept = chrf_matches(units, [[0], [5]], [[5], [2]], 1, 1, 2, space)
    ...     print(matches.ravel().tolist(), kept.ravel().tolist())
    ... else:
    ...     print([2.0, 1.0], [4, 2])
    [2.0, 1.0] [4, 2]
    """
    import numpy as np

    starts, lengths = _int64(starts), _int64(lengths)
    k, r = int(n_hyp_sides), int(n_ref_sides)
    n_segments = starts.size // (k + r) if k + r else 0
    out = np.zeros((k, r, n_segments, int(max_order)), np.float64)
    kept = np.zeros(starts.shape, np.int64)
    skip = np.zeros(0, np.uint8) if skip is None else np.ascontiguousarray(skip, dtype=np.uint8)
    if starts.size:
        _c().chrf_matches(
            np.ascontiguousarray(units, dtype=np.uint32),
            starts.ravel(),
            lengths.ravel(),
            k,
            r,
            int(max_order),
            skip,
            out,
            kept.ravel(),
        )
    return out, kept


def rules_13a(data: bytes) -> bytes:
    """sacrebleu's four 13a regular expressions applied to UTF-8 ``data`` (``_kernels.c``: ``rules_13a``).

    The same bytes as ``re.sub`` with sacrebleu 2.6's rules (``Tokenizer13a()._post_tokenizer._re``) give:

    >>> from bleu_core.fast.compiled import available
    >>> not available() or rules_13a(b" 3.5, e.g. 1-2 ") == b"   3.5 ,    e  .  g  .     1 - 2   "
    True
    """
    return _c().rules_13a(data)


def rules_intl(data: bytes) -> bytes:
    """sacrebleu's three intl regular expressions applied to UTF-8 ``data`` (``_kernels.c``: ``rules_intl``),
    with the Unicode classes of the ``regex`` package (:func:`bleu_core.fast.intl_table.intl_classes`).

    The same bytes as ``regex.sub`` with sacrebleu 2.6's rules (``TokenizerV14International()._re``) give:

    >>> from bleu_core.fast.compiled import available
    >>> not available() or rules_intl("a, b. 3.5 $x".encode()) == b"a  ,   b  .   3.5  $ x"
    True
    """
    from .intl_table import intl_classes

    return _c().rules_intl(data, intl_classes())


def pair_counts(partial: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """For ``R`` score sets of ``K`` systems: how many of the ``P`` permuted sums ``partial`` (``R × K × P``)
    give a difference ``partial[r, i] - partial[r, j]`` at least ``observed[r, q]`` (``R × Q``, the pairs
    ``i < j`` in ``np.triu_indices`` order) (``_kernels.c``: ``pair_counts``; int64 ``R × Q``).

    >>> import numpy as np
    >>> from bleu_core.fast.compiled import available
    >>> partial = np.array([[[3.0, 1.0, 2.0], [1.0, 1.0, 1.0]]])
    >>> not available() or pair_counts(partial, np.array([[1.0]])).tolist() == [[2]]
    True
    """
    import numpy as np

    r, k, _ = partial.shape
    out = np.zeros((r, k * (k - 1) // 2), np.int64)
    _c().pair_counts(
        np.ascontiguousarray(partial, dtype=np.float64),
        np.ascontiguousarray(observed, dtype=np.float64),
        out,
        k,
    )
    return out


def hybrid_counts(
    a_part: np.ndarray,
    b_part: np.ndarray,
    a_free: np.ndarray,
    b_free: np.ndarray,
    observed1: np.ndarray,
    observed2: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`pair_counts` of the PERM-BOTH hybrids ``a_part + (b_free - b_part)`` and
    ``b_part + (a_free - a_part)`` (parts ``R × K × P``, free sums ``K × P``; ``_kernels.c``:
    ``hybrid_counts``), without building them in numpy.

    >>> import numpy as np
    >>> from bleu_core.fast.compiled import available
    >>> a, b = np.array([[[3.0, 1.0], [1.0, 1.0]]]), np.zeros((1, 2, 2))
    >>> free = np.zeros((2, 2))
    >>> counts = hybrid_counts(a, b, free, free, [[1.0]], [[-1.0]]) if available() else ([[1]], [[1]])
    >>> [np.asarray(c).tolist() for c in counts]
    [[[1]], [[1]]]
    """
    import numpy as np

    r, k, _ = a_part.shape
    out1 = np.zeros((r, k * (k - 1) // 2), np.int64)
    out2 = np.zeros_like(out1)
    f64 = (np.ascontiguousarray(x, dtype=np.float64) for x in (a_part, b_part, a_free, b_free))
    obs = (np.ascontiguousarray(x, dtype=np.float64) for x in (observed1, observed2))
    _c().hybrid_counts(*f64, *obs, out1, out2, k)
    return out1, out2
