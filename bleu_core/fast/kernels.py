"""The compiled kernels (numba), in one module: importing it imports numba.

Only :mod:`bleu_core.fast.word_index` and :mod:`bleu_core.fast.clipping` import this module, and only when
:func:`bleu_core.fast.compiled.use_compiled` says so; read those modules for what the kernels compute and for
their pure twins. The kernels are module-level functions so that numba can keep them in its on-disk cache
(``cache=True``): they are compiled once per installation, then loaded in milliseconds.
"""
# ruff: noqa: ANN001, ANN202
# pragma: no cover - compiled code is exercised through the public functions of word_index and clipping

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def multibyte_space(buf, i, n):
    """Bytes of the non-ASCII whitespace character at ``buf[i]``, else 0. The UTF-8 forms of
    NON_ASCII_WHITESPACE: C2 85, C2 A0, E1 9A 80, E2 80 80-8A, E2 80 A8/A9/AF, E2 81 9F, E3 80 80."""
    b = buf[i]
    if b == 0xC2:
        if i + 1 < n and (buf[i + 1] == 0x85 or buf[i + 1] == 0xA0):
            return 2
    elif i + 2 < n:
        b1 = buf[i + 1]
        b2 = buf[i + 2]
        if b == 0xE1:
            if b1 == 0x9A and b2 == 0x80:
                return 3
        elif b == 0xE2:
            if b1 == 0x80 and (
                (b2 >= 0x80 and b2 <= 0x8A) or b2 == 0xA8 or b2 == 0xA9 or b2 == 0xAF
            ):
                return 3
            if b1 == 0x81 and b2 == 0x9F:
                return 3
        elif b == 0xE3:
            if b1 == 0x80 and b2 == 0x80:
                return 3
    return 0


# A word table: ``slots`` (open addressing, uint64; 0 = empty, else the high 32 bits of the word's hash above
# its id + 1), ``meta`` (per word id: offset and length of its bytes in ``arena``) and ``arena`` (every distinct
# word's bytes, each followed by a space). A hit in ``slots`` is confirmed against the arena, byte by byte.


@numba.njit(cache=True, nogil=True)
def scan(buf, kind, i, k, word_ids, slots, meta, arena, used, n_distinct):
    """Number the words of ``buf`` from byte ``i`` on; stop early (at a word's start) when a table is full
    (the last value returned is then the arena size needed, or 0 if ``slots`` or ``meta`` must grow)."""
    n = buf.shape[0]
    mask = slots.shape[0] - 1
    while i < n:
        c = kind[buf[i]]  # 0: part of a word, 1: ASCII whitespace, 2: may start a non-ASCII one
        if c == 1:
            i += 1
            continue
        if c == 2:
            skip = multibyte_space(buf, i, n)
            if skip:
                i += skip
                continue
        start = i
        h = np.uint64(14695981039346656037)  # FNV-1a
        while i < n:
            b = buf[i]
            c = kind[b]
            if c != 0:
                if c == 1 or multibyte_space(buf, i, n):
                    break
            h = (h ^ np.uint64(b)) * np.uint64(1099511628211)
            i += 1
        length = i - start
        h ^= h >> np.uint64(33)  # final mix: the slot is taken from the low bits
        h *= np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(33)
        tag = h >> np.uint64(32)
        slot = np.int64(h & np.uint64(mask))
        while True:
            v = slots[slot]
            if v == 0:
                if 2 * (n_distinct + 1) > slots.shape[0] or n_distinct == meta.shape[0]:
                    return start, k, used, n_distinct, 0  # grow, then go on from this word
                if used + length + 1 > arena.shape[0]:
                    return start, k, used, n_distinct, used + length + 1
                arena[used : used + length] = buf[start:i]
                arena[used + length] = 32
                meta[n_distinct, 0] = used
                meta[n_distinct, 1] = length
                used += length + 1
                slots[slot] = (tag << np.uint64(32)) | np.uint64(n_distinct + 1)
                word_ids[k] = n_distinct
                n_distinct += 1
                break
            if (v >> np.uint64(32)) == tag:
                d = np.int64(v & np.uint64(0xFFFFFFFF)) - 1
                if meta[d, 1] == length:  # confirm the hit byte by byte
                    other = meta[d, 0]
                    same = True
                    for j in range(length):
                        if arena[other + j] != buf[start + j]:
                            same = False
                            break
                    if same:
                        word_ids[k] = d
                        break
            slot = (slot + 1) & mask
        k += 1
    return i, k, used, n_distinct, 0


@numba.njit(cache=True, nogil=True)
def rehash(slots, meta, arena, n_distinct, cap):
    """The slots of the first ``n_distinct`` words in a table of ``cap`` slots."""
    mask = cap - 1
    new = np.zeros(cap, np.uint64)
    for d in range(n_distinct):
        h = np.uint64(14695981039346656037)
        start = meta[d, 0]
        for j in range(meta[d, 1]):
            h = (h ^ np.uint64(arena[start + j])) * np.uint64(1099511628211)
        h ^= h >> np.uint64(33)
        h *= np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(33)
        slot = np.int64(h & np.uint64(mask))
        while new[slot] != 0:
            slot = (slot + 1) & mask
        new[slot] = ((h >> np.uint64(32)) << np.uint64(32)) | np.uint64(d + 1)
    return new


@numba.njit(cache=True, nogil=True)
def index_words(buf, kind, slots, meta, arena, used, n_distinct):
    """Word ids of every word of ``buf``, adding new words to the table (whose parts are returned, perhaps
    reallocated, with the new ``used`` and ``n_distinct``)."""
    n = buf.shape[0]
    # At most one word per two bytes; pages of the array that are never written are never allocated.
    word_ids = np.empty(n // 2 + 1, np.int64)
    i, k = 0, 0
    while True:
        i, k, used, n_distinct, arena_needed = scan(
            buf, kind, i, k, word_ids, slots, meta, arena, used, n_distinct
        )
        if i >= n:
            break
        if 2 * (n_distinct + 1) > slots.shape[0]:  # keep the load factor under 1/2
            slots = rehash(slots, meta, arena, n_distinct, 2 * slots.shape[0])
        if n_distinct == meta.shape[0]:
            bigger_meta = np.empty((2 * meta.shape[0], 2), np.int64)
            bigger_meta[:n_distinct] = meta[:n_distinct]
            meta = bigger_meta
        if arena_needed > arena.shape[0]:
            bigger = np.empty(max(2 * arena.shape[0], arena_needed), np.uint8)
            bigger[:used] = arena[:used]
            arena = bigger
    return word_ids[:k].copy(), slots, meta, arena, used, n_distinct


@numba.njit(cache=True, nogil=True)
def expand(word_ids, word_flat, word_start, word_len, n_lines):
    total = 0
    for w in word_ids:
        total += word_len[w]
    ids = np.empty(total, np.int64)
    lengths = np.zeros(n_lines, np.int64)
    line = 0
    pos = 0
    for w in word_ids:
        if w == 0:
            line += 1
            if line == n_lines:
                return ids, lengths, -1  # more separators than lines: the caller reports it
            continue
        start = word_start[w]
        size = word_len[w]
        for j in range(size):
            ids[pos + j] = word_flat[start + j]
        pos += size
        lengths[line] += size
    return ids, lengths, line


@numba.njit(cache=True, nogil=True, inline="always")
def _hash_slot(key, mask):
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & mask


@numba.njit(cache=True, nogil=True)
def count(ids, starts, lengths, max_order, key_base, direct):
    """Clipped matches per segment and order (see bleu_core.fast.clipping).

    Each n-gram of a segment's hypothesis gets a class; reference n-grams are looked up among them. A class is
    found by ``key``: the token (order 1) or the pair (class of the (n-1)-gram, token at its end). Look-ups go
    through arrays indexed by the key itself when it is small enough (``direct``: token ids below
    ``key_base``; pairs: both parts below the longest hypothesis, at most 512), else through a small hash
    table. No table is ever cleared: each entry carries the stamp of the (segment, order) that wrote it.
    """
    n_sources, n_segments = starts.shape
    out = np.zeros((n_segments, max_order), np.float64)
    max_hyp = 1
    max_line = 1
    for s in range(n_segments):
        max_hyp = max(max_hyp, lengths[0, s])
        for k in range(n_sources):
            max_line = max(max_line, lengths[k, s])
    cap = 16
    while cap < 2 * max_hyp:
        cap *= 2
    mask = cap - 1
    table_key = np.empty(cap, np.int64)
    table_class = np.empty(cap, np.int64)
    table_stamp = np.full(cap, -1, np.int64)
    token_stamp = np.full(key_base if direct else 1, -1, np.int64)
    token_class = np.empty(key_base if direct else 1, np.int64)
    pairs = max_hyp <= 512
    width = max_hyp
    pair_stamp = np.full(width * width if pairs else 1, -1, np.int64)
    pair_class = np.empty(width * width if pairs else 1, np.int64)
    hyp_count = np.zeros(max_hyp, np.int64)
    ref_best = np.zeros(max_hyp, np.int64)
    ref_count = np.zeros(max_hyp, np.int64)
    # Per source and position: class of the n-gram starting there (-1: matches nothing) and of its token.
    cls = np.empty((n_sources, max_line), np.int64)
    unigram = np.empty((n_sources, max_line), np.int64)
    stamp = 0
    for s in range(n_segments):
        hyp_start = starts[0, s]
        hyp_len = lengths[0, s]
        if hyp_len == 0:
            continue
        for n in range(1, max_order + 1):
            if hyp_len - n + 1 <= 0:
                break
            stamp += 1
            n_classes = 0
            # Hypothesis n-grams: find or add their class.
            for p in range(hyp_len - n + 1):
                if n == 1 and direct:
                    t = ids[hyp_start + p]
                    if token_stamp[t] != stamp:
                        token_stamp[t] = stamp
                        token_class[t] = n_classes
                        hyp_count[n_classes] = 0
                        ref_best[n_classes] = 0
                        n_classes += 1
                    c = token_class[t]
                    unigram[0, p] = c
                elif n > 1 and pairs:
                    prev = cls[0, p]
                    if prev < 0:
                        continue
                    index = prev * width + unigram[0, p + n - 1]
                    if pair_stamp[index] != stamp:
                        pair_stamp[index] = stamp
                        pair_class[index] = n_classes
                        hyp_count[n_classes] = 0
                        ref_best[n_classes] = 0
                        n_classes += 1
                    c = pair_class[index]
                else:
                    if n == 1:
                        key = ids[hyp_start + p]
                    else:
                        prev = cls[0, p]
                        if prev < 0:
                            continue
                        key = prev * key_base + ids[hyp_start + p + n - 1]
                    slot = _hash_slot(key, mask)
                    while True:
                        if table_stamp[slot] != stamp:
                            table_stamp[slot] = stamp
                            table_key[slot] = key
                            table_class[slot] = n_classes
                            hyp_count[n_classes] = 0
                            ref_best[n_classes] = 0
                            c = n_classes
                            n_classes += 1
                            break
                        if table_key[slot] == key:
                            c = table_class[slot]
                            break
                        slot = (slot + 1) & mask
                    if n == 1:
                        unigram[0, p] = c
                cls[0, p] = c
                hyp_count[c] += 1
            # Reference n-grams: look up only (an n-gram absent from the hypothesis cannot match).
            any_match = False
            for k in range(1, n_sources):
                ref_start = starts[k, s]
                m = lengths[k, s] - n + 1
                for p in range(m):
                    if n == 1 and direct:
                        t = ids[ref_start + p]
                        c = token_class[t] if token_stamp[t] == stamp else -1
                        unigram[k, p] = c
                    elif n > 1 and pairs:
                        prev = cls[k, p]
                        if prev < 0:
                            continue
                        u = unigram[k, p + n - 1]
                        c = -1
                        if u >= 0:
                            index = prev * width + u
                            if pair_stamp[index] == stamp:
                                c = pair_class[index]
                    else:
                        if n == 1:
                            key = ids[ref_start + p]
                        else:
                            prev = cls[k, p]
                            if prev < 0:
                                continue
                            key = prev * key_base + ids[ref_start + p + n - 1]
                        slot = _hash_slot(key, mask)
                        c = -1
                        while table_stamp[slot] == stamp:
                            if table_key[slot] == key:
                                c = table_class[slot]
                                break
                            slot = (slot + 1) & mask
                        if n == 1:
                            unigram[k, p] = c
                    cls[k, p] = c
                    if c >= 0:
                        ref_count[c] += 1
                # Keep the best count over references; zero the counts for the next reference (a class met
                # again after its reset compares 0 with the best: no change).
                for p in range(max(m, 0)):
                    c = cls[k, p]
                    if c >= 0:
                        if ref_count[c] > ref_best[c]:
                            ref_best[c] = ref_count[c]
                        ref_count[c] = 0
                        any_match = True
            matched = 0
            for c in range(n_classes):
                matched += min(hyp_count[c], ref_best[c])
            out[s, n - 1] = matched
            if not any_match:
                break
            # A hypothesis n-gram that no reference holds cannot grow into a match.
            # (Order n + 1 reads positions p < length - n only: all written at this order.)
            for p in range(hyp_len - n + 1):
                c = cls[0, p]
                if c >= 0 and ref_best[c] == 0:
                    cls[0, p] = -1
    return out
