/* miss_class.c — cdat's miss taxonomy (miss_class.h). */
#include "miss_class.h"

#include "../base/diag.h"

#include <stdlib.h>

/* An open-addressing map from a nonzero 64-bit key to a 64-bit value
 * (linear probing, deletion by backward shift): memory follows the lines used. */
typedef struct u64map {
    uint64_t *key, *val;
    size_t cap, n;
} u64map;

static size_t slot_of(const u64map *h, uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (h->cap - 1);
}

static uint64_t *map_find(const u64map *h, uint64_t k)
{
    if (!h->cap) return NULL;
    for (size_t i = slot_of(h, k);; i = (i + 1) & (h->cap - 1)) {
        if (h->key[i] == k) return &h->val[i];
        if (!h->key[i]) return NULL;
    }
}

static uint64_t *map_put(u64map *h, uint64_t k)
{
    if (2 * (h->n + 1) > h->cap) {
        u64map g = { xcalloc(h->cap ? 2 * h->cap : 64, 8), xcalloc(h->cap ? 2 * h->cap : 64, 8),
                     h->cap ? 2 * h->cap : 64, 0 };
        for (size_t i = 0; i < h->cap; i++)
            if (h->key[i]) *map_put(&g, h->key[i]) = h->val[i];
        free(h->key);
        free(h->val);
        *h = g;
    }
    size_t i = slot_of(h, k);
    while (h->key[i] && h->key[i] != k) i = (i + 1) & (h->cap - 1);
    if (!h->key[i]) {
        h->key[i] = k;
        h->val[i] = 0;
        h->n++;
    }
    return &h->val[i];
}

static void map_del(u64map *h, uint64_t k)
{
    if (!h->cap) return;
    size_t m = h->cap - 1, i = slot_of(h, k);
    while (h->key[i] != k) {
        if (!h->key[i]) return;
        i = (i + 1) & m;
    }
    h->n--;
    for (size_t j = (i + 1) & m; h->key[j]; j = (j + 1) & m) {
        size_t home = slot_of(h, h->key[j]);
        /* Move j back to the hole i unless its home lies cyclically in (i, j]. */
        if (((j - home) & m) >= ((j - i) & m)) {
            h->key[i] = h->key[j];
            h->val[i] = h->val[j];
            i = j;
        }
    }
    h->key[i] = 0;
}

static void map_free(u64map *h)
{
    free(h->key);
    free(h->val);
}

struct miss_class {
    unsigned nprocs, word_shift;
    cache *shadow;          /* [p * 2 + s]; lines 0: no cache, no shadow */
    u64map seen;            /* key(p, s, line) */
    u64map pending;         /* key(p, s, line) → words written by others since the invalidation */
    u64map pending_lines;   /* line + 1 → pending entries of the line */
};

static uint64_t key(unsigned p, int s, uint32_t line)
{
    return (uint64_t)p << 34 | (uint64_t)s << 33 | (uint64_t)line << 1 | 1;
}

miss_class *mc_new(unsigned nprocs, const cache *dgeom, const cache *igeom, unsigned line_shift)
{
    miss_class *mc = xcalloc(1, sizeof *mc);
    mc->nprocs = nprocs;
    /* At most 64 words a line, of at least 4 bytes. */
    mc->word_shift = line_shift > 8 ? line_shift - 6 : 2;
    mc->shadow = xcalloc((size_t)nprocs * 2, sizeof *mc->shadow);
    const cache *g[2] = { dgeom, igeom };
    for (unsigned p = 0; p < nprocs; p++)
        for (int s = 0; s < 2; s++)
            if (g[s]->lines)
                cache_init(&mc->shadow[p * 2 + s], (uint64_t)g[s]->lines * g[s]->line_size, 0, g[s]->line_size);
    return mc;
}

void mc_free(miss_class *mc)
{
    if (!mc) return;
    for (unsigned i = 0; i < mc->nprocs * 2; i++) cache_free(&mc->shadow[i]);
    free(mc->shadow);
    map_free(&mc->seen);
    map_free(&mc->pending);
    map_free(&mc->pending_lines);
    free(mc);
}

uint64_t mc_words(const miss_class *mc, unsigned lo, unsigned hi)
{
    unsigned a = lo >> mc->word_shift, b = hi >> mc->word_shift;
    uint64_t upto = b >= 63 ? ~0ULL : (2ULL << b) - 1;
    return upto & ~((1ULL << a) - 1);
}

int mc_ref(miss_class *mc, unsigned p, int s, uint32_t line, uint64_t words, int missed)
{
    cache *sh = &mc->shadow[p * 2 + s];
    int in_shadow = 0;
    if (sh->lines) {
        in_shadow = cache_access(sh, line) != CS_INVALID;
        if (!in_shadow) cache_fill(sh, line, CS_SHARED, NULL, NULL);
    }
    if (!missed) return -1;
    uint64_t k = key(p, s, line);
    if (!map_find(&mc->seen, k)) {
        map_put(&mc->seen, k);
        return MC_COLD;
    }
    uint64_t *w = map_find(&mc->pending, k);
    if (w) {
        int cls = (*w & words) ? MC_TRUE : MC_FALSE;
        map_del(&mc->pending, k);
        uint64_t *n = map_find(&mc->pending_lines, (uint64_t)line + 1);
        if (n && --*n == 0) map_del(&mc->pending_lines, (uint64_t)line + 1);
        return cls;
    }
    return in_shadow ? MC_CONFLICT : MC_CAPACITY;
}

void mc_invalidated(miss_class *mc, unsigned p, int s, uint32_t line)
{
    uint64_t k = key(p, s, line);
    if (map_find(&mc->pending, k)) return;
    map_put(&mc->pending, k);
    (*map_put(&mc->pending_lines, (uint64_t)line + 1))++;
}

void mc_write(miss_class *mc, unsigned p, uint32_t line, uint64_t words)
{
    if (!map_find(&mc->pending_lines, (uint64_t)line + 1)) return;
    for (unsigned q = 0; q < mc->nprocs; q++) {
        if (q == p) continue;
        for (int s = 0; s < 2; s++) {
            uint64_t *w = map_find(&mc->pending, key(q, s, line));
            if (w) *w |= words;
        }
    }
}
