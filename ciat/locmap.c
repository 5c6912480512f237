/* locmap.c — radix table of blocks, touched bitmaps, location sharing. */
#include "locmap.h"
#include "../common/diag.h"

#include <stdlib.h>
#include <string.h>

enum { TOP_SHIFT = 22, TOP_ENTRIES = 1 << (32 - TOP_SHIFT) };

void locmap_init(locmap *m, uint32_t page_size, uint32_t grain, int nthreads)
{
    memset(m, 0, sizeof *m);
    m->block_size = page_size < 4096 ? page_size : 4096;
    m->block_shift = (uint32_t)__builtin_ctz(m->block_size);
    m->grain = grain;
    m->grain_shift = (uint32_t)__builtin_ctz(grain);
    m->mid_shift = m->block_shift;
    m->mid_mask = (1u << (TOP_SHIFT - m->block_shift)) - 1;
    m->dir = xcalloc(TOP_ENTRIES, sizeof *m->dir);
    m->nthreads = nthreads;
    m->cache = xcalloc((size_t)nthreads * LOCMAP_CACHE, sizeof *m->cache);
    for (size_t i = 0; i < (size_t)nthreads * LOCMAP_CACHE; i++) m->cache[i].tag = UINT32_MAX;
    size_t words = m->block_size / 64 ? m->block_size / 64 : 1;
    m->locs_offset = (uint32_t)(sizeof(block) + 2 * words * sizeof(uint64_t));
}

void locmap_free(locmap *m)
{
    for (uint32_t i = 0; i < TOP_ENTRIES; i++) {
        if (!m->dir[i]) continue;
        for (uint32_t j = 0; j <= m->mid_mask; j++) free(m->dir[i][j]);
        free(m->dir[i]);
    }
    free(m->dir);
    free(m->cache);
    free(m->spills);
    memset(m, 0, sizeof *m);
}

/* One allocation: header, two bitmaps, location records. */
static block *new_block(const locmap *m, uint32_t base)
{
    size_t words = m->block_size / 64 ? m->block_size / 64 : 1;
    size_t nlocs = m->block_size >> m->grain_shift;
    size_t bytes = sizeof(block) + 2 * words * sizeof(uint64_t) + nlocs * sizeof(loc);
    block *b = xcalloc(1, bytes);
    b->base = base;
    b->owner = LOC_NONE;
    b->accessor = LOC_NONE;
    b->touched_data = (uint64_t *)(b + 1);
    b->touched_code = b->touched_data + words;
    b->locs = (loc *)(b->touched_code + words);     /* = (char *)b + m->locs_offset */
    for (size_t i = 0; i < nlocs; i++) {
        b->locs[i].writer = LOC_NONE;
        b->locs[i].owner = LOC_NONE;
    }
    return b;
}

block *locmap_block_slow(locmap *m, uint32_t addr, int thread)
{
    block **mid = m->dir[addr >> TOP_SHIFT];
    if (!mid) mid = m->dir[addr >> TOP_SHIFT] = xcalloc((size_t)m->mid_mask + 1, sizeof *mid);
    block **slot = &mid[(addr >> m->mid_shift) & m->mid_mask];
    if (!*slot) {
        *slot = new_block(m, addr & ~(m->block_size - 1));
        m->nblocks++;
    }
    block *b = *slot;
    uint32_t n = addr >> m->block_shift;
    bool noted = b->owner == (uint16_t)thread || b->owner == LOC_SHARED;
    m->cache[(size_t)thread * LOCMAP_CACHE + (n & (LOCMAP_CACHE - 1))] = (block_ref){ n << 1 | noted, b };
    return b;
}

static void set_bits(uint64_t *bits, uint32_t from, uint32_t n)
{
    while (n) {
        uint32_t w = from >> 6, off = from & 63, k = 64 - off < n ? 64 - off : n;
        uint64_t mask = k == 64 ? ~0ull : ((1ull << k) - 1) << off;
        bits[w] |= mask;
        from += k;
        n -= k;
    }
}

void locmap_touch_span_slow(locmap *m, uint32_t addr, uint32_t len, bool code, int thread)
{
    uint64_t a = addr, end = (uint64_t)addr + len;
    if (end > 0x100000000ull) end = 0x100000000ull;     /* no wrap past the top */
    while (a < end) {
        block *b = locmap_block(m, (uint32_t)a, thread);
        uint32_t off = (uint32_t)a & (m->block_size - 1);
        uint64_t n = end - a < m->block_size - off ? end - a : m->block_size - off;
        set_bits(code ? b->touched_code : b->touched_data, off, (uint32_t)n);
        locmap_block_owner(b, thread);
        a += n;
    }
}

/* ---- overflow counts ---- */

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static spill *spill_find(const locmap *m, uint32_t key)
{
    if (!m->spill_cap) return NULL;
    for (uint32_t i = hash32(key) & (m->spill_cap - 1); ; i = (i + 1) & (m->spill_cap - 1)) {
        spill *s = &m->spills[i];
        if (s->key == key && (s->data || s->code)) return s;
        if (!s->data && !s->code) return NULL;
    }
}

static spill *spill_get(locmap *m, uint32_t key)
{
    spill *s = spill_find(m, key);
    if (s) return s;
    if (2 * (m->spill_used + 1) > m->spill_cap) {
        uint32_t old_cap = m->spill_cap;
        spill *old = m->spills;
        m->spill_cap = old_cap ? 2 * old_cap : 64;
        m->spills = xcalloc(m->spill_cap, sizeof *m->spills);
        m->spill_used = 0;
        for (uint32_t i = 0; i < old_cap; i++)
            if (old[i].data || old[i].code) *spill_get(m, old[i].key) = old[i];
        free(old);
    }
    uint32_t i = hash32(key) & (m->spill_cap - 1);
    while (m->spills[i].data || m->spills[i].code) i = (i + 1) & (m->spill_cap - 1);
    m->spills[i].key = key;
    m->spill_used++;
    return &m->spills[i];
}

void locmap_counts(const locmap *m, const loc *l, uint32_t addr, uint64_t *data, uint64_t *code)
{
    *data = *code = 0;
    if (l->owner == LOC_NONE) return;
    if (l->count == COUNT_SPILLED) {
        const spill *s = spill_find(m, addr >> m->grain_shift);
        if (s) {
            *data = s->data;
            *code = s->code;
        }
        return;
    }
    if (l->count & COUNT_CODE) *code = l->count & ~COUNT_CODE;
    else *data = l->count;
}

/* Move a location's counts to the overflow table, then add one. */
static void spill_count(locmap *m, loc *l, uint32_t addr, bool code)
{
    uint32_t key = addr >> m->grain_shift;
    if (l->count != COUNT_SPILLED) {
        uint64_t d, c;
        locmap_counts(m, l, addr, &d, &c);
        /* the new entry must be non-empty before it is inserted: count this access too */
        spill *s = spill_get(m, key);
        s->data = d + !code;
        s->code = c + code;
        l->count = COUNT_SPILLED;
        return;
    }
    spill *s = spill_get(m, key);
    if (code) s->code++;
    else s->data++;
}

/* The cases locmap_count_access does not handle inline: a first access, a
 * second thread, mixed kinds or a huge count. */
void locmap_count_slow(locmap *m, block *b, loc *l, uint32_t addr, bool code, int thread)
{
    locmap_note(&b->accessor, thread);  /* a new accessor of a location of b */
    if (l->owner == LOC_NONE) {
        l->owner = (uint16_t)thread;
        l->count = code ? COUNT_CODE | 1 : 1;
        return;
    }
    if (l->owner != (uint16_t)thread) l->owner = LOC_SHARED;
    uint32_t c = l->count;
    if (c != COUNT_SPILLED && ((c & COUNT_CODE) != 0) == code && (c & ~COUNT_CODE) < COUNT_MAX)
        l->count = c + 1;
    else
        spill_count(m, l, addr, code);
}

void locmap_count_add(locmap *m, loc *l, uint32_t addr, bool code, uint32_t n)
{
    uint32_t c = l->count;
    if (c != COUNT_SPILLED && ((c & COUNT_CODE) != 0) == code && (uint64_t)(c & ~COUNT_CODE) + n <= COUNT_MAX) {
        l->count = c + n;
        return;
    }
    uint32_t key = addr >> m->grain_shift;
    if (c != COUNT_SPILLED) {
        uint64_t d, k;
        locmap_counts(m, l, addr, &d, &k);
        spill *s = spill_get(m, key);
        s->data = d + (code ? 0 : n);
        s->code = k + (code ? n : 0);
        l->count = COUNT_SPILLED;
        return;
    }
    spill *s = spill_get(m, key);
    if (code) s->code += n;
    else s->data += n;
}

void locmap_each(const locmap *m, void (*fn)(void *ctx, const block *b), void *ctx)
{
    for (uint32_t i = 0; i < TOP_ENTRIES; i++) {
        if (!m->dir[i]) continue;
        for (uint32_t j = 0; j <= m->mid_mask; j++)
            if (m->dir[i][j]) fn(ctx, m->dir[i][j]);
    }
}
