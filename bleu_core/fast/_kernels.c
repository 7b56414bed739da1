/* The compiled kernels of bleu_core.fast, built ahead of time by setuptools (setup.py, optional).
 *
 * Read bleu_core/fast/word_index.py, bleu_core/fast/clipping.py and bleu_core/metrics/chrf.py for what each
 * kernel computes and for its pure numpy/Python twin; bleu_core/fast/native.py wraps these functions (argument checks, array allocation).
 * Arrays come in through the buffer protocol (numpy arrays, C-contiguous, the dtypes named below): no numpy
 * headers are needed to build this file. Every kernel releases the GIL while it runs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_buffer view;
    int held;
} Buf;

/* Get a C-contiguous buffer whose item size is `itemsize`, writable if asked. */
static int get_buffer(PyObject *obj, Buf *b, Py_ssize_t itemsize, int writable, const char *name) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT;
    if (writable) flags |= PyBUF_WRITABLE;
    b->held = 0;
    if (PyObject_GetBuffer(obj, &b->view, flags) < 0) return -1;
    b->held = 1;
    if (b->view.itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: expected items of %zd bytes, got %zd", name, itemsize,
                     b->view.itemsize);
        return -1;
    }
    return 0;
}

static void release(Buf *b) {
    if (b->held) PyBuffer_Release(&b->view);
    b->held = 0;
}

#define N_ITEMS(b) ((b).view.len / (b).view.itemsize)

/* ------------------------------------------------------------------------------------ word numbering */

/* Bytes of the non-ASCII whitespace character at buf[i], else 0 (UTF-8 forms of NON_ASCII_WHITESPACE:
 * C2 85, C2 A0, E1 9A 80, E2 80 80-8A, E2 80 A8/A9/AF, E2 81 9F, E3 80 80). */
static inline int multibyte_space(const uint8_t *buf, int64_t i, int64_t n) {
    uint8_t b = buf[i];
    if (b == 0xC2) {
        if (i + 1 < n && (buf[i + 1] == 0x85 || buf[i + 1] == 0xA0)) return 2;
    } else if (i + 2 < n) {
        uint8_t b1 = buf[i + 1], b2 = buf[i + 2];
        if (b == 0xE1) {
            if (b1 == 0x9A && b2 == 0x80) return 3;
        } else if (b == 0xE2) {
            if (b1 == 0x80 && ((b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF))
                return 3;
            if (b1 == 0x81 && b2 == 0x9F) return 3;
        } else if (b == 0xE3) {
            if (b1 == 0x80 && b2 == 0x80) return 3;
        }
    }
    return 0;
}

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    return h;
}

#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

/* scan(buf, kind, i, word_ids, k, slots, meta, arena, used, n_distinct)
 *     -> (i, k, used, n_distinct, arena_needed)
 * Number the words of buf (uint8) from byte i on, writing word_ids[k:] (int64). A word table is `slots`
 * (uint64, a power of two; 0 = empty, else the high 32 bits of the word's hash above its id + 1), `meta`
 * (int64 pairs per word id: offset and length of its bytes in `arena`) and `arena` (uint8, every distinct
 * word's bytes each followed by a space); hits in `slots` are confirmed byte by byte. Stops early at the start
 * of a word when a table is full: arena_needed is then the arena size needed, or 0 if `slots` (load factor
 * 1/2) or `meta` must grow. */
static PyObject *scan(PyObject *self, PyObject *args) {
    PyObject *o_buf, *o_kind, *o_ids, *o_slots, *o_meta, *o_arena;
    Py_ssize_t i, k, used, n_distinct;
    if (!PyArg_ParseTuple(args, "OOnOnOOOnn", &o_buf, &o_kind, &i, &o_ids, &k, &o_slots, &o_meta,
                          &o_arena, &used, &n_distinct))
        return NULL;
    Buf bb = {0}, bk = {0}, bi = {0}, bs = {0}, bm = {0}, ba = {0};
    PyObject *result = NULL;
    if (get_buffer(o_buf, &bb, 1, 0, "buf") < 0 || get_buffer(o_kind, &bk, 1, 0, "kind") < 0 ||
        get_buffer(o_ids, &bi, 8, 1, "word_ids") < 0 || get_buffer(o_slots, &bs, 8, 1, "slots") < 0 ||
        get_buffer(o_meta, &bm, 8, 1, "meta") < 0 || get_buffer(o_arena, &ba, 1, 1, "arena") < 0)
        goto done;
    if (N_ITEMS(bk) != 256) {
        PyErr_SetString(PyExc_ValueError, "kind: 256 byte classes expected");
        goto done;
    }
    const uint8_t *buf = bb.view.buf, *kind = bk.view.buf;
    int64_t *word_ids = bi.view.buf, *meta = bm.view.buf;
    uint64_t *slots = bs.view.buf;
    uint8_t *arena = ba.view.buf;
    const int64_t n = N_ITEMS(bb), n_ids = N_ITEMS(bi), n_slots = N_ITEMS(bs), n_meta = N_ITEMS(bm) / 2;
    const int64_t n_arena = N_ITEMS(ba);
    const uint64_t mask = (uint64_t)n_slots - 1;
    int64_t needed = 0;
    if (n_slots == 0 || (n_slots & (n_slots - 1)) != 0 || n_ids < n / 2 + 1 || i < 0 || k < 0) {
        PyErr_SetString(PyExc_ValueError, "scan: bad table or output sizes");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS;
    while (i < n) {
        uint8_t c = kind[buf[i]]; /* 0: part of a word, 1: ASCII whitespace, 2: may start a non-ASCII one */
        if (c == 1) {
            i++;
            continue;
        }
        if (c == 2) {
            int skip = multibyte_space(buf, i, n);
            if (skip) {
                i += skip;
                continue;
            }
        }
        int64_t start = i;
        uint64_t h = FNV_OFFSET;
        while (i < n) {
            uint8_t b = buf[i];
            uint8_t cb = kind[b];
            if (cb != 0 && (cb == 1 || multibyte_space(buf, i, n))) break;
            h = (h ^ b) * FNV_PRIME;
            i++;
        }
        int64_t length = i - start;
        h = mix(h);
        uint64_t tag = h >> 32;
        uint64_t slot = h & mask;
        for (;;) {
            uint64_t v = slots[slot];
            if (v == 0) {
                if (2 * (n_distinct + 1) > n_slots || n_distinct == n_meta) {
                    i = start; /* grow, then go on from this word */
                    goto stop;
                }
                if (used + length + 1 > n_arena) {
                    needed = used + length + 1;
                    i = start;
                    goto stop;
                }
                memcpy(arena + used, buf + start, (size_t)length);
                arena[used + length] = 32;
                meta[2 * n_distinct] = used;
                meta[2 * n_distinct + 1] = length;
                used += length + 1;
                slots[slot] = (tag << 32) | (uint64_t)(n_distinct + 1);
                word_ids[k] = n_distinct;
                n_distinct++;
                break;
            }
            if ((v >> 32) == tag) {
                int64_t d = (int64_t)(v & 0xFFFFFFFFULL) - 1;
                if (meta[2 * d + 1] == length &&
                    memcmp(arena + meta[2 * d], buf + start, (size_t)length) == 0) {
                    word_ids[k] = d;
                    break;
                }
            }
            slot = (slot + 1) & mask;
        }
        k++;
    }
stop:
    Py_END_ALLOW_THREADS;
    result = Py_BuildValue("nnnnn", i, k, used, n_distinct, (Py_ssize_t)needed);
done:
    release(&bb), release(&bk), release(&bi), release(&bs), release(&bm), release(&ba);
    return result;
}

/* rehash(meta, arena, n_distinct, new_slots): fill the (zeroed) table new_slots with the first n_distinct
 * words. */
static PyObject *rehash(PyObject *self, PyObject *args) {
    PyObject *o_meta, *o_arena, *o_slots;
    Py_ssize_t n_distinct;
    if (!PyArg_ParseTuple(args, "OOnO", &o_meta, &o_arena, &n_distinct, &o_slots)) return NULL;
    Buf bm = {0}, ba = {0}, bs = {0};
    PyObject *result = NULL;
    if (get_buffer(o_meta, &bm, 8, 0, "meta") < 0 || get_buffer(o_arena, &ba, 1, 0, "arena") < 0 ||
        get_buffer(o_slots, &bs, 8, 1, "slots") < 0)
        goto done;
    const int64_t *meta = bm.view.buf;
    const uint8_t *arena = ba.view.buf;
    uint64_t *slots = bs.view.buf;
    const int64_t cap = N_ITEMS(bs);
    if (cap == 0 || (cap & (cap - 1)) != 0 || 2 * n_distinct > cap || n_distinct > N_ITEMS(bm) / 2) {
        PyErr_SetString(PyExc_ValueError, "rehash: bad table size");
        goto done;
    }
    const uint64_t mask = (uint64_t)cap - 1;
    Py_BEGIN_ALLOW_THREADS;
    for (int64_t d = 0; d < n_distinct; d++) {
        uint64_t h = FNV_OFFSET;
        const uint8_t *p = arena + meta[2 * d];
        for (int64_t j = 0; j < meta[2 * d + 1]; j++) h = (h ^ p[j]) * FNV_PRIME;
        h = mix(h);
        uint64_t slot = h & mask;
        while (slots[slot] != 0) slot = (slot + 1) & mask;
        slots[slot] = ((h >> 32) << 32) | (uint64_t)(d + 1);
    }
    Py_END_ALLOW_THREADS;
    result = Py_NewRef(Py_None);
done:
    release(&bm), release(&ba), release(&bs);
    return result;
}

/* expand(word_ids, word_flat, word_start, word_len, ids, lengths) -> last line index, or -1 when there are
 * more separators (word 0) than lines. `ids` must hold sum(word_len[word_ids]) items, `lengths` (zeroed) one
 * per line. */
static PyObject *expand(PyObject *self, PyObject *args) {
    PyObject *o_words, *o_flat, *o_start, *o_len, *o_ids, *o_lengths;
    if (!PyArg_ParseTuple(args, "OOOOOO", &o_words, &o_flat, &o_start, &o_len, &o_ids, &o_lengths))
        return NULL;
    Buf bw = {0}, bf = {0}, bs = {0}, bl = {0}, bi = {0}, bn = {0};
    PyObject *result = NULL;
    if (get_buffer(o_words, &bw, 8, 0, "word_ids") < 0 || get_buffer(o_flat, &bf, 8, 0, "word_flat") < 0 ||
        get_buffer(o_start, &bs, 8, 0, "word_start") < 0 || get_buffer(o_len, &bl, 8, 0, "word_len") < 0 ||
        get_buffer(o_ids, &bi, 8, 1, "ids") < 0 || get_buffer(o_lengths, &bn, 8, 1, "lengths") < 0)
        goto done;
    const int64_t *word_ids = bw.view.buf, *word_flat = bf.view.buf, *word_start = bs.view.buf;
    const int64_t *word_len = bl.view.buf;
    int64_t *ids = bi.view.buf, *lengths = bn.view.buf;
    const int64_t n_words = N_ITEMS(bw), n_vocab = N_ITEMS(bl), n_flat = N_ITEMS(bf);
    const int64_t n_ids = N_ITEMS(bi), n_lines = N_ITEMS(bn);
    if (N_ITEMS(bs) != n_vocab || n_lines == 0) {
        PyErr_SetString(PyExc_ValueError, "expand: bad sizes");
        goto done;
    }
    int64_t line = 0, pos = 0, bad = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (int64_t q = 0; q < n_words; q++) {
        int64_t w = word_ids[q];
        if (w < 0 || w >= n_vocab) {
            bad = 1;
            break;
        }
        if (w == 0) {
            line++;
            if (line == n_lines) {
                line = -1; /* more separators than lines: the caller reports it */
                break;
            }
            continue;
        }
        int64_t start = word_start[w], size = word_len[w];
        if (start < 0 || start + size > n_flat || pos + size > n_ids) {
            bad = 1;
            break;
        }
        memcpy(ids + pos, word_flat + start, (size_t)size * sizeof(int64_t));
        pos += size;
        lengths[line] += size;
    }
    Py_END_ALLOW_THREADS;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "expand: word id or token range out of bounds");
        goto done;
    }
    result = PyLong_FromLongLong(line);
done:
    release(&bw), release(&bf), release(&bs), release(&bl), release(&bi), release(&bn);
    return result;
}

/* count_bytes(buf, values, out): out[j] (int64, zeroed) = the number of bytes equal to values[j] in buf (both
 * uint8), one memchr walk per value: fast for the rare bytes it is used on (the marker characters). */
static PyObject *count_bytes(PyObject *self, PyObject *args) {
    PyObject *o_buf, *o_values, *o_out;
    if (!PyArg_ParseTuple(args, "OOO", &o_buf, &o_values, &o_out)) return NULL;
    Buf bb = {0}, bv = {0}, bo = {0};
    PyObject *result = NULL;
    if (get_buffer(o_buf, &bb, 1, 0, "buf") < 0 || get_buffer(o_values, &bv, 1, 0, "values") < 0 ||
        get_buffer(o_out, &bo, 8, 1, "out") < 0)
        goto done;
    if (N_ITEMS(bo) != N_ITEMS(bv)) {
        PyErr_SetString(PyExc_ValueError, "count_bytes: one count per value expected");
        goto done;
    }
    const uint8_t *buf = bb.view.buf, *values = bv.view.buf;
    int64_t *out = bo.view.buf;
    const int64_t n = N_ITEMS(bb), n_values = N_ITEMS(bv);
    Py_BEGIN_ALLOW_THREADS;
    for (int64_t j = 0; j < n_values; j++) {
        const uint8_t *p = buf, *end = buf + n;
        int64_t found = 0;
        while (p < end && (p = memchr(p, values[j], (size_t)(end - p))) != NULL) found++, p++;
        out[j] = found;
    }
    Py_END_ALLOW_THREADS;
    result = Py_NewRef(Py_None);
done:
    release(&bb), release(&bv), release(&bo);
    return result;
}

/* gathered_sum(word_ids, word_len) -> sum(word_len[word_ids]) (int64 arrays; every id in range, checked). */
static PyObject *gathered_sum(PyObject *self, PyObject *args) {
    PyObject *o_words, *o_len;
    if (!PyArg_ParseTuple(args, "OO", &o_words, &o_len)) return NULL;
    Buf bw = {0}, bl = {0};
    PyObject *result = NULL;
    if (get_buffer(o_words, &bw, 8, 0, "word_ids") < 0 || get_buffer(o_len, &bl, 8, 0, "word_len") < 0)
        goto done;
    const int64_t *word_ids = bw.view.buf, *word_len = bl.view.buf;
    const int64_t n_words = N_ITEMS(bw), n_vocab = N_ITEMS(bl);
    int64_t total = 0, bad = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (int64_t q = 0; q < n_words; q++) {
        int64_t w = word_ids[q];
        if (w < 0 || w >= n_vocab) {
            bad = 1;
            break;
        }
        total += word_len[w];
    }
    Py_END_ALLOW_THREADS;
    if (bad) {
        PyErr_SetString(PyExc_IndexError, "gathered_sum: word id out of bounds");
        goto done;
    }
    result = PyLong_FromLongLong(total);
done:
    release(&bw), release(&bl);
    return result;
}

/* ------------------------------------------------------------------------------------ clipped counting */

static inline int64_t hash_slot(int64_t key, int64_t mask) {
    return (int64_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 40) & mask;
}

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* The kernel proper; returns 0, or -1 when memory runs out. See count() below. */
static int count_matches(const int64_t *ids, int64_t n_ids, const int64_t *starts, const int64_t *lengths,
                         int64_t n_sources, int64_t n_segments, int64_t max_order, int64_t key_base,
                         int direct, double *out) {
    int64_t max_hyp = 1, max_line = 1;
    for (int64_t s = 0; s < n_segments; s++) {
        max_hyp = MAX(max_hyp, lengths[s]);
        for (int64_t k = 0; k < n_sources; k++) max_line = MAX(max_line, lengths[k * n_segments + s]);
    }
    int64_t cap = 16;
    while (cap < 2 * max_hyp) cap *= 2;
    const int64_t mask = cap - 1;
    const int pairs = max_hyp <= 512;
    const int64_t width = max_hyp;
    const int64_t n_token = direct ? key_base : 1, n_pair = pairs ? width * width : 1;
    int64_t *table_key = malloc(cap * sizeof(int64_t)), *table_class = malloc(cap * sizeof(int64_t));
    int64_t *table_stamp = malloc(cap * sizeof(int64_t));
    int64_t *token_stamp = malloc(n_token * sizeof(int64_t)), *token_class = malloc(n_token * sizeof(int64_t));
    int64_t *pair_stamp = malloc(n_pair * sizeof(int64_t)), *pair_class = malloc(n_pair * sizeof(int64_t));
    int64_t *hyp_count = calloc(max_hyp, sizeof(int64_t)), *ref_best = calloc(max_hyp, sizeof(int64_t));
    int64_t *ref_count = calloc(max_hyp, sizeof(int64_t));
    /* Per source and position: class of the n-gram starting there (-1: matches nothing) and of its token. */
    int64_t *cls = malloc(n_sources * max_line * sizeof(int64_t));
    int64_t *unigram = malloc(n_sources * max_line * sizeof(int64_t));
    int status = 0;
    if (!table_key || !table_class || !table_stamp || !token_stamp || !token_class || !pair_stamp ||
        !pair_class || !hyp_count || !ref_best || !ref_count || !cls || !unigram) {
        status = -1;
        goto free_all;
    }
    for (int64_t j = 0; j < cap; j++) table_stamp[j] = -1;
    for (int64_t j = 0; j < n_token; j++) token_stamp[j] = -1;
    for (int64_t j = 0; j < n_pair; j++) pair_stamp[j] = -1;
    int64_t stamp = 0;
    for (int64_t s = 0; s < n_segments; s++) {
        const int64_t hyp_start = starts[s], hyp_len = lengths[s];
        if (hyp_len == 0) continue;
        for (int64_t n = 1; n <= max_order; n++) {
            if (hyp_len - n + 1 <= 0) break;
            stamp++;
            int64_t n_classes = 0, c = -1;
            /* Hypothesis n-grams: find or add their class. */
            for (int64_t p = 0; p < hyp_len - n + 1; p++) {
                if (n == 1 && direct) {
                    int64_t t = ids[hyp_start + p];
                    if (token_stamp[t] != stamp) {
                        token_stamp[t] = stamp;
                        token_class[t] = n_classes;
                        hyp_count[n_classes] = 0;
                        ref_best[n_classes] = 0;
                        n_classes++;
                    }
                    c = token_class[t];
                    unigram[p] = c;
                } else if (n > 1 && pairs) {
                    int64_t prev = cls[p];
                    if (prev < 0) continue;
                    int64_t index = prev * width + unigram[p + n - 1];
                    if (pair_stamp[index] != stamp) {
                        pair_stamp[index] = stamp;
                        pair_class[index] = n_classes;
                        hyp_count[n_classes] = 0;
                        ref_best[n_classes] = 0;
                        n_classes++;
                    }
                    c = pair_class[index];
                } else {
                    int64_t key;
                    if (n == 1) {
                        key = ids[hyp_start + p];
                    } else {
                        int64_t prev = cls[p];
                        if (prev < 0) continue;
                        key = (int64_t)((uint64_t)prev * (uint64_t)key_base + (uint64_t)ids[hyp_start + p + n - 1]);
                    }
                    int64_t slot = hash_slot(key, mask);
                    for (;;) {
                        if (table_stamp[slot] != stamp) {
                            table_stamp[slot] = stamp;
                            table_key[slot] = key;
                            table_class[slot] = n_classes;
                            hyp_count[n_classes] = 0;
                            ref_best[n_classes] = 0;
                            c = n_classes;
                            n_classes++;
                            break;
                        }
                        if (table_key[slot] == key) {
                            c = table_class[slot];
                            break;
                        }
                        slot = (slot + 1) & mask;
                    }
                    if (n == 1) unigram[p] = c;
                }
                cls[p] = c;
                hyp_count[c]++;
            }
            /* Reference n-grams: look up only (an n-gram absent from the hypothesis cannot match). */
            int any_match = 0;
            for (int64_t k = 1; k < n_sources; k++) {
                const int64_t ref_start = starts[k * n_segments + s];
                const int64_t m = lengths[k * n_segments + s] - n + 1;
                int64_t *kcls = cls + k * max_line, *kuni = unigram + k * max_line;
                for (int64_t p = 0; p < m; p++) {
                    if (n == 1 && direct) {
                        int64_t t = ids[ref_start + p];
                        c = (t < key_base && token_stamp[t] == stamp) ? token_class[t] : -1;
                        kuni[p] = c;
                    } else if (n > 1 && pairs) {
                        int64_t prev = kcls[p];
                        if (prev < 0) continue;
                        int64_t u = kuni[p + n - 1];
                        c = -1;
                        if (u >= 0) {
                            int64_t index = prev * width + u;
                            if (pair_stamp[index] == stamp) c = pair_class[index];
                        }
                    } else {
                        int64_t key;
                        if (n == 1) {
                            key = ids[ref_start + p];
                        } else {
                            int64_t prev = kcls[p];
                            if (prev < 0) continue;
                            key = (int64_t)((uint64_t)prev * (uint64_t)key_base + (uint64_t)ids[ref_start + p + n - 1]);
                        }
                        int64_t slot = hash_slot(key, mask);
                        c = -1;
                        while (table_stamp[slot] == stamp) {
                            if (table_key[slot] == key) {
                                c = table_class[slot];
                                break;
                            }
                            slot = (slot + 1) & mask;
                        }
                        if (n == 1) kuni[p] = c;
                    }
                    kcls[p] = c;
                    if (c >= 0) ref_count[c]++;
                }
                /* Keep the best count over references; zero the counts for the next reference (a class met
                 * again after its reset compares 0 with the best: no change). */
                for (int64_t p = 0; p < m; p++) {
                    int64_t cc = kcls[p];
                    if (cc >= 0) {
                        if (ref_count[cc] > ref_best[cc]) ref_best[cc] = ref_count[cc];
                        ref_count[cc] = 0;
                        any_match = 1;
                    }
                }
            }
            int64_t matched = 0;
            for (int64_t cc = 0; cc < n_classes; cc++) matched += MIN(hyp_count[cc], ref_best[cc]);
            out[s * max_order + n - 1] = (double)matched;
            if (!any_match) break;
            /* A hypothesis n-gram that no reference holds cannot grow into a match.
             * (Order n + 1 reads positions p < length - n only: all written at this order.) */
            for (int64_t p = 0; p < hyp_len - n + 1; p++) {
                int64_t cc = cls[p];
                if (cc >= 0 && ref_best[cc] == 0) cls[p] = -1;
            }
        }
    }
free_all:
    free(table_key), free(table_class), free(table_stamp), free(token_stamp), free(token_class);
    free(pair_stamp), free(pair_class), free(hyp_count), free(ref_best), free(ref_count);
    free(cls), free(unigram);
    return status;
}

/* count(ids, starts, lengths, n_sources, max_order, key_base, direct, out)
 * Clipped matches per segment and order into `out` (float64, zeroed, segments × max_order). `ids` (int64,
 * all lines' tokens, every id in 0..key_base-1); `starts` and `lengths` (int64, n_sources × segments): line k
 * of segment i is ids[starts[k, i] : starts[k, i] + lengths[k, i]] (k = 0: hypothesis). `direct`: unigrams
 * through arrays indexed by token id (key_base of them). */
static PyObject *count(PyObject *self, PyObject *args) {
    PyObject *o_ids, *o_starts, *o_lengths, *o_out;
    Py_ssize_t n_sources, max_order, key_base;
    int direct;
    if (!PyArg_ParseTuple(args, "OOOnnnpO", &o_ids, &o_starts, &o_lengths, &n_sources, &max_order,
                          &key_base, &direct, &o_out))
        return NULL;
    Buf bi = {0}, bs = {0}, bl = {0}, bo = {0};
    PyObject *result = NULL;
    if (get_buffer(o_ids, &bi, 8, 0, "ids") < 0 || get_buffer(o_starts, &bs, 8, 0, "starts") < 0 ||
        get_buffer(o_lengths, &bl, 8, 0, "lengths") < 0 || get_buffer(o_out, &bo, 8, 1, "out") < 0)
        goto done;
    const int64_t n_ids = N_ITEMS(bi);
    if (n_sources < 1 || max_order < 1 || key_base < 1 || N_ITEMS(bs) != N_ITEMS(bl) ||
        N_ITEMS(bs) % n_sources != 0 || N_ITEMS(bo) != (N_ITEMS(bs) / n_sources) * max_order) {
        PyErr_SetString(PyExc_ValueError, "count: bad sizes");
        goto done;
    }
    const int64_t n_segments = N_ITEMS(bs) / n_sources;
    const int64_t *ids = bi.view.buf, *starts = bs.view.buf, *lengths = bl.view.buf;
    /* Bounds: every line inside `ids`, every id inside 0..key_base-1 (the kernel indexes arrays by them). */
    for (int64_t j = 0; j < N_ITEMS(bs); j++) {
        if (starts[j] < 0 || lengths[j] < 0 || starts[j] + lengths[j] > n_ids) {
            PyErr_SetString(PyExc_ValueError, "count: a line lies outside ids");
            goto done;
        }
    }
    for (int64_t j = 0; j < n_ids; j++) {
        if (ids[j] < 0 || ids[j] >= key_base) {
            PyErr_SetString(PyExc_ValueError, "count: token ids must be in 0..key_base-1");
            goto done;
        }
    }
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = count_matches(ids, n_ids, starts, lengths, n_sources, n_segments, max_order, key_base,
                           direct, bo.view.buf);
    Py_END_ALLOW_THREADS;
    if (status < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    release(&bi), release(&bs), release(&bl), release(&bo);
    return result;
}

/* ------------------------------------------------------------------------------------ chrF matches */

/* One slot of a segment's n-gram table: the child of node `parent` (stored + 1; 0 = empty slot) by `unit`. */
typedef struct {
    uint32_t parent1;
    uint32_t unit;
    int32_t child;
} ChrfSlot;

static inline uint64_t chrf_slot(uint32_t parent1, uint32_t unit, int bits) {
    return ((((uint64_t)parent1 << 32) | unit) * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
}

/* The arrays of chrf_kernel, allocated once for the biggest segment; "per node" arrays are indexed by node. */
typedef struct {
    ChrfSlot *table;   /* (parent node + 1, unit) -> child node */
    int64_t *used;     /* per node: its slot in `table` (to empty the table after the segment) */
    int32_t *order;    /* per node: its order (0: the root) */
    int32_t *suffix;   /* per node: the node of its n-gram without the first unit (0: the root) */
    int32_t *ref;      /* per node and reference: the n-gram's count in that reference */
    int32_t *hyp;      /* per node: its count in the current hypothesis (back to 0 after each hypothesis) */
    uint32_t *memo_unit; /* per node: the unit of the last transition taken from it... */
    int32_t *memo_next;  /* ...and the state it led to (-1: none yet) */
    int32_t *touched;  /* nodes counted by the current hypothesis, by order: order n from first[n] on, with
                        * one spare place after each order's (a node is written there before it is known new) */
    int64_t *first;    /* max_order + 2 */
    int64_t *filled;   /* max_order + 1: end of each order's nodes in `touched` */
    int32_t *chain;    /* 2 * max_order: nodes of the n-grams starting at the previous / current position */
    int64_t *local;    /* max_order * R: the current hypothesis's matches, by order then reference */
    uint32_t *text;    /* the segment's references without their skipped units, one after the other */
    int64_t *ref_len;  /* R: their lengths in `text` */
    const uint8_t *skip; /* units u < n_skip with skip[u] != 0 are left out (whitespace) */
    int64_t n_skip;
} ChrfWork;

static inline int chrf_skipped(const ChrfWork *w, uint32_t unit) {
    return unit < (uint64_t)w->n_skip && w->skip[unit];
}

/* Reference n-grams of orders 1..max_order in a segment, n_nodes - 1 of them, in a table of 2^bits slots. */
static int32_t chrf_build(const ChrfWork *w, int64_t r_sides, int64_t max_order, int bits) {
    ChrfSlot *table = w->table;
    int32_t *order = w->order, *ref = w->ref;
    int64_t *first = w->first;
    const uint64_t mask = ((uint64_t)1 << bits) - 1;
    int32_t n_nodes = 1; /* node 0: the empty n-gram, the root */
    order[0] = 0;
    w->memo_next[0] = -1;
    for (int64_t n = 0; n <= max_order + 1; n++) first[n] = 0;
    first[1] = 1; /* the root's place in `touched` (order 0), never filled: its count stays >= 1 */
    /* From the last position back: the suffix of the n-gram at (p, n) is the n-gram at (p + 1, n - 1), found one
     * position earlier (`next`: the nodes at p + 1, `here`: at p). */
    const uint32_t *u = w->text;
    for (int64_t r = 0; r < r_sides; u += w->ref_len[r], r++) {
        const int64_t len = w->ref_len[r];
        int32_t *next = w->chain, *here = w->chain + max_order;
        for (int64_t p = len - 1; p >= 0; p--) {
            int32_t node = 0;
            const int64_t top = MIN(max_order, len - p);
            for (int64_t n = 0; n < top; n++) {
                const uint32_t parent1 = (uint32_t)node + 1, unit = u[p + n];
                uint64_t slot = chrf_slot(parent1, unit, bits);
                for (;;) {
                    ChrfSlot *e = table + slot;
                    if (e->parent1 == parent1 && e->unit == unit) {
                        node = e->child;
                        break;
                    }
                    if (e->parent1 == 0) {
                        e->parent1 = parent1;
                        e->unit = unit;
                        e->child = node = n_nodes++;
                        w->used[node] = (int64_t)slot;
                        for (int64_t q = 0; q < r_sides; q++) ref[(int64_t)node * r_sides + q] = 0;
                        w->hyp[node] = 0;
                        w->memo_next[node] = -1;
                        order[node] = (int32_t)n + 1;
                        w->suffix[node] = n ? next[n - 1] : 0;
                        first[n + 2]++;
                        break;
                    }
                    slot = (slot + 1) & mask;
                }
                ref[(int64_t)node * r_sides + r]++;
                here[n] = node;
            }
            int32_t *t = next;
            next = here, here = t;
        }
    }
    for (int64_t n = 1; n <= max_order + 1; n++) first[n] += first[n - 1] + 1; /* + the spare place */
    return n_nodes;
}

/* The next state of the automaton from `state` by `unit`: the longest suffix of (state's n-gram, unit) of order
 * <= max_order that is a reference n-gram (0: none). */
static inline int32_t chrf_step(const ChrfWork *w, int32_t state, uint32_t unit, int64_t max_order, int bits) {
    const ChrfSlot *table = w->table;
    const uint64_t mask = ((uint64_t)1 << bits) - 1;
    /* the state's longest suffix that may still grow by one unit, then shorter ones, then the root */
    if (w->order[state] == max_order) state = w->suffix[state];
    for (;;) {
        const uint32_t parent1 = (uint32_t)state + 1;
        uint64_t slot = chrf_slot(parent1, unit, bits);
        for (;;) {
            const ChrfSlot *e = table + slot;
            if (e->parent1 == parent1 && e->unit == unit) return e->child;
            if (e->parent1 == 0) break;
            slot = (slot + 1) & mask;
        }
        if (state == 0) return 0;
        state = w->suffix[state];
    }
}

/* The matches of every hypothesis of segment s against every reference (see chrf_kernel). */
static void chrf_segment(const ChrfWork *w, const uint32_t *units, const int64_t *starts, const int64_t *lengths,
                         int64_t k_sides, int64_t r_sides, int64_t n_seg, int64_t max_order, int64_t s,
                         double *out, int64_t *kept) {
    /* The references without their skipped units. */
    int64_t entries = 0, at = 0;
    for (int64_t r = 0; r < r_sides; r++) {
        const int64_t doc = (k_sides + r) * n_seg + s, len = lengths[doc], start = at;
        const uint32_t *u = units + starts[doc];
        for (int64_t i = 0; i < len; i++) {
            w->text[at] = u[i];
            at += !chrf_skipped(w, u[i]);
        }
        w->ref_len[r] = kept[doc] = at - start;
        for (int64_t n = 1; n <= max_order && n <= at - start; n++) entries += at - start - n + 1;
    }
    int bits = 4;
    while (((int64_t)1 << bits) < 2 * entries) bits++;
    const int32_t n_nodes = chrf_build(w, r_sides, max_order, bits);
    const int32_t *order = w->order, *suffix = w->suffix, *ref = w->ref;
    int32_t *hyp = w->hyp, *touched = w->touched, *memo_next = w->memo_next;
    uint32_t *memo_unit = w->memo_unit;
    const int64_t *first = w->first;
    int64_t *filled = w->filled, *local = w->local;
    for (int64_t k = 0; k < k_sides; k++) {
        const int64_t doc = k * n_seg + s, len = lengths[doc];
        const uint32_t *u = units + starts[doc];
        for (int64_t n = 0; n <= max_order; n++) filled[n] = first[n];
        /* Walk the automaton: count how often each state is reached (the root too, harmlessly: its count
         * starts at 1, so it is never listed in `touched`). */
        hyp[0] = 1;
        int32_t state = 0;
        int64_t skipped = 0;
        for (int64_t i = 0; i < len; i++) {
            const uint32_t unit = u[i];
            if (chrf_skipped(w, unit)) {
                skipped++;
                continue;
            }
            if (memo_next[state] >= 0 && memo_unit[state] == unit) {
                state = memo_next[state];
            } else {
                const int32_t from = state;
                state = chrf_step(w, state, unit, max_order, bits);
                memo_unit[from] = unit;
                memo_next[from] = state;
            }
            const int64_t o = order[state];
            touched[filled[o]] = state;
            filled[o] += hyp[state]++ == 0;
        }
        kept[doc] = len - skipped;
        /* The n-grams ending at a unit are the state there and its suffixes: pass the counts down the suffix
         * links, longest n-grams first, and clip each n-gram's count by each reference's. */
        for (int64_t j = 0; j < max_order * r_sides; j++) local[j] = 0;
        for (int64_t n = max_order; n >= 1; n--) {
            int64_t *m = local + (n - 1) * r_sides;
            int64_t below = filled[n - 1];
            /* (order 1 passes its counts to the root, whose count is >= 1: never listed) */
            if (r_sides == 1) {
                int64_t a0 = 0;
                for (int64_t t = first[n]; t < filled[n]; t++) {
                    const int32_t x = touched[t], h = hyp[x], y = suffix[x];
                    hyp[x] = 0;
                    a0 += MIN(h, ref[x]);
                    touched[below] = y;
                    below += hyp[y] == 0;
                    hyp[y] += h;
                }
                m[0] += a0;
            } else if (r_sides == 2) {
                int64_t a0 = 0, a1 = 0;
                for (int64_t t = first[n]; t < filled[n]; t++) {
                    const int32_t x = touched[t], h = hyp[x], y = suffix[x];
                    hyp[x] = 0;
                    a0 += MIN(h, ref[2 * (int64_t)x]);
                    a1 += MIN(h, ref[2 * (int64_t)x + 1]);
                    touched[below] = y;
                    below += hyp[y] == 0;
                    hyp[y] += h;
                }
                m[0] += a0, m[1] += a1;
            } else {
                for (int64_t t = first[n]; t < filled[n]; t++) {
                    const int32_t x = touched[t], h = hyp[x], y = suffix[x];
                    const int32_t *rc = ref + (int64_t)x * r_sides;
                    hyp[x] = 0;
                    for (int64_t r = 0; r < r_sides; r++) m[r] += MIN(h, rc[r]);
                    touched[below] = y;
                    below += hyp[y] == 0;
                    hyp[y] += h;
                }
            }
            filled[n - 1] = below;
        }
        for (int64_t r = 0; r < r_sides; r++)
            for (int64_t n = 0; n < max_order; n++)
                out[((k * r_sides + r) * n_seg + s) * max_order + n] = (double)local[n * r_sides + r];
    }
    /* Empty the table for the next segment. */
    for (int32_t c = 1; c < n_nodes; c++) w->table[w->used[c]].parent1 = 0;
}

/* The chrF kernel proper; returns 0, -1 when memory runs out, -2 when a document or a segment's references
 * are too long (2**30 units or n-grams).
 * See chrf_matches() below.
 *
 * Per segment, the distinct reference n-grams of orders 1..max_order are the nodes of a trie (node 0: the
 * empty n-gram), found through an open-addressing table keyed by (parent node, last unit): two n-grams are the
 * same node exactly when their units are equal (by induction on the order, comparing whole keys, never hashes
 * alone). The suffix of an n-gram (without its first unit) is a reference n-gram too: each node links to
 * it. A hypothesis is read unit by unit as by an Aho-Corasick automaton: the state is the
 * longest n-gram (order <= max_order) ending at the current unit that is a reference n-gram, and the reference
 * n-grams ending there are exactly the state and its suffixes. So the count of a reference n-gram in the
 * hypothesis is the number of times it is the state plus the counts of the n-grams it is the suffix of: passed
 * down the suffix links from the longest n-grams to the shortest, touching only n-grams the hypothesis has.
 * Each then adds min(count in hypothesis, count in reference r) to the matches of its order against r;
 * hypothesis n-grams in no reference match nothing and are never counted. A node remembers the last transition
 * taken from it (hypotheses of a segment tend to repeat each other). */
static int chrf_kernel(const uint32_t *units, const int64_t *starts, const int64_t *lengths, int64_t k_sides,
                       int64_t r_sides, int64_t n_seg, int64_t max_order, const uint8_t *skip, int64_t n_skip,
                       double *out, int64_t *kept) {
    int64_t max_entries = 1, max_text = 1;
    for (int64_t j = 0; j < (k_sides + r_sides) * n_seg; j++)
        if (lengths[j] >= ((int64_t)1 << 30)) return -2; /* counts are int32 */
    for (int64_t s = 0; s < n_seg; s++) {
        int64_t e = 0, t = 0;
        for (int64_t r = 0; r < r_sides; r++) {
            const int64_t len = lengths[(k_sides + r) * n_seg + s];
            for (int64_t n = 1; n <= max_order && n <= len; n++) e += len - n + 1;
            t += len;
        }
        max_entries = MAX(max_entries, e);
        max_text = MAX(max_text, t);
    }
    if (max_entries >= ((int64_t)1 << 30)) return -2;
    int64_t max_cap = 16;
    while (max_cap < 2 * max_entries) max_cap *= 2;
    const size_t n_nodes = (size_t)max_entries + 1;
    ChrfWork w = {
        .table = calloc((size_t)max_cap, sizeof(ChrfSlot)),
        .used = malloc(n_nodes * sizeof(int64_t)),
        .order = malloc(n_nodes * sizeof(int32_t)),
        .suffix = malloc(n_nodes * sizeof(int32_t)),
        .ref = malloc(n_nodes * (size_t)r_sides * sizeof(int32_t)),
        .hyp = malloc(n_nodes * sizeof(int32_t)),
        .memo_unit = malloc(n_nodes * sizeof(uint32_t)),
        .memo_next = malloc(n_nodes * sizeof(int32_t)),
        .touched = malloc((n_nodes + (size_t)max_order + 2) * sizeof(int32_t)),
        .first = malloc((size_t)(max_order + 2) * sizeof(int64_t)),
        .filled = malloc((size_t)(max_order + 1) * sizeof(int64_t)),
        .chain = malloc((size_t)(2 * max_order) * sizeof(int32_t)),
        .local = malloc((size_t)(max_order * r_sides) * sizeof(int64_t)),
        .text = malloc((size_t)max_text * sizeof(uint32_t)),
        .ref_len = malloc((size_t)r_sides * sizeof(int64_t)),
        .skip = skip,
        .n_skip = n_skip,
    };
    int status = 0;
    if (!w.table || !w.used || !w.order || !w.suffix || !w.ref || !w.hyp || !w.memo_unit ||
        !w.memo_next || !w.touched || !w.first || !w.filled || !w.chain || !w.local || !w.text || !w.ref_len) {
        status = -1;
    } else {
        for (int64_t s = 0; s < n_seg; s++)
            chrf_segment(&w, units, starts, lengths, k_sides, r_sides, n_seg, max_order, s, out, kept);
    }
    free(w.table), free(w.used), free(w.order), free(w.suffix), free(w.ref), free(w.hyp);
    free(w.memo_unit), free(w.memo_next), free(w.touched), free(w.first), free(w.filled), free(w.chain);
    free(w.local), free(w.text), free(w.ref_len);
    return status;
}

/* chrf_matches(units, starts, lengths, n_hyp_sides, n_ref_sides, max_order, skip, out, kept)
 * chrF's clipped n-gram matches of orders 1..max_order into `out` (float64, n_hyp_sides × n_ref_sides ×
 * segments × max_order): for every segment, hypothesis side k and reference side r, the sum over distinct
 * n-grams of min(count in hypothesis k, count in reference r). `units` (uint32: code points, or word ids) holds
 * every document; `starts` and `lengths` (int64, (n_hyp_sides + n_ref_sides) × segments) place document
 * (side, segment) at units[start : start + length] (sides 0..K-1: hypotheses, then the references). Units u
 * with u < len(skip) and skip[u] != 0 (uint8; chrF's whitespace) are left out of every document first; `kept`
 * (int64, one per document) receives each document's length without them. A document of length 0 has no
 * n-grams: 0 matches. */
static PyObject *chrf_matches(PyObject *self, PyObject *args) {
    PyObject *o_units, *o_starts, *o_lengths, *o_skip, *o_out, *o_kept;
    Py_ssize_t k_sides, r_sides, max_order;
    if (!PyArg_ParseTuple(args, "OOOnnnOOO", &o_units, &o_starts, &o_lengths, &k_sides, &r_sides, &max_order,
                          &o_skip, &o_out, &o_kept))
        return NULL;
    Buf bu = {0}, bs = {0}, bl = {0}, bk = {0}, bo = {0}, bp = {0};
    PyObject *result = NULL;
    if (get_buffer(o_units, &bu, 4, 0, "units") < 0 || get_buffer(o_starts, &bs, 8, 0, "starts") < 0 ||
        get_buffer(o_lengths, &bl, 8, 0, "lengths") < 0 || get_buffer(o_skip, &bk, 1, 0, "skip") < 0 ||
        get_buffer(o_out, &bo, 8, 1, "out") < 0 || get_buffer(o_kept, &bp, 8, 1, "kept") < 0)
        goto done;
    const int64_t n_units = N_ITEMS(bu), n_docs = N_ITEMS(bs);
    if (k_sides < 0 || r_sides < 1 || max_order < 1 || N_ITEMS(bl) != n_docs || N_ITEMS(bp) != n_docs ||
        n_docs % (k_sides + r_sides) != 0 ||
        N_ITEMS(bo) != k_sides * r_sides * (n_docs / (k_sides + r_sides)) * max_order) {
        PyErr_SetString(PyExc_ValueError, "chrf_matches: bad sizes");
        goto done;
    }
    const int64_t *starts = bs.view.buf, *lengths = bl.view.buf;
    for (int64_t j = 0; j < n_docs; j++) {
        if (starts[j] < 0 || lengths[j] < 0 || starts[j] + lengths[j] > n_units) {
            PyErr_SetString(PyExc_ValueError, "chrf_matches: a document lies outside units");
            goto done;
        }
    }
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = chrf_kernel(bu.view.buf, starts, lengths, k_sides, r_sides, n_docs / (k_sides + r_sides),
                         max_order, bk.view.buf, N_ITEMS(bk), bo.view.buf, bp.view.buf);
    Py_END_ALLOW_THREADS;
    if (status == -1) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == -2) {
        PyErr_SetString(PyExc_ValueError, "chrf_matches: a document has 2**30 units, or a segment's references 2**30 n-grams, or more");
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    release(&bu), release(&bs), release(&bl), release(&bk), release(&bo), release(&bp);
    return result;
}

/* ---------------------------------------------------------------------------------------------- 13a rules
 * sacrebleu's TokenizerRegexp (the tokenizer behind 13a), its four regular expressions applied one after the
 * other to a UTF-8 text, each as re.sub applies it: matches left to right, none overlapping the previous one.
 *   1. ([\{-\~\[-\` -\&\(-\+\:-\@\/])  ->  " \1 "   an ASCII punctuation mark or symbol (or the space)
 *   2. ([^0-9])([\.,])                 ->  "\1 \2 " period or comma unless preceded by a digit
 *   3. ([\.,])([^0-9])                 ->  " \1 \2" period or comma unless followed by a digit
 *   4. ([0-9])(-)                      ->  "\1 \2 " dash after a digit
 * Working on bytes is exact: every character the rules name is ASCII, and a byte of a multi-byte UTF-8
 * character is never one of them, so "any character but a digit" is "any byte but an ASCII digit": a match that
 * re finds at a character's first byte is found here at its last byte, with the same text around it. The
 * pure twin is sacrebleu's own rules (bleu_core/fast/batch_tokenizers.py); tests compare them. */
static int is_rule1(unsigned char c) {
    return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') ||
           (c >= '(' && c <= '+') || (c >= ':' && c <= '@') || c == '/';
}
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_period_comma(unsigned char c) { return c == '.' || c == ','; }

/* One rule over src[0:n] into dst (room for 3n bytes); returns the length written. */
static Py_ssize_t rule_13a(int rule, const unsigned char *src, Py_ssize_t n, unsigned char *dst) {
    Py_ssize_t i = 0, o = 0;
    while (i < n) {
        unsigned char c = src[i];
        if (rule == 1 && is_rule1(c)) {
            dst[o++] = ' '; dst[o++] = c; dst[o++] = ' '; i += 1;
        } else if (rule == 2 && i + 1 < n && !is_digit(c) && is_period_comma(src[i + 1])) {
            dst[o++] = c; dst[o++] = ' '; dst[o++] = src[i + 1]; dst[o++] = ' '; i += 2;
        } else if (rule == 3 && i + 1 < n && is_period_comma(c) && !is_digit(src[i + 1])) {
            dst[o++] = ' '; dst[o++] = c; dst[o++] = ' '; dst[o++] = src[i + 1]; i += 2;
        } else if (rule == 4 && i + 1 < n && is_digit(c) && src[i + 1] == '-') {
            dst[o++] = c; dst[o++] = ' '; dst[o++] = '-'; dst[o++] = ' '; i += 2;
        } else {
            dst[o++] = c; i += 1;
        }
    }
    return o;
}

/* rules_13a(data: bytes) -> bytes: the four rules above, in order. Rule 1 at most triples the text, rules 2-4
 * at most double it (two bytes added per match of two), so each pass writes into a buffer of that size. */
static PyObject *rules_13a(PyObject *self, PyObject *args) {
    Py_buffer in;
    if (!PyArg_ParseTuple(args, "y*", &in)) return NULL;
    Py_ssize_t len = in.len;
    if (len > PY_SSIZE_T_MAX / 3 - 1) {
        PyBuffer_Release(&in);
        return PyErr_NoMemory();
    }
    unsigned char *text = (unsigned char *)malloc((size_t)(3 * len + 1));
    if (text == NULL) {
        PyBuffer_Release(&in);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    len = rule_13a(1, (const unsigned char *)in.buf, len, text);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&in);
    for (int rule = 2; rule <= 4; rule++) {
        if (len > PY_SSIZE_T_MAX / 2 - 1) {
            free(text);
            return PyErr_NoMemory();
        }
        unsigned char *next = (unsigned char *)malloc((size_t)(2 * len + 1));
        if (next == NULL) {
            free(text);
            return PyErr_NoMemory();
        }
        Py_BEGIN_ALLOW_THREADS
        len = rule_13a(rule, text, len, next);
        Py_END_ALLOW_THREADS
        free(text);
        text = next;
    }
    PyObject *result = PyBytes_FromStringAndSize((const char *)text, len);
    free(text);
    return result;
}

/* --------------------------------------------------------------------------------------------- intl rules
 * sacrebleu's TokenizerV14International: three regular expressions (the `regex` package's Unicode classes)
 * applied one after the other, each as regex.sub applies it: matches left to right, none overlapping the
 * previous one, every match two code points (rules 1-2) or one (rule 3).
 *   1. (\P{N})(\p{P})  ->  "\1 \2 "   punctuation after anything but a number
 *   2. (\p{P})(\P{N})  ->  " \1 \2"   punctuation before anything but a number
 *   3. (\p{S})         ->  " \1 "     a symbol
 * The text is UTF-8 (lone surrogates allowed: Python's "surrogatepass" form) read code point by code point;
 * `table` (uint8, one per code point U+0000-U+10FFFF) holds the classes as bits INTL_P | INTL_S | INTL_N. It is
 * built from `regex` itself (bleu_core/fast/intl_table.py), so the classes are those of the Unicode version
 * sacrebleu's rules see. A code point past the table has no class. */
#define INTL_P 1
#define INTL_S 2
#define INTL_N 4

/* Length of the UTF-8 sequence at src[i] (1 for a stray byte or one cut short) and its code point. */
static inline Py_ssize_t utf8_next(const unsigned char *src, Py_ssize_t i, Py_ssize_t n, uint32_t *cp) {
    unsigned char b = src[i];
    Py_ssize_t len = b < 0x80 ? 1 : b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF8 ? 4 : 1;
    if (i + len > n) len = 1;
    if (len == 1) {
        *cp = b;
        return 1;
    }
    uint32_t c = b & (0x7F >> len);
    for (Py_ssize_t k = 1; k < len; k++) c = (c << 6) | (src[i + k] & 0x3F);
    *cp = c;
    return len;
}

typedef struct {
    const uint8_t *table;
    Py_ssize_t size;
} IntlTable;

static inline uint8_t intl_class(const IntlTable *t, uint32_t cp) {
    return (Py_ssize_t)cp < t->size ? t->table[cp] : 0;
}

/* One rule (1, 2 or 3) over src[0:n] into dst (room for 2n bytes, 3n for rule 3); returns the length written. */
static Py_ssize_t rule_intl(int rule, const IntlTable *t, const unsigned char *src, Py_ssize_t n,
                            unsigned char *dst) {
    Py_ssize_t i = 0, o = 0;
    uint32_t cp, next;
    while (i < n) {
        Py_ssize_t len = utf8_next(src, i, n, &cp), len2 = 0;
        uint8_t c = intl_class(t, cp), c2 = 0;
        if (rule != 3 && i + len < n) {
            len2 = utf8_next(src, i + len, n, &next);
            c2 = intl_class(t, next);
        }
        if (rule == 3 && (c & INTL_S)) {
            dst[o++] = ' ';
            memcpy(dst + o, src + i, (size_t)len), o += len;
            dst[o++] = ' ';
            i += len;
        } else if (len2 && ((rule == 1 && !(c & INTL_N) && (c2 & INTL_P)) ||
                            (rule == 2 && (c & INTL_P) && !(c2 & INTL_N)))) {
            if (rule == 2) dst[o++] = ' ';
            memcpy(dst + o, src + i, (size_t)len), o += len;
            dst[o++] = ' ';
            memcpy(dst + o, src + i + len, (size_t)len2), o += len2;
            if (rule == 1) dst[o++] = ' ';
            i += len + len2;
        } else {
            memcpy(dst + o, src + i, (size_t)len), o += len;
            i += len;
        }
    }
    return o;
}

/* rules_intl(data: bytes, table) -> bytes: the three rules above, in order. Rules 1-2 add two bytes per match
 * of at least two bytes (the output is at most twice the input), rule 3 two per match of at least one (three
 * times); each pass writes into a new buffer of that size. */
static PyObject *rules_intl(PyObject *self, PyObject *args) {
    Py_buffer in;
    PyObject *table_obj;
    Buf bt;
    if (!PyArg_ParseTuple(args, "y*O", &in, &table_obj)) return NULL;
    if (get_buffer(table_obj, &bt, 1, 0, "table") < 0) {
        release(&bt);
        PyBuffer_Release(&in);
        return NULL;
    }
    IntlTable t = {(const uint8_t *)bt.view.buf, bt.view.len};
    const unsigned char *src = (const unsigned char *)in.buf;
    unsigned char *text = NULL;
    Py_ssize_t len = in.len;
    PyObject *result = NULL;
    for (int rule = 1; rule <= 3; rule++) {
        Py_ssize_t grow = rule == 3 ? 3 : 2;
        unsigned char *out = len <= PY_SSIZE_T_MAX / 3 - 1 ? (unsigned char *)malloc((size_t)(grow * len + 1)) : NULL;
        if (out == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        Py_BEGIN_ALLOW_THREADS
        len = rule_intl(rule, &t, src, len, out);
        Py_END_ALLOW_THREADS
        free(text);
        src = text = out;
    }
    result = PyBytes_FromStringAndSize((const char *)text, len);
done:
    free(text);
    release(&bt);
    PyBuffer_Release(&in);
    return result;
}

/* pair_counts(partial, observed, out, k): the counting step of a pairwise permutation test, for R score sets at
 * once. `partial` (float64, R x K x P) holds each system's permuted sums, `observed` (float64, R x Q) and `out`
 * (int64, R x Q) one value per pair of systems, Q = K(K-1)/2 pairs (i < j) in np.triu_indices order:
 * out[r, q] = #{t : partial[r, i, t] - partial[r, j, t] >= observed[r, q]}. The numpy twin is
 * bleu_core.evaluation.spa_nulls._pair_counts_numpy. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
/* one copy for AVX2 machines (four doubles a step), one for any x86-64, chosen when the module loads */
#define PAIR_COUNTS_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PAIR_COUNTS_CLONES
#endif

/* The counting loops of pair_counts over R score sets of k systems and n_perm flips. */
PAIR_COUNTS_CLONES
static void pair_counts_loops(const double *part, const double *obs, int64_t *out, int64_t r_sets, int64_t k,
                              int64_t n_perm) {
    const int64_t n_pairs = k * (k - 1) / 2;
    for (int64_t r = 0; r < r_sets; r++) {
        const double *base = part + r * k * n_perm;
        int64_t q = r * n_pairs;
        for (int64_t i = 0; i < k - 1; i++) {
            const double *x = base + i * n_perm;
            for (int64_t j = i + 1; j < k; j++, q++) {
                const double *y = base + j * n_perm;
                const double c = obs[q];
                int64_t hits = 0;
                for (int64_t t = 0; t < n_perm; t++) hits += (x[t] - y[t] >= c);
                out[q] = hits;
            }
        }
    }
}

static PyObject *pair_counts(PyObject *self, PyObject *args) {
    PyObject *o_part, *o_obs, *o_out;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "OOOn", &o_part, &o_obs, &o_out, &k)) return NULL;
    Buf bp = {0}, bo = {0}, bc = {0};
    PyObject *result = NULL;
    if (get_buffer(o_part, &bp, 8, 0, "partial") < 0 || get_buffer(o_obs, &bo, 8, 0, "observed") < 0 ||
        get_buffer(o_out, &bc, 8, 1, "out") < 0)
        goto done;
    const int64_t n_pairs = (int64_t)k * (k - 1) / 2;
    if (k < 2 || N_ITEMS(bo) != N_ITEMS(bc) || N_ITEMS(bo) % n_pairs != 0) {
        PyErr_SetString(PyExc_ValueError, "pair_counts: one observed value and one count per pair of systems");
        goto done;
    }
    const int64_t r_sets = N_ITEMS(bo) / n_pairs;
    if (N_ITEMS(bp) % (r_sets * k) != 0) {
        PyErr_SetString(PyExc_ValueError, "pair_counts: partial must hold R x K x P sums");
        goto done;
    }
    const int64_t n_perm = N_ITEMS(bp) / (r_sets * k);
    const double *part = bp.view.buf, *obs = bo.view.buf;
    int64_t *out = bc.view.buf;
    Py_BEGIN_ALLOW_THREADS;
    pair_counts_loops(part, obs, out, r_sets, (int64_t)k, n_perm);
    Py_END_ALLOW_THREADS;
    result = Py_NewRef(Py_None);
done:
    release(&bp), release(&bo), release(&bc);
    return result;
}

/* hybrid_counts(a_part, b_part, a_free, b_free, obs1, obs2, out1, out2, k): pair_counts of the two PERM-BOTH
 * hybrids of metrics a and b for R masks at once, without building them in numpy. a_part and b_part (float64,
 * R x K x P) are each metric's masked sums (signs @ (w*z)), a_free and b_free (float64, K x P) its mask-free
 * sums (signs @ z); hybrid 1 is a_part + (b_free - b_part), hybrid 2 is b_part + (a_free - a_part) (the same
 * operations, in the same order, as numpy would do them). obs1, obs2, out1, out2 are R x Q as for pair_counts.
 * The numpy twin is bleu_core.evaluation.spa_nulls.SpaHybrids.null with force=False. */
static PyObject *hybrid_counts(PyObject *self, PyObject *args) {
    PyObject *o_ap, *o_bp, *o_af, *o_bf, *o_c1, *o_c2, *o_n1, *o_n2;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "OOOOOOOOn", &o_ap, &o_bp, &o_af, &o_bf, &o_c1, &o_c2, &o_n1, &o_n2, &k))
        return NULL;
    Buf ap = {0}, bp = {0}, af = {0}, bf = {0}, c1 = {0}, c2 = {0}, n1 = {0}, n2 = {0};
    PyObject *result = NULL;
    double *h1 = NULL, *h2 = NULL;
    if (get_buffer(o_ap, &ap, 8, 0, "a_part") < 0 || get_buffer(o_bp, &bp, 8, 0, "b_part") < 0 ||
        get_buffer(o_af, &af, 8, 0, "a_free") < 0 || get_buffer(o_bf, &bf, 8, 0, "b_free") < 0 ||
        get_buffer(o_c1, &c1, 8, 0, "obs1") < 0 || get_buffer(o_c2, &c2, 8, 0, "obs2") < 0 ||
        get_buffer(o_n1, &n1, 8, 1, "out1") < 0 || get_buffer(o_n2, &n2, 8, 1, "out2") < 0)
        goto done;
    const int64_t n_pairs = (int64_t)k * (k - 1) / 2;
    if (k < 2 || N_ITEMS(c1) % n_pairs != 0 || N_ITEMS(c2) != N_ITEMS(c1) || N_ITEMS(n1) != N_ITEMS(c1) ||
        N_ITEMS(n2) != N_ITEMS(c1)) {
        PyErr_SetString(PyExc_ValueError, "hybrid_counts: one observed value and one count per pair of systems");
        goto done;
    }
    const int64_t r_sets = N_ITEMS(c1) / n_pairs;
    const int64_t free_len = N_ITEMS(af), n_perm = free_len / k;
    if (free_len % k != 0 || N_ITEMS(bf) != free_len || N_ITEMS(ap) != r_sets * free_len ||
        N_ITEMS(bp) != r_sets * free_len) {
        PyErr_SetString(PyExc_ValueError, "hybrid_counts: the parts must be R x K x P and K x P sums");
        goto done;
    }
    const int64_t len = r_sets * free_len;
    h1 = malloc((size_t)(len > 0 ? len : 1) * sizeof(double));
    h2 = malloc((size_t)(len > 0 ? len : 1) * sizeof(double));
    if (h1 == NULL || h2 == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const double *a = ap.view.buf, *b = bp.view.buf, *fa = af.view.buf, *fb = bf.view.buf;
    Py_BEGIN_ALLOW_THREADS;
    for (int64_t r = 0; r < r_sets; r++) {
        const int64_t off = r * free_len;
        for (int64_t e = 0; e < free_len; e++) {
            h1[off + e] = a[off + e] + (fb[e] - b[off + e]);
            h2[off + e] = b[off + e] + (fa[e] - a[off + e]);
        }
    }
    pair_counts_loops(h1, c1.view.buf, n1.view.buf, r_sets, (int64_t)k, n_perm);
    pair_counts_loops(h2, c2.view.buf, n2.view.buf, r_sets, (int64_t)k, n_perm);
    Py_END_ALLOW_THREADS;
    result = Py_NewRef(Py_None);
done:
    free(h1), free(h2);
    release(&ap), release(&bp), release(&af), release(&bf), release(&c1), release(&c2), release(&n1), release(&n2);
    return result;
}

#include "_bleu13a.c"

static PyMethodDef methods[] = {
    {"bleu13a_totals", bleu13a_totals, METH_VARARGS,
     "Corpus BLEU statistics of 13a-tokenised files from their bytes (see bleu_core.fast.file_bleu)."},
    {"bleu13a_segments", bleu13a_segments, METH_VARARGS,
     "Per-segment BLEU statistics of 13a-tokenised files from their bytes (see bleu_core.fast.file_bleu)."},
    {"scan", scan, METH_VARARGS, "Number the words of a UTF-8 buffer (see bleu_core.fast.native)."},
    {"rehash", rehash, METH_VARARGS, "Rebuild a word table's slots (see bleu_core.fast.native)."},
    {"expand", expand, METH_VARARGS, "Word ids to token ids (see bleu_core.fast.native)."},
    {"count_bytes", count_bytes, METH_VARARGS, "How often some byte values occur (see bleu_core.fast.native)."},
    {"gathered_sum", gathered_sum, METH_VARARGS, "sum(word_len[word_ids]) (see bleu_core.fast.native)."},
    {"count", count, METH_VARARGS, "Clipped n-gram matches per segment (see bleu_core.fast.native)."},
    {"rules_13a", rules_13a, METH_VARARGS,
     "sacrebleu's 13a regular expressions on UTF-8 bytes (see bleu_core.fast.batch_tokenizers)."},
    {"rules_intl", rules_intl, METH_VARARGS,
     "sacrebleu's intl regular expressions on UTF-8 bytes (see bleu_core.fast.batch_tokenizers)."},
    {"chrf_matches", chrf_matches, METH_VARARGS,
     "chrF's clipped n-gram matches per segment and side pair (see bleu_core.fast.native)."},
    {"pair_counts", pair_counts, METH_VARARGS,
     "How often each pair's permuted difference reaches the observed one (see bleu_core.evaluation.spa_nulls)."},
    {"hybrid_counts", hybrid_counts, METH_VARARGS,
     "pair_counts of the two PERM-BOTH hybrids of two metrics (see bleu_core.evaluation.spa_nulls)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "bleu_core's compiled kernels (C, built at install; see bleu_core/fast/native.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
