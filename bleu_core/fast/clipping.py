"""Clipped n-gram matches of many segments, segment by segment in compiled code.

The same numbers as :func:`bleu_core.fast.counting.clipped_matches` (numpy, sorting the whole chunk order by
order) and as the reference :func:`bleu_core.engine.statistics.segment_row` (``Counter`` per line), computed the way
one would by hand, one segment at a time:

1. **Order 1.** Every distinct hypothesis token gets a *class* (through arrays indexed by token id, or a small
   hash table when the ids are sparse; neither is cleared between segments: each entry carries the number of
   the segment and order it was written for). Counting the
   hypothesis positions per class gives ``count in hypothesis``; each reference is counted into the same
   classes (a reference token absent from the hypothesis has no class and is ignored), and
   ``max over references`` is kept per class. The clipped matches are ``sum over classes of min(hyp, max ref)``:
   the paper's modified precision numerator (section 2.1).
2. **Order n.** The n-gram starting at position ``p`` is the pair ``(class of the (n-1)-gram at p, token at
   p+n-1)``: classes of pairs are exact n-gram identities (no hashing of text, the hash table compares the
   pair itself). A position whose (n-1)-gram matched nothing cannot start a matching n-gram and is skipped.
3. Totals need no counting: a line of ``L`` tokens has ``max(L - n + 1, 0)`` n-grams.

Token ids may be any non-negative ``int64`` values (equal tokens, equal ids).

>>> import numpy as np
>>> ids = np.array([1, 2, 1,  1, 2])             # hypothesis "a b a", reference "a b"
>>> clipped_matches_by_segment(ids, np.array([[0], [3]]), np.array([[3], [2]]), 2).tolist()
[[2.0, 1.0]]
"""

from __future__ import annotations

import numpy as np

from . import native


def clipped_matches_by_segment(
    ids: np.ndarray, starts: np.ndarray, lengths: np.ndarray, max_order: int
) -> np.ndarray:
    """Clipped matches per segment and order, shape ``(segments, max_order)`` (float64, exact integers).

    ``ids`` holds every line's tokens; ``starts[k, i]`` and ``lengths[k, i]`` locate line ``k`` of segment
    ``i`` in it (``k = 0``: the hypothesis, ``k >= 1``: reference slot k; an absent reference has length 0).
    """
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    key_base = int(ids.max()) + 1 if ids.shape[0] else 1
    # Unigrams through arrays indexed by token id when the ids are dense enough (they are, from a tokenizer).
    direct = key_base <= max(4 * ids.shape[0], 1 << 16)
    return native.count(ids, starts, lengths, int(max_order), key_base=key_base, direct=direct)
