/* bleu13a_totals / bleu13a_segments: BLEU statistics of 13a-tokenised files, from the files' bytes to the
 * corpus totals (`score`) or to one row per segment (`significance`, which resamples segments).
 *
 * Included by _kernels.c (one translation unit: it uses rule_13a, multibyte_space, mix and MAX/MIN from
 * there). Read bleu_core/fast/file_bleu.py for how `score` and `significance` use it and for its pure twins.
 *
 * One call takes several hypothesis files (systems) and their reference files: sources 0..n_hyp-1 are the
 * hypothesis files, the rest the references, all tokenised with one vocabulary per part, so the references
 * and every word the systems share are tokenised once. What it computes, segment by segment and system by
 * system (line i of a hypothesis file against line i of every reference file), exactly as
 * bleu_core.engine.statistics.compute_statistics does on the decoded lines (and then sums, for the totals):
 *   1. words: a line split on str.split()'s whitespace (the ASCII bytes 9-13, 28-32 and the non-ASCII
 *      spaces of word_index.NON_ASCII_WHITESPACE in UTF-8);
 *   2. tokens of a word, as sacrebleu's Tokenizer13a makes them on " word " (13a is word-local, see
 *      bleu_core/fast/batch_tokenizers.py): "<skipped>" removed, then (if the word holds "&") the entities
 *      &quot; &amp; &lt; &gt; replaced in that order, each as one str.replace pass; then the four regular
 *      expressions (rule_13a); the result split on spaces. A distinct word is tokenised once (a hash table
 *      of words whose hits are confirmed byte by byte), a distinct token numbered once (another table);
 *   3. clipped n-gram matches of the hypothesis against the references (the algorithm of count_matches in
 *      _kernels.c, per segment: classes of n-grams, hypothesis counts, best reference count per class),
 *      n-gram totals, the hypothesis length and the closest / shortest / summed reference lengths.
 *
 * It declines (returns a reason, and `score` takes the Python path, which reports the problem in words)
 * whenever that path would warn or fail: a byte-order mark, bytes that are not UTF-8 (Python's strict
 * decoder: no overlong forms, no surrogates), a NUL byte, a line over the length limit (counted in bytes,
 * which is never fewer than characters), an empty file, files of different numbers of lines, a blank
 * reference line, a hypothesis file with no word at all. "\r" is whitespace for str.split(), so a CRLF file
 * gives the same words and lines as the Python path, which drops the "\r" of each "\r\n".
 *
 * With two threads the corpus is cut in two parts at a line (b13_run): each thread tokenises its part with
 * word and token tables of its own (token ids only have to agree within a segment) and counts it; the
 * calling thread takes the first part. Tokens are int32 ids in one array per file and part, sized once: a
 * line of B bytes never has more than B tokens. The GIL is released throughout. */

#include <pthread.h>

#define B13_MAX_SOURCES 64
#define B13_MAX_ORDER 64

/* ----------------------------------------------------------------------------------------- UTF-8 check */

/* 0 when buf[0:n] is UTF-8 as Python's strict decoder accepts it and holds no NUL byte; else 1 (not UTF-8)
 * or 2 (NUL). ASCII is checked 8 bytes at a time. */
static int b13_check_bytes(const uint8_t *buf, int64_t n) {
    int64_t i = 0;
    while (i < n) {
        if (i + 8 <= n) {
            uint64_t v;
            memcpy(&v, buf + i, 8);
            /* no high bit and no zero byte in the 8 bytes: plain ASCII text */
            if (!(v & 0x8080808080808080ULL) && !((v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL)) {
                i += 8;
                continue;
            }
        }
        uint8_t b = buf[i];
        if (b == 0) return 2;
        if (b < 0x80) {
            i++;
            continue;
        }
        int len;
        uint8_t lo = 0x80, hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) len = 2;
        else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            if (b == 0xE0) lo = 0xA0;
            if (b == 0xED) hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            if (b == 0xF0) lo = 0x90;
            if (b == 0xF4) hi = 0x8F;
        } else return 1;
        if (i + len > n) return 1;
        if (buf[i + 1] < lo || buf[i + 1] > hi) return 1;
        for (int k = 2; k < len; k++)
            if (buf[i + k] < 0x80 || buf[i + k] > 0xBF) return 1;
        i += len;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ byte tables */

/* Byte classes for splitting words: 1 = ASCII whitespace of str.split(), 2 = the first byte of a possible
 * non-ASCII space (multibyte_space decides), 0 = part of a word. */
static uint8_t b13_class_of[256];
/* Bytes a 13a rule or replacement may act on: rule 1's ASCII punctuation and symbols (with "&" and "<" of the
 * entities and "<skipped>"), the period, the comma and the dash. A word without any is one token, itself. */
static uint8_t b13_special[256];
static pthread_once_t b13_tables_once = PTHREAD_ONCE_INIT;

static void b13_init_tables(void) {
    for (int b = 0; b < 256; b++) {
        b13_class_of[b] = (b == 32 || (b >= 9 && b <= 13) || (b >= 28 && b <= 31)) ? 1
                          : (b == 0xC2 || (b >= 0xE1 && b <= 0xE3)) ? 2 : 0;
        b13_special[b] = is_rule1((unsigned char)b) || b == '.' || b == ',' || b == '-';
    }
}

/* ------------------------------------------------------------------------------------ interning tables */

/* Distinct byte strings numbered from 0: open addressing (slot = (hash tag << 32) | (id + 1), 0 empty), one
 * entry per string (its first 8 bytes, so that a string of up to 8 bytes is confirmed without reading the
 * arena), the strings' bytes one after the other in `arena` (with 8 bytes to spare: 8-byte loads never run
 * past it). A word's entry also says where its tokens are. */
typedef struct {
    uint64_t head;  /* the first min(len, 8) bytes, little-endian, zero above */
    uint64_t hash;
    int64_t off;    /* in arena */
    int64_t len;
    int64_t first;  /* words: the token id when count == 1, else where the tokens start in word_tokens */
    int64_t count;  /* words: number of tokens */
} B13Entry;

typedef struct {
    uint64_t *slots;
    int64_t n_slots;
    B13Entry *entry;
    int64_t n, cap;
    uint8_t *arena;
    int64_t used, arena_cap;
} B13Intern;

/* The first min(n, 8) bytes of p as a little-endian integer; `spare`: 8 bytes may be read at p. */
static inline uint64_t b13_head(const uint8_t *p, int64_t n, int spare) {
    uint64_t v = 0;
    if (spare) {
        memcpy(&v, p, 8);
        if (n < 8) v &= (~0ULL) >> (8 * (8 - n)) ;
        return v;
    }
    for (int64_t j = 0; j < n && j < 8; j++) v |= (uint64_t)p[j] << (8 * j);
    return v;
}

static inline uint64_t b13_hash(const uint8_t *p, int64_t n, uint64_t head) {
    uint64_t h = (0x9E3779B97F4A7C15ULL ^ (uint64_t)n) ^ head;
    h *= 0xFF51AFD7ED558CCDULL;
    for (int64_t j = 8; j < n; j += 8) {
        uint64_t v = 0;
        if (j + 8 <= n) memcpy(&v, p + j, 8);
        else
            for (int64_t q = j; q < n; q++) v |= (uint64_t)p[q] << (8 * (q - j));
        h ^= h >> 29;
        h = (h ^ v) * 0xFF51AFD7ED558CCDULL;
    }
    return mix(h);
}

static int b13_intern_init(B13Intern *t) {
    memset(t, 0, sizeof(*t));
    t->n_slots = 1 << 14;
    t->cap = 1 << 13;
    t->arena_cap = 1 << 16;
    t->slots = calloc((size_t)t->n_slots, sizeof(uint64_t));
    t->entry = malloc((size_t)t->cap * sizeof(B13Entry));
    t->arena = malloc((size_t)t->arena_cap);
    return (t->slots && t->entry && t->arena) ? 0 : -1;
}

static void b13_intern_free(B13Intern *t) { free(t->slots), free(t->entry), free(t->arena); }

/* Make room for one more string of `n` bytes; -1 when memory runs out. */
static int b13_intern_reserve(B13Intern *t, int64_t n) {
    if (t->n == t->cap) {
        int64_t cap = 2 * t->cap;
        B13Entry *entry = realloc(t->entry, (size_t)cap * sizeof(B13Entry));
        if (!entry) return -1;
        t->entry = entry, t->cap = cap;
    }
    if (t->used + n + 8 > t->arena_cap) {
        int64_t cap = MAX(2 * t->arena_cap, t->used + n + 8);
        uint8_t *arena = realloc(t->arena, (size_t)cap);
        if (!arena) return -1;
        t->arena = arena, t->arena_cap = cap;
    }
    if (2 * (t->n + 1) > t->n_slots) {
        int64_t n_slots = 2 * t->n_slots;
        uint64_t *slots = calloc((size_t)n_slots, sizeof(uint64_t));
        if (!slots) return -1;
        uint64_t mask = (uint64_t)n_slots - 1;
        for (int64_t d = 0; d < t->n; d++) {
            uint64_t h = t->entry[d].hash, slot = h & mask;
            while (slots[slot]) slot = (slot + 1) & mask;
            slots[slot] = ((h >> 32) << 32) | (uint64_t)(d + 1);
        }
        free(t->slots);
        t->slots = slots, t->n_slots = n_slots;
    }
    return 0;
}

/* The id of p[0:n] (head: b13_head of it), added if new (*is_new = 1); -1 when memory runs out. */
static inline int64_t b13_intern(B13Intern *t, const uint8_t *p, int64_t n, uint64_t head, int *is_new) {
    uint64_t h = b13_hash(p, n, head), tag = h >> 32, mask = (uint64_t)t->n_slots - 1;
    uint64_t slot = h & mask;
    *is_new = 0;
    for (;;) {
        uint64_t v = t->slots[slot];
        if (v == 0) break;
        if ((v >> 32) == tag) {
            int64_t d = (int64_t)(v & 0xFFFFFFFFULL) - 1;
            const B13Entry *e = t->entry + d;
            if (e->len == n && e->head == head &&
                (n <= 8 || memcmp(t->arena + e->off + 8, p + 8, (size_t)(n - 8)) == 0))
                return d;
        }
        slot = (slot + 1) & mask;
    }
    if (b13_intern_reserve(t, n) < 0) return -1;
    /* the slots may have been rebuilt bigger: find the empty slot again */
    mask = (uint64_t)t->n_slots - 1;
    slot = h & mask;
    while (t->slots[slot]) slot = (slot + 1) & mask;
    int64_t d = t->n++;
    memcpy(t->arena + t->used, p, (size_t)n);
    t->entry[d] = (B13Entry){.head = head, .hash = h, .off = t->used, .len = n, .first = 0, .count = 0};
    t->used += n;
    t->slots[slot] = (tag << 32) | (uint64_t)(d + 1);
    *is_new = 1;
    return d;
}

/* ------------------------------------------------------------------------------------- 13a of one word */

typedef struct {
    B13Intern words, tokens;
    int32_t *word_tokens;
    int64_t n_word_tokens, word_tokens_cap;
    uint8_t *a, *b; /* scratch for the rules */
    int64_t scratch_cap;
} B13Vocab;

/* dst = src with every non-overlapping `pat` (left to right) replaced by `rep` (at most as long): a
 * str.replace pass. Returns the new length. */
static int64_t b13_replace(const uint8_t *src, int64_t n, uint8_t *dst, const char *pat, int64_t pn,
                           const char *rep, int64_t rn) {
    int64_t i = 0, o = 0;
    while (i < n) {
        if (src[i] == (uint8_t)pat[0] && i + pn <= n && memcmp(src + i, pat, (size_t)pn) == 0) {
            memcpy(dst + o, rep, (size_t)rn);
            o += rn, i += pn;
        } else {
            dst[o++] = src[i++];
        }
    }
    return o;
}

/* Tokenise word w[0:n] (a new word `d`) and record its token ids; -1 when memory runs out. */
static int b13_tokenise_word(B13Vocab *v, int64_t d, const uint8_t *w, int64_t n) {
    int64_t j = 0;
    while (j < n && !b13_special[w[j]]) j++;
    if (j == n) { /* no rule applies: the word is its one token */
        int is_new;
        int64_t id = b13_intern(&v->tokens, w, n, b13_head(w, n, 0), &is_new);
        if (id < 0 || id >= INT32_MAX) return -1;
        v->words.entry[d].count = 1, v->words.entry[d].first = id;
        return 0;
    }
    int64_t need = 24 * (n + 2) + 16; /* rule 1 triples, rules 2-4 double each */
    if (need > v->scratch_cap) {
        free(v->a), free(v->b);
        v->a = malloc((size_t)need), v->b = malloc((size_t)need);
        if (!v->a || !v->b) return -1;
        v->scratch_cap = need;
    }
    uint8_t *a = v->a, *b = v->b, *t;
    a[0] = ' ';
    int64_t len = 1 + b13_replace(w, n, a + 1, "<skipped>", 9, "", 0);
    if (memchr(a, '&', (size_t)len)) {
        static const char *ent[4] = {"&quot;", "&amp;", "&lt;", "&gt;"};
        static const char *rep[4] = {"\"", "&", "<", ">"};
        for (int e = 0; e < 4; e++) {
            len = b13_replace(a, len, b, ent[e], (int64_t)strlen(ent[e]), rep[e], 1);
            t = a, a = b, b = t;
        }
    }
    a[len++] = ' ';
    for (int rule = 1; rule <= 4; rule++) {
        len = rule_13a(rule, a, len, b);
        t = a, a = b, b = t;
    }
    /* split on spaces (the only whitespace left: the word had none) */
    if (v->n_word_tokens + len > v->word_tokens_cap) {
        int64_t cap = MAX(2 * v->word_tokens_cap, v->n_word_tokens + len);
        int32_t *wt = realloc(v->word_tokens, (size_t)cap * sizeof(int32_t));
        if (!wt) return -1;
        v->word_tokens = wt, v->word_tokens_cap = cap;
    }
    int64_t first = v->n_word_tokens, count = 0, i = 0;
    while (i < len) {
        if (a[i] == ' ') {
            i++;
            continue;
        }
        int64_t start = i;
        while (i < len && a[i] != ' ') i++;
        int is_new;
        int64_t id = b13_intern(&v->tokens, a + start, i - start, b13_head(a + start, i - start, 0), &is_new);
        if (id < 0 || id >= INT32_MAX) return -1;
        v->word_tokens[v->n_word_tokens++] = (int32_t)id;
        count++;
    }
    B13Entry *e = v->words.entry + d;
    e->count = count;
    e->first = count == 1 ? v->word_tokens[first] : first;
    return 0;
}

/* ------------------------------------------------------------------------------------------ a corpus */

typedef struct {
    int n_src;                       /* hypothesis files, then reference files */
    int n_hyp;                       /* hypothesis files (the first n_hyp sources) */
    const uint8_t *buf[B13_MAX_SOURCES];
    int64_t size[B13_MAX_SOURCES];
    int64_t pos[B13_MAX_SOURCES];    /* next line starts here */
    int32_t *tok[B13_MAX_SOURCES];   /* every line's token ids, one after the other */
    int64_t *line_end[B13_MAX_SOURCES]; /* line s's tokens end at tok[k][line_end[k][s]] (line_end[k][-1] = 0) */
    int64_t n_lines;                 /* lines of the hypothesis file */
    int64_t max_line_bytes;
    int max_order;
    B13Vocab vocab;
    const char *reason;              /* why tokenising declined (NULL: it did not) */
    uint64_t hyp_words;              /* bit j: hypothesis file j has a word */
} B13Corpus;

/* Count the lines of buf (split on "\n", a last empty piece dropped). */
static int64_t b13_count_lines(const uint8_t *buf, int64_t n) {
    int64_t lines = 0;
    const uint8_t *p = buf, *end = buf + n;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) lines++, p++;
    if (n > 0 && buf[n - 1] != '\n') lines++;
    return lines;
}

/* Where the word starting at buf[i] ends (the first whitespace at or after i, or `end`). Eight bytes at a
 * time while they are all printable ASCII (0x21-0x7F: never whitespace); the lowest flagged byte of a
 * block is exact (borrows only run upwards), and is looked at on its own. */
static inline int64_t b13_word_end(const uint8_t *buf, int64_t i, int64_t end) {
    for (;;) {
        while (i + 8 <= end) {
            uint64_t v;
            memcpy(&v, buf + i, 8);
            uint64_t m = (((v - 0x2121212121212121ULL) & ~v) | v) & 0x8080808080808080ULL;
            if (!m) {
                i += 8;
                continue;
            }
            i += __builtin_ctzll(m) >> 3;
            break;
        }
        if (i >= end) return end;
        uint8_t k = b13_class_of[buf[i]];
        if (k == 1 || (k == 2 && multibyte_space(buf, i, end))) return i;
        i++;
    }
}

/* Tokenise line s of source k into tok[k]; returns its number of words, or -1 (out of memory), -2 (a
 * line too long). */
static int64_t b13_line(B13Corpus *c, int k, int64_t s) {
    const uint8_t *buf = c->buf[k];
    const int64_t n = c->size[k];
    int64_t i = c->pos[k];
    const uint8_t *nl = memchr(buf + i, '\n', (size_t)(n - i));
    const int64_t end = nl ? (int64_t)(nl - buf) : n;
    c->pos[k] = nl ? end + 1 : n;
    if (end - i > c->max_line_bytes) return -2;
    int64_t out = s ? c->line_end[k][s - 1] : 0, words = 0;
    int32_t *tok = c->tok[k];
    B13Vocab *v = &c->vocab;
    while (i < end) {
        uint8_t kind = b13_class_of[buf[i]];
        if (kind == 1) {
            i++;
            continue;
        }
        if (kind == 2) {
            int skip = multibyte_space(buf, i, end);
            if (skip) {
                i += skip;
                continue;
            }
        }
        const int64_t start = i;
        i = b13_word_end(buf, i + 1, end);
        const int64_t len = i - start;
        int is_new;
        uint64_t head = b13_head(buf + start, len, start + 8 <= n);
        int64_t d = b13_intern(&v->words, buf + start, len, head, &is_new);
        if (d < 0) return -1;
        if (is_new && b13_tokenise_word(v, d, buf + start, len) < 0) return -1;
        const B13Entry *e = v->words.entry + d;
        if (e->count == 1) tok[out++] = (int32_t)e->first;
        else {
            memcpy(tok + out, v->word_tokens + e->first, (size_t)e->count * sizeof(int32_t));
            out += e->count;
        }
        words++;
    }
    c->line_end[k][s] = out;
    return words;
}

/* Tokenise every segment of c in turn; stop at the first reason to decline (a hypothesis file without any
 * word is the caller's to find: it looks at every part). Returns 0 or -1 (memory). */
static int b13_tokenise_all(B13Corpus *c) {
    int status = 0;
    for (int64_t s = 0; s < c->n_lines; s++) {
        for (int k = 0; k < c->n_src; k++) {
            if (k > 0 && c->pos[k] >= c->size[k]) {
                c->reason = "line-count";
                goto stop;
            }
            int64_t words = b13_line(c, k, s);
            if (words == -1) {
                status = -1;
                goto stop;
            }
            if (words == -2) {
                c->reason = "long-line";
                goto stop;
            }
            if (k < c->n_hyp && words) c->hyp_words |= 1ULL << k;
            if (k >= c->n_hyp && words == 0) {
                c->reason = "blank-reference";
                goto stop;
            }
        }
    }
    for (int k = 1; k < c->n_src; k++)
        if (c->pos[k] < c->size[k]) c->reason = "line-count";
stop:
    return status;
}

/* ------------------------------------------------------------------------------------------ counting */

/* One counting thread's scratch and sums. The arrays indexed by token id grow with the ids it meets; the
 * others with the longest line. Entries carry the stamp (segment and order) they were written for, so
 * nothing is cleared between segments. */
typedef struct {
    int64_t *tstamp, *tclass;
    int64_t n_tok;
    int64_t *kstamp, *kkey, *kclass; /* (class of the (n-1)-gram, class of the last token) -> class */
    int64_t n_keys;
    int64_t *hyp_count, *best, *ref_count;
    int64_t *cls, *uni; /* per source and position */
    int64_t width;      /* positions per source in cls / uni */
    int64_t n_classes_cap;
    int64_t stamp;
} B13Counter;

static void b13_counter_free(B13Counter *w) {
    free(w->tstamp), free(w->tclass), free(w->kstamp), free(w->kkey), free(w->kclass);
    free(w->hyp_count), free(w->best), free(w->ref_count), free(w->cls), free(w->uni);
}

/* Grow an int64 array to `n` items, new items set to `fill`. */
static int b13_grow(int64_t **a, int64_t old_n, int64_t n, int64_t fill) {
    int64_t *p = realloc(*a, (size_t)n * sizeof(int64_t));
    if (!p) return -1;
    for (int64_t j = old_n; j < n; j++) p[j] = fill;
    *a = p;
    return 0;
}

/* Room for segment s: its longest line, its hypothesis and its largest token id. */
static int b13_counter_fit(B13Counter *w, int n_src, int64_t longest, int64_t hyp_len, int64_t max_tok) {
    if (max_tok >= w->n_tok) {
        int64_t n = MAX(2 * w->n_tok, max_tok + 1);
        if (b13_grow(&w->tstamp, w->n_tok, n, 0) < 0 || b13_grow(&w->tclass, w->n_tok, n, 0) < 0) return -1;
        w->n_tok = n;
    }
    if (longest > w->width) {
        int64_t width = MAX(2 * w->width, longest);
        free(w->cls), free(w->uni);
        w->cls = malloc((size_t)(n_src * width) * sizeof(int64_t));
        w->uni = malloc((size_t)(n_src * width) * sizeof(int64_t));
        if (!w->cls || !w->uni) return -1;
        w->width = width;
    }
    if (hyp_len > w->n_classes_cap) {
        int64_t n = MAX(2 * w->n_classes_cap, hyp_len);
        if (b13_grow(&w->hyp_count, 0, n, 0) < 0 || b13_grow(&w->best, 0, n, 0) < 0 ||
            b13_grow(&w->ref_count, 0, n, 0) < 0)
            return -1;
        w->n_classes_cap = n;
    }
    int64_t keys = 16;
    while (keys < 2 * hyp_len) keys *= 2;
    if (keys > w->n_keys) {
        if (b13_grow(&w->kstamp, 0, keys, 0) < 0 || b13_grow(&w->kkey, 0, keys, 0) < 0 ||
            b13_grow(&w->kclass, 0, keys, 0) < 0)
            return -1;
        w->n_keys = keys;
    }
    return 0;
}

/* The class of key in the stamped table, added when `add` (a new class n_classes); -1 when absent. */
static inline int64_t b13_class(B13Counter *w, int64_t key, int add, int64_t *n_classes) {
    const int64_t mask = w->n_keys - 1;
    int64_t slot = hash_slot(key, mask);
    while (w->kstamp[slot] == w->stamp) {
        if (w->kkey[slot] == key) return w->kclass[slot];
        slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    w->kstamp[slot] = w->stamp, w->kkey[slot] = key, w->kclass[slot] = *n_classes;
    w->hyp_count[*n_classes] = 0, w->best[*n_classes] = 0;
    return (*n_classes)++;
}

/* Clipped matches of one order: classes of the hypothesis n-grams, then the references looked up. Returns
 * 1 when some reference n-gram matched (the next order can match), 0 otherwise. */
static int b13_order(B13Counter *w, const B13Corpus *c, const int32_t **line, const int64_t *len, int n_src,
                     int n, int64_t *sums) {
    const int64_t L = len[0], W = w->width;
    int64_t n_classes = 0;
    w->stamp++;
    int64_t *cls = w->cls, *uni = w->uni;
    for (int64_t p = 0; p < L - n + 1; p++) {
        int64_t cc;
        if (n == 1) {
            int64_t t = line[0][p];
            if (w->tstamp[t] != w->stamp) {
                w->tstamp[t] = w->stamp, w->tclass[t] = n_classes;
                w->hyp_count[n_classes] = 0, w->best[n_classes] = 0;
                n_classes++;
            }
            cc = uni[p] = w->tclass[t];
        } else {
            if (cls[p] < 0) continue;
            cc = b13_class(w, cls[p] * L + uni[p + n - 1], 1, &n_classes);
        }
        cls[p] = cc;
        w->hyp_count[cc]++;
    }
    int any = 0;
    const int one_ref = n_src == 2;
    int64_t matched = 0; /* one reference: min(hypothesis count, reference count) summed as the counts grow */
    for (int k = 1; k < n_src; k++) {
        int64_t *kcls = cls + k * W, *kuni = uni + k * W;
        const int64_t m = len[k] - n + 1;
        for (int64_t p = 0; p < m; p++) {
            int64_t cc;
            if (n == 1) {
                int64_t t = line[k][p];
                cc = kuni[p] = (t < w->n_tok && w->tstamp[t] == w->stamp) ? w->tclass[t] : -1;
            } else {
                if (kcls[p] < 0) continue;
                int64_t u = kuni[p + n - 1];
                cc = u < 0 ? -1 : b13_class(w, kcls[p] * L + u, 0, &n_classes);
            }
            kcls[p] = cc;
            if (cc >= 0) {
                if (one_ref) { /* its count is the best count */
                    if (++w->best[cc] <= w->hyp_count[cc]) matched++;
                    any = 1;
                }
                else w->ref_count[cc]++;
            }
        }
        for (int64_t p = 0; !one_ref && p < m; p++) {
            int64_t cc = kcls[p];
            if (cc >= 0) {
                if (w->ref_count[cc] > w->best[cc]) w->best[cc] = w->ref_count[cc];
                w->ref_count[cc] = 0;
                any = 1;
            }
        }
    }
    for (int64_t cc = 0; !one_ref && cc < n_classes; cc++) matched += MIN(w->hyp_count[cc], w->best[cc]);
    sums[4 + n - 1] += matched;
    /* A hypothesis n-gram no reference holds cannot grow into a match (no next order: nothing to do). */
    for (int64_t p = 0; n < c->max_order && p < L - n + 1; p++)
        if (cls[p] >= 0 && w->best[cls[p]] == 0) cls[p] = -1;
    return any;
}

/* Add segment s's statistics of hypothesis file `hyp` (against every reference file) to sums; -1 when
 * memory runs out. */
static int b13_count_segment(B13Counter *w, const B13Corpus *c, int64_t s, int64_t n_tokens, int hyp,
                             int64_t *sums) {
    const int32_t *line[B13_MAX_SOURCES];
    int64_t len[B13_MAX_SOURCES], longest = 1;
    const int n_src = 1 + c->n_src - c->n_hyp; /* the hypothesis, then the references */
    for (int j = 0; j < n_src; j++) {
        const int k = j ? c->n_hyp + j - 1 : hyp;
        int64_t from = s ? c->line_end[k][s - 1] : 0;
        line[j] = c->tok[k] + from;
        len[j] = c->line_end[k][s] - from;
        longest = MAX(longest, len[j]);
    }
    const int64_t L = len[0];
    if (b13_counter_fit(w, n_src, longest, L, n_tokens - 1) < 0) return -1;
    int64_t closest = 0, best_diff = -1, shortest = 0;
    for (int k = 1; k < n_src; k++) {
        int64_t r = len[k], diff = r > L ? r - L : L - r;
        if (best_diff == -1 || diff < best_diff || (diff == best_diff && r < closest)) best_diff = diff, closest = r;
        if (k == 1 || r < shortest) shortest = r;
        sums[3] += r;
    }
    sums[0] += L, sums[1] += closest, sums[2] += shortest;
    for (int n = 1; n <= c->max_order && n <= L; n++) sums[4 + c->max_order + n - 1] += L - n + 1;
    for (int n = 1; n <= c->max_order && n <= L; n++)
        if (!b13_order(w, c, line, len, n_src, n, sums)) break;
    return 0;
}

/* ------------------------------------------------------------------------------------- the two halves */

/* One part of the corpus (segments first..first + n_lines - 1 of every file), tokenised with a vocabulary of
 * its own and counted by one thread: token ids only have to agree within a segment. */
typedef struct {
    B13Corpus c;
    B13Counter w;
    int64_t *sums;       /* per hypothesis file: 4 + 2 * max_order sums over this part's segments */
    int64_t *rows;       /* NULL, or where hypothesis file 0's row of this part's first segment goes */
    int64_t hyp_stride;  /* from one hypothesis file's rows to the next one's */
    int status;
    int bad[B13_MAX_SOURCES]; /* b13_check_bytes of each file's part */
} B13Part;

static void b13_part_free(B13Part *part) {
    B13Corpus *c = &part->c;
    for (int k = 0; k < c->n_src; k++) free(c->tok[k]), free(c->line_end[k]);
    b13_intern_free(&c->vocab.words), b13_intern_free(&c->vocab.tokens);
    free(c->vocab.word_tokens), free(c->vocab.a), free(c->vocab.b);
    b13_counter_free(&part->w);
    free(part->sums);
}

/* Tokenise, then count, one part (a thread's job): segment by segment, every hypothesis file in turn. */
static void *b13_part_run(void *arg) {
    B13Part *part = arg;
    B13Corpus *c = &part->c;
    int bad = 0;
    for (int k = 0; k < c->n_src; k++) bad |= part->bad[k] = b13_check_bytes(c->buf[k], c->size[k]);
    if (bad) return NULL; /* the whole corpus is declined (b13_run says why) */
    part->status = b13_tokenise_all(c);
    const int n_sums = 4 + 2 * c->max_order;
    for (int64_t s = 0; part->status == 0 && !c->reason && s < c->n_lines; s++)
        for (int j = 0; part->status == 0 && j < c->n_hyp; j++) {
            int64_t *sums = part->rows ? part->rows + j * part->hyp_stride + s * n_sums : part->sums + j * n_sums;
            if (b13_count_segment(&part->w, c, s, c->vocab.tokens.n, j, sums) < 0) part->status = -1;
        }
    return NULL;
}

/* Where line `line` of buf starts (the size when it has fewer lines). */
static int64_t b13_line_offset(const uint8_t *buf, int64_t n, int64_t line) {
    int64_t at = 0;
    for (int64_t l = 0; l < line && at < n; l++) {
        const uint8_t *nl = memchr(buf + at, '\n', (size_t)(n - at));
        at = nl ? (int64_t)(nl - buf) + 1 : n;
    }
    return at;
}

/* Set up part p of `parts` (of the corpus whole[], whose first file has n_lines lines); rows: NULL or the
 * whole corpus's rows. Returns 0, or -1 when memory runs out. */
static int b13_part_init(B13Part *part, const B13Corpus *whole, int p, int parts, int64_t *rows) {
    B13Corpus *c = &part->c;
    const int64_t first = whole->n_lines * p / parts, last = whole->n_lines * (p + 1) / parts;
    const int n_sums = 4 + 2 * whole->max_order;
    c->n_src = whole->n_src, c->n_hyp = whole->n_hyp;
    c->max_order = whole->max_order, c->max_line_bytes = whole->max_line_bytes;
    c->n_lines = last - first;
    part->hyp_stride = whole->n_lines * n_sums;
    part->rows = rows ? rows + first * n_sums : NULL;
    if (b13_intern_init(&c->vocab.words) < 0 || b13_intern_init(&c->vocab.tokens) < 0) return -1;
    part->sums = calloc((size_t)(c->n_hyp * n_sums), sizeof(int64_t));
    if (!part->sums) return -1;
    for (int k = 0; k < c->n_src; k++) {
        const int64_t from = b13_line_offset(whole->buf[k], whole->size[k], first);
        const int64_t to = p == parts - 1 ? whole->size[k] : b13_line_offset(whole->buf[k], whole->size[k], last);
        c->buf[k] = whole->buf[k] + from, c->size[k] = to - from;
        /* a line of B bytes has at most B tokens; at most one line per byte, and one more */
        c->tok[k] = malloc((size_t)(c->size[k] + 1) * sizeof(int32_t));
        c->line_end[k] = malloc((size_t)(MIN(c->size[k], c->n_lines) + 1) * sizeof(int64_t));
        if (!c->tok[k] || !c->line_end[k]) return -1;
    }
    return 0;
}

/* Tokenise and count the corpus in `threads` parts (1 or 2), each part in its own thread. The reason to
 * decline is the first part's, else the next one's, as one pass in order would find it. Returns 0, or -1 when
 * memory runs out. sums: per hypothesis file, 4 + 2 * max_order totals; rows: NULL, or per hypothesis file
 * n_lines rows of as many, each segment's own (zeroed by the caller). */
static int b13_run(B13Corpus *whole, int threads, int64_t *sums, int64_t *rows) {
    const int parts = threads > 1 && whole->n_lines >= 2 ? 2 : 1;
    const int n_sums = 4 + 2 * whole->max_order;
    B13Part part[2];
    memset(part, 0, sizeof(part));
    int status = 0;
    for (int p = 0; p < parts; p++)
        if (b13_part_init(&part[p], whole, p, parts, rows) < 0) status = -1;
    if (status == 0) {
        pthread_t helper;
        int helping = parts > 1 && pthread_create(&helper, NULL, b13_part_run, &part[1]) == 0;
        b13_part_run(&part[0]);
        if (helping) pthread_join(helper, NULL);
        else if (parts > 1) b13_part_run(&part[1]);
        /* a file's bytes first (in file order, then in order within the file), as one pass would find them */
        for (int k = 0; !whole->reason && k < whole->n_src; k++)
            for (int p = 0; !whole->reason && p < parts; p++)
                if (part[p].bad[k]) whole->reason = part[p].bad[k] == 2 ? "nul" : "not-utf8";
        for (int p = 0; p < parts; p++) {
            if (part[p].status < 0) status = -1;
            if (!whole->reason) whole->reason = part[p].c.reason;
            whole->hyp_words |= part[p].c.hyp_words;
            for (int q = 0; q < whole->n_hyp * n_sums; q++) sums[q] += part[p].sums[q];
        }
        const uint64_t every = whole->n_hyp >= 64 ? ~0ULL : (1ULL << whole->n_hyp) - 1;
        if (!whole->reason && whole->hyp_words != every) whole->reason = "blank-hypotheses";
    }
    for (int p = 0; p < parts; p++) b13_part_free(&part[p]);
    return status;
}

/* Parse (hyps, refs, max_order, max_line_bytes, threads), check the arguments and count: the reason to
 * decline (or NULL) in *reason, the segments in c->n_lines, the totals of every hypothesis file in *sums and,
 * when want_rows, one row per hypothesis file and segment in *rows (both calloc'ed; the caller frees them).
 * Returns the corpus (the caller frees it), or NULL with a Python exception set. */
static B13Corpus *b13_call(PyObject *args, const char *name, int want_rows, int64_t **sums, int64_t **rows,
                           const char **reason) {
    PyObject *o_hyps, *o_refs;
    int max_order, threads;
    Py_ssize_t max_line;
    *reason = NULL, *rows = NULL, *sums = NULL;
    if (!PyArg_ParseTuple(args, "O!O!ini", &PyTuple_Type, &o_hyps, &PyTuple_Type, &o_refs, &max_order, &max_line,
                          &threads))
        return NULL;
    const Py_ssize_t n_hyp = PyTuple_GET_SIZE(o_hyps), n_refs = PyTuple_GET_SIZE(o_refs);
    if (n_hyp < 1 || n_refs < 1 || n_hyp + n_refs > B13_MAX_SOURCES || max_order < 1 ||
        max_order > B13_MAX_ORDER || max_line < 0) {
        PyErr_Format(PyExc_ValueError, "%s: at least one hypothesis and one reference file, %d files in all, "
                     "max_order 1 to %d", name, B13_MAX_SOURCES, B13_MAX_ORDER);
        return NULL;
    }
    B13Corpus *c = calloc(1, sizeof(B13Corpus));
    if (!c) return (B13Corpus *)PyErr_NoMemory();
    c->n_src = (int)(n_hyp + n_refs), c->n_hyp = (int)n_hyp;
    c->max_order = max_order, c->max_line_bytes = max_line;
    for (int k = 0; k < c->n_src; k++) {
        PyObject *o = k < n_hyp ? PyTuple_GET_ITEM(o_hyps, k) : PyTuple_GET_ITEM(o_refs, k - n_hyp);
        if (!PyBytes_Check(o)) {
            free(c);
            PyErr_Format(PyExc_TypeError, "%s: the files' contents must be bytes", name);
            return NULL;
        }
        c->buf[k] = (const uint8_t *)PyBytes_AS_STRING(o), c->size[k] = PyBytes_GET_SIZE(o);
    }
    int status = 0;
    const size_t n_sums = (size_t)(4 + 2 * max_order);
    pthread_once(&b13_tables_once, b13_init_tables);
    /* The bytes objects are immutable and referenced by the caller: safe to read without the GIL. */
    Py_BEGIN_ALLOW_THREADS;
    /* A byte-order mark or an empty file is found here; the files' bytes are checked by the parts, in their
     * threads (b13_run), unless a file before the first such file already fails the check here. */
    for (int k = 0; !*reason && k < c->n_src; k++) {
        int64_t n = c->size[k];
        if (n >= 3 && c->buf[k][0] == 0xEF && c->buf[k][1] == 0xBB && c->buf[k][2] == 0xBF) *reason = "bom";
        else if (n == 0) *reason = "empty";
        for (int j = 0; *reason && j < k; j++) {
            int bad = b13_check_bytes(c->buf[j], c->size[j]);
            if (bad) *reason = bad == 2 ? "nul" : "not-utf8";
            if (bad) break;
        }
        if (k == 0 && !*reason) c->n_lines = b13_count_lines(c->buf[0], n);
    }
    *sums = calloc((size_t)n_hyp * n_sums, sizeof(int64_t));
    if (!*sums) status = -1;
    if (status == 0 && !*reason && want_rows) {
        *rows = calloc((size_t)n_hyp * (size_t)MAX(c->n_lines, 1) * n_sums, sizeof(int64_t));
        if (!*rows) status = -1;
    }
    if (status == 0 && !*reason) {
        status = b13_run(c, threads, *sums, *rows);
        *reason = c->reason;
    }
    Py_END_ALLOW_THREADS;
    if (status < 0) {
        free(c), free(*rows), free(*sums);
        *rows = *sums = NULL;
        return (B13Corpus *)PyErr_NoMemory();
    }
    return c;
}

/* bleu13a_totals(hyps: tuple[bytes, ...], refs: tuple[bytes, ...], max_order, max_line_bytes, threads)
 *     -> (segments, ((hyp_len, closest, shortest, ref_sum, matches..., totals...) per hypothesis file)) | reason
 * The corpus statistics of hypothesis files against reference files (their bytes), tokenised with 13a; see
 * the top of this file. The reference files are tokenised once for every hypothesis file. `reason` (a str)
 * says why it declined ("bom", "not-utf8", "nul", "empty", "line-count", "long-line", "blank-reference",
 * "blank-hypotheses": some hypothesis file has no word at all). */
static PyObject *bleu13a_totals(PyObject *self, PyObject *args) {
    int64_t *sums, *rows;
    const char *reason;
    B13Corpus *c = b13_call(args, "bleu13a_totals", 0, &sums, &rows, &reason);
    if (!c) return NULL;
    PyObject *result = NULL;
    if (reason) result = PyUnicode_FromString(reason);
    else {
        const int n_sums = 4 + 2 * c->max_order;
        PyObject *all = PyTuple_New(c->n_hyp);
        for (int j = 0; all && j < c->n_hyp; j++) {
            PyObject *one = PyTuple_New(n_sums);
            if (!one) {
                Py_CLEAR(all);
                break;
            }
            for (int q = 0; q < n_sums; q++) PyTuple_SET_ITEM(one, q, PyLong_FromLongLong(sums[j * n_sums + q]));
            PyTuple_SET_ITEM(all, j, one);
        }
        if (all) result = Py_BuildValue("(LN)", (long long)c->n_lines, all);
    }
    free(sums), free(c);
    return result;
}

/* bleu13a_segments(hyps, refs, max_order, max_line_bytes, threads) -> (segments, rows: bytes) | reason (str)
 * As bleu13a_totals, but one row per hypothesis file and segment: rows[j][s] of 4 + 2 * max_order native int64
 * (hyp_len, closest, shortest, ref_sum, matches..., totals...), for numpy.frombuffer. */
static PyObject *bleu13a_segments(PyObject *self, PyObject *args) {
    int64_t *sums, *rows;
    const char *reason;
    B13Corpus *c = b13_call(args, "bleu13a_segments", 1, &sums, &rows, &reason);
    if (!c) return NULL;
    PyObject *result = NULL;
    if (reason) result = PyUnicode_FromString(reason);
    else {
        const Py_ssize_t n_bytes =
            (Py_ssize_t)c->n_hyp * c->n_lines * (4 + 2 * c->max_order) * (Py_ssize_t)sizeof(int64_t);
        result = Py_BuildValue("(Ly#)", (long long)c->n_lines, (const char *)rows, n_bytes);
    }
    free(rows), free(sums), free(c);
    return result;
}
