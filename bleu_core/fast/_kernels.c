/* The compiled kernels of bleu_core.fast, built ahead of time by setuptools (setup.py, optional).
 *
 * Read bleu_core/fast/word_index.py and bleu_core/fast/clipping.py for what each kernel computes and for its
 * pure numpy/Python twin; bleu_core/fast/native.py wraps these functions (argument checks, array allocation).
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

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, "Number the words of a UTF-8 buffer (see bleu_core.fast.native)."},
    {"rehash", rehash, METH_VARARGS, "Rebuild a word table's slots (see bleu_core.fast.native)."},
    {"expand", expand, METH_VARARGS, "Word ids to token ids (see bleu_core.fast.native)."},
    {"count", count, METH_VARARGS, "Clipped n-gram matches per segment (see bleu_core.fast.native)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "bleu_core's compiled kernels (C, built at install; see bleu_core/fast/native.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
